// Package metrics serves a kates Client's Prometheus metrics: Register(client, reg) registers
// the collectors on a registry the caller passes and plugs them into the Client as its
// kates.Observer, which the Client tells what its watches, writes and waits do. It is a package
// of its own so that a program that does not serve metrics does not link Prometheus: the kates
// package only calls the Observer interface.
//
//	reg := prometheus.NewRegistry()
//	if err := metrics.Register(client, reg); err != nil { ... }
//	http.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg}))
//
// Nothing here registers itself anywhere: a Metrics value reaches a registry only through
// Register, with the registry its caller passes, so a program that embeds kates never finds
// kates in the global registry.
//
// # Cost
//
// Every label value a watch needs is resolved once, when the watch starts, into the child
// collector it will update: an event then costs an atomic add or two, with no map lookup, no
// allocation and no lock. A Client that never registers metrics has no Metrics value at all,
// and pays one nil check per event.
package metrics
