package kstatus

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// TestPartConditionsOddShapes feeds the readers of conditions kept per part shapes an
// operator's schema might allow and a decoder might produce: nothing panics, nothing that
// is not condition-shaped is read as a condition, and the verdict is never Unknown for
// shapes the server validated.
func TestPartConditionsOddShapes(t *testing.T) {
	for name, tc := range map[string]struct {
		status map[string]any
		want   Status
	}{
		"status.condition a string":                   {map[string]any{"condition": "Ready"}, CurrentStatus},
		"status.condition without a type":             {map[string]any{"condition": map[string]any{"status": "False"}}, CurrentStatus},
		"status.condition with a status not of three": {map[string]any{"condition": map[string]any{"condition": "MeshReady", "status": "Yes"}}, CurrentStatus},
		"status.condition a type not a string":        {map[string]any{"condition": map[string]any{"type": int64(3), "status": "False"}}, CurrentStatus},
		"parts of numbers":                            {map[string]any{"functionConditions": map[string]any{"a": int64(5), "b": nil}}, CurrentStatus},
		"parts of empty lists":                        {map[string]any{"clusterConditions": map[string]any{"a": []any{}}}, CurrentStatus},
		"parts of lists of strings":                   {map[string]any{"clusterConditions": map[string]any{"a": []any{"Ready"}}}, CurrentStatus},
		"an empty parts object":                       {map[string]any{"functionConditions": map[string]any{}}, CurrentStatus},
		"a field named Conditions alone":              {map[string]any{"Conditions": map[string]any{"a": map[string]any{"type": "Ready", "status": "False"}}}, CurrentStatus},
		"a part False":                                {map[string]any{"functionConditions": map[string]any{"a": map[string]any{"condition": "FunctionReady", "status": "False"}}}, InProgressStatus},
		"conditions as an object of parts, one Unknown": {map[string]any{"conditions": map[string]any{
			"a": map[string]any{"type": "Synced", "status": "True"},
			"b": map[string]any{"type": "Synced", "status": "Unknown"},
		}}, InProgressStatus},
	} {
		t.Run(name, func(t *testing.T) {
			u := &unstructured.Unstructured{Object: map[string]any{
				"apiVersion": "example.com/v1", "kind": "Thing",
				"metadata": map[string]any{"name": "t", "generation": int64(1)},
				"status":   tc.status,
			}}
			res, err := Compute(u)
			require.NoError(t, err)
			assert.Equal(t, tc.want, res.Status, res.Message)
		})
	}
}

// TestWorstOfEachType checks that parts reporting one type yield the worst of them, the
// first in key order among equals, and that other types keep their order.
func TestWorstOfEachType(t *testing.T) {
	c := func(typ, status, msg string) map[string]any {
		return map[string]any{"type": typ, "status": status, "message": msg}
	}
	got := worstOfEachType([]any{c("Ready", "True", "a"), c("Synced", "True", "a"), c("Ready", "Unknown", "b"), c("Ready", "False", "c"), c("Ready", "False", "d")})
	assert.Equal(t, []any{c("Ready", "False", "c"), c("Synced", "True", "a")}, got)
}
