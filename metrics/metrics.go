package metrics

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/kates-dev/kates/accumulator"
	"github.com/kates-dev/kates/kates"
)

// Metric names, all in the "kates" namespace. README.md lists them with their types and labels.
const (
	ObjectsName         = "kates_accumulator_objects"
	EventsName          = "kates_accumulator_events_total"
	CoalescedName       = "kates_accumulator_coalesced_events_total"
	UpdateDurationName  = "kates_accumulator_update_duration_seconds"
	BootstrapName       = "kates_accumulator_bootstrap_duration_seconds"
	ListWatchErrorsName = "kates_accumulator_list_watch_errors_total"
	RelistsName         = "kates_accumulator_relists_total"
	StaleName           = "kates_accumulator_stale_events_total"
	WritesName          = "kates_client_writes_total"
	CoherenceName       = "kates_client_coherence_records"
	ServerReturnsName   = "kates_client_server_returns_total"
	WaitObjectsName     = "kates_wait_objects"
)

// Label names.
const (
	// LabelQuery is a query's Name, the snapshot field it fills.
	LabelQuery = "query"
	// LabelKind is a query's kind ("ConfigMap").
	LabelKind = "kind"
	// LabelQueries is the names of an Accumulator's queries, in order, joined by commas: the
	// one Update histogram of an Accumulator covers all of them.
	LabelQueries = "queries"
	// LabelType is an event's type: add, update, delete, or replace for a complete list.
	LabelType = "type"
	// LabelVerb is a write's verb: create, update, update_status, patch, apply or delete.
	LabelVerb = "verb"
	// LabelResult is a write's result; see Result.
	LabelResult = "result"
)

// EventReplace is the event type label of a complete list, beside the accumulator's
// EventAdd, EventUpdate and EventDelete.
const EventReplace = "replace"

// UpdateBuckets are the upper bounds, in seconds, of the Update duration histogram's classic
// buckets. An Update's cost follows what changed since the previous one, so most take from
// tens of microseconds to a few milliseconds, far below the 5 ms where controller-runtime's
// reconcile buckets begin; the top buckets catch the first fill of a large view.
var UpdateBuckets = []float64{
	0.00001, 0.000025, 0.00005, 0.0001, 0.00025, 0.0005,
	0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
}

// Metrics is the set of collectors of one kates Client, and the kates.Observer that feeds them.
// Its methods are safe for concurrent use.
type Metrics struct {
	objects         *prometheus.GaugeVec
	events          *prometheus.CounterVec
	coalesced       *prometheus.CounterVec
	updateDuration  *prometheus.HistogramVec
	bootstrap       *prometheus.GaugeVec
	listWatchErrors *prometheus.CounterVec
	relists         *prometheus.CounterVec
	stale           *prometheus.CounterVec
	writes          *prometheus.CounterVec
	coherence       prometheus.GaugeFunc
	waitObjects     prometheus.Gauge
	shardObjects    *shardObjects
	shardBootstrap  *prometheus.GaugeVec
	// serverReturns is set by Register, which knows the Client; nil from New.
	serverReturns prometheus.CounterFunc
}

// New returns the collectors of one Client, registered nowhere. coherenceRecords reports how
// many coherence records the Client holds; it is called at each scrape.
func New(coherenceRecords func() float64) *Metrics {
	queryLabels := []string{LabelQuery, LabelKind}
	return &Metrics{
		objects: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: ObjectsName,
			Help: "Number of objects the stores of the Accumulators' queries hold, by query.",
		}, queryLabels),
		events: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: EventsName,
			Help: "Total number of events the stores of the Accumulators' queries received, by query and type (add, update, delete; replace for a complete list).",
		}, append(queryLabels, LabelType)),
		coalesced: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: CoalescedName,
			Help: "Total number of events that changed an object whose previous change no Update had taken yet, so that no Update saw that change on its own (load shedding), by query.",
		}, queryLabels),
		updateDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:                            UpdateDurationName,
			Help:                            "Time an Accumulator's Update took to fill a snapshot, in seconds, by the Accumulator's queries.",
			Buckets:                         UpdateBuckets,
			NativeHistogramBucketFactor:     1.1,
			NativeHistogramMaxBucketNumber:  100,
			NativeHistogramMinResetDuration: time.Hour,
		}, []string{LabelQueries}),
		bootstrap: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: BootstrapName,
			Help: "Seconds from the Watch call to the query's first complete list, for the latest Watch with that query, by query.",
		}, queryLabels),
		listWatchErrors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: ListWatchErrorsName,
			Help: "Total number of list and watch requests of the Accumulators' queries that failed, by query.",
		}, queryLabels),
		relists: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: RelistsName,
			Help: "Total number of complete lists after the first (after a 410 Gone or a broken watch), by query.",
		}, queryLabels),
		stale: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: StaleName,
			Help: "Total number of events the stores of the Accumulators' queries refused because they were older than what the view held (a lagging or misbehaving server), by query and type (add, update, delete; replace for an object of a complete list).",
		}, append(queryLabels, LabelType)),
		writes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: WritesName,
			Help: "Total number of write requests the Client sent, by verb and result.",
		}, []string{LabelVerb, LabelResult}),
		coherence: prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: CoherenceName,
			Help: "Number of write records the Client holds so that its Accumulators show its writes before their watches deliver them.",
		}, coherenceRecords),
		waitObjects: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: WaitObjectsName,
			Help: "Number of objects that the Client's Waits in progress wait for and that have not reached the status waited for yet.",
		}),
		shardObjects: newShardObjects(),
		shardBootstrap: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: ShardBootstrapName,
			Help: "Seconds the latest AddShard of the shard took until the view held it whole, by shard.",
		}, []string{LabelShard}),
	}
}

