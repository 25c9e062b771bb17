// Package kates is a Kubernetes client for programs that need more than client-go gives each
// caller: read/write coherence, complete multi-kind views, and computed reconcile status.
//
// # The client
//
// A Client reads and writes objects of any kind — typed (*kates.Deployment or any client-go type),
// *kates.Unstructured, or map[string]any — and names kinds the way kubectl does:
//
//	client, err := kates.NewClient(kates.ClientConfig{}) // $KUBECONFIG, ~/.kube/config or in-cluster
//	cm := &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: "settings"}, Data: map[string]string{"a": "1"}}
//	err = client.Create(ctx, cm, cm)     // cm now holds the server's answer
//	err = client.Apply(ctx, manifest, nil, kates.FieldManager("deployer"))
//	var pods []*kates.Pod
//	err = client.List(ctx, kates.Query{Kind: "po", Namespace: "web", LabelSelector: "app=web"}, &pods)
//
// Errors wrap the API server's with the object's kind, namespace and name; apierrors.IsNotFound,
// IsConflict, IsForbidden and IsAlreadyExists see through the wrapping. A kind the server does not
// serve gives an error IsUnknownKind recognises, with close matches when there are some.
//
// # Watching
//
// Watch returns an Accumulator: a complete view of several queries that notifies only once every
// query has its whole initial list, coalesces bursts so a slow consumer always gets the latest
// view, and fills the caller's own struct, each field named by a Query's Name:
//
//	var snap struct {
//		Deployments []kates.Entry[*kates.Deployment] // each with its kstatus
//		Services    map[string]*kates.Service         // keyed "namespace/name"
//	}
//	acc, err := client.Watch(ctx,
//		kates.Query{Name: "Deployments", Kind: "deploy", Namespace: "web"},
//		kates.Query{Name: "Services", Kind: "svc", Namespace: "web"})
//	for range acc.Changed() {
//		if ok, err := acc.Update(ctx, &snap); ok && err == nil {
//			reconcile(snap)
//		}
//	}
//
// # Waiting
//
// Wait returns once objects are reconciled (Current) or deleted, driven by the same watches, and
// explains each object that is not through the objects it controls, down to the Pod that cannot
// be scheduled; a timeout or a failure is a *WaitError listing every unfinished object and why.
// Status and WatchStatus judge objects the same way, once or continuously.
//
// A custom resource kind no status rule covers is judged from what it publishes (kstatus rule
// 6), and from what its CustomResourceDefinition declares: Watch, and so Wait and Status, read
// the CRD of each custom resource kind once when they start (WatchOptions.NoKindFacts turns it
// off), so an object of a kind that declares a status is InProgress until its controller first
// reports, and one of a kind that declares none is Current.
//
//	err := client.Wait(ctx, objects, kates.WaitOptions{Progress: show})
//
// # Coherence
//
// Every write a Client makes — create, update, patch, apply, status update, delete — is recorded
// and shown by the Accumulators built from that Client in their next Update, before their watch
// delivers it, until the watch catches up. So a controller never sees its own write undone, and a
// delete by name disappears at once. Writes made through DynamicInterface or a clientset built
// on HTTPClient, or by other clients, show when the watch delivers them.
//
// # Compact views
//
// A snapshot field of Compact elements holds each object as its protobuf encoding (managedFields
// stripped, unless KeepManagedFields) with its status, and decodes it only when asked:
//
//	type inventory struct {
//		Pods map[string]kates.Compact[*kates.Pod]
//	}
//	acc, err := client.WatchWith(ctx, kates.WatchOptions{Snapshot: (*inventory)(nil)},
//		kates.Query{Name: "Pods", Kind: "pod"})
//	...
//	for key, c := range snap.Pods {
//		if c.Status().Status != kstatus.CurrentStatus { // no decoding
//			pod, err := c.Get() // a new *Pod, the caller's own
//			...
//		}
//	}
//
// With WatchOptions.Snapshot naming the field, the query's store encodes each object as it
// arrives (decoded once, its status computed, the struct dropped) and never holds structs;
// without it, each Update encodes what it hands out, and the store holds the structs of
// objects until then (a bootstrap's whole list, say). Compact views are for many objects of
// which each pass reads few: a Pod's encoding is about a quarter of its struct, a small
// ConfigMap's most of it (the README has the figures).
//
// Everything works as with structs: Update costs what changed, selectors, sharding and the
// client's own writes (encoded again from the server's answer) show the same objects, and a
// Get gives a new object each time, so editing it changes nothing held. What costs more:
//   - Get decodes the whole object (as much as decoding it from the wire): keep what it
//     returns for the rest of a pass instead of calling it again.
//   - Delta.Object of a compact entry is the object's metadata, decoded for the delta (a
//     *ObjectMeta: labels, owner references and the rest), a small decode per delta.
//   - A FilteredUpdate predicate gets each new version decoded and converted to
//     unstructured, as for struct views; an Update into a struct field decodes every object.
//   - Each arriving version is encoded once (a generated Marshal, a fraction of its decode).
//
// Only kinds the scheme registers have a compact form (custom resources have no protobuf
// form): a compact field of another kind is an error, from WatchWith when Snapshot names it,
// else from Update.
//
// WatchOptions.Compressor set to zstdcompact.New() holds compact objects compressed with zstd
// (github.com/klauspost/compress; package zstdcompact, which only programs that compress link),
// each query's against a dictionary made of the first object it compacts (kept once per query,
// never changed). Name, Namespace, ResourceVersion and Status still read without decompressing;
// Get, Meta, each delta's metadata and a FilteredUpdate predicate decompress the whole object
// first. Turn it on when memory is what limits a view of thousands of objects per query and a
// pass reads few of them; leave it off when passes Get most objects, or when queries hold few
// objects each, since each compressed query keeps its codec (about 0.7 MB). As measured (kates'
// BenchmarkCompactViewMemory, BenchmarkCompactGet, BenchmarkCompactArrival, accumulator's
// BenchmarkCompactEncode and zstdcompact's BenchmarkCompress; the README has the tables), on
// objects that differ as a cluster's do, compression holds 0.36–0.40× the bytes per object of
// uncompressed compact views (1,075 B per object for 10,000 ConfigMaps and 3,000 Pods, against
// 2,820 compact and 4,915 as structs); a Get costs 1.4× a decode from the wire for a Pod and
// 2.8× for a small ConfigMap, with the same allocations; compacting an arriving object costs
// 4–6 µs more in isolation, 11–22 µs more of the process's CPU (garbage collection included)
// when a view is filled.
//
// # Outages
//
// A Watch (and a Wait, which watches) survives the API server going away: its queries retry,
// relist after 410 Gone, and converge to the server's state with every change reported once.
// Retries back off while the server is down, but not after: the Client follows whether the
// server answers its requests, probes /readyz while the server is down and retries wait (one
// request at a time for the whole Client), and wakes every waiting retry as soon as it answers,
// so views are back within about a second of the server's return rather than after the
// backoff built up during the outage. An answer of 429 or 5xx wakes nobody; a server that
// flaps costs each waiting query one request per return. Client.WaitToRetry gives a program's
// own retry loops the same wake-up.
//
// A view never goes backwards: an event older than what it holds of an object (an older
// version, the deletion of an older version, an object it saw deleted, a list older than the
// view) is refused and counted (see package accumulator), and queries that keep receiving
// such events list again.
//
// # Sharding
//
// A controller whose views outgrow one replica splits its objects across replicas with the API
// server's own shard selectors (KEP-5866, the ShardedListAndWatch gate, alpha in 1.37). A
// ShardSpace splits the 64-bit FNV-1a hash of each object's UID (ShardByUID) or namespace
// (ShardByNamespace) into Count equal virtual shards; replicas that agree on the space agree on
// where every object belongs. A replica's Watch holds the shards it owns:
//
//	acc, err := client.WatchWith(ctx, kates.WatchOptions{Sharding: kates.UIDShard(i, n)},
//		kates.Query{Name: "WebApps", Kind: "WebApp"},
//		kates.Query{Name: "Deployments", Kind: "deploy", Placement: kates.PlaceByOwner},
//		kates.Query{Name: "Nodes", Kind: "node", Placement: kates.PlaceEverywhere})
//
// Each query places its objects one of four ways, at different costs:
//
//   - PlaceByKey (the default): by the object's own UID or namespace. The server sends each
//     replica its shards' objects only: memory, network and decoding all shrink to about 1/n.
//   - PlaceByOwner: with the object's controller, by the hash of its controller
//     ownerReference's UID, so the Deployments a WebApp owns land in the WebApp's shard; an
//     object with no controller is placed by its own UID. The server cannot select on owner
//     references, so each replica lists and watches every object of the kind and drops the
//     others' before storing them: memory shrinks to about 1/n, the network and the decoding
//     do not, nor the time to a first view (at 80,000 owned ConfigMaps, two replicas took 0.89
//     of one's time, four 0.37 to 0.52).
//   - PlaceByOwnerLabel: placed as PlaceByOwner, but the objects stamped with their
//     controller's shard (the OwnerShardLabel label, which ShardSpace.StampOwnerShard sets
//     as the controller writes them) are selected by the server, with the label selector
//     "OwnerShardLabel notin (the shards held elsewhere)": memory, network and decoding of the
//     stamped objects shrink to about 1/n, like PlaceByKey's. Objects not stamped (written
//     before, or by someone else) still reach every replica, which places them on the client:
//     each costs every replica its network and decoding until it is stamped, and none is
//     lost. The label never decides where an object is, its controller's UID does, so a wrong
//     label cannot put an object in two views (see OwnerShardLabel).
//   - PlaceEverywhere: not sharded; every replica holds every object.
//
// Under ShardByNamespace a namespace is never split (so shards are only as even as the
// namespaces are), and every cluster-scoped object has the empty namespace: all of them hash
// alike and land in one shard. Query.Sharding restricts one query, List included, for good.
//
// The client matches every object it receives, list items and watch events, with the same
// hash, so a view stays exact behind an API server without the gate (or one server of an HA
// pair without it). Watch detects such a server (a one-item LIST with the selector comes back
// without metadata.shardInfo), warns once through klog and sets ShardSelectorsIgnored: the
// memory is still saved, the network is not. The coherence overlay matches the client's own
// writes the same way: a write of an object outside the view's shards never shows in it; a
// delete of one inside shows at once.
//
// Membership changes the shards as replicas come and go (the shard space fixed, Owned empty
// at first): Accumulator.AddShard(ctx, i) lists and watches shard i alone, for every sharded
// query placed by key, and returns once the view holds it complete; a query placed by owner
// is listed again whole, since the server cannot select one shard of it (placed by owner
// label: with the wider label selector, so again only the shards held and what is not
// stamped). RemoveShard(i) stops
// shard i's watches, and its objects leave the view as ObjectMoved deltas, never
// ObjectDelete: they still exist, another replica holds them now, and a controller must not
// clean up after them. An object placed by owner whose controller changes to one of another
// shard leaves as ObjectMoved too. A query placed by owner label narrows its label selector
// from its next request on (a watch that restarts, a relist), without listing again.
//
// # Metrics
//
// Package metrics (metrics.Register) registers a Client's Prometheus metrics on a registry the
// caller passes (none by default): per query, objects held, events received and coalesced, time
// to bootstrap, list and watch errors and relists; Update durations; writes by verb and result;
// coherence records held; objects Waits still wait for. README.md lists every metric with its
// labels. It plugs into the Client through SetObserver, so this package links no Prometheus.
//
//	reg := prometheus.NewRegistry()
//	err := metrics.Register(client, reg) // then serve reg with promhttp.HandlerFor
//
// # Validating
//
// Package validate (validate.New) checks objects against the cluster's own schemas without
// writing anything; it alone links the API server's validation code.
//
// # Applying a batch
//
// Package apply (apply.Run) applies a batch of manifests and waits, as `kates apply --wait`
// does: the whole batch checked first, CustomResourceDefinitions and Namespaces first, an
// ApplySet (package applyset) pruned. Client.Apply is the one-object call underneath.
//
// # Leader election
//
// Package election (election.Run) runs a function while this replica holds a
// coordination.k8s.io Lease. The Fence it arms lives here, because every write the Client
// sends with a context that carries one (WithFence) checks it just before it leaves:
// Fence.WrapTransport fences other clients the same way.
//
// # Manifests
//
// ParseManifests reads multi-document YAML or JSON into typed objects where kates.Scheme knows the
// kind and Unstructured otherwise, naming the document in every error; ParseUnstructuredManifests
// keeps every object as written, for validation.
package kates
