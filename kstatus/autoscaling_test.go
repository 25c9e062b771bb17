package kstatus

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// TestHPAVersionsAgree checks that one HorizontalPodAutoscaler gets one verdict whether it
// is read through autoscaling/v2, which has status.conditions, or autoscaling/v1, whose
// API server carries the same conditions in an annotation.
func TestHPAVersionsAgree(t *testing.T) {
	tests := []struct {
		name       string
		conditions []map[string]any
		status     map[string]any // besides conditions
		want       Status
		wantReason string
	}{
		{
			name: "active",
			conditions: []map[string]any{
				{"type": "AbleToScale", "status": "True", "reason": "ReadyForNewScale"},
				{"type": "ScalingActive", "status": "True", "reason": "ValidMetricFound"},
			},
			status: map[string]any{"currentReplicas": int64(2), "desiredReplicas": int64(2)},
			want:   CurrentStatus,
		},
		{
			name: "unable to scale",
			conditions: []map[string]any{
				{"type": "AbleToScale", "status": "False", "reason": "FailedGetScale", "message": "target not found"},
			},
			status:     map[string]any{"desiredReplicas": int64(0)},
			want:       FailedStatus,
			wantReason: "FailedGetScale",
		},
		{
			name: "no metrics",
			conditions: []map[string]any{
				{"type": "AbleToScale", "status": "True", "reason": "SucceededGetScale"},
				{"type": "ScalingActive", "status": "False", "reason": "FailedGetResourceMetric", "message": "no metrics returned"},
			},
			status:     map[string]any{"currentReplicas": int64(1), "desiredReplicas": int64(0)},
			want:       FailedStatus,
			wantReason: "FailedGetResourceMetric",
		},
		{
			name: "target scaled to zero",
			conditions: []map[string]any{
				{"type": "AbleToScale", "status": "True", "reason": "SucceededGetScale"},
				{"type": "ScalingActive", "status": "False", "reason": "ScalingDisabled"},
			},
			status: map[string]any{"desiredReplicas": int64(0)},
			want:   CurrentStatus,
		},
		{
			name:       "not observed yet",
			status:     map[string]any{"desiredReplicas": int64(0)},
			want:       InProgressStatus,
			wantReason: "NotObserved",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v2, v1 := hpaVersions(t, tt.conditions, tt.status)
			got2, err2 := Compute(v2)
			got1, err1 := Compute(v1)
			if err1 != nil || err2 != nil {
				t.Fatalf("Compute() errors: v1 %v, v2 %v", err1, err2)
			}
			if diff := cmp.Diff(got2, got1); diff != "" {
				t.Errorf("Compute(v1) differs from Compute(v2) (-v2 +v1):\n%s", diff)
			}
			var gotReason string
			if len(got2.Conditions) > 0 {
				gotReason = got2.Conditions[0].Reason
			}
			if diff := cmp.Diff([2]string{string(tt.want), tt.wantReason}, [2]string{string(got2.Status), gotReason}); diff != "" {
				t.Errorf("Compute() status and reason mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// hpaVersions returns one autoscaler as autoscaling/v2 and as autoscaling/v1 shape it.
func hpaVersions(t *testing.T, conditions []map[string]any, status map[string]any) (v2, v1 *unstructured.Unstructured) {
	t.Helper()
	object := func(apiVersion string) *unstructured.Unstructured {
		st := map[string]any{}
		for k, v := range status {
			st[k] = v
		}
		return &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": apiVersion,
			"kind":       "HorizontalPodAutoscaler",
			"metadata":   map[string]any{"name": "web", "generation": int64(1)},
			"status":     st,
		}}
	}
	v2, v1 = object("autoscaling/v2"), object("autoscaling/v1")
	if len(conditions) == 0 {
		return v2, v1
	}
	list := make([]any, len(conditions))
	for i, c := range conditions {
		list[i] = c
	}
	v2.Object["status"].(map[string]any)["conditions"] = list
	raw, err := json.Marshal(conditions)
	if err != nil {
		t.Fatal(err)
	}
	v1.SetAnnotations(map[string]string{"autoscaling.alpha.kubernetes.io/conditions": string(raw)})
	return v2, v1
}
