package main

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kates-dev/kates/election"
	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/kstatus"
	"github.com/kates-dev/kates/testenv/katestest"
)

// TestMeasureElection measures what the election costs, with the example controller on the
// local cluster, and writes ../../bench/results/election.txt. It runs only with
// KATES_MEASURE_ELECTION=1 (about a minute and a half); it asserts nothing about speed.
//
//   - Failover: three replicas, the leader killed (no release) and a change made at once;
//     the time until another replica won, and until it had reconciled the change. Rounds
//     replace the killed replica, so there are always two warm standbys.
//   - Standby cost: the heap a replica adds to the process (its client and its warm view)
//     with N WebApps and their Deployments and Services in view, against an empty view.
//   - Cold start: how long a fresh replica takes to bootstrap that view, which a failover
//     would add if standbys listed only after winning.
func TestMeasureElection(t *testing.T) {
	if os.Getenv("KATES_MEASURE_ELECTION") == "" {
		t.Skip("set KATES_MEASURE_ELECTION=1 to measure failover and standby memory")
	}
	const n, rounds = 400, 7
	base, ns := katestest.NewClient(t, katestest.Start(t), "kates-measure-")
	installCRD(t, base)
	ctx := context.Background()
	var out syncBuffer
	log := &writeLog{lists: map[string][]time.Time{}}
	election := election.Options{Lease: "webapp", LeaseDuration: testLease, RenewDeadline: testRenew, RetryPeriod: testRetry}
	next := 0
	start := func(b *kates.Client) *replica {
		next++
		return startReplica(t, b, fmt.Sprintf("replica-%d", next), log, election, &out)
	}

	// Standby cost of an empty view, in a namespace of its own (the Lease there is free, so
	// this replica leads; it has nothing to do).
	emptyBase, _ := katestest.NewClient(t, katestest.Start(t), "kates-measure-empty-")
	start(emptyBase).stop(t) // first, the process's one-time costs (caches, pools)
	emptyHeap, _ := medianStart(t, func() *replica { return start(emptyBase) }, true)

	replicas := []*replica{start(base), start(base), start(base)}
	defer func() {
		for _, r := range replicas {
			r.stop(t)
		}
	}()
	createWebApps(t, base, ns, n)
	eventually(t, 5*time.Minute, "every WebApp ready", func() error { return allReady(base, ns, n) })

	// A fourth replica: a standby with the full view.
	fullHeap, coldStart := medianStart(t, func() *replica { return start(base) }, true)

	var lines []string
	var detect, total []time.Duration
	for round := range rounds {
		leader := leadingReplica(t, replicas)
		killedAt := time.Now()
		leader.stop(t)
		replicas = slices.DeleteFunc(replicas, func(r *replica) bool { return r == leader })
		want := int32(round%2 + 1)
		patchReplicas(t, base, ns, "app-0000", want)
		var reconciledAt time.Time
		eventually(t, 30*time.Second, "change reconciled", func() error {
			var dep kates.Deployment
			if err := base.Get(ctx, &kates.Deployment{ObjectMeta: kates.ObjectMeta{Namespace: ns, Name: "app-0000"}}, &dep); err != nil {
				return err
			}
			if *dep.Spec.Replicas != want {
				return fmt.Errorf("%d replicas", *dep.Spec.Replicas)
			}
			reconciledAt = time.Now()
			return nil
		})
		winner := leadingReplica(t, replicas)
		wonAt := winner.lastWon()
		detect = append(detect, wonAt.Sub(killedAt))
		total = append(total, reconciledAt.Sub(killedAt))
		lines = append(lines, fmt.Sprintf("round %d: killed→won %s, won→reconciled %s, killed→reconciled %s; the winner's lists after winning: %d, writes until then: %d",
			round+1, ms(wonAt.Sub(killedAt)), ms(reconciledAt.Sub(wonAt)), ms(reconciledAt.Sub(killedAt)), log.listsSince(winner.id, wonAt),
			log.writesBetween(winner.id, wonAt, reconciledAt)))
		if round == 0 && os.Getenv("DEBUG_WRITES") != "" {
			lines := strings.Split(out.String(), "\n")
			t.Logf("log tail:\n%s", strings.Join(lines[max(0, len(lines)-40):], "\n"))
		}
		replicas = append(replicas, start(base)) // back to two standbys
	}
	slices.Sort(detect)
	slices.Sort(total)
	objects := 3 * n
	perObject := float64(int64(fullHeap)-int64(emptyHeap)) / float64(objects)
	report := fmt.Sprintf(`# Leader election: failover and warm standby cost — examples/controller on the local cluster
# KATES_MEASURE_ELECTION=1 go test ./examples/controller -run TestMeasureElection -v   (%s, %d cores, %s)
lease duration %s, renew deadline %s, retry period %s; %d WebApps in view, with their Deployments and Services (%d objects)

failover (leader killed without releasing the lease, change made at once; %d rounds, two warm standbys each):
%s
killed→won:        median %s, max %s
killed→reconciled: median %s, max %s

warm standby heap (client + complete view, after GC; median of 3 replicas started one after the other): %.1f MiB with %d objects in view, %.1f MiB with an empty view: %.2f KiB per object
cold start (a fresh replica's Watch until its view of %d objects is complete, median of 3): %s — what each failover would add if standbys listed only after winning
`,
		time.Now().UTC().Format("2006-01-02 15:04 UTC"), runtime.NumCPU(), runtime.Version(),
		testLease, testRenew, testRetry, n, objects, rounds, strings.Join(lines, "\n"),
		ms(detect[len(detect)/2]), ms(detect[len(detect)-1]), ms(total[len(total)/2]), ms(total[len(total)-1]),
		mib(fullHeap), objects, mib(emptyHeap), perObject/1024, objects, ms(coldStart))
	t.Log("\n" + report)
	if err := os.WriteFile("../../bench/results/election.txt", []byte(report), 0o644); err != nil {
		t.Fatal(err)
	}
}

