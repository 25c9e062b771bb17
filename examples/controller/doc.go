// Command controller is a small, complete Kubernetes controller built on kates, to copy from:
// it reconciles WebApp custom resources (testdata/crd.yaml, group examples.kates.dev) into a
// Deployment and a Service each, and reports their state in the WebApp's status conditions.
//
//	kates apply --wait -f examples/controller/testdata/crd.yaml
//	go run ./examples/controller --kubeconfig .kates/kubeconfig --lease default/webapp-controller
//	kates apply --wait -f examples/controller/testdata/webapp.yaml
//
// What it shows, and why each piece is there:
//
//   - One Accumulator holds the whole view: every WebApp, and the Deployments and Services the
//     controller owns (selected by label), filled into the Snapshot struct by each Update. A
//     reconcile always sees all three kinds at one moment, never half a view.
//   - Load shedding: one reconcile pass per signal on Changed, over the latest view. Events
//     that arrive during a pass leave one signal, so bursts are coalesced and a slow pass never
//     builds a queue. This works because reconcile is level-based: it compares each WebApp with
//     what exists now, whatever the events were.
//   - Server-side apply (client.Apply with FieldManager) of only the fields the controller owns,
//     and owner references (kates.SetOwnerReferences) so that the garbage collector deletes a
//     WebApp's Deployment and Service with it: the controller never deletes anything itself.
//   - Status: observedGeneration, and the kstatus conditions set with kstatus.MarkReady,
//     MarkReconciling and MarkStalled, from the Deployment's computed status (an Entry's Status).
//     kstatus.Compute, kates wait and kubectl wait then read a WebApp like any built-in kind.
//   - Leader election (kates.RunElected) with warm standbys: run several replicas; each
//     watches from the start, one reconciles. When the leader dies, a standby takes over after
//     the lease duration and reconciles at once from its complete view, without listing.
//   - /metrics (its own Prometheus registry), /healthz, and /readyz (ready once the view is
//     complete, leader or standby) on --metrics-addr.
//
// The test (main_test.go) runs it against the local cluster: a WebApp's life from creation to
// garbage collection, a burst of changes, and three replicas whose leader is killed.
package main
