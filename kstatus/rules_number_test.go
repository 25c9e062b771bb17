package kstatus

import (
	"encoding/json"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// TestRuleNumbers: a rule reads a number the same whatever form the decoder gave it
// (int64 as client-go decodes, float64 as encoding/json does, json.Number with
// UseNumber), and compares ints with doubles by value, so rules need no int() or
// double() around a field.
func TestRuleNumbers(t *testing.T) {
	rs, err := CompileRules([]Rule{{
		Name: "example/Widget", Group: "example.com", Kind: "Widget",
		Failed:  "status.errors > 0",
		Current: "status.ready == spec.replicas && status.ready >= 2.5 && status.ratio == 1 && status.ratio < 2",
	}})
	if err != nil {
		t.Fatal(err)
	}
	decode := func(t *testing.T, doc string, useNumber bool) *unstructured.Unstructured {
		t.Helper()
		d := json.NewDecoder(strings.NewReader(doc))
		if useNumber {
			d.UseNumber()
		}
		var m map[string]any
		if err := d.Decode(&m); err != nil {
			t.Fatal(err)
		}
		return &unstructured.Unstructured{Object: m}
	}
	const ready = `{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
		"spec": {"replicas": 3}, "status": {"ready": 3, "errors": 0, "ratio": 1.0}}`
	const broken = `{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
		"spec": {"replicas": 3}, "status": {"ready": 3, "errors": 2, "ratio": 1.0}}`
	for _, tc := range []struct {
		name      string
		u         *unstructured.Unstructured
		want      Status
		useNumber bool
	}{
		{"json.Number ready", decode(t, ready, true), CurrentStatus, true},
		{"json.Number errors", decode(t, broken, true), FailedStatus, true},
		{"float64 ready", decode(t, ready, false), CurrentStatus, false},
		{"float64 errors", decode(t, broken, false), FailedStatus, false},
		{"int64 ready", objectOf(t, json.RawMessage(ready)), CurrentStatus, false},
		{"int64 errors", objectOf(t, json.RawMessage(broken)), FailedStatus, false},
		{"mixed: int64 spec, float64 and json.Number status", &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "example.com/v1", "kind": "Widget", "metadata": map[string]any{"name": "w"},
			"spec":   map[string]any{"replicas": int64(3)},
			"status": map[string]any{"ready": float64(3), "errors": json.Number("0"), "ratio": json.Number("1.0")},
		}}, CurrentStatus, false},
		{"mixed: int64 spec, float64 status", &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "example.com/v1", "kind": "Widget", "metadata": map[string]any{"name": "w"},
			"spec":   map[string]any{"replicas": int64(3)},
			"status": map[string]any{"ready": float64(3), "errors": float64(0), "ratio": int64(1)},
		}}, CurrentStatus, false},
		{"not a number: json.Number that does not parse stays a string", &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "example.com/v1", "kind": "Widget", "metadata": map[string]any{"name": "w"},
			"spec":   map[string]any{"replicas": int64(3)},
			"status": map[string]any{"ready": int64(3), "errors": json.Number("many"), "ratio": int64(1)},
		}}, UnknownStatus, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.useNumber {
				if _, ok := tc.u.Object["spec"].(map[string]any)["replicas"].(json.Number); !ok {
					t.Fatal("the decoder did not give json.Number; the case tests nothing")
				}
			}
			res, err := ComputeWith(tc.u, Options{Rules: rs, NoLibrary: true})
			if res.Status != tc.want || (err != nil) != (tc.want == UnknownStatus) {
				t.Errorf("ComputeWith() = %s (%s), %v; want %s", res.Status, res.Message, err, tc.want)
			}
		})
	}
}

// TestRuleNumbersCrossType: an int and a double compare by value in a rule, at type-check
// as at run time (size() is an int, a literal with a point a double).
func TestRuleNumbersCrossType(t *testing.T) {
	rs, err := CompileRules([]Rule{{
		Name: "example/Gadget", Group: "example.com", Kind: "Gadget",
		Current: "size(status.parts) >= 2.0 && size(status.parts) < 2.5 && status.parts[0] <= 1.5",
	}})
	if err != nil {
		t.Fatal(err)
	}
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.com/v1", "kind": "Gadget", "metadata": map[string]any{"name": "g"},
		"status": map[string]any{"parts": []any{json.Number("1"), int64(7)}},
	}}
	res, err := ComputeWith(u, Options{Rules: rs, NoLibrary: true})
	if err != nil || res.Status != CurrentStatus {
		t.Errorf("ComputeWith() = %s (%s), %v; want Current", res.Status, res.Message, err)
	}
}
