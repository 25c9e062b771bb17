// Package cluster benchmarks kates against its peers on a real API server (package testenv's
// local cluster, or the one KATES_TEST_KUBECONFIG names): retained memory per stored object,
// time to the first complete snapshot, and event throughput from writers to a consumer.
//
// The benchmarks share fixtures: namespaces of their own (a random suffix), filled with many
// concurrent writers before the first benchmark runs and deleted after the last. To run the
// benchmarks several times over the same fixtures (hack/bench.sh does, so that peers alternate
// and each ratio compares runs close in time), pass -fixtures=FILE: the first run creates the
// fixtures and records their namespaces in FILE, later runs reuse them, and a run with
// -teardown deletes them.
package cluster
