package kates_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/kstatus"
)

// TestWatchEntryStatusWithRules: WatchOptions.StatusRules judges each Entry of a watched
// custom resource by its rule, as the phase moves; without rules the same objects are
// Current from the start.
func TestWatchEntryStatusWithRules(t *testing.T) {
	c, ns := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	crd, group := crdFixture(t)
	if err := c.Create(ctx, crd, crd); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Delete(context.Background(), crd, nil) })
	if err := c.WaitFor(ctx, "widgets."+group); err != nil {
		t.Fatal(err)
	}
	rules, err := kstatus.CompileRules([]kstatus.Rule{{Name: "widgets", Group: group, Kind: "Widget",
		InProgress: "!has(status.phase) || status.phase == 'Pending'",
		Failed:     "status.phase == 'Broken'", Current: "status.phase == 'Ready'"}})
	if err != nil {
		t.Fatal(err)
	}
	w := kates.NewUnstructured(group+"/v1", "Widget", ns, "w1")
	if err := c.Create(ctx, w, w); err != nil {
		t.Fatal(err)
	}

	type snapshot struct {
		Widgets []kates.Entry[*kates.Unstructured]
	}
	q := kates.Query{Name: "Widgets", Kind: "widgets." + group, Namespace: ns}
	withRules, err := c.WatchWith(ctx, kates.WatchOptions{StatusRules: kates.StatusRules{Rules: rules}}, q)
	if err != nil {
		t.Fatal(err)
	}
	without, err := c.Watch(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	// next waits until acc's view of w1 has status want.
	next := func(acc *kates.Accumulator, want kstatus.Status) {
		t.Helper()
		var snap snapshot
		for {
			if _, err := acc.Update(ctx, &snap); err != nil {
				t.Fatal(err)
			}
			if len(snap.Widgets) == 1 && snap.Widgets[0].Status.Status == want {
				return
			}
			select {
			case <-acc.Changed():
			case <-ctx.Done():
				got := kstatus.Result{}
				if len(snap.Widgets) == 1 {
					got = snap.Widgets[0].Status
				}
				t.Fatalf("Widget status never became %s: %s", want, cmp.Diff(kstatus.Result{Status: want}, got))
			}
		}
	}
	noFacts, err := c.WatchWith(ctx, kates.WatchOptions{NoKindFacts: true}, q)
	if err != nil {
		t.Fatal(err)
	}
	next(withRules, kstatus.InProgressStatus)
	// Without the rule, kstatus judges w1 by what the CRD Watch read says: the kind has the
	// status subresource, so a Widget with no status has not been reported on yet.
	next(without, kstatus.InProgressStatus)
	var snap snapshot
	if _, err := without.Update(ctx, &snap); err != nil {
		t.Fatal(err)
	}
	if got := snap.Widgets[0].Status; len(got.Conditions) != 1 || got.Conditions[0].Reason != "NoStatus" {
		t.Errorf("Widget without status: %+v, want InProgress, reason NoStatus", got)
	}
	// Without the CRD's facts, nothing says there is anything to wait for.
	next(noFacts, kstatus.CurrentStatus)
	for _, tc := range []struct {
		phase string
		want  kstatus.Status
	}{{"Pending", kstatus.InProgressStatus}, {"Broken", kstatus.FailedStatus}, {"Ready", kstatus.CurrentStatus}} {
		_ = unstructured.SetNestedField(w.Object, tc.phase, "status", "phase")
		if err := c.UpdateStatus(ctx, w, w); err != nil {
			t.Fatal(err)
		}
		next(withRules, tc.want)
	}
}
