package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/kstatus"
)

// withTimeout bounds ctx by timeout; 0 means no bound.
func withTimeout(ctx context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
	if timeout <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, timeout)
}

// parseFor reads --for as kubectl wait takes it: current, deleted, create,
// condition=TYPE[=STATUS] or jsonpath={.path}[=VALUE].
func parseFor(s string) (kates.WaitOptions, error) {
	const want = "want current, deleted, create, condition=TYPE[=STATUS] or jsonpath={.path}[=VALUE]"
	if cond, ok := strings.CutPrefix(s, "condition="); ok {
		opts := kates.WaitOptions{For: kstatus.CurrentStatus, Condition: cond}
		if err := opts.Validate(); cond == "" || err != nil { // an empty Condition would mean none
			return kates.WaitOptions{}, usageErrorf("--for %q: want condition=TYPE or condition=TYPE=STATUS", s)
		}
		return opts, nil
	}
	if path, ok := strings.CutPrefix(s, "jsonpath="); ok {
		opts := kates.WaitOptions{For: kstatus.CurrentStatus, JSONPath: path}
		if path == "" {
			return kates.WaitOptions{}, usageErrorf("--for %q: want jsonpath={.path} or jsonpath={.path}=VALUE", s)
		}
		if err := opts.Validate(); err != nil {
			return kates.WaitOptions{}, usageErrorf("--for %q: %v", s, strings.TrimPrefix(err.Error(), "kates: wait: "))
		}
		return opts, nil
	}
	switch strings.ToLower(s) {
	case "current", "":
		return kates.WaitOptions{For: kstatus.CurrentStatus}, nil
	case "deleted", "delete", "notfound":
		return kates.WaitOptions{For: kstatus.NotFoundStatus}, nil
	case "create", "created", "exists":
		return kates.WaitOptions{For: kstatus.CurrentStatus, Exists: true}, nil
	}
	return kates.WaitOptions{}, usageErrorf("--for %q: %s", s, want)
}

// runWait waits for objects, showing progress, and ends with a summary line. A wait that does
// not succeed is exit code 1, its error listing each object that failed or did not finish.
func runWait(ctx context.Context, o *options, c *kates.Client, objects []any, opts kates.WaitOptions, allNamespaces bool) error {
	return runWaitPrinting(ctx, o, c, objects, opts, allNamespaces, nil)
}

// runWaitPrinting is runWait that, with jp (wait -o jsonpath=...), shows neither progress nor
// summary and, once every object is done, prints each object's status through jp, as kubectl
// wait -o jsonpath prints the objects it waited for. A wait that does not succeed is the same
// error as runWait's.
func runWaitPrinting(ctx context.Context, o *options, c *kates.Client, objects []any, opts kates.WaitOptions, allNamespaces bool, jp *kates.JSONPath) error {
	start := time.Now()
	desired := opts.For
	if jp != nil {
		quiet := *o
		quiet.out = io.Discard
		var rs []kates.ObjectStatus
		opts.Progress = func(last []kates.ObjectStatus) { rs = last }
		err := runWaitPrinting(ctx, &quiet, c, objects, opts, allNamespaces, nil)
		if err != nil {
			return err
		}
		for _, r := range rs {
			if err := printJSONPath(o.out, jp, r); err != nil {
				return err
			}
		}
		return nil
	}
	p := newProgressPrinter(o.out, desired, start, allNamespaces)
	var last []kates.ObjectStatus
	also := opts.Progress
	opts.Progress = func(rs []kates.ObjectStatus) {
		last = rs
		p.update(rs)
		if also != nil {
			also(rs)
		}
	}
	err := c.Wait(ctx, objects, opts)
	p.finish()
	took := time.Since(start).Round(time.Millisecond)
	var werr *kates.WaitError
	switch {
	case err == nil:
		fmt.Fprintf(o.out, "%s after %s\n", progressCount(last, desired), took)
		return nil
	case errors.As(err, &werr):
		how, list := "timed out", werr.Unfinished()
		switch {
		case kates.IsWaitFailed(err):
			how, list = "failed", werr.Failed()
		case errors.Is(err, context.Canceled):
			how = "interrupted"
		}
		fmt.Fprintf(o.out, "%s; %s after %s\n", progressCount(werr.Results, desired), how, took)
		var b strings.Builder
		fmt.Fprintf(&b, "wait %s: %d of %d objects", how, len(list), len(werr.Results))
		switch {
		case how == "failed":
			b.WriteString(" failed")
		case opts.Condition != "":
			fmt.Fprintf(&b, " without condition %s", opts.Condition)
		default:
			fmt.Fprintf(&b, " not %s", statusWord(desired))
		}
		for _, r := range list {
			fmt.Fprintf(&b, "\n  %s", displayName(r))
			if multipleNamespaces(werr.Results) && r.Namespace != "" {
				fmt.Fprintf(&b, " -n %s", r.Namespace)
			}
			fmt.Fprintf(&b, ": %s: %s", r.Status, r.Message)
		}
		return &exitError{code: exitFailed, err: errors.New(b.String())}
	}
	return failure(err)
}

