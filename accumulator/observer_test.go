package accumulator_test

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/cache"

	"github.com/kates-dev/kates/accumulator"
)

// observed is what a recorder was told, per query and of Updates.
type observed struct {
	Queries map[string]*queryObserved
	Updates int
}

type queryObserved struct {
	Received  map[accumulator.EventType]int
	Replaced  []bool
	Coalesced int
	Held      int
}

// recorder is an accumulator.Observer that records what it is told. It observes every query
// but those named in skip.
type recorder struct {
	skip map[string]bool

	mu  sync.Mutex
	got observed
	// asked lists the queries Query was called for, in order.
	asked []string
}

func newRecorder(skip ...string) *recorder {
	r := &recorder{skip: map[string]bool{}, got: observed{Queries: map[string]*queryObserved{}}}
	for _, s := range skip {
		r.skip[s] = true
	}
	return r
}

func (r *recorder) Query(spec accumulator.QuerySpec) accumulator.QueryObserver {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.asked = append(r.asked, spec.Name)
	if r.skip[spec.Name] {
		return nil
	}
	r.got.Queries[spec.Name] = &queryObserved{Received: map[accumulator.EventType]int{}}
	return &queryRecorder{r: r, q: r.got.Queries[spec.Name]}
}

func (r *recorder) Updated(d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if d < 0 {
		panic("negative Update duration")
	}
	r.got.Updates++
}

// snapshot returns a deep copy of what r was told.
func (r *recorder) snapshot() observed {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := observed{Queries: map[string]*queryObserved{}, Updates: r.got.Updates}
	for name, q := range r.got.Queries {
		c := *q
		c.Received = map[accumulator.EventType]int{}
		for k, v := range q.Received {
			c.Received[k] = v
		}
		c.Replaced = append([]bool(nil), q.Replaced...)
		out.Queries[name] = &c
	}
	return out
}

type queryRecorder struct {
	r *recorder
	q *queryObserved
}

func (q *queryRecorder) Received(e accumulator.EventType) {
	q.r.mu.Lock()
	defer q.r.mu.Unlock()
	q.q.Received[e]++
}

func (q *queryRecorder) Replaced(first bool) {
	q.r.mu.Lock()
	defer q.r.mu.Unlock()
	q.q.Replaced = append(q.q.Replaced, first)
}

func (q *queryRecorder) Coalesced(n int) {
	q.r.mu.Lock()
	defer q.r.mu.Unlock()
	if n <= 0 {
		panic("Coalesced with n <= 0")
	}
	q.q.Coalesced += n
}

func (q *queryRecorder) Held(delta int) {
	q.r.mu.Lock()
	defer q.r.mu.Unlock()
	if delta == 0 {
		panic("Held with delta 0")
	}
	q.q.Held += delta
}

