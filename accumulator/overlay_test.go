package accumulator_test

import (
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kates-dev/kates/accumulator"
)

// fakeOverlay is an Overlay whose records the test sets.
type fakeOverlay struct {
	mu     sync.Mutex
	writes map[schema.GroupVersionKind][]accumulator.Write
}

func (o *fakeOverlay) Writes(gvk schema.GroupVersionKind) []accumulator.Write {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.writes[gvk])
}

// set replaces the records for gvk.
func (o *fakeOverlay) set(gvk schema.GroupVersionKind, ws ...accumulator.Write) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.writes == nil {
		o.writes = map[schema.GroupVersionKind][]accumulator.Write{}
	}
	o.writes[gvk] = ws
}

func written(u *unstructured.Unstructured) accumulator.Write {
	return accumulator.Write{Namespace: u.GetNamespace(), Name: u.GetName(), Object: u, ResourceVersion: u.GetResourceVersion()}
}

func deleted(ns, name, rv, uid string) accumulator.Write {
	return accumulator.Write{Namespace: ns, Name: name, Deleted: true, ResourceVersion: rv, UID: typesUID(uid)}
}

func newPod(ns, name, rv, phase string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1",
		"kind":       "Pod",
		"metadata":   map[string]any{"namespace": ns, "name": name, "uid": "uid-" + ns + "-" + name, "resourceVersion": rv},
		"spec":       map[string]any{"nodeName": "node-1"},
		"status":     map[string]any{"phase": phase},
	}}
}

var nodeGVK = schema.GroupVersionKind{Version: "v1", Kind: "Node"}

// newNode returns a Node; unschedulable false leaves spec.unschedulable unset, as the API
// server does.
func newNode(name, rv string, unschedulable bool) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1",
		"kind":       "Node",
		"metadata":   map[string]any{"name": name, "uid": "uid-" + name, "resourceVersion": rv},
		"spec":       map[string]any{},
	}}
	if unschedulable {
		u.Object["spec"] = map[string]any{"unschedulable": true}
	}
	return u
}

