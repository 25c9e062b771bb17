// Package bench holds kates' benchmark suite, which measures kates against the libraries
// users choose between — client-go informers, controller-runtime's cache, and the way kates
// used to fill snapshots — in the same run, on the same machine, with the same objects.
//
// It is a module of its own (github.com/kates-dev/kates/bench) so that controller-runtime and
// gonum never enter the library's go.mod. Run it from the repository root with
//
//	make bench
//
// which runs hack/bench.sh: the benchmarks of package core (scripted event streams, no API
// server), those of package cluster (a real API server; see testenv), a CPU and memory profile
// of the hot paths, and cmd/benchreport, which writes README.md and the plots beside this file.
// With BENCH_SHARDS=1 it also runs package shards: sharded views at 100,000 objects, 1, 2 and
// 4 replicas, each a process of its own (slow; it keeps its fixtures between runs).
//
// # Reading the figures
//
// The machine is shared and noisy, so no absolute figure means much on its own: every figure
// in the report is a ratio to a baseline measured in the same run. Compare ratios across runs,
// never nanoseconds.
package bench