func newApplyCommand(o *options) *cobra.Command {
	var (
		in           inputFlags
		wait         bool
		skipLB       bool
		timeout      time.Duration
		fieldManager string
		force        bool
		dryRun       string
		output       string
		serverSide   bool
		rules        ruleFlags
		validate     bool
		showDiff     bool
		prune        bool
		applyset     string
		tooling      string
	)
	cmd := &cobra.Command{
		Use:   "apply -f FILE|DIR|- | -k DIR [--wait] [--prune --applyset NAME]",
		Short: "Apply manifests with server-side apply, then optionally wait until they are reconciled",
		Long: `Apply every object of the manifests with server-side apply: CustomResourceDefinitions first,
then Namespaces, then the rest in file order, waiting for each CRD's kind to be served before
applying its custom resources. Every kind, and every object against the cluster's schemas (see
'kates validate'; --validate=false skips this), is checked before anything is applied.

With --wait, then wait until every object is Current, as 'kates wait' does. An object's
annotation kates.dev/wait changes that for the object: "false" does not wait for it at all,
"exists" waits only until it exists; "true" (or no annotation) waits until it is Current.

With --prune --applyset [RESOURCE[.GROUP]/]NAME, the objects are applied as an ApplySet
(KEP-3659, as kubectl apply --prune --applyset): the parent object (a Secret by default, or
a ConfigMap, or a custom resource whose CRD is labelled applyset.kubernetes.io/is-parent-type)
records the set, each object gets the label applyset.kubernetes.io/part-of, and the objects of
the set that earlier applies made and these manifests no longer hold are deleted. Only objects
that carry the set's label are ever deleted. With --wait, pruned objects are waited for until
they are gone; with --dry-run=server, what would be pruned is listed and nothing is deleted.

With --diff, show what the apply will change first, as 'kates diff' does.`,
		Example: `  kates apply -f deploy/ --wait --timeout 2m
  kates apply -k overlays/prod --wait
  kates apply -f deploy/ --prune --applyset web --wait
  kates apply -f deploy/ --dry-run=server -o name
  kates apply -f deploy/ -o jsonpath='{.metadata.uid}{"\n"}'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !in.hasInput() {
				return usageErrorf("apply needs -f FILE|DIR|- or -k DIR")
			}
			switch dryRun {
			case "none", "server":
			case "client":
				return usageErrorf("--dry-run=client: kates applies server-side, where only --dry-run=server can be asked for")
			default:
				return usageErrorf("--dry-run %q: want none or server", dryRun)
			}
			if dryRun == "server" && wait {
				return usageErrorf("--dry-run=server with --wait: nothing is applied, so there is nothing to wait for")
			}
			jp, isJSONPath, err := jsonPathOutput(output)
			if err != nil {
				return err
			}
			if output != "" && output != "name" && !isJSONPath {
				return usageErrorf("-o %q: want name, jsonpath=TEMPLATE or jsonpath-file=FILE (or no -o)", output)
			}
			if !serverSide {
				return usageErrorf("--server-side=false: kates always applies server-side")
			}
			switch {
			case prune && applyset == "":
				return usageErrorf("--prune needs --applyset [RESOURCE[.GROUP]/]NAME: kates prunes only objects an ApplySet tracks")
			case applyset != "" && !prune:
				return usageErrorf("--applyset needs --prune (as in kubectl)")
			}
			if err := rules.load(); err != nil {
				return err
			}
			ms, c, err := readChecked(o, &in)
			if err != nil {
				return err
			}
			waitFor, err := waitAnnotations(ms)
			if err != nil {
				return err
			}
			if err := rules.checkSchemas(ms); err != nil {
				return err
			}
			if validate {
				if _, err := validateManifests(cmd.Context(), c, ms, true); err != nil {
					return err
				}
			}
			ctx, cancel := withTimeout(cmd.Context(), timeout)
			defer cancel()
			ordered := applyOrder(ms)
			// The objects as written, not their typed conversion: nothing the author wrote is
			// dropped on the way, so the server's strict validation sees a misspelled field.
			objs := make([]*kates.Unstructured, len(ordered))
			for i, m := range ordered {
				objs[i] = m.raw.DeepCopy()
			}
			var set *kates.ApplySet
			if prune {
				set, err = c.ApplySet(ctx, kates.ApplySetOptions{Parent: applyset, Tooling: tooling, DryRun: dryRun == "server"})
				if err != nil {
					return applySetError(err)
				}
			}
			if showDiff {
				// What will be sent: with the set's label, when there is a set.
				shown := slices.Clone(ordered)
				for i := range shown {
					shown[i].raw = objs[i]
					if set != nil {
						labels := objs[i].GetLabels()
						if labels == nil {
							labels = map[string]string{}
						}
						if _, taken := labels[kates.ApplySetPartOfLabel]; !taken {
							labels[kates.ApplySetPartOfLabel] = set.ID()
							objs[i].SetLabels(labels)
						}
					}
				}
				if err := runDiff(ctx, o, c, shown, fieldManager); err != nil && !isDiffFound(err) {
					return err
				}
			}
			if set != nil {
				// Before anything is applied: the parent records the set's kinds and
				// namespaces old and new, and each object carries the set's label.
				if err := set.Prepare(ctx, objs); err != nil {
					return applySetError(err)
				}
			}
			opts := []kates.ApplyOption{kates.FieldManager(fieldManager)}
			if force {
				opts = append(opts, kates.ForceOwnership())
			}
			done, gone := "applied", "pruned"
			if dryRun == "server" {
				opts = append(opts, kates.DryRun())
				done, gone = "applied (server dry run)", "pruned (server dry run)"
			}
			kinds := crdKinds(ms)
			served := map[string]bool{}
			var applied, current, exists []any
			for i, m := range ordered {
				if kind, ok := kinds[m.obj.GetObjectKind().GroupVersionKind().GroupKind()]; ok && !served[kind] {
					if _, err := c.Mapping(kind); dryRun == "server" && kates.IsUnknownKind(err) {
						// Its CRD was only dry-run: the kind will not be served.
						fmt.Fprintf(o.out, "%s: %s skipped: its CustomResourceDefinition is not created in a dry run\n", m.source, describeManifest(m))
						continue
					}
					if err := c.WaitFor(ctx, kind); err != nil {
						return failure(fmt.Errorf("%s: %s: %w", m.source, describeManifest(m), err))
					}
					served[kind] = true
				}
				out := &kates.Unstructured{}
				if err := c.Apply(ctx, objs[i], out, opts...); err != nil {
					return failure(fmt.Errorf("%s: document %d: %w", m.source, m.document, err))
				}
				if set != nil {
					set.Applied(out)
				}
				gvk := out.GroupVersionKind()
				name := displayName(kates.ObjectStatus{Group: gvk.Group, Kind: gvk.Kind, Name: out.GetName()})
				switch {
				case jp != nil:
					if err := printJSONPath(o.out, jp, out); err != nil {
						return err
					}
				case output == "name":
					fmt.Fprintln(o.out, name)
				default:
					fmt.Fprintf(o.out, "%s %s\n", name, done)
				}
				applied = append(applied, out)
				switch waitFor[m.raw] {
				case waitNone:
				case waitExists:
					exists = append(exists, out)
				default:
					current = append(current, out)
				}
			}
			var pruned []kates.PrunedObject
			if set != nil {
				pruned, err = set.Prune(ctx)
				for _, p := range pruned {
					name := displayName(kates.ObjectStatus{Group: p.Group, Kind: p.Kind, Name: p.Name})
					switch {
					case jp != nil:
					case output == "name":
						fmt.Fprintln(o.out, name)
					case p.Namespace != "" && p.Namespace != c.Namespace():
						fmt.Fprintf(o.out, "%s -n %s %s\n", name, p.Namespace, gone)
					default:
						fmt.Fprintf(o.out, "%s %s\n", name, gone)
					}
				}
				if err != nil {
					return applySetError(err)
				}
			}
			if !wait {
				return nil
			}
			return waitAfterApply(ctx, o, c, current, exists, len(applied)-len(current)-len(exists), pruned, rules.wait(kates.WaitOptions{For: kstatus.CurrentStatus, SkipLoadBalancers: skipLB}))
		},
	}
	in.addFileFlags(cmd, "manifests to apply")
	in.addKustomizeFlag(cmd)
	cmd.Flags().BoolVar(&wait, "wait", false, "wait until every object applied is Current (see the kates.dev/wait annotation above) and every object pruned is gone")
	cmd.Flags().BoolVar(&skipLB, "skip-load-balancers", false, "with --wait, do not wait for LoadBalancer Services to get an address (clusters without a load-balancer controller never assign one)")
	cmd.Flags().DurationVar(&timeout, "timeout", 5*time.Minute, "give up applying and waiting after this long (0: never)")
	cmd.Flags().StringVar(&fieldManager, "field-manager", kates.DefaultFieldManager, "the field manager that owns the fields applied")
	cmd.Flags().BoolVar(&force, "force-conflicts", false, "take fields another field manager owns instead of failing")
	cmd.Flags().StringVar(&dryRun, "dry-run", "none", `"server": the server validates, defaults and admits every object without persisting it`)
	cmd.Flags().Lookup("dry-run").NoOptDefVal = "server"
	cmd.Flags().StringVarP(&output, "output", "o", "", `"name": print each object applied as TYPE/NAME only; jsonpath=TEMPLATE or jsonpath-file=FILE: print each object the server answered through the template (as kubectl)`)
	cmd.Flags().BoolVar(&serverSide, "server-side", true, "accepted for kubectl's command lines: kates always applies server-side")
	rules.addFlags(cmd)
	cmd.Flags().BoolVar(&validate, "validate", true, "check every object against the cluster's schemas before applying any (as 'kates validate'); false to leave it to the server")
	cmd.Flags().BoolVar(&showDiff, "diff", false, "first show what the apply will change, as 'kates diff' does")
	cmd.Flags().BoolVar(&prune, "prune", false, "delete the objects of the ApplySet (--applyset) that the manifests no longer hold")
	cmd.Flags().StringVar(&applyset, "applyset", "", "[RESOURCE[.GROUP]/]NAME: the parent object of the ApplySet to apply and prune (a Secret NAME by default; namespace -n), as kubectl's")
	cmd.Flags().StringVar(&tooling, "applyset-tooling", kates.DefaultApplySetTooling(), `the parent's applyset.kubernetes.io/tooling, NAME/VERSION; kates refuses a set of another tool name, as kubectl does, so "kubectl/v1.34.0" shares a set with kubectl`)
	return cmd
}

// applySetError is an ApplySet's refusal (a parent of another tool, a member of another set)
// as the usage error it is, or any other error as a failure.
func applySetError(err error) error {
	var status interface{ Status() metav1.Status }
	if errors.As(err, &status) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return failure(err)
	}
	return &exitError{code: exitUsage, err: err}
}

