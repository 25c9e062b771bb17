package main

import (
	"time"

	"github.com/spf13/cobra"

	"github.com/kates-dev/kates/kstatus"
)

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
