package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/kstatus"
)

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