// waitAfterApply waits, after an apply, for current to be Current (or what opts say instead),
// for exists to exist, and for pruned to be gone. skipped objects (kates.dev/wait: "false")
// are only counted in a line.
func waitAfterApply(ctx context.Context, o *options, c *kates.Client, current, exists []any, skipped int, pruned []kates.PrunedObject, opts kates.WaitOptions) error {
	if skipped > 0 {
		fmt.Fprintf(o.out, "not waiting for %d object(s) annotated %s: \"false\"\n", skipped, waitAnnotation)
	}
	if len(exists) > 0 {
		if err := runWait(ctx, o, c, exists, kates.WaitOptions{For: kstatus.CurrentStatus, Exists: true}, false); err != nil {
			return err
		}
	}
	if len(current) > 0 || len(exists)+len(pruned)+skipped == 0 {
		if err := runWait(ctx, o, c, current, opts, false); err != nil {
			return err
		}
	}
	if len(pruned) > 0 {
		refs := make([]any, len(pruned))
		for i, p := range pruned {
			refs[i] = kates.ObjectRef{Kind: p.Kind, APIVersion: schema.GroupVersion{Group: p.Group, Version: p.Version}.String(), Namespace: p.Namespace, Name: p.Name, UID: p.UID}
		}
		return runWait(ctx, o, c, refs, kates.WaitOptions{For: kstatus.NotFoundStatus}, false)
	}
	return nil
}

