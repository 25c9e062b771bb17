// Package shards benchmarks sharded views (issue 27) at 100,000 objects: 20,000 Widgets (a
// custom resource, widgets.bench.kates.dev) each controlling four realistic ConfigMaps, held
// by 1, 2 and 4 replicas.
//
// Each replica is a fresh process (this test binary run again as a peer), so that one
// replica's heap and warm caches never count for another. Peers:
//
//   - kates: Client.WatchWith of Widgets and ConfigMaps; unsharded for one replica;
//     kates.UIDShard(i, n) for n, Widgets placed by their UID (the server selects them) and
//     ConfigMaps by their controller's (kates.PlaceByOwner: the client selects them), so that
//     a Widget and its ConfigMaps are in one replica.
//   - kates-by-key: the same, with the ConfigMaps placed by their own UID (kates.PlaceByKey):
//     the server selects them, as for the informer, and the owner placement's cost shows as
//     the difference from kates.
//   - kates-owner-label: the same, with the ConfigMaps stamped with their Widget's shard of 16
//     virtual shards (kates.OwnerShardLabel; the fixtures are created stamped) and placed by
//     kates.PlaceByOwnerLabel: still with their Widget, but the server leaves out those
//     stamped for other replicas. Replica i of n holds the 16/n virtual shards that make up
//     shard i of n, so its Widgets are the other peers'.
//   - informer: two client-go dynamic informers (Widgets, ConfigMaps), given shard i of n's
//     selector (ListOptions.ShardSelector, through the factory's tweak function): the server
//     selects both kinds, each by its own UID, so a Widget's ConfigMaps are scattered over
//     the replicas.
//
// Figures: each replica's live heap once its first view is complete, with all n replicas
// running together; each replica's time from Watch to its first complete view, run alone (two
// cores cannot run four replicas at full speed); and the handover after a kill: of two kates
// replicas, one is killed (SIGKILL) and the survivor adds the dead one's shard
// (Accumulator.AddShard), timed from the kill until the survivor's view holds the shard
// complete; and the same as a controller runs it (kates-run): two replicas of one shards.Run
// group (16 shards, a 3 s lease, a 0.5 s retry period, the ConfigMaps placed by owner label)
// hold 8 shards each, one is killed, and the survivor is timed from the kill until its view
// holds all 16 (the membership noticing the death included).
//
// The benchmark is slow (fixtures take minutes to create) and runs only when BENCH_SHARDS=1,
// against the cluster KATES_TEST_KUBECONFIG names:
//
//	BENCH_SHARDS=1 KATES_TEST_KUBECONFIG=... go test -run TestShards -timeout 60m ./shards
//
// The fixtures live in the namespace kates-shardbench and are kept for the next run; its
// annotation bench.kates.dev/widgets records how many Widgets it holds complete. The results
// go to the file BENCH_SHARDS_OUT names (hack/bench.sh: results/shards.txt), which
// cmd/benchreport turns into a section of the report.
//
// TestServerListFloor (also BENCH_SHARDS=1; BENCH_SHARDS_NS names another namespace of
// ConfigMaps) times what the API server and the wire alone take to hand over a shard: LISTs
// of the ConfigMaps as protobuf, undecoded, whole and for one shard of 2 and of 4. On the
// 2-core test machine, over 100,000 ConfigMaps of 1.8 KB (load about 3), shard 0 of 2 took
// 0.60 of the whole LIST's time and shard 0 of 4 0.37: the server walks every object and
// hashes its uid whatever the shard, so the closer a replica's own cost comes to nothing,
// the closer its time ratio comes to these, above the 1.1/n bar of 0.55 and 0.275.
package shards
