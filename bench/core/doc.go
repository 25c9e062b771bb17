// Package core benchmarks kates' I/O-free core against its peers on scripted event streams,
// with no API server in the picture: kstatus.Compute against decoding the same object, the
// cost of one Update among N stored objects, and event throughput from a watch to a consumer.
// Its benchmarks live in the test files; hack/bench.sh runs them.
package core
