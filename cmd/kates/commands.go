package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/kates-dev/kates/apply"
	"github.com/kates-dev/kates/applyset"
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
			case prune && applySetParent == "":
				return usageErrorf("--prune needs --applyset [RESOURCE[.GROUP]/]NAME: kates prunes only objects an ApplySet tracks")
			case applySetParent != "" && !prune:
				return usageErrorf("--applyset needs --prune (as in kubectl)")
			}
			if err := rules.load(); err != nil {
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
				invalid  *apply.InvalidError
				dup      *apply.DuplicateError
				batchErr *apply.BatchError
			)
			switch {
			case err == nil:
				return nil
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
			if output != "" && !isJSONPath {
				return usageErrorf("-o %q: want jsonpath=TEMPLATE or jsonpath-file=FILE (or no -o)", output)
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
			return runWaitPrinting(ctx, o, c, objects, waitOpts, in.allNamespaces, jp)
		},
	}
	in.addFileFlags(cmd, "manifests of the objects to wait for")
	in.addSelectorFlags(cmd)
	cmd.Flags().StringVar(&forStatus, "for", "current", "what to wait for: current, deleted, create, condition=TYPE[=STATUS] or jsonpath={.path}[=VALUE] (as kubectl wait)")
	cmd.Flags().DurationVar(&timeout, "timeout", 5*time.Minute, "give up after this long (0: never)")
	cmd.Flags().BoolVar(&noFailFast, "no-fail-fast", false, "keep waiting when an object is Failed")
	cmd.Flags().StringVarP(&output, "output", "o", "", "jsonpath=TEMPLATE or jsonpath-file=FILE: no progress; once every object is done, each object's status (the fields of status -o json) through the template, as kubectl wait -o jsonpath")
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
			case "table", "wide", "json", "yaml":
			default:
				if !isJSONPath {
					return usageErrorf("-o %q: want table, wide, json, yaml, jsonpath=TEMPLATE or jsonpath-file=FILE", output)
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
	cmd.Flags().StringVarP(&output, "output", "o", "table", "output format: table, wide (with the rule that judged each object), json, yaml, or jsonpath=TEMPLATE / jsonpath-file=FILE (applied to each object's status, whose fields are those of -o json)")
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
			if output != "" && output != "json" && !isJSONPath {
				return usageErrorf("-o %q: want json (one object per change and line), jsonpath=TEMPLATE or jsonpath-file=FILE, or no -o", output)
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
	cmd.Flags().StringVarP(&output, "output", "o", "", "json: one JSON object per change and line (the schema of status -o json); jsonpath=TEMPLATE or jsonpath-file=FILE: the template over each change's status object; default a live table on a terminal, else a line per change")
	rules.addFlags(cmd)
	return cmd
}
