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
//   - Leader election (election.Run) with warm standbys: run several replicas; each
//     watches from the start, one reconciles. When the leader dies, a standby takes over after
//     the lease duration and reconciles at once from its complete view, without listing.
//   - Sharding (-shards N): instead of one leader, every replica reconciles the WebApps of the
//     virtual shards it owns (shards.Run decides which; sharded.go). Its view holds only those
//     shards — each WebApp by its UID, its Deployment and Service with it: stamped with the
//     WebApp's shard (kates.ShardSpace.StampOwnerShard), so that the API server sends each
//     replica only its own (kates.PlaceByOwnerLabel) —
//     each WebApp is reconciled with its shard's fenced context, and a WebApp whose shard moves
//     to another replica leaves the view as ObjectMoved, which is not a delete.
//   - /metrics (its own Prometheus registry) served as kubebuilder's scaffold serves it, safe to
//     deploy as is: over HTTPS, to callers whose bearer token the API server authenticates (a
//     TokenReview) and allows to get the non-resource URL /metrics (a SubjectAccessReview), each
//     verdict cached 30 s (refusals 10 s) so most scrapes cost no API call; 401 without a valid
//     token, 403 without the right. /healthz and /readyz (ready once the view is complete, leader
//     or standby) on a separate plain-HTTP address, open to the kubelet. testdata/rbac.yaml has
//     the ClusterRoles: the controller's own, metrics-auth (create tokenreviews and
//     subjectaccessreviews) and metrics-reader (get /metrics, for the scraper).
//
// # Flags for serving
//
//	-metrics-addr ADDR         /metrics (default ":8443"; "127.0.0.1:8080" with -metrics-secure=false)
//	-metrics-secure=BOOL       HTTPS with authentication and authorization (default true); false
//	                           serves plain HTTP to anyone who reaches ADDR, so its default
//	                           address is the loopback interface only
//	-metrics-cert-file FILE    serving certificate and key, PEM, read again when they change; by
//	-metrics-key-file FILE     default a self-signed certificate is generated at start (the log
//	                           says so), which a scraper can only use with verification off
//	-health-probe-addr ADDR    /healthz and /readyz, plain HTTP, no credentials (default ":8081")
//
// An address of "0" turns that server off; ":0" or "127.0.0.1:0" picks a free port, which the
// log line names. Before, -metrics-addr served all three paths in plain HTTP on ":8080": point
// the Pod's probes at -health-probe-addr, and the scraper at https:// with its token
// (Prometheus' authorization credentials_file of its ServiceAccount token).
//
// The test (main_test.go) runs it against the local cluster: a WebApp's life from creation to
// garbage collection, a burst of changes, and three replicas whose leader is killed.
package main
