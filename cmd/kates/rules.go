package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/kstatus"
	"github.com/kates-dev/kates/kstatus/luahealth"
)

// ruleFlags are --status-rules and --no-status-library, shared by apply, wait, status and
// watch.
type ruleFlags struct {
	files     []string
	noLibrary bool
	rules     *kstatus.RuleSet
}

func (f *ruleFlags) addFlags(cmd *cobra.Command) {
	cmd.Flags().StringArrayVar(&f.files, "status-rules", nil,
		"status rules for custom resources: a file of CEL rules (kates' own format or Flux's healthCheckExprs; see the README), an Argo CD argocd-cm ConfigMap of Lua health checks, or a directory of Lua health checks laid out as Argo CD's GROUP/KIND/health.lua; repeatable, the first one's rule for a kind wins")
	cmd.Flags().BoolVar(&f.noLibrary, "no-status-library", false,
		"do not use the built-in status rules for Argo, Flux, cert-manager and the other projects the README lists")
}

// load compiles the files; call it before doing anything, so a bad rule stops the command
// before it changes the cluster. A rule that does not compile is a usage error.
func (f *ruleFlags) load() error {
	var sets []*kstatus.RuleSet
	for _, p := range f.files {
		var rs *kstatus.RuleSet
		st, err := os.Stat(p)
		switch {
		case err != nil:
			return usageErrorf("status rules: %v", err)
		case st.IsDir():
			rs, err = luahealth.LoadDir(os.DirFS(p), luahealth.Options{})
			if err == nil && rs.Len() == 0 {
				err = errors.New("no Lua health check (GROUP/KIND/health.lua) in it")
			}
			if err != nil {
				return usageErrorf("status rules %s: %v", p, err)
			}
		default:
			// A file of CEL rules, or an argocd-cm ConfigMap: importing luahealth
			// taught kstatus.LoadRules that format.
			if rs, err = kates.LoadStatusRules(p); err != nil {
				return usageErrorf("%v", err)
			}
		}
		sets = append(sets, rs)
	}
	if len(sets) > 0 {
		f.rules = sets[0].Merge(sets[1:]...)
	}
	return nil
}

func (f *ruleFlags) wait(opts kates.WaitOptions) kates.WaitOptions {
	opts.StatusRules = f.statusRules()
	return opts
}

func (f *ruleFlags) status() kates.StatusOptions {
	return kates.StatusOptions{StatusRules: f.statusRules()}
}

func (f *ruleFlags) statusRules() kates.StatusRules {
	return kates.StatusRules{Rules: f.rules, NoLibrary: f.noLibrary}
}

// writeWideTable is writeTable with the rule that judged each object, for -o wide.
func writeWideTable(w io.Writer, rs []kates.ObjectStatus, now time.Time, allNamespaces bool) {
	tw := tabwriter.NewWriter(w, 0, 0, 3, ' ', 0)
	multi := allNamespaces || multipleNamespaces(rs)
	if multi {
		fmt.Fprint(tw, "NAMESPACE\t")
	}
	fmt.Fprintln(tw, "NAME\tSTATUS\tAGE\tRULE\tMESSAGE")
	for _, r := range rs {
		if multi {
			fmt.Fprintf(tw, "%s\t", r.Namespace)
		}
		rule := r.Rule
		if rule == "" {
			rule = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", displayName(r), r.Status, age(r, now), rule, r.Message)
	}
	tw.Flush()
}

// writeExplanations prints, after the table, how each object was judged (status --explain):
//
//	Widget default/w
//	  rule:       cel:example/Widget (status rule "example/Widget" for Widget)
//	  failed:     status.phase == 'Spoilt'
//	  read:       status.phase = Spoilt
//	  verdict:    Failed: disk full
//
// Everything printed is escaped (forTerminal): field paths and values come from the object.
func writeExplanations(w io.Writer, rs []kates.ObjectStatus) {
	for _, r := range statusesForTerminal(rs) {
		fmt.Fprintf(w, "\n%s %s\n", r.Kind, objectName(r))
		if e := r.Explanation; e != nil {
			rule := e.Rule
			if e.Step != "" {
				rule += " (" + e.Step + ")"
			}
			fmt.Fprintf(w, "  %-11s %s\n", "rule:", forTerminal(rule))
			for _, x := range e.Expressions {
				fmt.Fprintf(w, "  %-11s %s\n", forTerminal(x.Field)+":", forTerminal(x.Expr))
			}
			for i, f := range e.Fields {
				label := ""
				if i == 0 {
					label = "read:"
				}
				fmt.Fprintf(w, "  %-11s %s = %s\n", label, forTerminal(f.Path), forTerminal(f.Value))
			}
			if len(e.Fields) == 0 {
				fmt.Fprintf(w, "  %-11s nothing\n", "read:")
			}
		} else {
			fmt.Fprintf(w, "  %-11s none (%s)\n", "rule:", r.Reason)
		}
		verdict := string(r.Status)
		if r.Message != "" {
			verdict += ": " + r.Message
		}
		fmt.Fprintf(w, "  %-11s %s\n", "verdict:", verdict)
	}
}

// objectName is "namespace/name", or "name" for a cluster-scoped object.
func objectName(r kates.ObjectStatus) string {
	if r.Namespace == "" {
		return r.Name
	}
	return r.Namespace + "/" + r.Name
}
