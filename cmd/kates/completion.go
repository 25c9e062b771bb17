package main

import (
	"context"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kates-dev/kates/kates"
)

// Shell completion from the cluster, as kubectl's: kinds, names, namespaces and contexts.
// Cobra's default "completion" command writes the scripts (kates completion bash|zsh|fish|
// powershell); the scripts call the hidden "__complete" command, which runs the functions
// here with the flags given so far (--kubeconfig, --context, -n). A cluster that does not
// answer completes nothing rather than erring.

// completionTimeout bounds the requests of one completion: a shell waits on it.
const completionTimeout = 5 * time.Second

// completeObjects completes TYPE/NAME and TYPE NAME... arguments: resource types first, then
// the names of objects of the type given.
func completeObjects(o *options) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		c, err := o.client()
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveError
		}
		ctx, cancel := context.WithTimeout(context.Background(), completionTimeout)
		defer cancel()
		if kind, prefix, ok := strings.Cut(toComplete, "/"); ok && (len(args) == 0 || strings.Contains(args[0], "/")) {
			var out []cobra.Completion
			for _, name := range objectNames(ctx, o, c, kind) {
				if strings.HasPrefix(name, prefix) {
					out = append(out, kind+"/"+name)
				}
			}
			return out, cobra.ShellCompDirectiveNoFileComp
		}
		if len(args) == 0 {
			return resourceTypes(c, toComplete), cobra.ShellCompDirectiveNoFileComp
		}
		if strings.Contains(args[0], "/") {
			return nil, cobra.ShellCompDirectiveNoFileComp // TYPE/NAME... takes TYPE/NAME only
		}
		var out []cobra.Completion
		for _, name := range objectNames(ctx, o, c, args[0]) {
			if strings.HasPrefix(name, toComplete) && !containsString(args[1:], name) {
				out = append(out, name)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// resourceTypes lists the resources the server serves that can be listed, as kubectl writes
// them: "deployments.apps", "pods" for the core group.
func resourceTypes(c *kates.Client, prefix string) []cobra.Completion {
	lists, _ := c.ServerPreferredResources() // a partial answer still completes what it has
	seen := map[string]bool{}
	var out []cobra.Completion
	for _, l := range lists {
		gv, err := schema.ParseGroupVersion(l.GroupVersion)
		if err != nil {
			continue
		}
		for _, r := range l.APIResources {
			if strings.Contains(r.Name, "/") || !containsString(r.Verbs, "list") {
				continue // a subresource, or a kind that cannot be listed
			}
			name := r.Name
			if gv.Group != "" {
				name += "." + gv.Group
			}
			if !seen[name] && strings.HasPrefix(name, prefix) {
				seen[name] = true
				out = append(out, name)
			}
		}
	}
	sort.Strings(out)
	return out
}

// objectNames lists the names of the objects of kind in the namespace of -n (or the
// kubeconfig's), or nothing if kind is unknown or the cluster does not answer.
func objectNames(ctx context.Context, o *options, c *kates.Client, kind string) []string {
	m, err := c.Mapping(kind)
	if err != nil {
		return nil
	}
	ri := c.DynamicInterface().Resource(m.Resource)
	opts := metav1.ListOptions{Limit: 500}
	var names []string
	if m.Scope.Name() == meta.RESTScopeNameNamespace {
		ns := c.Namespace()
		if o.config.Namespace != nil && *o.config.Namespace != "" {
			ns = *o.config.Namespace
		}
		l, err := ri.Namespace(ns).List(ctx, opts)
		if err != nil {
			return nil
		}
		for _, item := range l.Items {
			names = append(names, item.GetName())
		}
	} else {
		l, err := ri.List(ctx, opts)
		if err != nil {
			return nil
		}
		for _, item := range l.Items {
			names = append(names, item.GetName())
		}
	}
	sort.Strings(names)
	return names
}

// completeNamespaces completes -n from the cluster's namespaces.
func completeNamespaces(o *options) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		c, err := o.client()
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveError
		}
		ctx, cancel := context.WithTimeout(context.Background(), completionTimeout)
		defer cancel()
		var out []cobra.Completion
		for _, name := range objectNames(ctx, o, c, "namespaces") {
			if strings.HasPrefix(name, toComplete) {
				out = append(out, name)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// completeContexts completes --context from the kubeconfig's contexts; no cluster is asked.
func completeContexts(o *options) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		raw, err := o.config.ToRawKubeConfigLoader().RawConfig()
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveError
		}
		var out []cobra.Completion
		for name := range raw.Contexts {
			if strings.HasPrefix(name, toComplete) {
				out = append(out, name)
			}
		}
		sort.Strings(out)
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// addCompletions registers the completions of root's commands and flags.
func addCompletions(root *cobra.Command, o *options) {
	_ = root.RegisterFlagCompletionFunc("namespace", completeNamespaces(o))
	_ = root.RegisterFlagCompletionFunc("context", completeContexts(o))
	fixed := func(values ...string) cobra.CompletionFunc {
		return cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp)
	}
	for _, cmd := range root.Commands() {
		switch cmd.Name() {
		case "wait", "status", "watch":
			cmd.ValidArgsFunction = completeObjects(o)
		}
		if cmd.Flags().Lookup("for") != nil {
			_ = cmd.RegisterFlagCompletionFunc("for", fixed("current", "deleted", "create", "condition=", "jsonpath="))
		}
		if cmd.Flags().Lookup("dry-run") != nil {
			_ = cmd.RegisterFlagCompletionFunc("dry-run", fixed("none", "server"))
		}
		if f := cmd.Flags().Lookup("output"); f != nil {
			var formats []string
			switch cmd.Name() {
			case "apply":
				formats = []string{"name", "jsonpath=", "jsonpath-file="}
			case "status":
				formats = []string{"table", "wide", "json", "yaml", "name", "jsonpath=", "jsonpath-file="}
			case "watch":
				formats = []string{"json", "name", "jsonpath=", "jsonpath-file="}
			case "wait":
				formats = []string{"name", "jsonpath=", "jsonpath-file="}
			case "version":
				formats = []string{"json"}
			}
			_ = cmd.RegisterFlagCompletionFunc("output", fixed(formats...))
		}
		if cmd.Flags().Lookup("filename") != nil {
			_ = cmd.MarkFlagFilename("filename", "yaml", "yml", "json")
		}
	}
}

func containsString(list []string, s string) bool { return slices.Contains(list, s) }
