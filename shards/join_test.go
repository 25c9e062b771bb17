package shards_test

import (
	"testing"
	"time"

	"github.com/kates-dev/kates/shards"
)

// TestJoinAfterKill: a replica that joins while a killed member's Lease is still there agrees
// with the group at once that the killed one is gone (the live members' LiveAnnotation says so),
// rather than counting it live for a lease duration and leaving the shards the others hand it
// untaken meanwhile.
//
// Right after the kill: the joiner takes its shards within two RetryPeriods of the kill's
// handover (the survivors' first run of a killed replica's shard). After the handover: the
// joiner has its shards about as soon as a join into a healthy group does, well within a lease
// duration.
func TestJoinAfterKill(t *testing.T) {
	for _, tc := range []struct {
		name  string
		after bool // join after the handover, not right after the kill
	}{{"right after the kill", false}, {"after the handover", true}} {
		t.Run(tc.name, func(t *testing.T) {
			ns := newNamespace(t)
			const n = 12
			opts := shards.Options{Name: "join", Shards: n, LeaseDuration: testLease, RenewDeadline: testRenew, RetryPeriod: testRetry}
			rec := &terms{byShard: map[int][]*term{}}
			a := startReplica(t, ns, "a", opts, rec)
			b := startReplica(t, ns, "b", opts, rec)
			c := startReplica(t, ns, "c", opts, rec)
			waitCovered(t, rec, n, a, b, c)
			var ofC []int
			for i, on := range rec.open(n) {
				if len(on) == 1 && on[0] == "c" {
					ofC = append(ofC, i)
				}
			}
			c.stop(t) // Release false: as a kill leaves it
			killedAt := time.Now()
			// handedOver is when the survivors first ran one of c's shards, zero if not yet.
			handedOver := func() time.Time {
				rec.mu.Lock()
				defer rec.mu.Unlock()
				var first time.Time
				for _, i := range ofC {
					for _, tm := range rec.byShard[i] {
						if (tm.replica == "a" || tm.replica == "b") && tm.start.After(killedAt) && (first.IsZero() || tm.start.Before(first)) {
							first = tm.start
						}
					}
				}
				return first
			}
			if tc.after {
				waitCovered(t, rec, n, a, b)
			}
			d := startReplica(t, ns, "d", opts, rec)
			joinedAt := time.Now()
			took := waitCovered(t, rec, n, a, b, d)
			coveredAt := joinedAt.Add(took)
			h := handedOver()
			if h.IsZero() {
				t.Fatalf("no shard of c's ran on a or b after the kill")
			}
			t.Logf("killed c at 0; handover at %s; d joined at %s; a, b and d hold their shards at %s (retry period %s, lease %s)",
				h.Sub(killedAt).Round(time.Millisecond), joinedAt.Sub(killedAt).Round(time.Millisecond),
				coveredAt.Sub(killedAt).Round(time.Millisecond), testRetry, testLease)
			if tc.after {
				if took > testLease-testRetry {
					t.Errorf("d joined after the handover and the group held its shards after %s, want well within the lease duration %s", took, testLease)
				}
			} else if late := coveredAt.Sub(h); late > 2*testRetry {
				t.Errorf("d joined right after the kill and the group held its shards %s after the kill's handover, want within two retry periods (%s)", late, 2*testRetry)
			}
			a.stop(t)
			b.stop(t)
			d.stop(t)
			rec.checkNoOverlap(t)
		})
	}
}
