// Package election runs a function while this replica holds a coordination.k8s.io Lease.
//
// Run campaigns for the Lease and calls run while it leads. No write of run's reaches the API
// server once another replica has taken the Lease over — after a crash, a graceful stop, or a
// pause past the term that the process wakes from — except one that had already passed its
// check when the process was paused: every Lease write is conditional on the record this
// replica last saw, a term ends RenewDeadline after the last renewal was sent (before any
// successor can begin) or at once when a renewal finds the Lease rewritten, and every write
// sent with run's context checks the term's kates.Fence just before it leaves
// (Fence.WrapTransport fences other clients). Start the Watch first and pass its Accumulator
// in Options.Views: every replica then keeps a complete view while it stands by, and a new
// leader reconciles from its first Update instead of listing everything:
//
//	acc, err := client.Watch(ctx, queries...)
//	err = election.Run(ctx, client, election.Options{Lease: "my-system/my-controller",
//		Views: []*kates.Accumulator{acc}}, func(ctx context.Context) error {
//		for range acc.Changed() { // the first signal after winning brings the whole view
//			// acc.Update(ctx, &snap), reconcile; return when ctx ends
//		}
//		return nil
//	})
//
// Through an outage of the API server, renewals that failed are tried again as soon as it
// answers (kates.Client.WaitToRetry), and the views resume as quickly: a term survives an
// outage shorter than RenewDeadline, and the leader reconciles what changed meanwhile within a
// second of the server's return (kates.TestElectedControllerResumesWithinASecond). An outage
// longer than RenewDeadline ends the term, since the leader can no longer prove no one took
// over; it campaigns again like any standby, waiting for its last record to run out
// (LeaseDuration from when it reads it again). Where API server restarts take longer than the
// default 10 s, raise RenewDeadline and LeaseDuration together.
//
// The Fence lives in package kates because the Client's write path checks it; this package
// uses only the kates package's exported API.
package election
