package kstatus_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kates-dev/kates/kstatus"
)

// t0 is the start of the scripted lifecycles below; step n happens n minutes later.
var t0 = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

func at(minutes int) time.Time { return t0.Add(time.Duration(minutes) * time.Minute) }

func stamp(minutes int) string { return at(minutes).Format(time.RFC3339) }

// split returns u's Reconciling and Stalled entries by type, and a deep copy of the other
// entries, in order.
func split(t *testing.T, u *unstructured.Unstructured) (owned map[string]map[string]any, foreign []any) {
	t.Helper()
	list, _, err := unstructured.NestedSlice(u.Object, "status", "conditions")
	if err != nil {
		t.Fatal(err)
	}
	owned = map[string]map[string]any{}
	for _, e := range list {
		if m, ok := e.(map[string]any); ok && (m["type"] == "Reconciling" || m["type"] == "Stalled") {
			owned[m["type"].(string)] = m
			continue
		}
		foreign = append(foreign, runtime.DeepCopyJSONValue(e))
	}
	return owned, foreign
}

// augmentStep runs AugmentAt at the given minute and checks the owned conditions against
// want (type → status, reason, message, lastTransitionTime), the foreign ones against
// what they were before, and that Compute on the result agrees with wantStatus.
func augmentStep(t *testing.T, u *unstructured.Unstructured, minute int, wantStatus kstatus.Status, want map[string]map[string]any) {
	t.Helper()
	_, foreignBefore := split(t, u)
	if err := kstatus.AugmentAt(u, at(minute)); err != nil {
		t.Fatalf("minute %d: AugmentAt() error = %v", minute, err)
	}
	owned, foreignAfter := split(t, u)
	if diff := cmp.Diff(foreignBefore, foreignAfter); diff != "" {
		t.Errorf("minute %d: Augment changed conditions it does not own (-want +got):\n%s", minute, diff)
	}
	if diff := cmp.Diff(want, owned); diff != "" {
		t.Errorf("minute %d: Reconciling/Stalled mismatch (-want +got):\n%s", minute, diff)
	}
	res, err := kstatus.Compute(u)
	if err != nil || res.Status != wantStatus {
		t.Errorf("minute %d: Compute() after Augment = %+v, %v; want %s", minute, res, err, wantStatus)
	}
}

func cond(status, reason, message string, minute int, generation int64) map[string]any {
	return map[string]any{
		"type": "", "status": status, "reason": reason, "message": message,
		"lastTransitionTime": stamp(minute), "observedGeneration": generation,
	}
}

// typed fills in the type key of each condition in m.
func typed(m map[string]map[string]any) map[string]map[string]any {
	for k, v := range m {
		v["type"] = k
	}
	return m
}

// TestAugmentLifecycle drives one Deployment from rollout to failure to success, as its
// controller would, augmenting it after each change. lastTransitionTime must move only
// when a condition appears or flips, and the controller's own conditions must come
// through untouched, extra keys and odd entries included.
func TestAugmentLifecycle(t *testing.T) {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1",
		"kind":       "Deployment",
		"metadata":   map[string]any{"name": "web", "namespace": "default", "generation": int64(2)},
		"spec":       map[string]any{"replicas": int64(3), "progressDeadlineSeconds": int64(600)},
		"status": map[string]any{
			"observedGeneration": int64(2),
			"replicas":           int64(3),
			"updatedReplicas":    int64(3),
			"readyReplicas":      int64(1),
			"availableReplicas":  int64(1),
			"conditions": []any{
				map[string]any{"type": "Available", "status": "False", "reason": "MinimumReplicasUnavailable",
					"lastUpdateTime": stamp(0), "lastTransitionTime": stamp(0)},
				map[string]any{"type": "Progressing", "status": "True", "reason": "ReplicaSetUpdated",
					"lastUpdateTime": stamp(0), "lastTransitionTime": stamp(0)},
				"an entry some tool left behind",
			},
		},
	}}
	status := u.Object["status"].(map[string]any)
	progressing := status["conditions"].([]any)[1].(map[string]any)

	// Minute 1: rolling out.
	augmentStep(t, u, 1, kstatus.InProgressStatus, typed(map[string]map[string]any{
		"Reconciling": cond("True", "LessAvailable", "Available: 1/3", 1, 2),
	}))

	// Minute 2: further along; same status, so the message moves and the time stays.
	status["readyReplicas"], status["availableReplicas"] = int64(2), int64(2)
	augmentStep(t, u, 2, kstatus.InProgressStatus, typed(map[string]map[string]any{
		"Reconciling": cond("True", "LessAvailable", "Available: 2/3", 1, 2),
	}))

	// Minute 3: the controller gives up. Stalled appears, Reconciling goes.
	progressing["status"], progressing["reason"] = "False", "ProgressDeadlineExceeded"
	progressing["message"] = `ReplicaSet "web-5d9c7b8f4" has timed out progressing.`
	wantFailed := typed(map[string]map[string]any{
		"Stalled": cond("True", "ProgressDeadlineExceeded",
			`Progress deadline exceeded: ReplicaSet "web-5d9c7b8f4" has timed out progressing.`, 3, 2),
	})
	augmentStep(t, u, 3, kstatus.FailedStatus, wantFailed)

	// Minute 4: still failed: nothing changes, the time included.
	augmentStep(t, u, 4, kstatus.FailedStatus, wantFailed)

	// Minute 5: a node frees up and the rollout finishes: both conditions go. (The
	// Stalled written at minute 3 does not pin the Deployment: Augment knows the
	// Deployment controller never writes it.)
	progressing["status"], progressing["reason"] = "True", "NewReplicaSetAvailable"
	progressing["message"] = `ReplicaSet "web-5d9c7b8f4" has successfully progressed.`
	status["readyReplicas"], status["availableReplicas"] = int64(3), int64(3)
	augmentStep(t, u, 5, kstatus.CurrentStatus, map[string]map[string]any{})

	// Minute 6: a new generation; the controller has not seen it yet.
	u.SetGeneration(3)
	augmentStep(t, u, 6, kstatus.InProgressStatus, typed(map[string]map[string]any{
		"Reconciling": cond("True", "LatestGenerationNotObserved",
			"Deployment generation is 3, but latest observed generation is 2", 6, 3),
	}))
}