// waitAnnotation is the annotation by which a manifest says how apply --wait waits for it.
const waitAnnotation = "kates.dev/wait"

// waitMode is what the kates.dev/wait annotation asks.
type waitMode int

const (
	waitCurrent waitMode = iota // "true", or no annotation
	waitExists                  // "exists": until it exists
	waitNone                    // "false": not at all
)

// waitAnnotations reads the kates.dev/wait annotation of every manifest; a value it does not
// know is a usage error naming the file and document, before anything is applied.
func waitAnnotations(ms []manifest) (map[*kates.Unstructured]waitMode, error) {
	out := map[*kates.Unstructured]waitMode{}
	for _, m := range ms {
		v, ok := m.raw.GetAnnotations()[waitAnnotation]
		if !ok {
			continue
		}
		switch strings.ToLower(v) {
		case "true", "current":
			out[m.raw] = waitCurrent
		case "exists", "created":
			out[m.raw] = waitExists
		case "false", "none":
			out[m.raw] = waitNone
		default:
			return nil, usageErrorf("%s: document %d (%s): annotation %s: %q: want \"true\", \"exists\" or \"false\"", m.source, m.document, describeManifest(m), waitAnnotation, v)
		}
	}
	return out, nil
}

// applyOrder puts CustomResourceDefinitions first and Namespaces second, so what the rest needs
// exists before it; otherwise the files' order is kept.
func applyOrder(ms []manifest) []manifest {
	rank := func(m manifest) int {
		gvk := m.obj.GetObjectKind().GroupVersionKind()
		switch {
		case isCRD(m.obj):
			return 0
		case gvk.Group == "" && gvk.Kind == "Namespace":
			return 1
		}
		return 2
	}
	out := slices.Clone(ms)
	slices.SortStableFunc(out, func(a, b manifest) int { return rank(a) - rank(b) })
	return out
}

