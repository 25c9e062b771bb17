package accumulator

import "time"

// EventType names an event a store receives from its query's watch.
type EventType string

// Event types, as Store's methods receive them.
const (
	EventAdd    EventType = "add"
	EventUpdate EventType = "update"
	EventDelete EventType = "delete"
)

// Observer knows how to record what an Accumulator does, for metrics: kates implements it
// with Prometheus collectors (package metrics, through kates.Client.SetObserver). The Accumulator calls it
// synchronously from the goroutines that feed its stores and from Update, so each method must
// be cheap, safe for concurrent use, and must not call back into the Accumulator. It is
// observation only: nothing it does changes what the Accumulator holds or hands out.
type Observer interface {
	// Query returns the observer of one query's store, or nil to observe nothing of it. New
	// calls it once per query, in order, once it has checked them all and before it returns;
	// a New that fails calls it for none.
	Query(spec QuerySpec) QueryObserver
	// Updated is called after each Update (UpdateWithDeltas, FilteredUpdate) that found
	// every query bootstrapped, with the time it took from then on, whatever its outcome.
	// Updates that returned before (waiting for their turn, an error recorded by SetError, a
	// query not bootstrapped yet) are not reported: they do no work.
	Updated(d time.Duration)
}

// QueryObserver knows how to record what one query's store receives. Its methods are called
// from the goroutine that feeds the store (a reflector's), with the store's write lock held:
// they must return promptly.
type QueryObserver interface {
	// Received is called once per event the store receives, before it is applied: including
	// one that changes nothing, a version the store holds already.
	Received(e EventType)
	// Replaced is called once per complete list the store receives (Store.Replace), after it
	// is stored; first is true for the query's first list, which bootstraps it, and false for
	// every relist after that.
	Replaced(first bool)
	// Coalesced is called with the number of objects an event or a relist changed while an
	// earlier change of theirs was still waiting for an Update: that earlier change will never
	// be seen on its own. It is called only when n > 0.
	Coalesced(n int)
	// Held is called with the change in the number of objects the store holds, when there
	// is one.
	Held(delta int)
}
