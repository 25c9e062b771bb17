package accumulator

import (
	"k8s.io/apimachinery/pkg/util/resourceversion"
	"k8s.io/klog/v2"
)

// A view never goes backwards. Resource versions are comparable (KEP-5504, stable since
// Kubernetes 1.35), and a watch delivers each resource's events in their order, so an event
// older than what the store holds of its object can only come from a misbehaving or lagging
// server (an API server whose watch cache is behind, a replay after a reconnect): applying it,
// as client-go's informers do, would show an object going back to an older version, or coming
// back after its deletion. The store refuses such events instead:
//
//   - an add or update of an object at a version older than the one held;
//   - the deletion of a version older than the one held;
//   - an add or update of an object the store saw deleted, at a version no newer than its
//     deletion (a recreated object has a newer one);
//   - an add or update of an object the store does not hold, at a version older than the
//     store's last complete list (the list would have held it);
//   - in a list older than what the store holds (a lagging server's relist), the older
//     versions of the objects it holds, the objects it saw deleted since, and the absence of
//     objects it holds at versions newer than the list.
//
// Each refusal is counted (StaleObserver) and the first of each store is logged. Refusals
// that persist — staleRelistAfter of them since the store's last complete list — ask for a
// relist (RelistWanted): the query's source is serving an old view, and a fresh list from a
// server that has caught up is the way back.
//
// Resource versions that are not well formed (not a positive integer, as some aggregated API
// servers send) are never compared: events carrying them are applied as they come.

// staleRelistAfter is how many refused events since a store's last complete list ask for a
// relist.
const staleRelistAfter = 3

// maxGone bounds the deletions a store remembers between complete lists; past it, the newest
// deletion's version becomes the store's pastRV (for a store fed by one watch, whose events
// come in order, nothing legitimately older can follow).
const maxGone = 4096

// StaleObserver is implemented by a QueryObserver that counts the events a store refuses
// because they are older than what it holds (see Store). It is optional: a QueryObserver
// without it is not told.
type StaleObserver interface {
	// Stale is called once per refused event, with what it was: EventAdd, EventUpdate,
	// EventDelete, or "replace" for an object of a complete list.
	Stale(e EventType)
}

// staleState is a store's record of refused events; guarded by the store's mu.
type staleState struct {
	// sinceList counts refusals since the last complete list.
	sinceList int
	// relist is closed when a relist is wanted, and replaced by the next complete list.
	relist chan struct{}
	closed bool
	logged bool
}

// rvCompare compares two resource versions; ok is false if either is not well formed.
func rvCompare(a, b string) (c int, ok bool) {
	c, err := resourceversion.CompareResourceVersion(a, b)
	return c, err == nil
}

// fromThePast reports whether an event of key at resource version rv, arriving through feed f
// (nil: the store's own methods), is older than what the store holds or knows of key: what
// listedFromThePast says, and for an object the store neither holds nor saw deleted, a version
// no newer than the store's last complete list. old is the held item, if any. The caller holds
// writeMu.
func (s *Store) fromThePast(f *Feed, key objKey, old *item, rv string) bool {
	if s.listedFromThePast(key, old, rv) {
		return true
	}
	if _, deleted := s.gone[key]; old != nil || deleted || f != nil || s.pastRV == "" {
		return false
	}
	c, ok := rvCompare(rv, s.pastRV)
	return ok && c <= 0
}

// listedFromThePast reports whether key at resource version rv is older than what the store
// holds of it (old) or knows of its deletion. The caller holds writeMu.
func (s *Store) listedFromThePast(key objKey, old *item, rv string) bool {
	if old != nil {
		c, ok := rvCompare(rv, old.rv)
		return ok && c < 0
	}
	if deleted, ok := s.gone[key]; ok {
		c, ok := rvCompare(rv, deleted)
		return ok && c <= 0
	}
	return false
}

// rememberGone records key's deletion at resource version rv. The caller holds writeMu.
func (s *Store) rememberGone(key objKey, rv string) {
	if _, ok := rvCompare(rv, rv); !ok {
		return
	}
	if s.gone == nil {
		s.gone = make(map[objKey]string)
	}
	if len(s.gone) >= maxGone {
		for _, deleted := range s.gone {
			if c, ok := rvCompare(deleted, s.pastRV); ok && c > 0 || s.pastRV == "" {
				s.pastRV = deleted
			}
		}
		clear(s.gone)
	}
	s.gone[key] = rv
}

// listed forgets the deletions a complete list at resource version rv (of the whole store:
// f == nil) makes redundant, and makes rv the store's pastRV if it is newer. The caller holds
// writeMu.
func (s *Store) listed(rv string) {
	if _, ok := rvCompare(rv, rv); !ok {
		return
	}
	if c, ok := rvCompare(rv, s.pastRV); ok && c <= 0 {
		return // an older list than one before: a lagging server's
	}
	s.pastRV = rv
	for key, deleted := range s.gone {
		if c, ok := rvCompare(deleted, rv); ok && c <= 0 {
			delete(s.gone, key)
		}
	}
}

// refuse counts an event refused as from the past: op of key at resource version rv, where
// the store holds old (nil: nothing, or its deletion).
func (s *Store) refuse(op EventType, key objKey, rv string, old *item) {
	if so, ok := s.obs.(StaleObserver); ok {
		so.Stale(op)
	}
	s.mu.Lock()
	st := &s.stale
	st.sinceList++
	first := !st.logged
	st.logged = true
	if st.sinceList >= staleRelistAfter && !st.closed {
		if st.relist == nil {
			st.relist = make(chan struct{})
		}
		close(st.relist)
		st.closed = true
	}
	s.mu.Unlock()
	if first {
		held := "its deletion"
		if old != nil {
			held = "version " + old.rv
		}
		klog.Warningf("accumulator: query %q: refused a %s of %s at resource version %s, older than %s, which the view holds: the server sent an event from the past (further ones are only counted, in kates_accumulator_stale_events_total)",
			s.query, op, key, rv, held)
	}
}

// listedStaleLocked starts the count of refusals afresh after a complete list. The caller holds mu.
func (s *Store) listedStaleLocked() {
	st := &s.stale
	st.sinceList = 0
	if st.closed {
		st.relist, st.closed = nil, false
	}
}

// RelistWanted returns a channel that is closed when the store has refused events from the
// past persistently since its last complete list: the source feeding it serves an old view
// and should list again. A call after the channel it returned was closed takes that request:
// it returns a new channel, for the next one, and counts refusals afresh.
func (s *Store) RelistWanted() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := &s.stale
	if st.relist == nil || st.closed {
		st.relist, st.closed, st.sinceList = make(chan struct{}), false, 0
	}
	return st.relist
}