func (m *Metrics) collectors() []prometheus.Collector {
	cs := []prometheus.Collector{m.objects, m.events, m.coalesced, m.updateDuration, m.bootstrap,
		m.listWatchErrors, m.relists, m.stale, m.writes, m.coherence, m.waitObjects, m.shardObjects, m.shardBootstrap}
	if m.serverReturns != nil {
		cs = append(cs, m.serverReturns)
	}
	return cs
}

// Register registers every collector of m on reg, or, if one fails, none: it unregisters those
// it registered and returns the error, a prometheus.AlreadyRegisteredError when reg holds a
// collector of the same metric already.
func (m *Metrics) Register(reg prometheus.Registerer) error {
	cs := m.collectors()
	for i, c := range cs {
		if err := reg.Register(c); err != nil {
			for _, done := range cs[:i] {
				reg.Unregister(done)
			}
			return err
		}
	}
	return nil
}

// Unregister takes every collector of m off reg.
func (m *Metrics) Unregister(reg prometheus.Registerer) {
	for _, c := range m.collectors() {
		reg.Unregister(c)
	}
}

// Write implements kates.Observer: it counts one write request the Client sent and its outcome.
func (m *Metrics) Write(verb string, err error) {
	m.writes.WithLabelValues(verb, Result(err)).Inc()
}

// Result names the outcome of a request for the result label, from a bounded set: "success",
// the API server's refusals by their reason ("conflict", "not_found", "already_exists",
// "forbidden", "unauthorized", "invalid", "bad_request", "method_not_allowed",
// "too_many_requests", "timeout", "gone", "server_error"), "canceled" when the caller's
// context ended, and "error" for anything else (a connection that failed, say).
func Result(err error) string {
	switch {
	case err == nil:
		return "success"
	case apierrors.IsConflict(err):
		return "conflict"
	case apierrors.IsNotFound(err):
		return "not_found"
	case apierrors.IsAlreadyExists(err):
		return "already_exists"
	case apierrors.IsForbidden(err):
		return "forbidden"
	case apierrors.IsUnauthorized(err):
		return "unauthorized"
	case apierrors.IsInvalid(err):
		return "invalid"
	case apierrors.IsBadRequest(err):
		return "bad_request"
	case apierrors.IsMethodNotSupported(err):
		return "method_not_allowed"
	case apierrors.IsTooManyRequests(err):
		return "too_many_requests"
	case apierrors.IsTimeout(err) || apierrors.IsServerTimeout(err):
		return "timeout"
	case apierrors.IsGone(err) || apierrors.IsResourceExpired(err):
		return "gone"
	case apierrors.IsInternalError(err) || apierrors.IsServiceUnavailable(err) || apierrors.IsUnexpectedServerError(err):
		return "server_error"
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		return "canceled"
	}
	return "error"
}

// WaitObjects implements kates.Observer: it adds delta to the number of objects waited for.
func (m *Metrics) WaitObjects(delta int) {
	if delta != 0 {
		m.waitObjects.Add(float64(delta))
	}
}

// Watch implements kates.Observer: it returns the observer of one Accumulator, whose queries
// are named queries, for a Watch call that began at began: bootstrap durations count from
// then. Stop is called once nothing feeds the Accumulator's stores any more.
func (m *Metrics) Watch(queries []string, began time.Time) kates.WatchObserver {
	return m.newWatch(queries, began)
}

