package main

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/spf13/cobra"
	"sigs.k8s.io/yaml"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/kstatus"
)

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