// TestAugmentFlips drives a custom resource whose controller writes the standard
// conditions itself, False when all is well. A flip from False to True moves
// lastTransitionTime; a condition already True keeps the controller's time.
func TestAugmentFlips(t *testing.T) {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.com/v1",
		"kind":       "Widget",
		"metadata":   map[string]any{"name": "w", "generation": int64(1)},
		"status": map[string]any{
			"observedGeneration": int64(1),
			"conditions": []any{
				map[string]any{"type": "Ready", "status": "False", "reason": "Provisioning", "message": "creating volume", "lastTransitionTime": stamp(0)},
				map[string]any{"type": "Reconciling", "status": "False", "reason": "Idle", "message": "", "lastTransitionTime": stamp(0), "observedGeneration": int64(1)},
			},
		},
	}}
	conds := func() []any { return u.Object["status"].(map[string]any)["conditions"].([]any) }

	// Minute 1: Ready False gives InProgress; Reconciling flips False → True.
	augmentStep(t, u, 1, kstatus.InProgressStatus, typed(map[string]map[string]any{
		"Reconciling": cond("True", "Provisioning", "creating volume", 1, 1),
	}))

	// Minute 2: the controller stalls and writes Stalled True. Augment, at minute 3, keeps
	// the controller's time and drops the Reconciling it wrote at minute 1.
	u.Object["status"].(map[string]any)["conditions"] = append(conds(),
		map[string]any{"type": "Stalled", "status": "True", "reason": "QuotaExceeded", "message": "volume quota exceeded",
			"lastTransitionTime": stamp(2), "observedGeneration": int64(1)})
	augmentStep(t, u, 3, kstatus.FailedStatus, typed(map[string]map[string]any{
		"Stalled": cond("True", "QuotaExceeded", "volume quota exceeded", 2, 1),
	}))

	// Minute 4: the controller recovers: Stalled False, Ready True. Current, and Augment
	// removes both owned types, the controller's Stalled False included (absent and False
	// mean the same for an abnormal-true condition).
	for _, e := range conds() {
		m, _ := e.(map[string]any)
		switch m["type"] {
		case "Stalled":
			m["status"] = "False"
		case "Ready":
			m["status"], m["reason"], m["message"] = "True", "Provisioned", ""
		}
	}
	augmentStep(t, u, 4, kstatus.CurrentStatus, map[string]map[string]any{})
}

func TestAugmentLeavesAlone(t *testing.T) {
	tests := map[string]struct {
		obj     map[string]any
		wantErr bool
	}{
		"malformed": {
			obj: map[string]any{"kind": "Widget", "metadata": map[string]any{"generation": "x"},
				"status": map[string]any{"conditions": []any{}}},
			wantErr: true,
		},
		"terminating": {
			obj: map[string]any{"kind": "Widget", "metadata": map[string]any{"deletionTimestamp": stamp(0)},
				"status": map[string]any{"conditions": []any{map[string]any{"type": "Reconciling", "status": "True"}}}},
		},
		"current without status": {
			obj: map[string]any{"apiVersion": "v1", "kind": "ConfigMap"},
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			u := &unstructured.Unstructured{Object: tt.obj}
			before := u.DeepCopy()
			err := kstatus.AugmentAt(u, at(1))
			if (err != nil) != tt.wantErr {
				t.Errorf("AugmentAt() error = %v, want error: %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(before.Object, u.Object); diff != "" {
				t.Errorf("AugmentAt() changed the object (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAugmentCreatesStatus(t *testing.T) {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web"},
		"spec":     map[string]any{"replicas": int64(2)},
	}}
	if err := kstatus.AugmentAt(u, at(1)); err != nil {
		t.Fatal(err)
	}
	want := []any{map[string]any{
		"type": "Reconciling", "status": "True", "reason": "LessReplicas", "message": "Replicas: 0/2",
		"lastTransitionTime": stamp(1),
	}}
	if diff := cmp.Diff(want, u.Object["status"].(map[string]any)["conditions"]); diff != "" {
		t.Errorf("status.conditions mismatch (-want +got):\n%s", diff)
	}
}
