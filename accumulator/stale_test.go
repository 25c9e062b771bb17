package accumulator_test

import (
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"

	"github.com/kates-dev/kates/accumulator"
)

// staleRecorder is a queryRecorder that also counts refused events (accumulator.StaleObserver).
type staleRecorder struct {
	*recorder
	stale map[accumulator.EventType]int
}

func (r *staleRecorder) Query(spec accumulator.QuerySpec) accumulator.QueryObserver {
	return staleQuery{r.recorder.Query(spec).(*queryRecorder), r}
}

type staleQuery struct {
	*queryRecorder
	r *staleRecorder
}

func (q staleQuery) Stale(e accumulator.EventType) {
	q.r.mu.Lock()
	defer q.r.mu.Unlock()
	q.r.stale[e]++
}

func (r *staleRecorder) counts() map[accumulator.EventType]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[accumulator.EventType]int{}
	for k, v := range r.stale {
		out[k] = v
	}
	return out
}

// TestViewNeverGoesBackwards feeds a store events a misbehaving or lagging server could send —
// older versions, deletions of older versions, objects back after their deletion, a list older
// than the view — and checks that the view never shows an older version or a deleted object
// again, that each refusal is counted, that persistent ones ask for a relist, and that what
// legitimately follows (a newer version, a recreated object) is applied.
func TestViewNeverGoesBackwards(t *testing.T) {
	rec := &staleRecorder{recorder: newRecorder(), stale: map[accumulator.EventType]int{}}
	acc := mustNew(t, accumulator.Options{Observer: rec}, cmQuery("ConfigMaps", ""))
	st := acc.Store("ConfigMaps")
	var snap struct{ ConfigMaps []*corev1.ConfigMap }
	view := func(step string, want ...string) {
		t.Helper()
		update(t, acc, &snap)
		if diff := cmp.Diff(want, describe(t, snap.ConfigMaps)); diff != "" {
			t.Fatalf("%s: view mismatch (-want +got):\n%s", step, diff)
		}
	}
	relist := st.RelistWanted()
	wanted := func() bool {
		select {
		case <-relist:
			return true
		default:
			return false
		}
	}

	replace(t, acc, "ConfigMaps", "10", newCM("a", "x", "5"), newCM("a", "y", "6"), newCM("a", "z", "7"))
	view("listed", "a/x@5", "a/y@6", "a/z@7")

	must(t, st.Update(newCM("a", "x", "12")))
	must(t, st.Update(newCM("a", "x", "11"))) // older than the 12 held
	view("an older update after a newer one", "a/x@12", "a/y@6", "a/z@7")
	assert.False(t, wanted(), "one refusal asks for no relist")

	must(t, st.Delete(newCM("a", "y", "13")))
	must(t, st.Add(newCM("a", "y", "6"))) // back after its deletion at 13
	view("a deleted object sent again", "a/x@12", "a/z@7")

	must(t, st.Add(newCM("a", "w", "9"))) // not in the list at 10: from before it
	view("an unknown object older than the list", "a/x@12", "a/z@7")
	assert.True(t, wanted(), "three refusals since the list ask for a relist")

	must(t, st.Update(newCM("a", "z", "15")))
	must(t, st.Delete(newCM("a", "z", "14"))) // the deletion of a version older than 15
	view("the deletion of an older version", "a/x@12", "a/z@15")

	must(t, st.Add(newCM("a", "y", "16"))) // recreated: newer than its deletion
	must(t, st.Add(newCM("a", "v", "17"))) // a new object
	view("what follows legitimately", "a/v@17", "a/x@12", "a/y@16", "a/z@15")

	// A lagging server's relist, at 14: x at 11 (the view holds 12), y absent (the view holds
	// 16, newer than the list), z at 15 as held, v absent (held at 17), and u, deleted at 18,
	// listed at 8.
	must(t, st.Add(newCM("a", "u", "17")))
	must(t, st.Delete(newCM("a", "u", "18")))
	replace(t, acc, "ConfigMaps", "14", newCM("a", "x", "11"), newCM("a", "z", "15"), newCM("a", "u", "8"))
	view("a lagging list", "a/v@17", "a/x@12", "a/y@16", "a/z@15")
	relist = st.RelistWanted()
	assert.False(t, wanted(), "a list ends the request: the next one starts afresh")

	// A list from a server that caught up is applied whole, deletions included.
	replace(t, acc, "ConfigMaps", "20", newCM("a", "x", "19"), newCM("a", "y", "16"))
	view("a current list", "a/x@19", "a/y@16")

	// Resource versions that are not integers are never compared.
	must(t, st.Update(newCM("a", "x", "abc")))
	view("a malformed version", "a/x@abc", "a/y@16")

	got := rec.counts()
	require.Equal(t, map[accumulator.EventType]int{
		accumulator.EventUpdate: 1, accumulator.EventAdd: 2, accumulator.EventDelete: 1,
		"replace": 4, // x at 11, u at 8, and y and v kept over their absence
	}, got)
}

// TestRecreatedObjectsAndManyDeletions checks the bound on remembered deletions: past it, an
// unknown object older than the newest forgotten deletion is still refused, and a newer one is
// applied.
func TestRecreatedObjectsAndManyDeletions(t *testing.T) {
	acc := mustNew(t, accumulator.Options{}, cmQuery("ConfigMaps", ""))
	st := acc.Store("ConfigMaps")
	replace(t, acc, "ConfigMaps", "1")
	const n = 5000 // more than the store remembers
	for i := range n {
		name := "cm" + itoa(i)
		must(t, st.Add(newCM("a", name, itoa(2*i+2))))
		must(t, st.Delete(newCM("a", name, itoa(2*i+3))))
	}
	var snap struct{ ConfigMaps []*corev1.ConfigMap }
	update(t, acc, &snap)
	require.Empty(t, snap.ConfigMaps)
	// Every one of them, sent again at its old version, stays deleted.
	for i := range n {
		must(t, st.Add(newCM("a", "cm"+itoa(i), itoa(2*i+2))))
	}
	update(t, acc, &snap)
	require.Empty(t, snap.ConfigMaps, "deleted objects came back")
	must(t, st.Add(newCM("a", "cm0", itoa(2*n+5))))
	update(t, acc, &snap)
	require.Equal(t, []string{"a/cm0@" + itoa(2*n+5)}, describe(t, snap.ConfigMaps))
}

func itoa(i int) string { return strconv.Itoa(i) }
