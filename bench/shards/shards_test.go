package shards_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// replicaCounts are the replica counts measured; 1 is the unsharded baseline.
var replicaCounts = []int{1, 2, 4}

// viewTimeout bounds the wait for one replica's first view.
const viewTimeout = 10 * time.Minute

// TestShards measures sharded views (BENCH_SHARDS=1; see the package doc) and writes the
// figures to BENCH_SHARDS_OUT, if set, as lines cmd/benchreport reads:
//
//	shards-objects: widgets=W configmaps=C
//	shards-replica: peer=P n=N i=I heap-bytes=B view-seconds=S widgets=W configmaps=C
//	shards-handover: peer=kates n=2 kill-to-view-seconds=S kill-to-view-min=S kill-to-view-max=S runs=R addshard-seconds=S widgets=W configmaps=C
//	shards-handover-run: peer=kates-run n=2 shards=16 lease-seconds=3 retry-seconds=0.5 kill-to-view-seconds=S kill-to-view-min=S kill-to-view-max=S runs=R widgets=W configmaps=C
//
// heap-bytes is measured with the n replicas running together, view-seconds with replica i
// running alone (the median of BENCH_SHARDS_ROUNDS runs, default 1, taken round by round over
// every peer and replica), and each handover BENCH_SHARDS_ROUNDS times. BENCH_SHARDS_PEERS
// ("kates-owner-label,informer") measures those peers only, besides kates.
// BENCH_SHARDS_HEAPPROFILE names a directory where each replica writes a heap profile of its
// view once it is complete (<peer>-<i>-of-<n>.pb.gz, every allocation of a few KB sampled).
func TestShards(t *testing.T) {
	if os.Getenv("BENCH_SHARDS") != "1" {
		t.Skip("BENCH_SHARDS=1 runs the sharded-view benchmark")
	}
	cfg := restConfig(t)
	widgets, err := ensureFixtures(context.Background(), cfg, widgetCount())
	if err != nil {
		t.Fatal(err)
	}
	// The namespace holds one ConfigMap more than the Widgets own, kube-root-ca.crt, with no
	// owner: placed by its own UID. The unsharded kates replica's view sets the count.
	configMaps := widgets * configMapsPerWidget
	rounds := 1
	if r, err := strconv.Atoi(os.Getenv("BENCH_SHARDS_ROUNDS")); err == nil && r > 0 {
		rounds = r
	}
	var out strings.Builder
	fmt.Fprintf(&out, "# heap-bytes: live heap a replica's view retains, all n replicas running together\n")
	fmt.Fprintf(&out, "# view-seconds: Watch to the first complete view, the replica running alone (median of %d)\n", rounds)
	emit := func(format string, args ...any) {
		line := fmt.Sprintf(format, args...)
		t.Log(line)
		out.WriteString(line + "\n")
	}

	peers := []string{peerKates, peerKatesByKey, peerKatesOwnerLabel, peerInformer}
	if only := os.Getenv("BENCH_SHARDS_PEERS"); only != "" {
		// A subset, for a quicker run; kates comes first all the same (its unsharded
		// replica counts the objects).
		peers = slices.DeleteFunc(peers, func(p string) bool { return p != peerKates && !slices.Contains(strings.Split(only, ","), p) })
	}
	// Heap: each peer's n replicas running together. Time: each replica alone, rounds times,
	// round by round over every peer and replica, so that a slow spell of the machine (the
	// API server's own garbage collection, etcd compacting) falls on every peer alike, not on
	// one peer's consecutive runs.
	type replicaKey struct {
		peer string
		n, i int
	}
	var order []replicaKey
	together := map[replicaKey]peerReport{}
	times := map[replicaKey][]float64{}
	for _, peer := range peers {
		for _, n := range replicaCounts {
			reports := runTogether(t, peer, n)
			if peer == peerKates && n == 1 {
				if reports[0].Widgets != widgets || reports[0].ConfigMaps < configMaps {
					t.Fatalf("the unsharded replica holds %d Widgets and %d ConfigMaps, want %d and at least %d",
						reports[0].Widgets, reports[0].ConfigMaps, widgets, configMaps)
				}
				configMaps = reports[0].ConfigMaps
				fmt.Fprintf(&out, "# sharded views (bench/shards, issue 27): %d Widgets each controlling %d ConfigMaps, %d objects\n",
					widgets, configMapsPerWidget, widgets+configMaps)
				emit("shards-objects: widgets=%d configmaps=%d", widgets, configMaps)
			}
			var sumW, sumC int
			for i, r := range reports {
				sumW += r.Widgets
				sumC += r.ConfigMaps
				k := replicaKey{peer, n, i}
				order = append(order, k)
				together[k] = r
				if n == 1 {
					times[k] = append(times[k], r.Seconds) // alone already
				}
			}
			if sumW != widgets || sumC != configMaps {
				t.Errorf("%s, %d replicas: together they hold %d Widgets and %d ConfigMaps, want %d and %d",
					peer, n, sumW, sumC, widgets, configMaps)
			}
		}
	}
	for round := range rounds {
		for _, k := range order {
			if len(times[k]) > round {
				continue
			}
			times[k] = append(times[k], runTogether(t, k.peer, 1, k.i, k.n)[0].Seconds)
		}
	}
	for _, k := range order {
		r := together[k]
		emit("shards-replica: peer=%s n=%d i=%d heap-bytes=%d view-seconds=%.3f widgets=%d configmaps=%d",
			k.peer, k.n, k.i, r.HeapBytes, median(times[k]), r.Widgets, r.ConfigMaps)
	}

	// Handovers after a kill, each measured rounds times.
	measure := func(handover func(*testing.T) handoverResult) (seconds []float64, last handoverResult) {
		for range rounds {
			last = handover(t)
			seconds = append(seconds, last.seconds)
			if last.widgets != widgets || last.configMaps != configMaps {
				t.Errorf("after the handover the survivor holds %d Widgets and %d ConfigMaps, want %d and %d",
					last.widgets, last.configMaps, widgets, configMaps)
			}
		}
		return seconds, last
	}
	bare, last := measure(handoverAddShard)
	emit("shards-handover: peer=kates n=2 kill-to-view-seconds=%.3f kill-to-view-min=%.3f kill-to-view-max=%.3f runs=%d addshard-seconds=%.3f widgets=%d configmaps=%d",
		median(bare), slices.Min(bare), slices.Max(bare), len(bare), last.addShardSeconds, last.widgets, last.configMaps)
	run, last := measure(handoverRun)
	emit("shards-handover-run: peer=kates-run n=2 shards=%d lease-seconds=3 retry-seconds=0.5 kill-to-view-seconds=%.3f kill-to-view-min=%.3f kill-to-view-max=%.3f runs=%d widgets=%d configmaps=%d",
		labelShards, median(run), slices.Min(run), slices.Max(run), len(run), last.widgets, last.configMaps)

	if path := os.Getenv("BENCH_SHARDS_OUT"); path != "" {
		if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// handoverResult is one handover after a kill: the seconds from the kill to the survivor's
// complete view of every shard, and what that view held.
type handoverResult struct {
	seconds, addShardSeconds float64
	widgets, configMaps      int
}

// handoverAddShard: two kates replicas; replica 1 is killed and replica 0 at once adds its
// shard (membership left out).
func handoverAddShard(t *testing.T) handoverResult {
	c0, c1 := startChild(t, peerKates, 2, 0), startChild(t, peerKates, 2, 1)
	c0.next(t, "view")
	c1.next(t, "view")
	c1.kill()
	killed := time.Now()
	if _, err := fmt.Fprintf(c0.stdin, "add 1\n"); err != nil {
		t.Fatal(err)
	}
	added := c0.next(t, "added")
	c0.close()
	return handoverResult{seconds: time.Unix(0, added.Done).Sub(killed).Seconds(), // not counting the count's Update
		addShardSeconds: added.Seconds, widgets: added.Widgets, configMaps: added.ConfigMaps}
}

// handoverRun: the handover as a controller runs it. Two kates-run replicas, members of one
// shards.Run group of its own, split the 16 shards; replica 1 is killed, and replica 0 notices
// (its member Lease runs out), takes the shard Leases over and adds each shard to its view.
func handoverRun(t *testing.T) handoverResult {
	t.Setenv(groupEnv, fmt.Sprintf("shardbench-%d", time.Now().UnixNano()))
	runs := []*child{startChild(t, peerKatesRun, 2, 0), startChild(t, peerKatesRun, 2, 1)}
	held := make([]int, len(runs))
	deadline := time.After(viewTimeout)
	for held[0] != labelShards/2 || held[1] != labelShards/2 {
		select {
		case r := <-runs[0].reports:
			held[0] = checkHeld(t, runs[0], r, held[0])
		case r := <-runs[1].reports:
			held[1] = checkHeld(t, runs[1], r, held[1])
		case <-deadline:
			t.Fatalf("kates-run replicas hold %v shards after %s, want %d each", held, viewTimeout, labelShards/2)
		}
	}
	runs[1].kill()
	killed := time.Now()
	var last peerReport
	for last.Shards != labelShards {
		select {
		case r, ok := <-runs[0].reports:
			if !ok {
				t.Fatal("kates-run replica 0 exited during the handover")
			}
			if checkHeld(t, runs[0], r, -1) >= 0 {
				last = r
			}
		case <-time.After(viewTimeout):
			t.Fatalf("kates-run replica 0 holds %d shards %s after the kill", last.Shards, viewTimeout)
		}
	}
	runs[0].close()
	return handoverResult{seconds: time.Unix(0, last.Done).Sub(killed).Seconds(), widgets: last.Widgets, configMaps: last.ConfigMaps}
}

// checkHeld returns the shards a "held" report of c says its view holds, or prev for its
// "view" report (of no shard: it may come after the first "held"); any other report fails
// the test.
func checkHeld(t *testing.T, c *child, r peerReport, prev int) int {
	t.Helper()
	if r.Event == "view" {
		return prev
	}
	if r.Event != "held" {
		t.Fatalf("replica %s: %s %s, want \"held\"", c.name, r.Event, r.Error)
	}
	return r.Shards
}

// runTogether starts replicas of peer out of n at once (all n if none are named), waits for
// each one's first view, stops them and returns their reports, in order.
func runTogether(t *testing.T, peer string, n int, which ...int) []peerReport {
	t.Helper()
	if len(which) == 0 {
		for i := range n {
			which = append(which, i)
		}
	} else {
		n = which[len(which)-1] // runTogether(t, peer, 1, i, n): replica i of n alone
		which = which[:len(which)-1]
	}
	children := make([]*child, len(which))
	for k, i := range which {
		children[k] = startChild(t, peer, n, i)
	}
	reports := make([]peerReport, len(which))
	for k, c := range children {
		reports[k] = c.next(t, "view")
	}
	for _, c := range children {
		c.close()
	}
	return reports
}

// child is a replica running in a process of its own: this test binary with peerEnv set.
type child struct {
	name    string
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	reports chan peerReport
	done    bool
}

func startChild(t *testing.T, peer string, n, i int) *child {
	t.Helper()
	c := &child{name: fmt.Sprintf("%s/%d/%d", peer, n, i), reports: make(chan peerReport, 8)}
	c.cmd = exec.Command(os.Args[0], "-test.run=^$")
	c.cmd.Env = append(os.Environ(), peerEnv+"="+c.name)
	c.cmd.Stderr = os.Stderr
	var err error
	if c.stdin, err = c.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := c.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.kill)
	go func() {
		defer close(c.reports)
		lines := bufio.NewScanner(stdout)
		for lines.Scan() {
			var r peerReport
			if json.Unmarshal(lines.Bytes(), &r) == nil && r.Event != "" {
				c.reports <- r
			}
		}
	}()
	return c
}

// next returns c's next report, which must be of the event named.
func (c *child) next(t *testing.T, event string) peerReport {
	t.Helper()
	select {
	case r, ok := <-c.reports:
		switch {
		case !ok:
			t.Fatalf("replica %s exited before its %q report", c.name, event)
		case r.Event != event:
			t.Fatalf("replica %s: %s %s, want %q", c.name, r.Event, r.Error, event)
		}
		return r
	case <-time.After(viewTimeout):
		t.Fatalf("replica %s: no %q report after %s", c.name, event, viewTimeout)
	}
	return peerReport{}
}

// close stops c gracefully (its standard input closes) and waits for it to exit.
func (c *child) close() {
	if c.done {
		return
	}
	c.done = true
	_ = c.stdin.Close()
	for range c.reports {
	}
	_ = c.cmd.Wait()
}

// kill kills c (SIGKILL: no goodbye to anyone) and waits for it to exit.
func (c *child) kill() {
	if c.done {
		return
	}
	c.done = true
	_ = c.cmd.Process.Kill()
	for range c.reports {
	}
	_ = c.cmd.Wait()
}

// median returns the median of vs (the mean of the middle two of an even count).
func median(vs []float64) float64 {
	vs = slices.Clone(vs)
	slices.Sort(vs)
	m := len(vs) / 2
	if len(vs)%2 == 0 {
		return (vs[m-1] + vs[m]) / 2
	}
	return vs[m]
}