func newWaitCommand(o *options) *cobra.Command {
	var (
		in         inputFlags
		forStatus  string
		timeout    time.Duration
		noFailFast bool
		skipLB     bool
		rules      ruleFlags
		output     string
	)
	cmd := &cobra.Command{
		Use:   "wait -f FILE|DIR|- | TYPE/NAME... | TYPE [NAME...]",
		Short: "Wait until objects are Current (or deleted), saying what blocks them",
		Long: `Wait until every object is Current, or with --for deleted until every object is gone
(finalizers included). Waiting is driven by watches; each object's status comes with what blocks
it, such as the Pod of a Deployment that cannot be scheduled. An object that becomes Failed ends the
wait at once (exit code 1) unless --no-fail-fast; so does the timeout, listing every object not
done. --for condition=TYPE[=STATUS] waits, as kubectl wait does, for a status condition instead
of Current (a condition of an older generation does not count); --for jsonpath='{.status.phase}'=Running
waits until the expression gives that value (or, with no value, any value), and --for create until
the objects exist. Objects of a kind that a CustomResourceDefinition in the same files defines are waited for
once the kind is served.`,
		Example: `  kates wait -f deploy/
  kates wait deploy/web sts/db --timeout 2m
  kates wait deploy -l app=web
  kates wait -f deploy/ --for deleted
  kates wait deploy/web --for condition=Available
  kates wait pod/web-0 --for jsonpath='{.status.phase}'=Running
  kates wait svc/edge --for create
  kates wait -f app/ --skip-load-balancers   # a cluster without a load-balancer controller`,
		RunE: func(cmd *cobra.Command, args []string) error {
			waitOpts, err := parseFor(forStatus)
			if err != nil {
				return err
			}
			jp, isJSONPath, err := jsonPathOutput(output)
			if err != nil {
				return err
			}
			if output != "" && output != "name" && !isJSONPath {
				return usageErrorf("-o %q: want name, jsonpath=TEMPLATE or jsonpath-file=FILE (or no -o)", output)
			}
			waitOpts.NoFailFast = noFailFast
			waitOpts.SkipLoadBalancers = skipLB
			if err := rules.load(); err != nil {
				return err
			}
			waitOpts = rules.wait(waitOpts)
			c, err := o.client()
			if err != nil {
				return err
			}
			objects, err := objectsFor(o, c, &in, args)
			if err != nil {
				return err
			}
			ctx, cancel := withTimeout(cmd.Context(), timeout)
			defer cancel()
			if output == "name" {
				// As -o jsonpath: no progress; once every object is done, each one's name.
				quiet := *o
				quiet.out = io.Discard
				var rs []kates.ObjectStatus
				waitOpts.Progress = func(last []kates.ObjectStatus) { rs = last }
				if err := runWaitPrinting(ctx, &quiet, c, objects, waitOpts, in.allNamespaces, nil); err != nil {
					return err
				}
				for _, r := range rs {
					if err := printName(o.out, r); err != nil {
						return failure(err)
					}
				}
				return nil
			}
			return runWaitPrinting(ctx, o, c, objects, waitOpts, in.allNamespaces, jp)
		},
	}
	in.addFileFlags(cmd, "manifests of the objects to wait for")
	in.addSelectorFlags(cmd)
	cmd.Flags().StringVar(&forStatus, "for", "current", "what to wait for: current, deleted, create, condition=TYPE[=STATUS] or jsonpath={.path}[=VALUE] (as kubectl wait)")
	cmd.Flags().DurationVar(&timeout, "timeout", 5*time.Minute, "give up after this long (0: never)")
	cmd.Flags().BoolVar(&noFailFast, "no-fail-fast", false, "keep waiting when an object is Failed")
	cmd.Flags().StringVarP(&output, "output", "o", "", "name or jsonpath=TEMPLATE or jsonpath-file=FILE: no progress; once every object is done, each object's name (as kubectl get -o name), or its status (the fields of status -o json) through the template, as kubectl wait -o jsonpath")
	cmd.Flags().BoolVar(&skipLB, "skip-load-balancers", false, "do not wait for LoadBalancer Services to get an address (clusters without a load-balancer controller never assign one)")
	rules.addFlags(cmd)
	return cmd
}

