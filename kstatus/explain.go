package kstatus

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/google/cel-go/common/ast"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Explanation says how an object was judged, for a person asking why (kates status
// --explain). Do not match on its text; match on Result.Status and Rule's "cel:" prefix.
type Explanation struct {
	// Result is what ComputeWith returns for the object. It is left out of JSON: whoever
	// shows an Explanation shows the status beside it.
	Result *Result `json:"-"`
	// Rule names the rule that judged, as Explain returns it: "deletion", "generation",
	// "conditions", "kind:Deployment", "ready", "infer:..." (a step of rule 6), "default",
	// "malformed" or "cel:<name>".
	Rule string `json:"rule"`
	// Step says in words which rule of the package documentation decided.
	Step string `json:"step,omitempty"`
	// Expressions are a status rule's expressions, for Rule "cel:...", in the order they
	// are tried.
	Expressions []RuleExpression `json:"expressions,omitempty"`
	// Fields are the fields the rule read, with their values as found, in the order read.
	// For a built-in kind rule they are the object's status fields.
	Fields []FieldValue `json:"fields,omitempty"`
}

// RuleExpression is one expression of a status rule.
type RuleExpression struct {
	Field string `json:"field"` // inProgress, failed, current or message
	Expr  string `json:"expr"`
}

// FieldValue is one field an explained rule read.
type FieldValue struct {
	Path  string `json:"path"`  // dotted, e.g. "status.conditions[Ready]"; "(definition) ..." for KindInfo
	Value string `json:"value"` // as found, briefly
}

// trace collects the fields the generic rules read, for ExplainDetail.
type trace struct {
	fields []FieldValue
	seen   map[string]bool
}

func (t *trace) note(path string, v any) {
	if t == nil || t.seen[path] {
		return
	}
	if t.seen == nil {
		t.seen = map[string]bool{}
	}
	t.seen[path] = true
	s, ok := v.(string)
	if !ok {
		s = brief(v)
	}
	t.fields = append(t.fields, FieldValue{Path: path, Value: s})
}

// ExplainDetail is Explain with the details: the rule's expressions, if a status rule
// judged, and the fields the rule read with their values. It computes the status again, and
// costs more than ComputeWith: call it for a person, not in a loop.
func ExplainDetail(u *unstructured.Unstructured, opts Options) (*Explanation, error) {
	if u == nil {
		res, rule, err := Explain(u, opts)
		return &Explanation{Result: res, Rule: rule, Step: steps["malformed"]}, err
	}
	tr := &trace{}
	opts.trace = tr
	v := evaluate(u.Object, opts.Now, false, &opts)
	res, err := v.result()
	e := &Explanation{Result: res, Rule: v.judge()}
	if e.Rule == byKindRule {
		e.Rule += u.GetKind()
	}
	switch {
	case strings.HasPrefix(e.Rule, "cel:"):
		g := group(u.GetAPIVersion())
		if r := lookupRule(&opts, g, u.GetAPIVersion(), u.GetKind()); r != nil {
			e.Step = fmt.Sprintf("status rule %q for %s", r.name, u.GetKind())
			for _, x := range [...]RuleExpression{{"inProgress", r.src.InProgress}, {"failed", r.src.Failed}, {"current", r.src.Current}, {"message", r.src.Message}} {
				if strings.TrimSpace(x.Expr) != "" {
					e.Expressions = append(e.Expressions, x)
				}
			}
			for _, fv := range celFields(u.Object, e.Expressions) {
				tr.note(fv.Path, fv.Value)
			}
		}
	case strings.HasPrefix(e.Rule, byKindRule):
		e.Step = "rule 4, the built-in rule for " + u.GetKind()
		for _, fv := range statusFields(u.Object) {
			tr.note(fv.Path, fv.Value)
		}
	default:
		e.Step = steps[e.Rule]
		if e.Step == "" && strings.HasPrefix(e.Rule, "infer:") {
			e.Step = "rule 6, inferred from the conditions of " + strings.TrimPrefix(e.Rule, "infer:")
		}
	}
	if e.Rule == "malformed" && err != nil {
		var fe *FieldError
		if errors.As(err, &fe) {
			tr.note(fe.Path, fe.Value)
		}
	}
	e.Fields = tr.fields
	return e, err
}

