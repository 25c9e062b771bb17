package kstatus

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

// phaseRules is the rule the end-to-end test uses too: a kind that reports only a phase.
const phaseRules = `
rules:
- name: example/Widget
  apiVersion: example.com/v1
  kind: Widget
  inProgress: "!has(status.phase) || status.phase == 'Mash'"
  failed: status.phase == 'Spoilt'
  current: status.phase == 'Served'
  message: "has(status.message) ? status.message : ''"
`

func widget(t *testing.T, status string) map[string]any {
	t.Helper()
	var m map[string]any
	obj := "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, generation: 1}\n"
	if status != "" {
		obj += "status: " + status + "\n"
	}
	if err := yaml.Unmarshal([]byte(obj), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestLoadRulesErrors(t *testing.T) {
	for _, tc := range []struct {
		name, rules string
		want        []string // substrings of the error
	}{
		{"syntax", "rules: [{kind: Widget, group: example.com, current: \"status.phase ==\"}]",
			[]string{`status rule "example.com/Widget"`, `current expression "status.phase =="`, "Syntax error"}},
		{"not bool", "rules: [{kind: Widget, group: example.com, failed: \"'Failed'\"}]",
			[]string{`failed expression "'Failed'"`, "gives string, want bool"}},
		{"message not string", "rules: [{kind: Widget, group: example.com, current: 'true', message: '1 + 2'}]",
			[]string{`message expression "1 + 2"`, "gives int, want string"}},
		{"undeclared variable", "rules: [{kind: Widget, group: example.com, current: \"object.status.phase == 'Ready'\"}]",
			[]string{"undeclared reference to 'object'"}},
		{"unknown function", "rules: [{kind: Widget, group: example.com, current: \"status.phase.isReady()\"}]",
			[]string{"isReady"}},
		{"no kind", "rules: [{group: example.com, current: 'true'}]", []string{"no kind"}},
		{"no expression", "rules: [{kind: Widget, group: example.com}]", []string{"no expression"}},
		{"unknown key", "rules: [{kind: Widget, group: example.com, curent: 'true'}]", []string{`unknown field "curent"`}},
		{"apiVersion and group", "rules: [{kind: Widget, group: example.com, apiVersion: example.com/v1, current: 'true'}]",
			[]string{"not both"}},
		{"duplicate", "rules: [{kind: Widget, group: example.com, current: 'true'}, {name: again, kind: Widget, group: example.com, current: 'true'}]",
			[]string{`"again"`, "same kind and version"}},
		{"not rules", "widgets: []", []string{`want a "rules" list`}},
		{"wildcard group alone", "rules: [{kind: Widget, group: '*', current: 'true'}]", []string{`group "*"`}},
		{"wildcard group without suffix", "rules: [{kind: Widget, group: '*.', current: 'true'}]", []string{`group "*."`}},
		{"wildcard inside group", "rules: [{kind: Widget, group: 'aws.*.io', current: 'true'}]", []string{`group "aws.*.io"`}},
		{"wildcard without dot", "rules: [{kind: Widget, group: '*crossplane.io', current: 'true'}]", []string{`group "*crossplane.io"`}},
		{"two wildcards", "rules: [{kind: Widget, group: '*.*.io', current: 'true'}]", []string{`group "*.*.io"`}},
		{"wildcard in kind", "rules: [{kind: 'Wid*', group: example.com, current: 'true'}]", []string{`kind "Wid*"`}},
		{"wildcard in version", "rules: [{kind: Widget, apiVersion: 'example.com/v*', current: 'true'}]", []string{`version "v*"`}},
		{"duplicate wildcard", "rules: [{kind: '*', group: '*.example.com', current: 'true'}, {name: again, kind: '*', group: '*.example.com', current: 'true'}]",
			[]string{`"again"`, "same kind and version"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs, err := LoadRules([]byte(tc.rules), "rules.yaml")
			if err == nil {
				t.Fatalf("LoadRules() = %d rules, want an error", rs.Len())
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("LoadRules() error = %q, want it to contain %q", err, w)
				}
			}
			if !strings.Contains(err.Error(), "rules.yaml") {
				t.Errorf("LoadRules() error = %q does not name the file", err)
			}
			// Errors in a rule are RuleErrors; errors in the file's shape are not.
			shape := tc.name == "unknown key" || tc.name == "not rules"
			if IsRuleError(err) == shape {
				t.Errorf("IsRuleError(%q) = %v, want %v", err, !shape, shape)
			}
		})
	}
}

func TestLoadRulesFluxShapes(t *testing.T) {
	want := []Rule{{Name: "cert-manager.io/Certificate", Group: "cert-manager.io", Version: "v1", Kind: "Certificate",
		Current: "status.conditions.exists(e, e.type == 'Ready' && e.status == 'True')",
		Failed:  "status.conditions.exists(e, e.type == 'Ready' && e.status == 'False')"}}
	entry := `
  - apiVersion: cert-manager.io/v1
    kind: Certificate
    current: status.conditions.exists(e, e.type == 'Ready' && e.status == 'True')
    failed: status.conditions.exists(e, e.type == 'Ready' && e.status == 'False')
`
	for name, doc := range map[string]string{
		"bare list":        entry,
		"healthCheckExprs": "healthCheckExprs:" + entry,
		"kustomization": "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: app}\n" +
			"spec:\n  interval: 5m\n  healthCheckExprs:" + strings.ReplaceAll(entry, "\n  ", "\n    "),
	} {
		t.Run(name, func(t *testing.T) {
			rs, err := LoadRules([]byte(doc), name)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, rs.Rules()); diff != "" {
				t.Errorf("LoadRules() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRuleEvaluation(t *testing.T) {
	rs, err := LoadRules([]byte(phaseRules), "phase.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, status string
		want         Status
		reason, msg  string
	}{
		{"no status", "", InProgressStatus, "RuleInProgress", `Resource is in progress (status rule "example/Widget")`},
		{"mash", "{phase: Mash}", InProgressStatus, "RuleInProgress", `Resource is in progress (status rule "example/Widget")`},
		{"served", "{phase: Served, message: all good}", CurrentStatus, "", "all good"},
		{"spoilt", "{phase: Spoilt, message: disk full}", FailedStatus, "RuleFailed", "disk full"},
		{"other phase", "{phase: Chill}", InProgressStatus, "RuleNotCurrent", `Resource is in progress (status rule "example/Widget")`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := objectFromMap(widget(t, tc.status))
			res, rule, err := Explain(u, Options{Rules: rs})
			checkResult(t, res, err)
			type got struct {
				Status          Status
				Reason, Message string
				Rule            string
			}
			g := got{res.Status, "", res.Message, rule}
			if len(res.Conditions) > 0 {
				g.Reason = res.Conditions[0].Reason
			}
			want := got{tc.want, tc.reason, tc.msg, "cel:example/Widget"}
			if diff := cmp.Diff(want, g); diff != "" {
				t.Errorf("Explain() mismatch (-want +got):\n%s", diff)
			}
			// Without the rule the generic rules say Current: no phase they know, and no
			// definition saying a status is due (rule 6).
			if res, _ := Compute(u); tc.want != CurrentStatus && res.Status != CurrentStatus {
				t.Errorf("Compute() without the rule = %s, want Current (does the test test the rule?)", res.Status)
			}
		})
	}
}

// TestRulePrecedence: status rules come after built-in kind rules unless they override,
// before the generic condition rules, and after rules 1 and 2.
func TestRulePrecedence(t *testing.T) {
	rules := `
rules:
- name: pods-are-failed
  apiVersion: v1
  kind: Pod
  failed: "true"
- name: overriding-deployments
  group: apps
  kind: Deployment
  override: true
  failed: "has(metadata.labels) && 'broken' in metadata.labels"
- name: widgets
  group: example.com
  kind: Widget
  current: "has(status.phase) && status.phase == 'Ready'"
- name: gadgets-fail-only
  group: example.com
  kind: Gadget
  failed: "has(status.phase) && status.phase == 'Broken'"
`
	rs, err := LoadRules([]byte(rules), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, obj string
		want      Status
		rule      string
	}{
		{"built-in kind rule wins", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nstatus: {phase: Succeeded}", CurrentStatus, "kind:Pod"},
		{"override wins over built-in", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d, labels: {broken: 'yes'}}\nspec: {replicas: 0}\nstatus: {}", FailedStatus, "cel:overriding-deployments"},
		{"override that does not decide falls to built-in", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {replicas: 0}\nstatus: {}", CurrentStatus, "kind:Deployment"},
		{"rule before Ready", "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nstatus: {conditions: [{type: Ready, status: 'True'}]}", InProgressStatus, "cel:widgets"},
		{"rule before Stalled", "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nstatus: {phase: Ready, conditions: [{type: Stalled, status: 'True'}]}", CurrentStatus, "cel:widgets"},
		{"deletion before rule", "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, deletionTimestamp: '2026-03-01T10:00:00Z'}\nstatus: {phase: Ready}", TerminatingStatus, "deletion"},
		{"generation before rule", "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, generation: 2}\nstatus: {observedGeneration: 1, phase: Ready}", InProgressStatus, "generation"},
		{"rule without current falls through", "apiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g}\nstatus: {conditions: [{type: Ready, status: 'False', reason: Waiting}]}", InProgressStatus, "ready"},
		{"rule without current decides failed", "apiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g}\nstatus: {phase: Broken, conditions: [{type: Ready, status: 'True'}]}", FailedStatus, "cel:gadgets-fail-only"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var m map[string]any
			if err := yaml.Unmarshal([]byte(tc.obj), &m); err != nil {
				t.Fatal(err)
			}
			res, rule, err := Explain(objectFromMap(m), Options{Rules: rs})
			checkResult(t, res, err)
			if diff := cmp.Diff([2]string{string(tc.want), tc.rule}, [2]string{string(res.Status), rule}); diff != "" {
				t.Errorf("Explain() mismatch (-want +got):\n%s\nmessage: %s", diff, res.Message)
			}
		})
	}
}

func TestUserRulesShadowLibrary(t *testing.T) {
	rs, err := LoadRules([]byte("rules: [{name: mine, group: argoproj.io, kind: Rollout, current: 'true'}]"), "")
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]any{"apiVersion": "argoproj.io/v1alpha1", "kind": "Rollout", "metadata": map[string]any{"name": "r"},
		"status": map[string]any{"phase": "Degraded"}}
	for _, tc := range []struct {
		opts Options
		want Status
		rule string
	}{
		{Options{}, FailedStatus, "cel:argo-rollouts/Rollout"},
		{Options{Rules: rs}, CurrentStatus, "cel:mine"},
		{Options{NoLibrary: true}, FailedStatus, "infer:phase"}, // rule 6c: Degraded
	} {
		res, rule, _ := Explain(objectFromMap(m), tc.opts)
		if diff := cmp.Diff([2]string{string(tc.want), tc.rule}, [2]string{string(res.Status), rule}); diff != "" {
			t.Errorf("Explain(%+v) mismatch (-want +got):\n%s", tc.opts, diff)
		}
	}
}

func TestCheckSchema(t *testing.T) {
	schema := map[string]any{}
	if err := yaml.Unmarshal([]byte(`
type: object
properties:
  spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
  status:
    type: object
    properties:
      phase: {type: string}
      message: {type: string}
      conditions:
        type: array
        items: {type: object, properties: {type: {type: string}, status: {type: string}}}
`), &schema); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, expr, want string }{
		{"known", "has(status.phase) && status.phase == 'Ready' && spec.anything == 1", ""},
		{"misspelt", "status.phse == 'Ready'", `no field "phse"`},
		{"in has", "has(status.ready)", `no field "ready"`},
		{"in a comprehension", "status.conditions.exists(c, c.type == 'Ready' && c.reason == 'x')", `no field "reason"`},
		{"index", "status.conditions[0].staus == 'True'", `no field "staus"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs, err := CompileRules([]Rule{{Group: "example.com", Kind: "Widget", Current: tc.expr}})
			if err != nil {
				t.Fatal(err)
			}
			err = rs.CheckSchema("example.com", "v1", "Widget", schema)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
				t.Errorf("CheckSchema() = %q, want %q", got, tc.want)
			}
		})
	}
}

func objectFromMap(m map[string]any) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: m}
}

// TestRuleEvaluationErrors: an expression that fails on an object (a missing field, a
// value of the wrong type) makes it Unknown with a FieldError naming rule and expression,
// never a panic and never a hang in InProgress.
func TestRuleEvaluationErrors(t *testing.T) {
	rs, err := LoadRules([]byte("rules: [{name: replicas, group: example.com, kind: Widget, failed: 'status.replicas < 0', current: 'status.replicas > 2'}]"), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, status, want string }{
		{"missing field", "{phase: Ready}", `status rule "replicas": failed expression: no such key: replicas`},
		{"no status", "", `status rule "replicas": failed expression: no such key: replicas`},
		{"wrong type", "{replicas: three}", `status rule "replicas": failed expression: no such overload`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, rule, err := Explain(objectFromMap(widget(t, tc.status)), Options{Rules: rs})
			checkResult(t, res, err)
			if res.Status != UnknownStatus || !IsMalformed(err) || rule != "cel:replicas" || !strings.HasPrefix(res.Message, tc.want) {
				t.Errorf("Explain() = %s %q (%s), %v; want Unknown %q", res.Status, res.Message, rule, err, tc.want)
			}
		})
	}
}

// TestRuleVersions: a rule for a version wins over one for any version, for objects of
// that version only; the core group's "v1" is a version, not a group.
func TestRuleVersions(t *testing.T) {
	rs, err := LoadRules([]byte(`
rules:
- {name: any, group: example.com, kind: Widget, current: "true"}
- {name: v2, apiVersion: example.com/v2, kind: Widget, failed: "true"}
- {name: core, apiVersion: v1, kind: Thing, failed: "true"}
`), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ apiVersion, kind, want string }{
		{"example.com/v1", "Widget", "cel:any"},
		{"example.com/v2", "Widget", "cel:v2"},
		{"example.com/v22", "Widget", "cel:any"},
		{"v1", "Thing", "cel:core"},
		{"example.com/v1", "Thing", "infer:no-status"},
	} {
		m := map[string]any{"apiVersion": tc.apiVersion, "kind": tc.kind, "metadata": map[string]any{"name": "x"}}
		if _, rule, _ := Explain(objectFromMap(m), Options{Rules: rs, NoLibrary: true}); rule != tc.want {
			t.Errorf("Explain(%s %s) judged by %s, want %s", tc.apiVersion, tc.kind, rule, tc.want)
		}
	}
}

// TestRuleWildcards: a group "*.suffix" matches groups ending in ".suffix" but not the
// suffix itself, a kind "*" matches every kind, and the most specific rule wins: exact
// group, then the longest suffix; within a group, exact kind, then "*"; then version.
func TestRuleWildcards(t *testing.T) {
	rs, err := LoadRules([]byte(`
rules:
- {name: exact, group: rds.aws.crossplane.io, kind: DBInstance, current: "true"}
- {name: exact-group-any-kind, group: rds.aws.crossplane.io, kind: "*", current: "true"}
- {name: crossplane-any, group: "*.crossplane.io", kind: "*", current: "true"}
- {name: crossplane-bucket, group: "*.crossplane.io", kind: Bucket, current: "true"}
- {name: aws-crossplane-any, group: "*.aws.crossplane.io", kind: "*", current: "true"}
- {name: aws-crossplane-v2, apiVersion: "*.aws.crossplane.io/v2", kind: "*", current: "true"}
- {name: exact-v1-only, apiVersion: s3.gcp.crossplane.io/v1, kind: Bucket, current: "true"}
`), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ apiVersion, kind, want string }{
		{"rds.aws.crossplane.io/v1", "DBInstance", "cel:exact"},
		{"rds.aws.crossplane.io/v1", "DBCluster", "cel:exact-group-any-kind"},
		{"ec2.aws.crossplane.io/v1", "VPC", "cel:aws-crossplane-any"},       // longest suffix wins
		{"ec2.aws.crossplane.io/v2", "VPC", "cel:aws-crossplane-v2"},        // then the version
		{"s3.aws.crossplane.io/v1", "Bucket", "cel:aws-crossplane-any"},     // longer suffix beats exact kind
		{"storage.gcp.crossplane.io/v1", "Bucket", "cel:crossplane-bucket"}, // exact kind beats "*"
		{"storage.gcp.crossplane.io/v1", "Database", "cel:crossplane-any"},  // any kind
		{"s3.gcp.crossplane.io/v1", "Bucket", "cel:exact-v1-only"},          // exact beats wildcard
		{"s3.gcp.crossplane.io/v2", "Bucket", "cel:crossplane-bucket"},      // unless its version differs
		{"crossplane.io/v1", "Bucket", "infer:no-status"},                   // the bare suffix is not matched
		{"aws.crossplane.io/v1", "Bucket", "cel:crossplane-bucket"},         // nor here: not "*.aws.crossplane.io"
		{"notcrossplane.io/v1", "Bucket", "infer:no-status"},                // the suffix starts at a dot
		{"v1", "Bucket", "infer:no-status"},
	} {
		m := map[string]any{"apiVersion": tc.apiVersion, "kind": tc.kind, "metadata": map[string]any{"name": "x"}}
		if _, rule, _ := Explain(objectFromMap(m), Options{Rules: rs, NoLibrary: true}); rule != tc.want {
			t.Errorf("Explain(%s %s) judged by %s, want %s", tc.apiVersion, tc.kind, rule, tc.want)
		}
		// Merging keeps the wildcards: the first set's rules still win.
		merged := rs.Merge(nil)
		if _, rule, _ := Explain(objectFromMap(m), Options{Rules: merged, NoLibrary: true}); rule != tc.want {
			t.Errorf("after Merge, Explain(%s %s) judged by %s, want %s", tc.apiVersion, tc.kind, rule, tc.want)
		}
	}
	var names []string
	for _, r := range rs.Rules() {
		names = append(names, r.Group+"/"+r.Kind)
	}
	if want := "*.aws.crossplane.io/*"; !slices.Contains(names, want) {
		t.Errorf("Rules() = %v, want it to list %s as written", names, want)
	}
}

// TestMergeKeepsEveryVersion: merging a set with rules for two versions of a kind into one
// that has the first keeps the second.
func TestMergeKeepsEveryVersion(t *testing.T) {
	a, err := LoadRules([]byte("rules: [{name: a-v1, apiVersion: example.com/v1, kind: Widget, current: 'true'}]"), "")
	if err != nil {
		t.Fatal(err)
	}
	b, err := LoadRules([]byte("rules: [{name: b-v1, apiVersion: example.com/v1, kind: Widget, current: 'true'}, {name: b-v2, apiVersion: example.com/v2, kind: Widget, current: 'true'}]"), "")
	if err != nil {
		t.Fatal(err)
	}
	got := a.Merge(b)
	for _, tc := range []struct{ apiVersion, want string }{{"example.com/v1", "cel:a-v1"}, {"example.com/v2", "cel:b-v2"}} {
		m := map[string]any{"apiVersion": tc.apiVersion, "kind": "Widget", "metadata": map[string]any{"name": "x"}}
		if _, rule, _ := Explain(objectFromMap(m), Options{Rules: got, NoLibrary: true}); rule != tc.want {
			t.Errorf("Explain(%s) judged by %s, want %s", tc.apiVersion, rule, tc.want)
		}
	}
}