func (m *Metrics) newWatch(queries []string, began time.Time) *Watch {
	return &Watch{m: m, start: began, queries: strings.Join(queries, ","), byName: map[string]*Query{}}
}

// Watch observes one Accumulator: it implements accumulator.Observer.
type Watch struct {
	m       *Metrics
	start   time.Time
	queries string // the queries label
	// update is the Update histogram's child, resolved by the first Query call (so that an
	// accumulator.New that fails leaves no series behind); Updates come after.
	update prometheus.Observer

	mu     sync.Mutex
	byName map[string]*Query
}

var (
	_ kates.Observer      = (*Metrics)(nil)
	_ kates.WatchObserver = (*Watch)(nil)
)

// Query implements accumulator.Observer: it resolves the query's child collectors, which
// starts their series at zero.
func (w *Watch) Query(spec accumulator.QuerySpec) accumulator.QueryObserver {
	lv := []string{spec.Name, spec.GVK.Kind}
	q := &Query{
		watch:     w,
		adds:      w.m.events.WithLabelValues(spec.Name, spec.GVK.Kind, string(accumulator.EventAdd)),
		updates:   w.m.events.WithLabelValues(spec.Name, spec.GVK.Kind, string(accumulator.EventUpdate)),
		deletes:   w.m.events.WithLabelValues(spec.Name, spec.GVK.Kind, string(accumulator.EventDelete)),
		replaces:  w.m.events.WithLabelValues(spec.Name, spec.GVK.Kind, EventReplace),
		relists:   w.m.relists.WithLabelValues(lv...),
		coalesced: w.m.coalesced.WithLabelValues(lv...),
		objects:   w.m.objects.WithLabelValues(lv...),
		bootstrap: w.m.bootstrap.WithLabelValues(lv...),
		errors:    w.m.listWatchErrors.WithLabelValues(lv...),
		stale:     w.m.stale.MustCurryWith(prometheus.Labels{LabelQuery: spec.Name, LabelKind: spec.GVK.Kind}),
	}
	w.mu.Lock()
	w.byName[spec.Name] = q
	if w.update == nil {
		w.update = w.m.updateDuration.WithLabelValues(w.queries)
	}
	w.mu.Unlock()
	return q
}

// Updated implements accumulator.Observer.
func (w *Watch) Updated(d time.Duration) { w.update.Observe(d.Seconds()) }

// ListWatchError counts a failed list or watch request of the named query.
func (w *Watch) ListWatchError(query string) {
	w.mu.Lock()
	q := w.byName[query]
	w.mu.Unlock()
	if q != nil {
		q.errors.Inc()
	}
}

// Stop takes the objects the Accumulator's stores hold out of the objects gauge, which other
// Accumulators with queries of the same name share. The stores must no longer be fed.
func (w *Watch) Stop() {
	so := w.m.shardObjects
	so.mu.Lock()
	delete(so.views, w)
	so.mu.Unlock()
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, q := range w.byName {
		if n := q.held.Swap(0); n != 0 {
			q.objects.Sub(float64(n))
		}
	}
}

// Query observes one query's store: it implements accumulator.QueryObserver.
type Query struct {
	watch                            *Watch
	adds, updates, deletes, replaces prometheus.Counter
	relists, coalesced, errors       prometheus.Counter
	objects, bootstrap               prometheus.Gauge
	held                             atomic.Int64
	// stale is the stale events counter with this query's labels set; its series by type
	// appear when the first event of that type is refused.
	stale *prometheus.CounterVec
}

var _ accumulator.StaleObserver = (*Query)(nil)

// Stale implements accumulator.StaleObserver.
func (q *Query) Stale(e accumulator.EventType) { q.stale.WithLabelValues(string(e)).Inc() }

// Received implements accumulator.QueryObserver.
func (q *Query) Received(e accumulator.EventType) {
	switch e {
	case accumulator.EventAdd:
		q.adds.Inc()
	case accumulator.EventUpdate:
		q.updates.Inc()
	case accumulator.EventDelete:
		q.deletes.Inc()
	}
}

// Replaced implements accumulator.QueryObserver: the first list sets the bootstrap duration,
// later ones are relists.
func (q *Query) Replaced(first bool) {
	q.replaces.Inc()
	if first {
		q.bootstrap.Set(time.Since(q.watch.start).Seconds())
	} else {
		q.relists.Inc()
	}
}

// Coalesced implements accumulator.QueryObserver.
func (q *Query) Coalesced(n int) { q.coalesced.Add(float64(n)) }

// Held implements accumulator.QueryObserver.
func (q *Query) Held(delta int) {
	q.held.Add(int64(delta))
	q.objects.Add(float64(delta))
}
