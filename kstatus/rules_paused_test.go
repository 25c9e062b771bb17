package kstatus

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRulePausedDecidesBeforeGeneration: a rule's paused expression lets the rule judge an
// object whose controller stands still and so never observes its latest generation; when
// it is false, or the rule decides nothing, the generation check answers as before.
func TestRulePausedDecidesBeforeGeneration(t *testing.T) {
	rs, err := CompileRules([]Rule{{
		Name: "example/Pipeline", Group: "example.com", Kind: "Pipeline",
		Paused:  "has(spec.hold) && spec.hold",
		Failed:  "has(spec.hold) && spec.hold && status.?ready.orValue(false) != true",
		Message: "has(spec.hold) && spec.hold ? 'Held (spec.hold): a person must release it' : 'working'",
	}, {
		Name: "example/Broken", Group: "example.com", Kind: "Broken",
		Paused: "spec.missing == true",
		Failed: "true",
	}})
	require.NoError(t, err)
	opts := Options{Rules: rs}
	obj := func(kind string, hold bool, ready bool) map[string]any {
		return map[string]any{
			"apiVersion": "example.com/v1", "kind": kind,
			"metadata": map[string]any{"name": "p", "generation": int64(2)},
			"spec":     map[string]any{"hold": hold},
			"status":   map[string]any{"observedGeneration": int64(1), "ready": ready},
		}
	}
	for _, tc := range []struct {
		name       string
		m          map[string]any
		want       Status
		wantReason string
	}{
		{"held, not ready: the rule decides", obj("Pipeline", true, false), FailedStatus, "RuleFailed"},
		{"held but ready: the rule decides nothing, so generation does", obj("Pipeline", true, true), InProgressStatus, "LatestGenerationNotObserved"},
		{"not held: generation decides", obj("Pipeline", false, false), InProgressStatus, "LatestGenerationNotObserved"},
		{"paused expression fails: Unknown naming it", obj("Broken", true, false), UnknownStatus, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, _ := ComputeWith(objectOf(t, mustJSON(tc.m)), opts)
			require.NotNil(t, res)
			assert.Equal(t, tc.want, res.Status, res.Message)
			if tc.wantReason != "" {
				require.NotEmpty(t, res.Conditions)
				assert.Equal(t, tc.wantReason, res.Conditions[0].Reason)
			}
			if tc.want == UnknownStatus {
				assert.Contains(t, res.Message, "paused")
			}
		})
	}
}

// TestRuleSum: list.sum() totals ints as an int, mixed numbers as a double, an empty list as
// 0, and is an evaluation error (Unknown, naming the rule) on a list of strings.
func TestRuleSum(t *testing.T) {
	rs, err := CompileRules([]Rule{{
		Name: "example/Cluster", Group: "example.com", Kind: "Cluster",
		InProgress: "status.ready < spec.pools.map(p, p.size).sum()",
		Current:    "true",
	}})
	require.NoError(t, err)
	obj := func(ready any, sizes ...any) map[string]any {
		pools := []any{}
		for _, s := range sizes {
			pools = append(pools, map[string]any{"size": s})
		}
		return map[string]any{"apiVersion": "example.com/v1", "kind": "Cluster", "metadata": map[string]any{"name": "c"},
			"spec": map[string]any{"pools": pools}, "status": map[string]any{"ready": ready}}
	}
	for _, tc := range []struct {
		name string
		m    map[string]any
		want Status
	}{
		{"short of the total", obj(int64(3), int64(3), int64(2)), InProgressStatus},
		{"at the total", obj(int64(5), int64(3), int64(2)), CurrentStatus},
		{"doubles", obj(float64(4), 3.0, 1.5), InProgressStatus},
		{"empty list sums to 0", obj(int64(0)), CurrentStatus},
		{"strings: Unknown", obj(int64(1), "a", "b"), UnknownStatus},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, _ := ComputeWith(objectOf(t, mustJSON(tc.m)), Options{Rules: rs})
			require.NotNil(t, res)
			assert.Equal(t, tc.want, res.Status, res.Message)
		})
	}
}