// steps names, for a person, the rule of the package documentation behind each Rule.
var steps = map[string]string{
	"deletion":            "rule 1, deletion",
	"generation":          "rule 2, status.observedGeneration against metadata.generation",
	"generation:rejected": "rule 2, a spec rejected before it was observed: the conditions written since metadata.managedFields says the spec changed",
	"conditions":          "rule 3, the Stalled and Reconciling conditions",
	"ready":               "rule 5, the Ready condition",
	"infer:conditions":    "rule 6a, the conditions of status (Available, Failed, Degraded, HeadPodReady, ...)",
	"infer:succeeded":     "rule 6a, the Succeeded condition",
	"infer:phase":         "rule 6c, the phases and states of status",
	"infer:no-status":     "rule 6g, an object with no status",
	"infer:run":           "rule 6a, the conditions of a run (Created, Running, Restarting, ...)",
	"infer:outcome":       "rule 6a/6c, a run's outcome (a Complete or Succeeded condition, a state Succeeded)",
	"infer:errors":        "rule 6d, errors the controller reports in status",
	"infer:counts":        "rule 6d, counts of ready against desired, and readiness flags",
	"infer:suspended":     "rule 6e, a suspension, against what the spec asks",
	"infer:asked":         "rule 6c/6e, a state the spec asks for (a stop, a state by name), reached",
	"infer:finishes":      "rule 6f, a kind that finishes, not finished",
	"infer:reason":        "rule 6h, a reason status gives of its own (status.reason), beside nothing that decides",
	"default":             "rule 6h, nothing in status says there is anything to wait for",
	"malformed":           "a field kstatus reads is malformed",
	"infer:parents":       "rule 6b, the conditions of each parent",
	"infer:ancestors":     "rule 6b, the conditions of each ancestor",
	"infer:listeners":     "rule 6b, the conditions of each listener",
	"infer:components":    "rule 6b, the conditions of each component",
}

// brief renders a value for an Explanation: scalars as they are, a list of conditions as
// type=status pairs, other lists and objects by size.
func brief(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case map[string]any:
		return fmt.Sprintf("an object of %d fields", len(v))
	case []any:
		var conds []string
		for _, e := range v {
			m, ok := e.(map[string]any)
			t, _ := m["type"].(string)
			if !ok || t == "" {
				return fmt.Sprintf("a list of %d", len(v))
			}
			s, _ := m["status"].(string)
			conds = append(conds, t+"="+s)
		}
		if len(conds) == 0 {
			return "an empty list"
		}
		return strings.Join(conds, ", ")
	}
	return describe(v)
}

// statusFields lists what a built-in rule reads: the scalar fields at the top of spec
// (replicas, paused, ...) and every top-level field of status.
func statusFields(m map[string]any) []FieldValue {
	var out []FieldValue
	spec, _ := m["spec"].(map[string]any)
	for _, k := range sortedKeys(spec) {
		switch spec[k].(type) {
		case map[string]any, []any:
		default:
			out = append(out, FieldValue{Path: "spec." + k, Value: brief(spec[k])})
		}
	}
	status, _ := m["status"].(map[string]any)
	if len(status) == 0 {
		return append(out, FieldValue{Path: "status", Value: "absent"})
	}
	for _, k := range sortedKeys(status) {
		out = append(out, FieldValue{Path: "status." + k, Value: brief(status[k])})
	}
	return out
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// celFields lists the fields a status rule's expressions select from the object
// (status.phase, spec.paused, ...), with their values; "absent" for those it lacks.
func celFields(obj map[string]any, exprs []RuleExpression) []FieldValue {
	var paths []string
	seen := map[string]bool{}
	for _, x := range exprs {
		parsed, iss := celEnv.Parse(x.Expr)
		if iss.Err() != nil {
			continue
		}
		ast.PostOrderVisit(parsed.NativeRep().Expr(), ast.NewExprVisitor(func(e ast.Expr) {
			if p, ok := selectPath(e); ok && !seen[p] {
				seen[p] = true
				paths = append(paths, p)
			}
		}))
	}
	// Keep the longest paths: status.phase says more than status.
	var out []FieldValue
	for _, p := range paths {
		longer := false
		for _, q := range paths {
			if strings.HasPrefix(q, p+".") {
				longer = true
				break
			}
		}
		if !longer {
			out = append(out, FieldValue{Path: p, Value: valueAt(obj, p)})
		}
	}
	return out
}

// selectPath returns the dotted path of a chain of selections from one of the rule
// variables (status.phase, self.spec.replicas), or false.
func selectPath(e ast.Expr) (string, bool) {
	var parts []string
	for e.Kind() == ast.SelectKind {
		s := e.AsSelect()
		parts = append(parts, s.FieldName())
		e = s.Operand()
	}
	if e.Kind() != ast.IdentKind {
		return "", false
	}
	root := e.AsIdent()
	switch root {
	case "status", "spec", "metadata":
		parts = append(parts, root)
	case "self":
	default:
		return "", false
	}
	if len(parts) == 0 {
		return "", false
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, "."), true
}

// valueAt reads the dotted path p of obj, briefly.
func valueAt(obj map[string]any, p string) string {
	var v any = obj
	for _, k := range strings.Split(p, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return "absent"
		}
		if v, ok = m[k]; !ok {
			return "absent"
		}
	}
	return brief(v)
}
