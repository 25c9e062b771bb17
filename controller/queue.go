package controller

import (
	"math/rand/v2"
	"sync"
	"time"
)

// priority orders the queue: fresh changes go ahead of retries, requeues and resyncs, so that
// a backlog of failing or periodic work never delays the reconcile of something that changed.
type priority int

const (
	fresh priority = iota
	later
)

// queue holds the keys waiting to be reconciled and those being reconciled. A key is queued
// at most once and reconciled by one worker at a time: a key added while it waits merges into
// the one reconcile it waits for, and a key added while it runs is queued again once it
// returns, so any number of changes to one object cost at most one running and one waiting
// reconcile, each of the latest view.
type queue struct {
	mu     sync.Mutex
	wake   *sync.Cond // signalled when a key is queued or the queue shuts down
	lists  [2]fifo    // by priority
	keys   map[Key]*keyState
	depth  int // keys queued
	closed bool

	backoffBase, backoffMax time.Duration
	// observe, if set, is called with how long each key waited, as a worker takes it.
	observe func(wait time.Duration)
	// now is time.Now, replaceable by the tests.
	now func() time.Time
}

// keyState is a key's place in the queue. A key with none is idle: neither queued, running,
// delayed nor failing.
type keyState struct {
	shard    int // the scope the key is reconciled in (see Controller)
	queued   bool
	prio     priority
	seq      uint64    // which list entry is the live one: see fifo
	since    time.Time // when it was queued, for the wait metric
	running  bool
	again    bool // changed while running: queue it again when it returns
	againP   priority
	timer    *time.Timer // a delayed add (retry or requeue), if one is pending
	due      time.Time
	failures int // consecutive failed reconciles, for the backoff
}

// fifo is a first-in first-out list of keys. An entry whose seq is not its key's current seq
// is stale (the key moved to the other list, or was taken and queued again) and is skipped.
type fifo struct {
	entries []entry
	head    int
}

type entry struct {
	key Key
	seq uint64
}

func (f *fifo) push(e entry) { f.entries = append(f.entries, e) }

func (f *fifo) pop() (entry, bool) {
	if f.head == len(f.entries) {
		return entry{}, false
	}
	e := f.entries[f.head]
	f.entries[f.head] = entry{}
	f.head++
	if f.head == len(f.entries) { // empty: reuse the array from its start
		f.entries, f.head = f.entries[:0], 0
	} else if f.head > 1024 && f.head*2 > len(f.entries) { // mostly consumed: compact
		f.entries = append(f.entries[:0], f.entries[f.head:]...)
		f.head = 0
	}
	return e, true
}

func newQueue(backoffBase, backoffMax time.Duration) *queue {
	q := &queue{keys: map[Key]*keyState{}, backoffBase: backoffBase, backoffMax: backoffMax, now: time.Now}
	q.wake = sync.NewCond(&q.mu)
	return q
}

// state returns key's state, making one if it is idle.
func (q *queue) state(key Key, shard int) *keyState {
	st := q.keys[key]
	if st == nil {
		st = &keyState{shard: shard}
		q.keys[key] = st
	}
	return st
}

// add queues key (in scope shard) at priority p. A key already queued stays where it is,
// moving ahead if p is fresh and it waited as later; a running key is queued again when it
// returns.
func (q *queue) add(key Key, shard int, p priority) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.addLocked(key, shard, p)
}

func (q *queue) addLocked(key Key, shard int, p priority) {
	if q.closed {
		return
	}
	st := q.state(key, shard)
	st.shard = shard
	switch {
	case st.running:
		if !st.again || p < st.againP {
			st.againP = p
		}
		st.again = true
	case st.queued && st.prio <= p:
		// Already waiting, as soon or sooner.
	default:
		if !st.queued {
			q.depth++
			st.since = q.now()
		}
		st.queued, st.prio = true, p
		st.seq++
		q.lists[p].push(entry{key, st.seq})
		q.wake.Signal()
	}
}

// addAfter queues key at priority later once d has passed, unless an earlier delayed add of
// it is pending. Changes meanwhile queue it as usual.
func (q *queue) addAfter(key Key, shard int, d time.Duration) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.addAfterLocked(key, shard, d)
}