func newStatusCommand(o *options) *cobra.Command {
	var (
		in      inputFlags
		output  string
		rules   ruleFlags
		explain bool
	)
	cmd := &cobra.Command{
		Use:   "status -f FILE|DIR|- | TYPE[/NAME]...",
		Short: "Show the computed status of objects once, with what blocks them",
		Long: `Show each object's computed status (Current, InProgress, Failed, Terminating, NotFound,
Unknown) with a message naming what blocks it, judged as 'kates wait' judges. Exit code 0 when
every object is Current, 1 otherwise.`,
		Example: `  kates status -f deploy/
  kates status deploy -A -o json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			jp, isJSONPath, err := jsonPathOutput(output)
			if err != nil {
				return err
			}
			switch output {
			case "table", "wide", "json", "yaml", "name":
			default:
				if !isJSONPath {
					return usageErrorf("-o %q: want table, wide, json, yaml, name, jsonpath=TEMPLATE or jsonpath-file=FILE", output)
				}
			}
			if err := rules.load(); err != nil {
				return err
			}
			c, err := o.client()
			if err != nil {
				return err
			}
			objects, err := objectsFor(o, c, &in, args)
			if err != nil {
				return err
			}
			sopts := rules.status()
			sopts.Explain = explain
			rs, err := c.StatusWith(cmd.Context(), objects, sopts)
			if err != nil {
				return failure(err)
			}
			if rs == nil {
				rs = []kates.ObjectStatus{}
			}
			switch output {
			case "json", "yaml", "table", "wide":
			case "name": // as kubectl get -o name: what does not exist is an error, not a name
				for _, r := range rs {
					if r.Status == kstatus.NotFoundStatus {
						fmt.Fprintf(o.errOut, "%s: not found\n", displayName(r))
						continue
					}
					if err := printName(o.out, r); err != nil {
						return failure(err)
					}
				}
			default: // jsonpath: each object in turn, as kubectl apply's
				for _, r := range rs {
					if err := printJSONPath(o.out, jp, r); err != nil {
						return err
					}
				}
			}
			switch output {
			case "json":
				data, err := json.MarshalIndent(rs, "", "  ")
				if err != nil {
					return failure(err)
				}
				fmt.Fprintf(o.out, "%s\n", data)
			case "yaml":
				data, err := yaml.Marshal(rs)
				if err != nil {
					return failure(err)
				}
				o.out.Write(data)
			case "table", "wide":
				if len(rs) == 0 {
					// As kubectl says it: an empty table would read as a failure to answer.
					fmt.Fprintln(o.errOut, "No resources found")
					break
				}
				if output == "wide" {
					writeWideTable(o.out, rs, time.Now(), in.allNamespaces)
					break
				}
				writeTable(o.out, rs, time.Now(), in.allNamespaces)
			}
			if explain && (output == "table" || output == "wide") {
				writeExplanations(o.out, rs)
			}
			for _, r := range rs {
				if r.Status != kstatus.CurrentStatus {
					return &exitError{code: exitFailed, err: errSilent}
				}
			}
			return nil
		},
	}
	in.addFileFlags(cmd, "manifests of the objects to show")
	in.addSelectorFlags(cmd)
	cmd.Flags().StringVarP(&output, "output", "o", "table", "output format: table, wide (with the rule that judged each object), json, yaml, name (TYPE/NAME of each object that exists, as kubectl get -o name), or jsonpath=TEMPLATE / jsonpath-file=FILE (applied to each object's status, whose fields are those of -o json)")
	cmd.Flags().BoolVar(&explain, "explain", false, "say how each object was judged: the rule (a status rule with its expressions, a built-in rule, or the inference step), the fields it read with their values, and the verdict (in -o json/yaml: each object's explanation)")
	rules.addFlags(cmd)
	return cmd
}

func newWatchCommand(o *options) *cobra.Command {
	var (
		in     inputFlags
		output string
		rules  ruleFlags
	)
	cmd := &cobra.Command{
		Use:   "watch TYPE[/NAME]... | -f FILE|DIR|-",
		Short: "Show the statuses of objects live, as the cluster changes, until interrupted",
		Long: `Show each object's computed status, with what blocks it, updated as the cluster changes: a
table redrawn in place on a terminal, one line per change otherwise. A TYPE without names follows
every object of that kind (-l, -A) as they come and go. Runs until interrupted (exit code 0).`,
		Example: `  kates watch deploy sts
  kates watch pods -l app=web -A
  kates watch -f manifests/ -o json | jq -r 'select(.status == "Failed") | .message'`,
		RunE: func(cmd *cobra.Command, args []string) error {
			jp, isJSONPath, err := jsonPathOutput(output)
			if err != nil {
				return err
			}
			if output != "" && output != "json" && output != "name" && !isJSONPath {
				return usageErrorf("-o %q: want json (one object per change and line), name, jsonpath=TEMPLATE or jsonpath-file=FILE, or no -o", output)
			}
			if err := rules.load(); err != nil {
				return err
			}
			c, err := o.client()
			if err != nil {
				return err
			}
			objects, err := objectsFor(o, c, &in, args)
			if err != nil {
				return err
			}
			var p progressPrinter = newJSONLinesPrinter(o.out)
			if jp != nil {
				p = newJSONPathLinesPrinter(o.out, jp)
			}
			if output == "name" {
				p = newNameLinesPrinter(o.out)
			}
			if output == "" {
				p = newProgressPrinter(o.out, kstatus.CurrentStatus, time.Now(), in.allNamespaces)
			}
			err = c.WatchStatusWith(cmd.Context(), objects, rules.status(), p.update)
			p.finish()
			return failure(err)
		},
	}
	in.addFileFlags(cmd, "manifests of the objects to watch")
	in.addSelectorFlags(cmd)
	cmd.Flags().StringVarP(&output, "output", "o", "", "json: one JSON object per change and line (the schema of status -o json); name: the name of each object that changed, a line each (as kubectl get -w -o name); jsonpath=TEMPLATE or jsonpath-file=FILE: the template over each change's status object; default a live table on a terminal, else a line per change")
	rules.addFlags(cmd)
	return cmd
}
