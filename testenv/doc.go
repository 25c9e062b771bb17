// Package testenv runs a real, local Kubernetes cluster for tests, examples and demos: etcd,
// kube-apiserver, kube-controller-manager, kube-scheduler and kwok, every one a child process on
// loopback. Unlike envtest, the controllers run, so Deployments roll out, Jobs complete and Pods
// become Ready on kwok's fake Nodes — which is what tests of status and waiting need.
//
// # Starting a cluster
//
//	func TestMain(m *testing.M) {
//		cluster, err := testenv.Start(context.Background(), testenv.Options{})
//		if err != nil {
//			log.Fatal(err)
//		}
//		code := m.Run()
//		cluster.Stop()
//		os.Exit(code)
//	}
//
// Start returns once the API server answers, the controllers run and every fake Node is Ready
// (a few seconds once the binaries exist). The cluster's admin kubeconfig is at KubeconfigPath;
// RESTConfig returns the same identity for client-go.
//
// # Binaries
//
// The binaries are built from source with the Go toolchain, from the versions pinned in the
// tools modules under testenv/tools (k8s.io/kubernetes, go.etcd.io/etcd/server/v3,
// sigs.k8s.io/kwok), and cached under the user's cache directory by a hash of those pins, so only
// the first run on a machine pays for the build (12.5 minutes on a fresh 2-core machine). Nothing
// prebuilt is downloaded. KATES_TESTENV_BIN_DIR points at binaries built elsewhere, and
// KATES_TESTENV_CACHE moves the cache.
//
// # A client in a namespace of its own
//
// testenv imports nothing of this module, so that kates' own tests can start a cluster with it.
// Package testenv/katestest, above kates, gives a test an admin kates Client whose default
// namespace is a fresh one, deleted when the test ends: katestest.NewClient(t, cluster, prefix).
//
// # Sharing one cluster
//
// When KATES_TEST_KUBECONFIG names a kubeconfig, Start returns a handle on that cluster instead of
// starting one, and Stop leaves it running. `make test` starts one cluster and sets it, so every
// package's tests share it. Tests that share a cluster must use their own namespaces.
//
// # Identities
//
// The admin identity is in group system:masters. RESTConfigAs and KubeconfigAs impersonate any
// other user; RBAC is on, so such a user is Forbidden everything until a Role grants it.
//
// # Pods that cannot start
//
// kwok plays every container as started and Ready. A Pod labelled SimulateLabel (set it in a
// workload's Pod template) is played instead as a kubelet shows a container that cannot start:
// "CrashLoopBackOff" (running, restarted, waiting to restart) or an image pull failure such as
// "ImagePullBackOff" (Pending). The workload controllers react to it as they would on real
// nodes, so explanations of stuck rollouts are tested end to end.
//
// # Faults
//
// StopAPIServer and StartAPIServer restart the API server on the same port and etcd;
// StartSecondAPIServer adds one on the same etcd and returns its stop; CompactEtcd compacts
// etcd's history so resumed watches get 410 Gone. These need a cluster of the test's own
// (Options.Private).
//
// # Cleaning up
//
// Stop ends every child, in an order that lets each exit (the API server before etcd), escalating
// to SIGKILL after a short grace period. Each child runs in its own process group and is killed
// by the kernel if the test process dies first, so a panicking test leaves no process behind.
// A child that exits early makes Start, or Err, fail with the tail of its log.
package testenv