// TestObserverSeesScriptedStream feeds a scripted event stream to an observed Accumulator and
// checks, after each step, everything the Observer was told so far.
func TestObserverSeesScriptedStream(t *testing.T) {
	rec := newRecorder("Skipped")
	acc := mustNew(t, accumulator.Options{Observer: rec},
		cmQuery("A", "ns"), cmQuery("B", "ns"), cmQuery("Skipped", "ns"))
	if diff := cmp.Diff([]string{"A", "B", "Skipped"}, rec.asked); diff != "" {
		t.Fatalf("Query calls mismatch (-want +got):\n%s", diff)
	}
	a, b, skipped := acc.Store("A"), acc.Store("B"), acc.Store("Skipped")
	var snap struct{ A, B, Skipped []*corev1.ConfigMap }
	ctx := context.Background()
	doUpdate := func() {
		t.Helper()
		if _, err := acc.Update(ctx, &snap); err != nil {
			t.Fatal(err)
		}
	}

	// want holds what the observer must have been told after each step, cumulatively.
	want := observed{Queries: map[string]*queryObserved{
		"A": {Received: map[accumulator.EventType]int{}},
		"B": {Received: map[accumulator.EventType]int{}},
	}}
	qa, qb := want.Queries["A"], want.Queries["B"]
	steps := []struct {
		name   string
		do     func()
		expect func()
	}{{
		name: "Update before bootstrap is not reported",
		do:   doUpdate,
	}, {
		name: "first list of A bootstraps it and holds its objects",
		do:   func() { replace(t, acc, "A", "2", newCM("ns", "a1", "1"), newCM("ns", "a2", "2")) },
		expect: func() {
			qa.Replaced = append(qa.Replaced, true)
			qa.Held += 2
		},
	}, {
		name:   "first list of B, empty",
		do:     func() { replace(t, acc, "B", "2") },
		expect: func() { qb.Replaced = append(qb.Replaced, true) },
	}, {
		name: "skipped query is fed, and nobody hears of it",
		do: func() {
			must(t, skipped.Replace([]any{newCM("ns", "s1", "1")}, "1"))
			must(t, skipped.Add(newCM("ns", "s2", "3")))
		},
	}, {
		name:   "Update once bootstrapped is reported",
		do:     doUpdate,
		expect: func() { want.Updates++ },
	}, {
		name:   "update of an object the last Update took: not coalesced",
		do:     func() { must(t, a.Update(newCM("ns", "a1", "3"))) },
		expect: func() { qa.Received[accumulator.EventUpdate]++ },
	}, {
		name: "second update before any Update: coalesced",
		do:   func() { must(t, a.Update(newCM("ns", "a1", "4"))) },
		expect: func() {
			qa.Received[accumulator.EventUpdate]++
			qa.Coalesced++
		},
	}, {
		name:   "the same version again is received, and changes nothing",
		do:     func() { must(t, a.Update(newCM("ns", "a1", "4"))) },
		expect: func() { qa.Received[accumulator.EventUpdate]++ },
	}, {
		name: "add of a new object is held",
		do:   func() { must(t, a.Add(newCM("ns", "a3", "5"))) },
		expect: func() {
			qa.Received[accumulator.EventAdd]++
			qa.Held++
		},
	}, {
		name: "delete of the object added since the last Update: coalesced, no longer held",
		do:   func() { must(t, a.Delete(newCM("ns", "a3", "6"))) },
		expect: func() {
			qa.Received[accumulator.EventDelete]++
			qa.Coalesced++
			qa.Held--
		},
	}, {
		name:   "Update",
		do:     doUpdate,
		expect: func() { want.Updates++ },
	}, {
		name: "delete by final state unknown, then of an object not held",
		do: func() {
			must(t, a.Delete(cache.DeletedFinalStateUnknown{Key: "ns/a2"}))
			must(t, a.Delete(newCM("ns", "nothere", "7")))
		},
		expect: func() {
			qa.Received[accumulator.EventDelete] += 2
			qa.Held--
		},
	}, {
		name: "a relist that changes a pending object and adds one",
		do: func() {
			must(t, a.Update(newCM("ns", "a1", "8"))) // a1 pending again, a2's delete pending
			replace(t, acc, "A", "10", newCM("ns", "a1", "9"), newCM("ns", "a2", "10"), newCM("ns", "a4", "10"))
		},
		expect: func() {
			qa.Received[accumulator.EventUpdate]++
			qa.Coalesced += 2 // a1's update and a2's delete, both replaced before an Update
			qa.Held += 2
			qa.Replaced = append(qa.Replaced, false)
		},
	}, {
		name: "a relist that changes nothing",
		do: func() {
			doUpdate()
			replace(t, acc, "A", "11", newCM("ns", "a1", "9"), newCM("ns", "a2", "10"), newCM("ns", "a4", "10"))
		},
		expect: func() {
			want.Updates++
			qa.Replaced = append(qa.Replaced, false)
		},
	}, {
		name: "a relist that drops everything",
		do:   func() { replace(t, acc, "A", "12") },
		expect: func() {
			qa.Held -= 3
			qa.Replaced = append(qa.Replaced, false)
		},
	}, {
		name: "an Update that fails on a recorded error is not reported",
		do: func() {
			acc.SetError("B", errors.New("boom"))
			if _, err := acc.Update(ctx, &snap); err == nil {
				t.Fatal("Update: no error, want the recorded one")
			}
			acc.SetError("B", nil)
		},
	}, {
		name: "B gets events of its own",
		do: func() {
			must(t, b.Add(newCM("ns", "b1", "13")))
			must(t, b.Update(newCM("ns", "b1", "14")))
		},
		expect: func() {
			qb.Received[accumulator.EventAdd]++
			qb.Received[accumulator.EventUpdate]++
			qb.Coalesced++
			qb.Held++
		},
	}}
	for _, step := range steps {
		step.do()
		if step.expect != nil {
			step.expect()
		}
		if diff := cmp.Diff(want, rec.snapshot()); diff != "" {
			t.Fatalf("after %q: observed mismatch (-want +got):\n%s", step.name, diff)
		}
	}
}

// TestObserverHeldMatchesStore checks, across random-ordered adds, updates and deletes, that
// the sum of Held deltas is the number of objects the store holds, which an Update shows.
func TestObserverHeldMatchesStore(t *testing.T) {
	rec := newRecorder()
	acc := mustNew(t, accumulator.Options{Observer: rec}, cmQuery("A", ""))
	replace(t, acc, "A", "1")
	st := acc.Store("A")
	rv := 1
	next := func() string { rv++; return strconv.Itoa(rv) }
	for i := range 200 {
		name := "cm-" + strconv.Itoa(i%17)
		switch i % 5 {
		case 0, 1:
			must(t, st.Add(newCM("ns", name, next())))
		case 2:
			must(t, st.Update(newCM("ns", name, next())))
		case 3:
			must(t, st.Delete(newCM("ns", name, next())))
		case 4:
			var snap struct{ A []*corev1.ConfigMap }
			if _, err := acc.Update(context.Background(), &snap); err != nil {
				t.Fatal(err)
			}
			if got := rec.snapshot().Queries["A"].Held; got != len(snap.A) {
				t.Fatalf("step %d: Held sums to %d, the view holds %d", i, got, len(snap.A))
			}
		}
	}
}

// TestObserverNotToldOfAFailedNew checks that a New that fails asks for no query observer.
func TestObserverNotToldOfAFailedNew(t *testing.T) {
	rec := newRecorder()
	_, err := accumulator.New([]accumulator.QuerySpec{cmQuery("A", ""), cmQuery("A", "")}, accumulator.Options{Observer: rec})
	if err == nil {
		t.Fatal("New with two queries named A: no error")
	}
	if len(rec.asked) != 0 {
		t.Errorf("Query called for %v by a New that failed", rec.asked)
	}
}