func (q *queue) addAfterLocked(key Key, shard int, d time.Duration) {
	if q.closed {
		return
	}
	st := q.state(key, shard)
	due := q.now().Add(d)
	if st.timer != nil {
		if !st.due.After(due) {
			return
		}
		st.timer.Stop()
	}
	st.due = due
	var t *time.Timer
	t = time.AfterFunc(d, func() {
		q.mu.Lock()
		defer q.mu.Unlock()
		if st := q.keys[key]; st != nil && st.timer == t {
			st.timer = nil
			q.addLocked(key, st.shard, later)
		}
	})
	st.timer = t
}

// get blocks until a key is queued and returns it, marked running, with its scope; ok is
// false once the queue is closed. The caller must call done with the key when its reconcile
// returns.
func (q *queue) get() (key Key, shard int, ok bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for {
		if q.closed {
			return Key{}, 0, false
		}
		for p := range q.lists {
			for {
				e, found := q.lists[p].pop()
				if !found {
					break
				}
				st := q.keys[e.key]
				if st == nil || !st.queued || st.seq != e.seq {
					continue // stale: see fifo
				}
				st.queued, st.running = false, true
				q.depth--
				if q.observe != nil {
					q.observe(q.now().Sub(st.since))
				}
				return e.key, st.shard, true
			}
		}
		q.wake.Wait()
	}
}

// outcome is how a reconcile ended, for done.
type outcome struct {
	failed       bool
	requeueAfter time.Duration
}

// done marks key's reconcile returned: a failure schedules a retry after the key's backoff,
// a requeue after its delay; a key changed meanwhile is queued again at once. It returns the
// backoff a failure was given.
func (q *queue) done(key Key, o outcome) time.Duration {
	q.mu.Lock()
	defer q.mu.Unlock()
	st := q.keys[key]
	if st == nil {
		return 0
	}
	st.running = false
	var delay time.Duration
	switch {
	case o.failed:
		st.failures++
		delay = q.backoff(st.failures)
	default:
		st.failures = 0
		delay = o.requeueAfter
	}
	if st.again {
		st.again = false
		q.addLocked(key, st.shard, st.againP)
	}
	if delay > 0 {
		q.addAfterLocked(key, st.shard, delay)
	}
	q.forgetIfIdle(key)
	return delay
}

// drop forgets key's pending retry and failures: its object is gone from this replica's
// view, or its scope ended.
func (q *queue) drop(key Key) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if st := q.keys[key]; st != nil {
		if st.timer != nil {
			st.timer.Stop()
			st.timer = nil
		}
		st.failures = 0
		q.forgetIfIdle(key)
	}
}

// skip returns a key taken by get without reconciling it (its scope is not held): it is
// neither retried nor counted as a failure.
func (q *queue) skip(key Key) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if st := q.keys[key]; st != nil {
		st.running = false
		if st.again {
			st.again = false
			q.addLocked(key, st.shard, st.againP)
		}
		q.forgetIfIdle(key)
	}
}

func (q *queue) forgetIfIdle(key Key) {
	if st := q.keys[key]; st != nil && !st.queued && !st.running && st.timer == nil && st.failures == 0 {
		delete(q.keys, key)
	}
}

// backoff is the delay before the n-th retry of a failing key: exponential from backoffBase,
// at most backoffMax, with jitter (a uniform draw from its upper half) so that keys failing
// together do not retry in lockstep.
func (q *queue) backoff(n int) time.Duration {
	d := q.backoffBase
	for i := 1; i < n && d < q.backoffMax; i++ {
		d *= 2
	}
	d = min(d, q.backoffMax)
	return d/2 + rand.N(d/2+1)
}

// len returns how many keys are queued.
func (q *queue) len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.depth
}

// close stops the queue: get returns false, and pending delayed adds are cancelled.
func (q *queue) close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.closed = true
	for _, st := range q.keys {
		if st.timer != nil {
			st.timer.Stop()
			st.timer = nil
		}
	}
	q.wake.Broadcast()
}