// measureStart starts a replica and returns the heap it added (after GC), how long its view
// took to be complete, and the replica.
func measureStart(t *testing.T, start func() *replica) (uint64, time.Duration, *replica) {
	t.Helper()
	before := heapAfterGC()
	begin := time.Now()
	r := start() // returns once the view is complete
	took := time.Since(begin)
	time.Sleep(time.Second) // let the watches settle
	after := heapAfterGC()
	if after < before {
		return 0, took, r
	}
	return after - before, took, r
}

// medianStart starts three replicas, one after the other, and returns the median of what
// measureStart says of them; it stops them if stop.
func medianStart(t *testing.T, start func() *replica, stop bool) (uint64, time.Duration) {
	t.Helper()
	var heaps []uint64
	var times []time.Duration
	for range 3 {
		h, d, r := measureStart(t, start)
		heaps, times = append(heaps, h), append(times, d)
		if stop {
			defer r.stop(t)
		}
	}
	t.Logf("heaps added by 3 replicas: %v bytes; bootstraps %v", heaps, times)
	slices.Sort(heaps)
	slices.Sort(times)
	return heaps[1], times[1]
}

func heapAfterGC() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func createWebApps(t *testing.T, c *kates.Client, ns string, n int) {
	t.Helper()
	var wg sync.WaitGroup
	sem := make(chan struct{}, 16)
	for i := range n {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			// No replicas: the Deployments are available at once, and load no node. Headless:
			// the Services take none of the cluster's (shared, small) service IP range.
			app := newWebApp(ns, fmt.Sprintf("app-%04d", i), 0, "nginx:1.27")
			app.Spec.Headless = true
			if err := c.Create(context.Background(), app, nil); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
}

// allReady checks that the controller reports every one of the n WebApps Ready for its
// generation. (kstatus.Compute would not do: a WebApp the controller has not reached yet has
// no conditions, which kstatus reads as Current.)
func allReady(c *kates.Client, ns string, n int) error {
	var apps []*kates.Unstructured
	if err := c.List(context.Background(), kates.Query{Kind: "webapps.examples.kates.dev", Namespace: ns}, &apps); err != nil {
		return err
	}
	ready := 0
	for _, u := range apps {
		obj, err := kstatus.Unstructured(u)
		if err == nil && u.GetGeneration() == observedGeneration(u) && kstatus.IsConditionTrue(obj, string(kstatus.ConditionReady)) {
			ready++
		}
	}
	if ready < n {
		return fmt.Errorf("%d of %d WebApps ready", ready, n)
	}
	return nil
}

func observedGeneration(u *kates.Unstructured) int64 {
	g, _, _ := unstructured.NestedInt64(u.Object, "status", "observedGeneration")
	return g
}

func ms(d time.Duration) string { return d.Round(time.Millisecond).String() }

func mib(b uint64) float64 { return float64(b) / (1 << 20) }

// TestMeasureBurstAfterFailover measures where the time goes when many WebApps change at the
// moment the leader crashes, with the lease timings of a production-like test (4 s lease, 3 s
// renew deadline, 500 ms retry), and writes ../../bench/results/burst.txt. It runs only with
// KATES_MEASURE_ELECTION=1; it asserts nothing about speed.
//
// The phases: the election (killed → another replica won), the controller's passes (won →
// the last changed Deployment applied), the cluster's controllers (→ every Deployment rolled
// out: the new ReplicaSet's pods scheduled, started by kwok, available, the old ones gone), and
// the controller's report (→ every WebApp Ready for its generation).
func TestMeasureBurstAfterFailover(t *testing.T) {
	if os.Getenv("KATES_MEASURE_ELECTION") == "" {
		t.Skip("set KATES_MEASURE_ELECTION=1 to measure a burst after failover")
	}
	const n, rounds = 60, 3
	base, ns := katestest.NewClient(t, katestest.Start(t), "kates-burst-measure-")
	installCRD(t, base)
	ctx := context.Background()
	var out syncBuffer
	log := &writeLog{lists: map[string][]time.Time{}}
	election := election.Options{Lease: "webapp", LeaseDuration: 4 * time.Second, RenewDeadline: 3 * time.Second, RetryPeriod: 500 * time.Millisecond}
	next := 0
	start := func() *replica {
		next++
		return startReplica(t, base, fmt.Sprintf("replica-%d", next), log, election, &out)
	}
	replicas := []*replica{start(), start(), start()}
	defer func() {
		for _, r := range replicas {
			r.stop(t)
		}
	}()
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			app := newWebApp(ns, fmt.Sprintf("app-%04d", i), 1, "nginx:1.27")
			app.Spec.Headless = true
			if err := base.Create(ctx, app, nil); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	eventually(t, 5*time.Minute, "every WebApp ready", func() error { return allReady(base, ns, n) })

	var lines []string
	for round := range rounds {
		leader := leadingReplica(t, replicas)
		image := fmt.Sprintf("nginx:1.%d", 28+round)
		killedAt := time.Now()
		leader.stop(t)
		replicas = slices.DeleteFunc(replicas, func(r *replica) bool { return r == leader })
		sem := make(chan struct{}, 16)
		for i := range n {
			sem <- struct{}{}
			wg.Go(func() {
				defer func() { <-sem }()
				patch := fmt.Sprintf(`{"spec":{"image":%q}}`, image)
				if err := base.Patch(ctx, newWebApp(ns, fmt.Sprintf("app-%04d", i), 0, ""), kates.MergePatchType, []byte(patch), nil); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		changedAt := time.Now()
		winner := leadingReplica(t, replicas)
		wonAt := winner.lastWon()
		var appliedAt, rolledAt, readyAt time.Time
		eventually(t, 2*time.Minute, "every Deployment applied", func() error {
			applied, last := 0, time.Time{}
			log.mu.Lock()
			for _, w := range log.writes {
				if w.replica == winner.id && strings.Contains(w.path, "/deployments/") && w.at.After(wonAt) {
					applied++
					last = w.at
				}
			}
			log.mu.Unlock()
			if applied < n {
				return fmt.Errorf("%d of %d applied", applied, n)
			}
			appliedAt = last
			return nil
		})
		eventually(t, 5*time.Minute, "every Deployment rolled out", func() error {
			var deps []*kates.Unstructured
			if err := base.List(ctx, kates.Query{Kind: "deployments.apps", Namespace: ns}, &deps); err != nil {
				return err
			}
			done := 0
			for _, d := range deps {
				r, err := kstatus.Compute(d)
				containers, _, _ := unstructured.NestedSlice(d.Object, "spec", "template", "spec", "containers")
				if err == nil && r.Status == kstatus.CurrentStatus && len(containers) > 0 &&
					containers[0].(map[string]any)["image"] == image {
					done++
				}
			}
			if done < n {
				return fmt.Errorf("%d of %d rolled out", done, n)
			}
			rolledAt = time.Now()
			return nil
		})
		eventually(t, 5*time.Minute, "every WebApp ready", func() error {
			if err := allReady(base, ns, n); err != nil {
				return err
			}
			readyAt = time.Now()
			return nil
		})
		lines = append(lines, fmt.Sprintf("round %d: changes made in %s; election (killed→won) %s; controller passes (won→last Deployment applied) %s; cluster rollouts (→all rolled out) %s; controller report (→all Ready) %s; total %s",
			round+1, ms(changedAt.Sub(killedAt)), ms(wonAt.Sub(killedAt)), ms(appliedAt.Sub(wonAt)), ms(rolledAt.Sub(appliedAt)),
			ms(readyAt.Sub(rolledAt)), ms(readyAt.Sub(killedAt))))
		t.Log(lines[len(lines)-1])
		replicas = append(replicas, start())
	}
	report := fmt.Sprintf(`# Burst after failover: %d WebApps (1 pod each) changed at the moment the leader is killed
# KATES_MEASURE_ELECTION=1 go test ./examples/controller -run TestMeasureBurstAfterFailover -v   (%s, %d cores, %s)
lease duration %s, renew deadline %s, retry period %s; two warm standbys

%s
`, n, time.Now().UTC().Format("2006-01-02 15:04 UTC"), runtime.NumCPU(), runtime.Version(),
		election.LeaseDuration, election.RenewDeadline, election.RetryPeriod, strings.Join(lines, "\n"))
	t.Log("\n" + report)
	if err := os.WriteFile("../../bench/results/burst.txt", []byte(report), 0o644); err != nil {
		t.Fatal(err)
	}
}
