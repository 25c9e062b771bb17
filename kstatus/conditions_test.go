package kstatus_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kates-dev/kates/kstatus"
)

// widget is a typed custom resource as a controller author would write it.
type widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            widgetStatus `json:"status,omitempty"`
}

type widgetStatus struct {
	ObservedGeneration int64              `json:"observedGeneration,omitempty"`
	Conditions         []metav1.Condition `json:"conditions,omitempty"`
}

func (w *widget) GetConditions() []metav1.Condition  { return w.Status.Conditions }
func (w *widget) SetConditions(c []metav1.Condition) { w.Status.Conditions = c }
func (w *widget) toUnstructured(t *testing.T) *unstructured.Unstructured {
	t.Helper()
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(w)
	if err != nil {
		t.Fatal(err)
	}
	return &unstructured.Unstructured{Object: m}
}

func newWidget(generation int64) *widget {
	w := &widget{TypeMeta: metav1.TypeMeta{APIVersion: "example.com/v1", Kind: "Widget"}}
	w.Name, w.Generation = "w", generation
	w.Status.ObservedGeneration = generation
	return w
}

// subject is one way of holding conditions: typed, or unstructured behind the adapter.
// Every helper test runs against both, so they cannot drift apart.
type subject struct {
	name string
	// make returns an Object with the given generation and conditions, and a func that
	// returns the object as unstructured for Compute.
	make func(t *testing.T, generation int64, conds ...metav1.Condition) (kstatus.Object, func() *unstructured.Unstructured)
}

var subjects = []subject{
	{"typed", func(t *testing.T, gen int64, conds ...metav1.Condition) (kstatus.Object, func() *unstructured.Unstructured) {
		w := newWidget(gen)
		w.Status.Conditions = conds
		return w, func() *unstructured.Unstructured { return w.toUnstructured(t) }
	}},
	{"unstructured", func(t *testing.T, gen int64, conds ...metav1.Condition) (kstatus.Object, func() *unstructured.Unstructured) {
		w := newWidget(gen)
		w.Status.Conditions = conds
		u := w.toUnstructured(t)
		obj, err := kstatus.Unstructured(u)
		if err != nil {
			t.Fatal(err)
		}
		return obj, func() *unstructured.Unstructured { return u }
	}},
}

var (
	old    = metav1.NewTime(time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC))
	later  = metav1.NewTime(time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC))
	byType = cmpopts.SortSlices(func(a, b metav1.Condition) bool { return a.Type < b.Type })
)

func TestSetCondition(t *testing.T) {
	base := metav1.Condition{Type: "Synced", Status: metav1.ConditionTrue, Reason: "Done", Message: "ok",
		LastTransitionTime: old, ObservedGeneration: 6}
	tests := []struct {
		name        string
		set         metav1.Condition
		wantChanged bool
		want        metav1.Condition
		wantNewTime bool // lastTransitionTime must be recent: it was stamped now
	}{
		{
			name:        "same status keeps lastTransitionTime, stamps generation",
			set:         metav1.Condition{Type: "Synced", Status: metav1.ConditionTrue, Reason: "Again", Message: "still ok"},
			wantChanged: true,
			want:        metav1.Condition{Type: "Synced", Status: metav1.ConditionTrue, Reason: "Again", Message: "still ok", LastTransitionTime: old, ObservedGeneration: 7},
		},
		{
			name: "same status and given time still keeps the old time",
			set: metav1.Condition{Type: "Synced", Status: metav1.ConditionTrue, Reason: "Done", Message: "ok",
				LastTransitionTime: later, ObservedGeneration: 6},
			want: base,
		},
		{
			name:        "flip with a given time uses it",
			set:         metav1.Condition{Type: "Synced", Status: metav1.ConditionFalse, Reason: "Drift", LastTransitionTime: later},
			wantChanged: true,
			want:        metav1.Condition{Type: "Synced", Status: metav1.ConditionFalse, Reason: "Drift", LastTransitionTime: later, ObservedGeneration: 7},
		},
		{
			name:        "flip without a time stamps now",
			set:         metav1.Condition{Type: "Synced", Status: metav1.ConditionFalse, Reason: "Drift"},
			wantChanged: true,
			want:        metav1.Condition{Type: "Synced", Status: metav1.ConditionFalse, Reason: "Drift", ObservedGeneration: 7},
			wantNewTime: true,
		},
		{
			name:        "explicit observedGeneration is kept",
			set:         metav1.Condition{Type: "Synced", Status: metav1.ConditionTrue, Reason: "Done", Message: "ok", ObservedGeneration: 5},
			wantChanged: true,
			want:        metav1.Condition{Type: "Synced", Status: metav1.ConditionTrue, Reason: "Done", Message: "ok", LastTransitionTime: old, ObservedGeneration: 5},
		},
		{
			name:        "new type is added with now",
			set:         metav1.Condition{Type: "Other", Status: metav1.ConditionTrue, Reason: "New"},
			wantChanged: true,
			want:        metav1.Condition{Type: "Other", Status: metav1.ConditionTrue, Reason: "New", ObservedGeneration: 7},
			wantNewTime: true,
		},
	}
	for _, s := range subjects {
		for _, tt := range tests {
			t.Run(s.name+"/"+tt.name, func(t *testing.T) {
				obj, _ := s.make(t, 7, base)
				start := time.Now().Add(-time.Second)
				if changed := kstatus.SetCondition(obj, tt.set); changed != tt.wantChanged {
					t.Errorf("SetCondition() = %v, want %v", changed, tt.wantChanged)
				}
				got := kstatus.GetCondition(obj, tt.set.Type)
				if got == nil {
					t.Fatalf("GetCondition(%q) = nil", tt.set.Type)
				}
				if tt.wantNewTime {
					if got.LastTransitionTime.Time.Before(start) {
						t.Errorf("lastTransitionTime = %v, want now", got.LastTransitionTime)
					}
					got.LastTransitionTime = metav1.Time{}
				}
				if diff := cmp.Diff(tt.want, *got); diff != "" {
					t.Errorf("condition mismatch (-want +got):\n%s", diff)
				}
				if tt.set.Type != base.Type {
					if diff := cmp.Diff(base, *kstatus.GetCondition(obj, base.Type)); diff != "" {
						t.Errorf("other condition changed (-want +got):\n%s", diff)
					}
				}
			})
		}
	}
}

