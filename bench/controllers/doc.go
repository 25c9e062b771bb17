// Package controllers compares kates' controller package with controller-runtime running the
// same controller (issue 34): the WebApp controller of examples/controller, a WebApp owning a
// Deployment (replicas 0: no Pods) and a headless Service, on the same cluster.
//
// The WebApp logic is one function, reconcileWebApp, given the WebApp and its live Deployment
// and Service and a writer: it applies (server-side, ForceOwnership, the same field manager)
// the Deployment and Service if they differ from what the WebApp asks for, and updates the
// status's observedGeneration. The peers differ only in how it is run:
//
//   - kates: controller.New with a view of WebApps, Deployments and Services (maps of typed
//     objects), For "WebApps", the default owner mapping, 8 workers, metrics on a registry;
//   - controller-runtime: a manager with its cache (defaults, but for the namespace), and
//     builder.For(&WebApp{}).Owns(&Deployment{}).Owns(&Service{}) with 8 concurrent
//     reconciles; the reconcile reads the three objects from the cache (client.Get).
//
// WebApp is typed by hand (with DeepCopyObject) and registered in controller-runtime's scheme.
// Both clients run without client-side throttling (their defaults differ: kates 100 QPS,
// controller-runtime's GetConfig 20).
//
// TestControllers (BENCH_CONTROLLERS=1, the cluster of KATES_TEST_KUBECONFIG) runs, for each
// size of BENCH_CONTROLLERS_SIZES (default 10,000 and 50,000 WebApps, in the namespace
// kates-ctrlbench-<N>, kept between runs), a setup run (the kates peer with 32 workers creating
// the Deployments and Services, not measured), then BENCH_CONTROLLERS_ROUNDS rounds (default 3)
// of both peers, the order alternating. Each peer runs in a child process of its own (this
// test binary run again), so that its CPU time and heap are its own; the parent patches the
// WebApps and watches the Deployments (an informer keeping their images). On each run, once
// the peer has settled (every Deployment shows its WebApp's image, every key reconciled once,
// then no reconcile for a second):
//
//   - heap: the child's live heap after two GCs, less the same taken after creating its client
//     or manager and looking its kinds up, before the first watch;
//   - latency: one WebApp's spec.image patched, to its Deployment showing the new image as the
//     parent's watch sees it; BENCH_CONTROLLERS_CHANGES (20) changes one at a time, median;
//   - churn: BENCH_CONTROLLERS_RATE changes a second (100) for BENCH_CONTROLLERS_CHURN_SECONDS
//     (30) to random WebApps, never two at once to one WebApp; the child's user+system CPU
//     (getrusage) from before the window to the end of its drain (every Deployment showing
//     its WebApp's image and the child quiet), divided by the changes;
//   - burst: BENCH_CONTROLLERS_BURST (1,000) distinct WebApps patched as fast as the parent can
//     (64 at once), to every one's Deployment showing its new image.
//
// At 50,000 WebApps, run it on a cluster whose controller-manager leaves out the Deployment
// and ReplicaSet controllers (KATES_TESTENV_DISABLE_CONTROLLERS=deployment-controller,
// replicaset-controller make cluster-up): with them, on a 2-core machine the
// controller-manager syncs the 50,000 new Deployments at about 2 a second (over an hour at
// full CPU), and their status writes reach both peers as changes to owned objects, so neither
// ever settles. The Deployments are replicas 0 and run no Pods either way; what is measured
// is the WebApp controller's work, which is the same without them.
//
// Each run writes a "controllers-run:" line to BENCH_CONTROLLERS_OUT (hack/bench.sh:
// results/controllers.txt); cmd/benchreport renders the ratios kates/controller-runtime of
// each round in bench/README.md with a plot.
package controllers
