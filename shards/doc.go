// Package shards splits a controller's work over replicas: a fixed number of virtual shards,
// each owned by one live replica at a time, handed over without a gap past a lease or an
// overlap.
//
// Every replica announces itself with a member Lease of its own, renewed every RetryPeriod;
// all of them compute the same owner for each shard from the sorted live members (Assign:
// rendezvous hashing with bounded loads, so a join or a leave moves few shards). Each shard
// has a Lease of its own, held exactly as election.Run holds its one Lease — every write
// conditional on the record last seen, a term fenced by a kates.Fence that refuses the
// Client's writes past it — so a replica that loses or hands away a shard has stopped writing
// for it before another replica starts.
//
//	err := shards.Run(ctx, client, shards.Options{Name: "webapp", Shards: 16, Release: true},
//		func(ctx context.Context, shard int) error {
//			// This replica owns shard now: watch and reconcile its objects, writing with ctx
//			// (its writes are fenced by the shard's Lease). Return when ctx ends:
//			// shards.HandedAway(ctx) says the shard moved to another replica, and is not gone.
//			<-ctx.Done()
//			return nil
//		})
//
// # Choosing the number of shards
//
// The shard count is fixed for the life of the group (every replica must use the same) and
// bounds how far the group scales: a replica beyond the count owns nothing. Each shard costs
// a Lease renewed every RetryPeriod by its owner, and a view of its own if the controller
// watches per shard: 16 to 64 shards suit groups of up to a dozen replicas. A virtual shard is
// a number; what it selects is the caller's (kates.ShardSpace maps shard i of n to the API
// server's shard selectors; and every owned object a run writes with its context carries its
// owner's shard stamp, kates.OwnerShardLabel, as kates.ShardSpace.StampOwnerShard sets it,
// so that kates.PlaceByOwnerLabel has the server select owned objects too).
// Since the count is fixed, so is every stamp: replicas joining or leaving rewrite nothing.
//
// # What the guarantee costs
//
// A crashed replica's shards wait LeaseDuration plus up to one RetryPeriod for a new owner
// (the survivors see its last renewal up to a RetryPeriod late, and take its shards as their
// records run out, not at their next list), which takes them all at once; a replica that stops
// cleanly with Options.Release gives its shards up at once, and a rebalance moves a shard in
// about two RetryPeriods plus the time run takes to return and the term's writes in flight
// take to be answered. A replica that joins agrees with the others on the members at its first
// lists (LiveAnnotation). Every
// replica writes its member Lease and each shard Lease it holds every RetryPeriod, and lists
// the group's Leases as often.
package shards