func TestRemoveCondition(t *testing.T) {
	for _, s := range subjects {
		t.Run(s.name, func(t *testing.T) {
			a := metav1.Condition{Type: "A", Status: metav1.ConditionTrue, Reason: "R", LastTransitionTime: old}
			b := metav1.Condition{Type: "B", Status: metav1.ConditionFalse, Reason: "R", LastTransitionTime: old}
			obj, _ := s.make(t, 1, a, b)
			if !kstatus.RemoveCondition(obj, "A") {
				t.Errorf("RemoveCondition(A) = false, want true")
			}
			if kstatus.RemoveCondition(obj, "A") {
				t.Errorf("second RemoveCondition(A) = true, want false")
			}
			if diff := cmp.Diff([]metav1.Condition{b}, obj.GetConditions()); diff != "" {
				t.Errorf("conditions mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestMark checks that each Mark function leaves the abnormal-true set consistent and that
// Compute reads what it wrote.
func TestMark(t *testing.T) {
	foreign := metav1.Condition{Type: "ArtifactInStorage", Status: metav1.ConditionTrue, Reason: "Stored", LastTransitionTime: old, ObservedGeneration: 1}
	steps := []struct {
		name       string
		mark       func(kstatus.Object)
		want       map[string]metav1.ConditionStatus
		wantStatus kstatus.Status
		wantMsg    string
	}{
		{
			name:       "MarkReconciling",
			mark:       func(o kstatus.Object) { kstatus.MarkReconciling(o, "Progressing", "fetching revision 3") },
			want:       map[string]metav1.ConditionStatus{"Reconciling": "True", "Ready": "Unknown", "ArtifactInStorage": "True"},
			wantStatus: kstatus.InProgressStatus,
			wantMsg:    "fetching revision 3",
		},
		{
			name:       "MarkStalled",
			mark:       func(o kstatus.Object) { kstatus.MarkStalled(o, "AuthFailed", "repository credentials rejected") },
			want:       map[string]metav1.ConditionStatus{"Stalled": "True", "Ready": "False", "ArtifactInStorage": "True"},
			wantStatus: kstatus.FailedStatus,
			wantMsg:    "repository credentials rejected",
		},
		{
			name:       "MarkReconciling after MarkStalled",
			mark:       func(o kstatus.Object) { kstatus.MarkReconciling(o, "Retrying", "retrying with new credentials") },
			want:       map[string]metav1.ConditionStatus{"Reconciling": "True", "Ready": "Unknown", "ArtifactInStorage": "True"},
			wantStatus: kstatus.InProgressStatus,
			wantMsg:    "retrying with new credentials",
		},
		{
			name:       "MarkReady",
			mark:       func(o kstatus.Object) { kstatus.MarkReady(o, "Succeeded", "stored revision 3") },
			want:       map[string]metav1.ConditionStatus{"Ready": "True", "ArtifactInStorage": "True"},
			wantStatus: kstatus.CurrentStatus,
			wantMsg:    "Resource is Ready",
		},
	}
	for _, s := range subjects {
		t.Run(s.name, func(t *testing.T) {
			obj, toU := s.make(t, 4, foreign)
			for _, step := range steps {
				step.mark(obj)
				got := map[string]metav1.ConditionStatus{}
				for _, c := range obj.GetConditions() {
					got[c.Type] = c.Status
					if c.Type != foreign.Type && c.ObservedGeneration != 4 {
						t.Errorf("%s: %s observedGeneration = %d, want 4", step.name, c.Type, c.ObservedGeneration)
					}
				}
				if diff := cmp.Diff(step.want, got); diff != "" {
					t.Errorf("%s: conditions mismatch (-want +got):\n%s", step.name, diff)
				}
				if diff := cmp.Diff(foreign, *kstatus.GetCondition(obj, foreign.Type)); diff != "" {
					t.Errorf("%s: foreign condition changed (-want +got):\n%s", step.name, diff)
				}
				res, err := kstatus.Compute(toU())
				if err != nil || res.Status != step.wantStatus || res.Message != step.wantMsg {
					t.Errorf("%s: Compute() = %+v, %v; want %s %q", step.name, res, err, step.wantStatus, step.wantMsg)
				}
			}
		})
	}
}

// TestSetConditionDoesNotAlias checks that a helper never writes into an array the caller
// may still hold: GetConditions may return the object's own slice.
func TestSetConditionDoesNotAlias(t *testing.T) {
	w := newWidget(1)
	held := make([]metav1.Condition, 1, 8)
	held[0] = metav1.Condition{Type: "A", Status: metav1.ConditionTrue, Reason: "R", LastTransitionTime: old}
	w.Status.Conditions = held
	kstatus.SetCondition(w, metav1.Condition{Type: "B", Status: metav1.ConditionTrue, Reason: "R"})
	kstatus.SetCondition(w, metav1.Condition{Type: "A", Status: metav1.ConditionFalse, Reason: "R"})
	kstatus.RemoveCondition(w, "B")
	if held[0].Status != metav1.ConditionTrue || held[:2][1].Type != "" {
		t.Errorf("helpers wrote into the caller's array: %+v", held[:2])
	}
}

func TestUnstructuredAdapter(t *testing.T) {
	if _, err := kstatus.Unstructured(&unstructured.Unstructured{Object: map[string]any{
		"kind": "Widget", "status": map[string]any{"conditions": "none"},
	}}); !kstatus.IsMalformed(err) {
		t.Errorf("Unstructured(conditions: string) error = %v, want a FieldError", err)
	}
	if _, err := kstatus.Unstructured(nil); err == nil {
		t.Errorf("Unstructured(nil) error = nil")
	}

	// In-place edits keep extra keys and entries the helpers cannot read.
	u := &unstructured.Unstructured{Object: map[string]any{
		"kind":     "Widget",
		"metadata": map[string]any{"generation": int64(2)},
		"status": map[string]any{"conditions": []any{
			"odd entry",
			map[string]any{"type": "Ready", "status": "False", "reason": "Wait", "lastHeartbeatTime": "2020-01-01T00:00:00Z",
				"lastTransitionTime": "not a time"},
		}},
	}}
	obj, err := kstatus.Unstructured(u)
	if err != nil {
		t.Fatal(err)
	}
	kstatus.SetCondition(obj, metav1.Condition{Type: "Ready", Status: metav1.ConditionFalse, Reason: "StillWaiting", Message: "m"})
	want := []any{
		"odd entry",
		map[string]any{"type": "Ready", "status": "False", "reason": "StillWaiting", "message": "m",
			"lastHeartbeatTime": "2020-01-01T00:00:00Z", "lastTransitionTime": "not a time", "observedGeneration": int64(2)},
	}
	if diff := cmp.Diff(want, u.Object["status"].(map[string]any)["conditions"]); diff != "" {
		t.Errorf("conditions mismatch (-want +got):\n%s", diff)
	}

	// The adapter's own SetConditions replaces the list, reusing entries by type.
	obj.SetConditions([]metav1.Condition{{Type: "Ready", Status: metav1.ConditionTrue, Reason: "Done", LastTransitionTime: old}})
	want = []any{map[string]any{"type": "Ready", "status": "True", "reason": "Done", "message": "",
		"lastHeartbeatTime": "2020-01-01T00:00:00Z", "lastTransitionTime": "2020-01-01T00:00:00Z"}}
	if diff := cmp.Diff(want, u.Object["status"].(map[string]any)["conditions"]); diff != "" {
		t.Errorf("SetConditions mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]metav1.Condition{{Type: "Ready", Status: "True", Reason: "Done", LastTransitionTime: old}},
		obj.GetConditions(), byType); diff != "" {
		t.Errorf("GetConditions mismatch (-want +got):\n%s", diff)
	}
}
