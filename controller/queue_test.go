package controller

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The queue is a pure unit: these tests drive it directly. The cluster tests (controller_test.go)
// show the same guarantees end to end.

func k(name string) Key { return Key{Namespace: "ns", Name: name} }

// take returns the next key without blocking, or fails.
func take(t *testing.T, q *queue) Key {
	t.Helper()
	got := make(chan Key, 1)
	go func() {
		key, _, ok := q.get()
		if ok {
			got <- key
		}
	}()
	select {
	case key := <-got:
		return key
	case <-time.After(5 * time.Second):
		t.Fatal("no key queued")
		return Key{}
	}
}

func TestQueueMergesChanges(t *testing.T) {
	q := newQueue(time.Millisecond, time.Second)
	for range 100 {
		q.add(k("a"), 0, fresh)
	}
	assert.Equal(t, 1, q.len(), "a hundred changes to one waiting key are one reconcile")
	assert.Equal(t, k("a"), take(t, q))

	// Changes while it runs: queued once more when it returns, not before.
	for range 100 {
		q.add(k("a"), 0, fresh)
	}
	assert.Equal(t, 0, q.len(), "a running key is not queued beside itself")
	q.done(k("a"), outcome{})
	assert.Equal(t, 1, q.len())
	assert.Equal(t, k("a"), take(t, q))
	q.done(k("a"), outcome{})
	assert.Equal(t, 0, q.len())
	assert.Empty(t, q.keys, "an idle key leaves no state behind")
}

func TestQueueFreshGoesFirst(t *testing.T) {
	q := newQueue(time.Millisecond, time.Second)
	q.add(k("retry-1"), 0, later)
	q.add(k("retry-2"), 0, later)
	q.add(k("changed"), 0, fresh)
	q.add(k("retry-2"), 0, fresh) // changed too: moves ahead
	assert.Equal(t, 3, q.len())
	var order []string
	for range 3 {
		order = append(order, take(t, q).Name)
	}
	assert.Equal(t, []string{"changed", "retry-2", "retry-1"}, order)
}

func TestQueueBackoff(t *testing.T) {
	q := newQueue(100*time.Millisecond, 2*time.Second)
	// Exponential, jittered over the upper half, capped.
	for n, want := range []time.Duration{100, 200, 400, 800, 1600, 2000, 2000} {
		want *= time.Millisecond
		for range 50 {
			d := q.backoff(n + 1)
			require.GreaterOrEqual(t, d, want/2, "failure %d", n+1)
			require.LessOrEqual(t, d, want, "failure %d", n+1)
		}
	}

	// A failed key comes back after its backoff, at the retries' priority; a success forgets
	// its failures.
	q = newQueue(20*time.Millisecond, time.Second)
	q.add(k("a"), 0, fresh)
	take(t, q)
	d := q.done(k("a"), outcome{failed: true})
	assert.Positive(t, d)
	assert.Equal(t, 0, q.len(), "not before its backoff")
	assert.Equal(t, k("a"), take(t, q))
	d2 := q.done(k("a"), outcome{failed: true})
	assert.GreaterOrEqual(t, d2, 10*time.Millisecond)
	assert.Equal(t, k("a"), take(t, q))
	q.done(k("a"), outcome{})
	assert.Empty(t, q.keys)
}

func TestQueueRequeueAfterKeepsTheEarliest(t *testing.T) {
	q := newQueue(time.Millisecond, time.Second)
	q.addAfter(k("a"), 0, time.Hour)
	q.addAfter(k("a"), 0, 10*time.Millisecond) // sooner: replaces
	q.addAfter(k("a"), 0, time.Hour)           // later: ignored
	assert.Equal(t, k("a"), take(t, q))
	q.done(k("a"), outcome{})
	q.close()
	_, _, ok := q.get()
	assert.False(t, ok, "a closed queue gives nothing")
}
