package kstatus

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// TestKopfHandling covers the kopf records the fixtures do not: a handler failed for good, a
// record of a handler that succeeded while another runs, and annotations that only look like
// records.
func TestKopfHandling(t *testing.T) {
	object := func(annotations map[string]any, status map[string]any) *unstructured.Unstructured {
		meta := map[string]any{"name": "x", "namespace": "ns", "generation": int64(1)}
		if annotations != nil {
			meta["annotations"] = annotations
		}
		u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": meta}}
		if status != nil {
			u.Object["status"] = status
		}
		return u
	}
	for _, tc := range []struct {
		name            string
		obj             *unstructured.Unstructured
		status          Status
		reason, message string
	}{{
		name: "failed for good beside a handler retrying",
		obj: object(nil, map[string]any{"phase": "Ready", "kopf": map[string]any{"progress": map[string]any{
			"create_db":   map[string]any{"started": "2026-01-10T10:00:00+00:00", "retries": int64(1), "success": false, "failure": false, "delayed": "2026-01-10T10:01:00+00:00"},
			"create_user": map[string]any{"started": "2026-01-10T10:00:00+00:00", "stopped": "2026-01-10T10:00:02+00:00", "retries": int64(1), "success": false, "failure": true, "message": "invalid\nusername"},
		}}}),
		status: FailedStatus, reason: "HandlerFailed", message: "kopf handler create_user failed for good: invalid username",
	}, {
		name: "succeeded beside one running, in annotations",
		obj: object(map[string]any{
			"kopf.zalando.org/a_fn":                       `{"started":"2026-01-10T10:00:00+00:00","stopped":"2026-01-10T10:00:01+00:00","purpose":"create","retries":1,"success":true,"failure":false}`,
			"kopf.zalando.org/b_fn":                       `{"started":"2026-01-10T10:00:00+00:00","purpose":"create","retries":0,"success":false,"failure":false}`,
			"kopf.zalando.org/last-handled-configuration": `{"spec":{"size":1}}`,
		}, map[string]any{"phase": "Ready"}),
		status: InProgressStatus, reason: "HandlerRunning", message: "kopf handler b_fn has not finished",
	}, {
		name: "only records of handlers that succeeded",
		obj: object(map[string]any{
			"kopf.zalando.org/a_fn": `{"started":"2026-01-10T10:00:00+00:00","success":true,"failure":false}`,
		}, map[string]any{"phase": "Ready"}),
		status: CurrentStatus, message: "phase is Ready",
	}, {
		name: "an annotation that starts like a record but is not JSON",
		obj: object(map[string]any{
			"example.com/note": `{"started": tomorrow`,
		}, map[string]any{"phase": "Ready"}),
		status: CurrentStatus, message: "phase is Ready",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Compute(tc.obj)
			if !assert.NoError(t, err) {
				return
			}
			assert.Equal(t, tc.status, res.Status)
			assert.Equal(t, tc.message, res.Message)
			if tc.reason != "" && assert.NotEmpty(t, res.Conditions) {
				assert.Equal(t, tc.reason, res.Conditions[0].Reason)
			}
		})
	}
}
