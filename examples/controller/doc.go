// Command controller is a small, complete Kubernetes controller built on kates, to copy from:
// it reconciles WebApp custom resources (testdata/crd.yaml, group examples.kates.dev) into a
// Deployment and a Service each, and reports their state in the WebApp's status conditions.
//
//	kates apply --wait -f examples/controller/testdata/crd.yaml
//	go run ./examples/controller --kubeconfig .kates/kubeconfig --lease default/webapp-controller
//	kates apply --wait -f examples/controller/testdata/webapp.yaml
//
// It is built on package controller, which does everything that is not about WebApps: what
// is left here is the WebApp type (webapp.go), its reconcile (reconcile.go) and main's flags
// (main.go). What it shows, and why each piece is there:
//
//   - One view (New's queries, filled into the Snapshot struct): every WebApp, and the
//     Deployments and Services the controller owns, selected by label. A reconcile reads all
//     three kinds at one moment, never half a view (Request.View).
//   - Reconciles per WebApp, driven by the view's changes: a changed WebApp is reconciled, and
//     so is the owner of a changed Deployment or Service (its controller owner reference);
//     nothing else is. Changes that arrive while a WebApp waits or is reconciled merge into
//     one more reconcile of the latest view, so bursts are shed, never queued. This works
//     because reconcile is level-based: it compares the WebApp with what exists now.
//   - Server-side apply (client.Apply with FieldManager) of only the fields the controller sets,
//     and owner references (kates.SetOwnerReferences) so that the garbage collector deletes a
//     WebApp's Deployment and Service with it: the controller never deletes anything itself.
//   - Status: observedGeneration, and the kstatus conditions set with kstatus.MarkReady,
//     MarkReconciling and MarkStalled, from the Deployment's computed status (an Entry's Status).
//     kstatus.Compute, kates wait and kubectl wait then read a WebApp like any built-in kind.
//     A spec the API server refuses is reported Stalled, not retried.
//   - Leader election with warm standbys: run several replicas; each watches from the start,
//     one reconciles. When the leader dies, a standby takes over after the lease duration and
//     reconciles at once from its complete view, without listing; every write is fenced to the
//     term of the replica that sends it.
//   - Sharding (-shards N): instead of one leader, every replica reconciles the WebApps of the
//     virtual shards it owns. Its view holds only those — each WebApp by its UID, its
//     Deployment and Service with it (stamped with the WebApp's shard by the reconcile's writes,
//     so that the API server sends each replica only its own: kates.PlaceByOwnerLabel) — and a
//     WebApp whose shard moves to another replica leaves the view as moved, which is not a
//     delete.
//   - /metrics (its own Prometheus registry: the controller's reconcile and queue metrics and
//     the view's) served as kubebuilder's scaffold serves it, safe to deploy as is: over HTTPS,
//     to callers whose bearer token the API server authenticates (a TokenReview) and allows to
//     get the non-resource URL /metrics (a SubjectAccessReview), each verdict cached; 401
//     without a valid token, 403 without the right. /healthz and /readyz (ready once the view is
//     complete, leader or standby) on a separate plain-HTTP address, open to the kubelet.
//     testdata/rbac.yaml has the ClusterRoles: the controller's own, metrics-auth (create
//     tokenreviews and subjectaccessreviews) and metrics-reader (get /metrics, for the scraper).
//   - Graceful shutdown on SIGTERM: no new reconciles, the ones in flight finish, and the Lease
//     or shards are released so that another replica takes over at once.
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
// Logs are klog's text format (-v=1 adds a line per WebApp deleted or moved away).
//
// The tests run it against the local cluster: a WebApp's life from creation to garbage
// collection, a burst of changes, three replicas whose leader is killed (main_test.go), the
// binary as processes checked for writes outside their terms (process_test.go), and sharded
// replicas (sharded_test.go).
package main
