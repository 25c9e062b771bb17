package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kates-dev/kates/apply"
	"github.com/kates-dev/kates/applyset"
	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/kstatus"
)

func newApplyCommand(o *options) *cobra.Command {
	var (
		in             inputFlags
		wait           bool
		skipLB         bool
		timeout        time.Duration
		fieldManager   string
		force          bool
		dryRun         string
		output         string
		serverSide     bool
		rules          ruleFlags
		validate       bool
		showDiff       bool
		prune          bool
		applySetParent string
		tooling        string
		groups         string
		groupTimeout   time.Duration
	)
	cmd := &cobra.Command{
		Use:   "apply -f FILE|DIR|- | -k DIR [--wait] [--prune --applyset NAME]",
		Short: "Apply manifests with server-side apply, then optionally wait until they are reconciled",
		Long: `Apply every object of the manifests with server-side apply: CustomResourceDefinitions first,
then Namespaces, then the rest in file order, waiting for each CRD's kind to be served before
applying its custom resources. Every kind, and every object against the cluster's schemas (see
'kates validate'; --validate=false skips this), is checked before anything is applied, and a
batch that defines one object twice is refused, naming every file and document that defines
it. Each object is reported "applied", or "unchanged" when the apply changed nothing.

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

With --diff, show what the apply will change first, as 'kates diff' does.

Objects may be in ordered groups, as their annotations say: kates.dev/group and
kates.dev/depends-on (a list of groups), Helm's HIP-0025 (helm.sh/resource-group,
helm.sh/depends-on/resource-groups), Argo CD sync waves and PreSync/PostSync hooks
(argocd.argoproj.io/sync-wave, argocd.argoproj.io/hook), kapp change groups and "upsert
after upserting" rules. The groups are applied one after another; with --wait each is waited
for (Current, or what its readiness annotations say: helm.sh/readiness-success and -failure,
kates.dev/ready-when and failed-when in CEL) before the next is applied, and a Failed object
stops the run there. Cycles, unknown groups and objects in two groups are refused before
anything is applied. --groups=none ignores the annotations; --groups=helm (or kates, argocd,
kapp, comma-separated) reads only those. --dry-run and --diff print the plan first: the groups
in order with their objects. Pruned objects go last.`,
		Example: `  kates apply -f deploy/ --wait --timeout 2m
  kates apply -k overlays/prod --wait
  kates apply -f deploy/ --prune --applyset web --wait
  kates apply -f stack/ --wait --group-timeout 2m   # groups in the order of their annotations
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
			case prune && applySetParent == "":
				return usageErrorf("--prune needs --applyset [RESOURCE[.GROUP]/]NAME: kates prunes only objects an ApplySet tracks")
			case applySetParent != "" && !prune:
				return usageErrorf("--applyset needs --prune (as in kubectl)")
			}
			if err := rules.load(); err != nil {
				return err
			}
			conventions, ignoreGroups, err := parseGroups(groups)
			if err != nil {
				return err
			}
			ms, c, err := readChecked(o, &in)
			if err != nil {
				return err
			}
			ctx, cancel := withTimeout(cmd.Context(), timeout)
			defer cancel()
			var set *applyset.Set
			if prune {
				set, err = applyset.Open(ctx, c, applyset.Options{Parent: applySetParent, Tooling: tooling, DryRun: dryRun == "server"})
				if err != nil {
					return applySetError(err)
				}
			}
			// The objects as written, not their typed conversion: nothing the author wrote is
			// dropped on the way, so the server's strict validation sees a misspelled field.
			objects := make([]kates.ManifestObject, len(ms))
			for i, m := range ms {
				objects[i] = kates.ManifestObject{Source: m.source, Document: m.document, Object: m.raw}
			}
			p := &applyPrinter{o: o, c: c, jp: jp, names: output == "name", dryRun: dryRun == "server"}
			opts := apply.Options{
				FieldManager: fieldManager,
				Force:        force,
				DryRun:       dryRun == "server",
				NoValidate:   !validate,
				ApplySet:     set,
				Wait:         wait,
				WaitOptions:  rules.wait(kates.WaitOptions{For: kstatus.CurrentStatus, SkipLoadBalancers: skipLB}),
				OnResult:     p.result,
				WaitWith: func(ctx context.Context, _ apply.WaitGoal, objects []any, opts kates.WaitOptions) error {
					p.notWaiting()
					return runWait(ctx, o, c, objects, opts, false)
				},
				Conventions:  conventions,
				IgnoreGroups: ignoreGroups,
				GroupTimeout: groupTimeout,
				OnGroup:      func(ev apply.GroupEvent) { p.group(ev, dryRun == "server" || showDiff) },
			}
			if showDiff {
				opts.BeforeApply = func(ctx context.Context, planned []apply.ObjectResult) error {
					// What will be sent, in that order: with the set's label, when there is a set.
					shown := make([]manifest, len(planned))
					for i, pl := range planned {
						shown[i] = ms[pl.Source.Index]
						shown[i].raw = pl.Object
					}
					if err := runDiff(ctx, o, c, shown, fieldManager); err != nil && !isDiffFound(err) {
						return err
					}
					return nil
				}
			}
			_, err = apply.Run(ctx, c, objects, opts)
			if p.err != nil {
				return p.err
			}
			if err == nil && wait {
				p.notWaiting() // when every object was annotated "false", no wait ran to say it
			}
			var (
				ee       *exitError
				gerr     *apply.GroupError
				invalid  *apply.InvalidError
				dup      *apply.DuplicateError
				batchErr *apply.BatchError
			)
			switch {
			case err == nil:
				return nil
			case errors.As(err, &gerr):
				// Before the wait's own exit error, whose message lacks the group.
				return &exitError{code: exitFailed, err: err}
			case errors.As(err, &ee):
				return err
			case errors.As(err, &invalid), errors.As(err, &dup):
				return &exitError{code: exitUsage, err: err}
			case errors.As(err, &batchErr):
				return failure(err)
			}
			return applySetError(err)
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
	cmd.Flags().StringVar(&applySetParent, "applyset", "", "[RESOURCE[.GROUP]/]NAME: the parent object of the ApplySet to apply and prune (a Secret NAME by default; namespace -n), as kubectl's")
	cmd.Flags().StringVar(&tooling, "applyset-tooling", applyset.DefaultTooling(), `the parent's applyset.kubernetes.io/tooling, NAME/VERSION; kates refuses a set of another tool name, as kubectl does, so "kubectl/v1.34.0" shares a set with kubectl`)
	cmd.Flags().StringVar(&groups, "groups", "auto", `which group annotations order the apply: "auto" (all: kates, helm, argocd, kapp), "none" (one group, annotations ignored), or some of kates,helm,argocd,kapp`)
	cmd.Flags().DurationVar(&groupTimeout, "group-timeout", 0, "with --wait, give up when one group is not ready after this long (0: only --timeout)")
	return cmd
}

// parseGroups reads --groups.
func parseGroups(s string) (conventions []apply.Convention, ignore bool, err error) {
	switch s {
	case "auto", "":
		return nil, false, nil
	case "none", "false":
		return nil, true, nil
	}
	for _, name := range strings.Split(s, ",") {
		c := apply.Convention(strings.TrimSpace(name))
		if !slices.Contains(apply.Conventions, c) {
			return nil, false, usageErrorf("--groups %q: want auto, none, or some of kates,helm,argocd,kapp", s)
		}
		conventions = append(conventions, c)
	}
	return conventions, false, nil
}

// group prints a group's steps, for a batch in groups: with plan, the plan before anything is
// written; then, with --wait, which group is waited on and what each readiness annotation
// says. Not with -o name or jsonpath, whose output programs read.
func (p *applyPrinter) group(ev apply.GroupEvent, plan bool) {
	if p.jp != nil || p.names || (ev.Count == 1 && ev.Group.Name == "") {
		return
	}
	head := fmt.Sprintf("group %d/%d %s", ev.Index+1, ev.Count, ev.Group)
	out := p.o.out
	switch ev.Phase {
	case apply.GroupPlanned:
		if !plan {
			return
		}
		if ev.Index == 0 {
			fmt.Fprintf(out, "plan: %d group(s), in order:\n", ev.Count)
		}
		var names []string
		for _, r := range ev.Objects {
			names = append(names, displayName(kates.ObjectStatus{Group: r.GroupVersionKind.Group, Kind: r.GroupVersionKind.Kind, Name: r.Name}))
		}
		from := ""
		if ev.Group.From != "" {
			from = " (" + string(ev.Group.From)
			if len(ev.Group.DependsOn) > 0 {
				from += ", after " + strings.Join(ev.Group.DependsOn, ", ")
			}
			from += ")"
		}
		fmt.Fprintf(out, "  %s%s: %s\n", head, from, strings.Join(names, ", "))
	case apply.GroupWaiting:
		fmt.Fprintf(out, "%s: waiting for %d object(s)\n", head, len(ev.Objects))
	case apply.GroupReadiness:
		st := *ev.Status
		fmt.Fprintf(out, "%s: %s %s: %s\n", head, displayName(st), st.Status, linesForTerminal(st.Message))
	case apply.GroupReady:
		fmt.Fprintf(out, "%s: ready\n", head)
	}
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

// applyPrinter prints each object's result as apply.Run reports it: "TYPE/NAME applied" (or
// unchanged, pruned, skipped), TYPE/NAME alone with -o name, or the server's answer through
// -o jsonpath.
type applyPrinter struct {
	o      *options
	c      *kates.Client
	jp     *kates.JSONPath
	names  bool
	dryRun bool
	// skipped counts the objects annotated kates.dev/wait: "false", said once before the wait.
	skipped int
	said    bool
	err     error // the first error printing
}

func (p *applyPrinter) result(r apply.ObjectResult) {
	if r.Wait == apply.WaitNone {
		p.skipped++
	}
	name := displayName(kates.ObjectStatus{Group: r.GroupVersionKind.Group, Kind: r.GroupVersionKind.Kind, Name: r.Name})
	what := string(r.Action)
	if p.dryRun {
		what += " (server dry run)"
	}
	out := p.o.out
	switch r.Action {
	case apply.Applied, apply.Unchanged:
		switch {
		case p.jp != nil:
			if err := printJSONPath(out, p.jp, r.Object); err != nil && p.err == nil {
				p.err = err
			}
		case p.names:
			fmt.Fprintln(out, name)
		default:
			fmt.Fprintf(out, "%s %s\n", name, what)
		}
	case apply.Pruned:
		switch {
		case p.jp != nil:
		case p.names:
			fmt.Fprintln(out, name)
		case r.Namespace != "" && r.Namespace != p.c.Namespace():
			fmt.Fprintf(out, "%s -n %s %s\n", name, r.Namespace, what)
		default:
			fmt.Fprintf(out, "%s %s\n", name, what)
		}
	case apply.Skipped:
		fmt.Fprintf(out, "%s: %s %s skipped: its CustomResourceDefinition is not created in a dry run\n", r.Source, r.GroupVersionKind.Kind, r.Name)
	}
}

// notWaiting says, once, how many objects the wait leaves out by their annotation.
func (p *applyPrinter) notWaiting() {
	if p.said || p.skipped == 0 {
		return
	}
	p.said = true
	fmt.Fprintf(p.o.out, "not waiting for %d object(s) annotated %s: \"false\"\n", p.skipped, apply.WaitAnnotation)
}
