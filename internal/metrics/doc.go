// Package metrics holds the Prometheus collectors behind kates.Client.RegisterMetrics, and
// the accumulator.Observer that feeds them: kates' I/O shell tells a Metrics value what its
// watches, writes and waits do, and the Metrics value is what a registry scrapes.
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