func TestOverlay(t *testing.T) {
	cms := cmQuery("Objects", "")
	webOnly := cmQuery("Objects", "")
	webOnly.LabelSelector = labels.SelectorFromSet(labels.Set{"app": "web"})
	inA := cmQuery("Objects", "a")
	running := accumulator.QuerySpec{Name: "Objects", GVK: podGVK, FieldSelector: fields.ParseSelectorOrDie("status.phase=Running,spec.nodeName=node-1")}
	schedulable := accumulator.QuerySpec{Name: "Objects", GVK: nodeGVK, FieldSelector: fields.ParseSelectorOrDie("spec.unschedulable=false")}
	notHidden := cmQuery("Objects", "")
	notHidden.FieldSelector = fields.ParseSelectorOrDie("metadata.name!=hidden")

	tests := []struct {
		name  string
		query accumulator.QuerySpec
		list  []*unstructured.Unstructured // the store's content, at resource version 10
		// writes are the records the overlay reports after a first Update of list.
		writes     []accumulator.Write
		want       []string
		wantDeltas []string
		// catchUp plays the watch catching up (or the client dropping records).
		catchUp         func(t *testing.T, st *accumulator.Store, ov *fakeOverlay)
		wantAfter       []string
		wantAfterDeltas []string
	}{
		{
			name:       "create visible before the watch, superseded when it arrives",
			query:      cms,
			list:       []*unstructured.Unstructured{newCM("a", "x", "5")},
			writes:     []accumulator.Write{written(newCM("a", "y", "20", "k", "v"))},
			want:       []string{"a/x@5", "a/y@20"},
			wantDeltas: []string{"add Objects a/y@20"},
			catchUp: func(t *testing.T, st *accumulator.Store, _ *fakeOverlay) {
				must(t, st.Add(newCM("a", "y", "20", "k", "v")))
			},
			wantAfter: []string{"a/x@5", "a/y@20"},
		},
		{
			name:       "update visible before the watch",
			query:      cms,
			list:       []*unstructured.Unstructured{newCM("a", "x", "5", "k", "old")},
			writes:     []accumulator.Write{written(newCM("a", "x", "20", "k", "new"))},
			want:       []string{"a/x@20"},
			wantDeltas: []string{"update Objects a/x@20"},
			catchUp: func(t *testing.T, st *accumulator.Store, _ *fakeOverlay) {
				must(t, st.Update(newCM("a", "x", "20", "k", "new")))
			},
			wantAfter: []string{"a/x@20"},
		},
		{
			name:   "a newer stored version supersedes a write",
			query:  cms,
			list:   []*unstructured.Unstructured{newCM("a", "x", "5")},
			writes: []accumulator.Write{written(newCM("a", "x", "20"))},
			want:   []string{"a/x@20"}, wantDeltas: []string{"update Objects a/x@20"},
			catchUp: func(t *testing.T, st *accumulator.Store, _ *fakeOverlay) {
				must(t, st.Update(newCM("a", "x", "25")))
			},
			wantAfter: []string{"a/x@25"}, wantAfterDeltas: []string{"update Objects a/x@25"},
		},
		{
			name:       "delete by name hides the object until the watch deletes it",
			query:      cms,
			list:       []*unstructured.Unstructured{newCM("a", "x", "5"), newCM("a", "y", "6")},
			writes:     []accumulator.Write{deleted("a", "x", "5", "uid-a-x")},
			want:       []string{"a/y@6"},
			wantDeltas: []string{"delete Objects a/x@5"},
			catchUp: func(t *testing.T, st *accumulator.Store, _ *fakeOverlay) {
				must(t, st.Delete(newCM("a", "x", "21")))
			},
			wantAfter: []string{"a/y@6"},
		},
		{
			name:   "delete by name with nothing but the name",
			query:  cms,
			list:   []*unstructured.Unstructured{newCM("a", "x", "5")},
			writes: []accumulator.Write{deleted("a", "x", "", "")},
			want:   nil, wantDeltas: []string{"delete Objects a/x@5"},
			catchUp: func(t *testing.T, st *accumulator.Store, _ *fakeOverlay) {
				must(t, st.Delete(newCM("a", "x", "21")))
			},
		},
		{
			name:   "a delete does not hide an object recreated since (another UID)",
			query:  cms,
			list:   []*unstructured.Unstructured{withUID(newCM("a", "x", "5"), "uid-2")},
			writes: []accumulator.Write{deleted("a", "x", "4", "uid-1")},
			want:   []string{"a/x@5"},
		},
		{
			name:       "a delete is superseded by a newer version (a terminating object)",
			query:      cms,
			list:       []*unstructured.Unstructured{newCM("a", "x", "5")},
			writes:     []accumulator.Write{deleted("a", "x", "5", "uid-a-x")},
			want:       nil,
			wantDeltas: []string{"delete Objects a/x@5"},
			catchUp: func(t *testing.T, st *accumulator.Store, _ *fakeOverlay) {
				u := newCM("a", "x", "22")
				u.SetFinalizers([]string{"example.com/keep"})
				must(t, st.Update(u))
			},
			wantAfter: []string{"a/x@22"}, wantAfterDeltas: []string{"add Objects a/x@22"},
		},
		{
			name:       "a written object whose labels stop matching leaves the view",
			query:      webOnly,
			list:       []*unstructured.Unstructured{withLabels(newCM("a", "x", "5"), "app", "web")},
			writes:     []accumulator.Write{written(withLabels(newCM("a", "x", "20"), "app", "db"))},
			want:       nil,
			wantDeltas: []string{"delete Objects a/x@5"},
			catchUp: func(t *testing.T, st *accumulator.Store, _ *fakeOverlay) {
				// The filtered watch reports an object that stops matching as deleted.
				must(t, st.Delete(withLabels(newCM("a", "x", "20"), "app", "db")))
			},
		},
		{
			name:       "a written object whose labels start matching enters the view",
			query:      webOnly,
			writes:     []accumulator.Write{written(withLabels(newCM("a", "x", "20"), "app", "web"))},
			want:       []string{"a/x@20"},
			wantDeltas: []string{"add Objects a/x@20"},
			catchUp: func(t *testing.T, st *accumulator.Store, _ *fakeOverlay) {
				must(t, st.Add(withLabels(newCM("a", "x", "20"), "app", "web")))
			},
			wantAfter: []string{"a/x@20"},
		},
		{
			name:   "an object created in another namespace never enters",
			query:  inA,
			list:   []*unstructured.Unstructured{newCM("a", "x", "5")},
			writes: []accumulator.Write{written(newCM("b", "y", "20")), deleted("b", "x", "5", "")},
			want:   []string{"a/x@5"},
		},
		{
			name:       "field selectors: a pod that stops running leaves the view",
			query:      running,
			list:       []*unstructured.Unstructured{newPod("a", "p1", "5", "Running"), newPod("a", "p2", "6", "Running")},
			writes:     []accumulator.Write{written(newPod("a", "p1", "20", "Succeeded")), written(newPod("a", "p3", "21", "Running"))},
			want:       []string{"a/p2@6", "a/p3@21"},
			wantDeltas: []string{"delete Objects a/p1@5", "add Objects a/p3@21"},
			catchUp: func(t *testing.T, st *accumulator.Store, _ *fakeOverlay) {
				must(t, st.Delete(newPod("a", "p1", "20", "Succeeded")))
				must(t, st.Add(newPod("a", "p3", "21", "Running")))
			},
			wantAfter: []string{"a/p2@6", "a/p3@21"},
		},
		{
			name:  "field selectors: an unset bool reads false",
			query: schedulable,
			list:  []*unstructured.Unstructured{newNode("n1", "5", false), newNode("n2", "6", false)},
			writes: []accumulator.Write{
				written(newNode("n1", "20", true)),                        // cordoned
				written(withLabels(newNode("n2", "21", false), "x", "y")), // labelled, still schedulable
			},
			want:       []string{"n2@21"},
			wantDeltas: []string{"delete Objects n1@5", "update Objects n2@21"},
		},
		{
			name:   "field selectors: metadata.name",
			query:  notHidden,
			writes: []accumulator.Write{written(newCM("a", "hidden", "20")), written(newCM("a", "shown", "21"))},
			want:   []string{"a/shown@21"}, wantDeltas: []string{"add Objects a/shown@21"},
		},
		{
			name:       "the store's resource version supersedes a record whose object it will never hold",
			query:      webOnly,
			writes:     []accumulator.Write{written(withLabels(newCM("a", "x", "20"), "app", "db")), written(withLabels(newCM("a", "y", "21"), "app", "web"))},
			want:       []string{"a/y@21"},
			wantDeltas: []string{"add Objects a/y@21"},
			catchUp: func(t *testing.T, st *accumulator.Store, _ *fakeOverlay) {
				must(t, st.Bookmark("30"))
			},
			// The store caught up past y's write without holding y: y was deleted since.
			wantAfter: nil, wantAfterDeltas: []string{"delete Objects a/y@21"},
		},
		{
			name:       "a dropped record falls back to the store",
			query:      cms,
			list:       []*unstructured.Unstructured{newCM("a", "x", "5")},
			writes:     []accumulator.Write{written(newCM("a", "x", "20"))},
			want:       []string{"a/x@20"},
			wantDeltas: []string{"update Objects a/x@20"},
			catchUp: func(t *testing.T, _ *accumulator.Store, ov *fakeOverlay) {
				ov.set(configMapGVK)
				ov.set(podGVK)
			},
			wantAfter: []string{"a/x@5"}, wantAfterDeltas: []string{"update Objects a/x@5"},
		},
		{
			name:   "malformed resource versions supersede only when equal",
			query:  cms,
			list:   []*unstructured.Unstructured{newCM("a", "x", "abc")},
			writes: []accumulator.Write{written(newCM("a", "x", "abd")), written(newCM("a", "y", "xyz"))},
			want:   []string{"a/x@abd", "a/y@xyz"}, wantDeltas: []string{"update Objects a/x@abd", "add Objects a/y@xyz"},
			catchUp: func(t *testing.T, st *accumulator.Store, _ *fakeOverlay) {
				must(t, st.Update(newCM("a", "x", "abd")))
			},
			wantAfter: []string{"a/x@abd", "a/y@xyz"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ov := &fakeOverlay{}
			acc := mustNew(t, accumulator.Options{Overlay: ov}, tt.query)
			replace(t, acc, "Objects", "10", tt.list...)
			var snap struct{ Objects []*unstructured.Unstructured }
			update(t, acc, &snap)

			ov.set(tt.query.GVK, tt.writes...)
			ok, ds := update(t, acc, &snap)
			if diff := cmp.Diff(tt.want, describe(t, snap.Objects)); diff != "" {
				t.Errorf("view with the overlay mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantDeltas, deltaStrings(ds)); diff != "" {
				t.Errorf("deltas with the overlay mismatch (-want +got):\n%s", diff)
			}
			if ok != (len(tt.wantDeltas) > 0) {
				t.Errorf("Update with the overlay = %v, want %v", ok, len(tt.wantDeltas) > 0)
			}
			// Asking again without any change is no change.
			if ok, ds := update(t, acc, &snap); ok || ds != nil {
				t.Errorf("repeated Update = %v, %v; want false, no deltas", ok, deltaStrings(ds))
			}
			if tt.catchUp == nil {
				return
			}
			tt.catchUp(t, acc.Store("Objects"), ov)
			_, ds = update(t, acc, &snap)
			if diff := cmp.Diff(tt.wantAfter, describe(t, snap.Objects)); diff != "" {
				t.Errorf("view after catching up mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantAfterDeltas, deltaStrings(ds)); diff != "" {
				t.Errorf("deltas after catching up mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestOverlayNotify checks the path a client takes: record a write, call Notify, and the
// consumer's next Update shows it.
func TestOverlayNotify(t *testing.T) {
	ov := &fakeOverlay{}
	acc := mustNew(t, accumulator.Options{Overlay: ov}, cmQuery("ConfigMaps", ""))
	acc.Notify()
	if signalled(acc) {
		t.Fatal("Notify signalled before bootstrap")
	}
	replace(t, acc, "ConfigMaps", "10")
	signalled(acc)
	var snap cmSnapshot
	update(t, acc, &snap)

	ov.set(configMapGVK, written(newCM("a", "x", "20")))
	acc.Notify()
	if !signalled(acc) {
		t.Fatal("Notify did not signal")
	}
	if ok, _ := update(t, acc, &snap); !ok || len(snap.ConfigMaps) != 1 || snap.ConfigMaps[0].Name != "x" {
		t.Fatalf("Update after a write: ok=%v, %v", ok, describe(t, snap.ConfigMaps))
	}
}

// TestBookmarkWakes checks that a bookmark, which may supersede write records, wakes the
// consumer when there is an Overlay, and only when it advances the resource version.
func TestBookmarkWakes(t *testing.T) {
	for _, withOverlay := range []bool{false, true} {
		opts := accumulator.Options{}
		if withOverlay {
			opts.Overlay = &fakeOverlay{}
		}
		acc := mustNew(t, opts, cmQuery("ConfigMaps", ""))
		replace(t, acc, "ConfigMaps", "10")
		signalled(acc)
		must(t, acc.Store("ConfigMaps").Bookmark("20"))
		if got := signalled(acc); got != withOverlay {
			t.Errorf("overlay %v: bookmark signalled = %v", withOverlay, got)
		}
		must(t, acc.Store("ConfigMaps").Bookmark("20"))
		acc.Store("ConfigMaps").UpdateResourceVersion("21")
		if signalled(acc) {
			t.Errorf("overlay %v: a bookmark that did not advance, or UpdateResourceVersion, signalled", withOverlay)
		}
	}
}
