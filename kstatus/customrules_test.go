package kstatus

import (
	"bytes"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func widgetObject(phase string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{"apiVersion": "example.com/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "w"},
		"status": map[string]any{"phase": phase,
			"conditions": []any{map[string]any{"type": "Ready", "status": "False", "reason": "Waiting", "message": "from Ready"}}}}}
}

// phaseRule is a custom rule deciding by status.phase: Ready is Current, Broken Failed,
// Error an evaluation error; any other phase decides nothing.
func phaseRule(u *unstructured.Unstructured) (*Result, error) {
	phase, _, _ := unstructured.NestedString(u.Object, "status", "phase")
	switch phase {
	case "Ready":
		return &Result{Status: CurrentStatus, Message: "phase Ready"}, nil
	case "Broken":
		return &Result{Status: FailedStatus, Message: "phase Broken",
			Conditions: []Condition{{Type: ConditionStalled, Status: "True", Reason: "Broken", Message: "phase Broken"}}}, nil
	case "Error":
		return nil, errors.New("script failed at line 3")
	}
	return nil, nil
}

func TestCustomRules(t *testing.T) {
	rs, err := NewCustomRules(CustomRule{Name: "widgets", Language: "test", Group: "example.com", Kind: "Widget", Eval: phaseRule})
	if err != nil {
		t.Fatal(err)
	}
	cel, err := LoadRules([]byte("rules: [{kind: Widget, group: example.com, current: 'true', message: \"'by cel'\"}]"), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, phase  string
		rules        *RuleSet
		status       Status
		reason, rule string
		message      string
		malformed    bool
	}{
		{"current", "Ready", rs, CurrentStatus, "", "test:widgets", "phase Ready", false},
		{"failed with reason", "Broken", rs, FailedStatus, "Broken", "test:widgets", "phase Broken", false},
		{"error is Unknown", "Error", rs, UnknownStatus, "", "test:widgets", `status rule "widgets": script failed at line 3`, true},
		{"nil falls through to Ready", "Pending", rs, InProgressStatus, "Waiting", "ready", "from Ready", false},
		{"custom set first wins", "Ready", rs.Merge(cel), CurrentStatus, "", "test:widgets", "phase Ready", false},
		{"cel set first wins", "Ready", cel.Merge(rs), CurrentStatus, "", "cel:example.com/Widget", "by cel", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, rule, err := Explain(widgetObject(tc.phase), Options{Rules: tc.rules, NoLibrary: true})
			if IsMalformed(err) != tc.malformed {
				t.Errorf("Explain() error = %v, want malformed %v", err, tc.malformed)
			}
			reason := ""
			if len(res.Conditions) > 0 {
				reason = res.Conditions[0].Reason
			}
			type got struct{ Status, Reason, Rule, Message string }
			if diff := cmp.Diff(got{string(tc.status), tc.reason, tc.rule, tc.message}, got{string(res.Status), reason, rule, res.Message}); diff != "" {
				t.Errorf("Explain() mismatch (-want +got):\n%s", diff)
			}
		})
	}
	if rs.Len() != 1 || len(rs.Rules()) != 0 || cel.Merge(rs).Len() != 1 {
		t.Errorf("Len() = %d, len(Rules()) = %d, merged Len() = %d; want 1, 0 (no CEL source), 1", rs.Len(), len(rs.Rules()), cel.Merge(rs).Len())
	}
}

func TestNewCustomRulesErrors(t *testing.T) {
	eval := func(*unstructured.Unstructured) (*Result, error) { return nil, nil }
	for _, tc := range []struct {
		rule CustomRule
		want string
	}{
		{CustomRule{Kind: "W", Eval: eval}, "no name"},
		{CustomRule{Name: "a", Eval: eval}, "no kind"},
		{CustomRule{Name: "a", Kind: "W"}, "no Eval"},
		{CustomRule{Name: "a", Kind: "W*", Eval: eval}, `kind "W*"`},
		{CustomRule{Name: "a", Group: "ex*.com", Kind: "W", Eval: eval}, `group "ex*.com"`},
		{CustomRule{Name: "a", Group: "*.", Kind: "W", Eval: eval}, `group "*."`},
		{CustomRule{Name: "a", Group: "*", Kind: "W", Eval: eval}, `group "*"`},
		{CustomRule{Name: "a", Group: "*.x.", Kind: "W", Eval: eval}, `group "*.x."`},
	} {
		if _, err := NewCustomRules(tc.rule); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewCustomRules(%+v) error = %v, want one containing %q", tc.rule, err, tc.want)
		}
	}
	for _, ok := range []CustomRule{
		{Name: "suffix", Group: "*.example.com", Kind: "*", Eval: eval},
		{Name: "core", Kind: "Pod", Eval: eval},
	} {
		if _, err := NewCustomRules(ok); err != nil {
			t.Errorf("NewCustomRules(%s) error = %v", ok.Name, err)
		}
	}
	if _, err := NewCustomRules(CustomRule{Name: "a", Group: "g", Kind: "W", Eval: eval}, CustomRule{Name: "b", Group: "g", Kind: "W", Eval: eval}); err == nil {
		t.Error("NewCustomRules() of two rules for one kind: no error")
	}
}

var registerTestFormat sync.Once

// TestRegisterRuleDecoder: a registered decoder reads the documents it knows, its rules
// merge after the CEL rules of the same data, and its errors name the source and document.
func TestRegisterRuleDecoder(t *testing.T) {
	registerTestFormat.Do(func() {
		RegisterRuleDecoder(func(doc []byte, source string) (*RuleSet, bool, error) {
			if !bytes.HasPrefix(doc, []byte("kind: TestRuleFormat")) {
				return nil, false, nil
			}
			if bytes.Contains(doc, []byte("broken")) {
				return nil, true, errors.New("broken test rule")
			}
			rs, err := NewCustomRules(CustomRule{Name: "from-format", Group: "example.com", Kind: "Widget", Eval: phaseRule})
			return rs, true, err
		})
	})
	rs, err := LoadRules([]byte("kind: TestRuleFormat\n---\nrules: [{kind: Gadget, group: example.com, current: 'true'}]\n"), "mixed.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if rs.Len() != 2 {
		t.Errorf("Len() = %d, want 2", rs.Len())
	}
	if _, rule, _ := Explain(widgetObject("Ready"), Options{Rules: rs}); rule != "custom:from-format" {
		t.Errorf("Explain() rule = %q, want custom:from-format", rule)
	}
	_, err = LoadRules([]byte("rules: []\n---\nkind: TestRuleFormat\nbroken: true\n"), "bad.yaml")
	if err == nil || !strings.Contains(err.Error(), "bad.yaml: document 2: broken test rule") {
		t.Errorf("LoadRules() error = %v, want it to name the source and document", err)
	}
}
