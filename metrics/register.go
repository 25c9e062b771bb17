package metrics

import (
	"errors"
	"fmt"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/kates-dev/kates/kates"
)

// Register registers c's Prometheus metrics on reg, and from then on instruments everything c
// does: the Accumulators of the Watches it starts afterwards (Watches already running stay
// uninstrumented), its writes, and its Waits. The metrics, their types and labels are listed
// in README.md ("Metrics"): per query of each Accumulator, objects held, events received,
// events coalesced, time to bootstrap, list and watch errors and relists; per Accumulator,
// the duration of each Update; for the Client, writes by verb and result and the coherence
// records it holds; for Wait, the objects still waited for.
//
// Nothing is registered anywhere until Register is called, and a Client that is never
// registered pays one nil check per event. Nothing here registers globally: pass
// prometheus.DefaultRegisterer to serve the metrics beside the Go runtime's, or a registry of
// your own.
//
// A Client reports to one registry: a second call returns an error, on the same registry or
// another (the Client takes one kates.Observer). So does registering a second Client on a
// registry that holds the first one's metrics: give each Client a registry of its own, or
// register each through prometheus.WrapRegistererWith with a label of its own ({client="a"},
// {client="b"}) on one registry. Nothing is registered when it returns an error.
//
// Series are labelled by query name, so Accumulators whose queries share a name share them:
// the objects gauge then sums their stores, and the bootstrap gauge holds the latest
// bootstrap. An Accumulator's objects leave the gauge when its context ends. The Accumulators
// that Wait, Status and WatchStatus build for themselves are not instrumented (their queries
// have names made up for the occasion): Wait has a gauge of its own.
func Register(c *kates.Client, reg prometheus.Registerer) error {
	if c == nil {
		return errors.New("metrics: Register: nil Client")
	}
	if reg == nil {
		return errors.New("metrics: Register: nil Registerer")
	}
	m := New(func() float64 { return float64(c.CoherenceRecords()) })
	m.serverReturns = prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: ServerReturnsName,
		Help: "Total number of times the API server answered again after the Client's requests found it not answering (each woke the retries waiting on it).",
	}, func() float64 { return float64(c.ServerReturns()) })
	if err := m.Register(reg); err != nil {
		if errors.As(err, new(prometheus.AlreadyRegisteredError)) {
			return fmt.Errorf("metrics: Register: the registry holds kates metrics already, another Client's: "+
				"give each Client a registry of its own, or register each through prometheus.WrapRegistererWith with a label of its own: %w", err)
		}
		return fmt.Errorf("metrics: Register: %w", err)
	}
	if err := c.SetObserver(m); err != nil {
		m.Unregister(reg)
		return fmt.Errorf("metrics: Register: this Client reports its metrics to a registry already; a Client reports to one: %w", err)
	}
	return nil
}
