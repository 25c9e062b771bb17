package shards_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/shards"
	"github.com/kates-dev/kates/testenv/katestest"
)

// The process test runs this test binary as each replica: TestMain calls replicaMain when
// replicaEnv names the replica.
const (
	replicaEnv     = "KATES_SHARDS_REPLICA"
	kubeconfigEnv  = "KATES_SHARDS_KUBECONFIG"
	procShards     = 6
	procLease      = 3 * time.Second
	procRenew      = 2 * time.Second
	procRetry      = 300 * time.Millisecond
	procGroup      = "writers"
	procWriteEvery = 25 * time.Millisecond
)

// objectName is the ConfigMap a replica writes while it owns shard i.
func objectName(i int) string { return "obj-" + strconv.Itoa(i) }

// replicaMain is one replica: a member of the group procGroup that, for each shard it owns,
// patches the shard's ConfigMap every procWriteEvery with its shard's fenced context, without
// a precondition, so that a write sent outside its term would land, and once more after the
// context ends. It stops, releasing its shards, on SIGTERM.
func replicaMain() int {
	id := os.Getenv(replicaEnv)
	client, err := kates.NewClient(kates.ClientConfig{Kubeconfig: os.Getenv(kubeconfigEnv)})
	if err != nil {
		fmt.Println(err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	err = shards.Run(ctx, client, shards.Options{Name: procGroup, Identity: id, Shards: procShards,
		LeaseDuration: procLease, RenewDeadline: procRenew, RetryPeriod: procRetry, Release: true, StampFences: true,
		Observe: func(s shards.State) {
			fmt.Printf("%s: members %v, assigned %v, held %v\n", id, s.Members, s.Assigned, s.Held)
		}}, func(ctx context.Context, shard int) error {
		for n := 0; ; n++ {
			patch := fmt.Sprintf(`{"data":{"writer":%q,"n":"%d"}}`, id, n)
			cm := &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: objectName(shard)}}
			if err := client.Patch(ctx, cm, kates.MergePatchType, []byte(patch), nil); errors.Is(err, kates.ErrLeaseLost) {
				fmt.Printf("%s: shard %d: %v\n", id, shard, err)
			}
			select {
			case <-ctx.Done():
				// One more write that ignores the cancellation but keeps the context's
				// values, as a write already under way when the shard was lost would: the
				// shard's fence must refuse it once the term is over.
				err := client.Patch(context.WithoutCancel(ctx), cm, kates.MergePatchType, []byte(patch), nil)
				fmt.Printf("%s: shard %d: stopped (%v); a last write: %v\n", id, shard, context.Cause(ctx), err)
				return nil
			case <-time.After(procWriteEvery):
			}
		}
	})
	if err != nil {
		fmt.Println(err)
		return 1
	}
	return 0
}

// shardOf returns the shard whose object r wrote to, or -1.
func shardOf(r katestest.Request) int {
	i := strings.LastIndex(r.Path, "/configmaps/"+objectName(0)[:4])
	if i < 0 {
		return -1
	}
	n, err := strconv.Atoi(r.Path[i+len("/configmaps/obj-"):])
	if err != nil {
		return -1
	}
	return n
}

// processes starts and stops replica processes, each behind a proxy of the test's.
type processes struct {
	t     *testing.T
	ns    string
	rec   *katestest.Recorder
	out   syncBuffer
	procs map[string]*process
}

type process struct {
	cmd  *exec.Cmd
	done chan struct{}
}

func (s *processes) start(id string) {
	s.t.Helper()
	kubeconfig := s.rec.Kubeconfig(s.t, id, s.ns)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), replicaEnv+"="+id, kubeconfigEnv+"="+kubeconfig)
	cmd.Stdout = &prefixWriter{w: &s.out}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	p := &process{cmd: cmd, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(p.done) }()
	s.t.Cleanup(func() { _ = cmd.Process.Signal(syscall.SIGKILL); <-p.done })
	s.procs[id] = p
}

func (s *processes) signal(id string, sig syscall.Signal) { _ = s.procs[id].cmd.Process.Signal(sig) }

// syncBuffer collects the replicas' output.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

type prefixWriter struct{ w io.Writer }

func (p *prefixWriter) Write(b []byte) (int, error) {
	_, err := p.w.Write(append([]byte(time.Now().Format("15:04:05.000 ")), b...))
	return len(b), err
}

// holders returns each shard's Lease holder now ("" when released or absent).
func holders(t *testing.T, c *kates.Client, ns string) []string {
	t.Helper()
	out := make([]string, procShards)
	for i := range out {
		l, err := katestest.Clientset(t, c).CoordinationV1().Leases(ns).Get(context.Background(), shards.ShardLeaseName(procGroup, i), metav1.GetOptions{})
		if err == nil && l.Spec.HolderIdentity != nil {
			out[i] = *l.Spec.HolderIdentity
		}
	}
	return out
}

// waitWritten waits until every shard in which has a successful write, arrived after since, by
// a replica other than not, and returns how long after since the last of them arrived.
func waitWritten(t *testing.T, rec *katestest.Recorder, which []int, not string, since time.Time) time.Duration {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		var last time.Time
		missing := []int{}
		for _, i := range which {
			var first time.Time
			for _, r := range rec.Requests() {
				if r.IsWrite() && shardOf(r) == i && r.Status < 300 && r.Replica != not && r.Arrived.After(since) {
					first = r.Arrived
					break
				}
			}
			if first.IsZero() {
				missing = append(missing, i)
			} else if first.After(last) {
				last = first
			}
		}
		if len(missing) == 0 {
			return last.Sub(since)
		}
		if time.Now().After(deadline) {
			t.Fatalf("shards %v have no write by a replica other than %q within %s of %s", missing, not, within, since.Format(time.StampMilli))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// heldBy returns the shards whose Lease names id in hs.
func heldBy(hs []string, id string) []int {
	var out []int
	for i, h := range hs {
		if h == id {
			out = append(out, i)
		}
	}
	return out
}

// TestNoTwoWritersOfAShard runs the group as three processes, each behind a proxy of the test's
// that records every write when it arrives, each patching its shards' ConfigMaps every 25 ms
// without a precondition. It kills one (SIGKILL), restarts it (a join), pauses one past its
// leases (SIGSTOP until others have written its shards, then SIGCONT) and stops one gracefully
// (SIGTERM, releasing), and asserts, against every shard Lease's history, that:
//
//   - every write to a shard's object took effect (by its resourceVersion) while its writer
//     held that shard's Lease, unless it had passed its fence check before the Lease record in
//     effect was sent (a write on the wire when the process was paused: the documented limit);
//   - a replica writes a shard Lease only over a record of its own, a released one, or (taking
//     it) one that ran out;
//
// and measures how long each event leaves the moved shards without a writer.
func TestNoTwoWritersOfAShard(t *testing.T) {
	if testing.Short() {
		t.Skip("runs replicas as processes")
	}
	ns := newNamespace(t)
	base, err := kates.NewClientFromRESTConfig(cluster.RESTConfig(), ns)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i := range procShards {
		if err := base.Create(ctx, &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: objectName(i)}}, nil); err != nil {
			t.Fatal(err)
		}
	}
	leaseHistory, stopWatch := katestest.WatchLeases(t, base, ns)
	s := &processes{t: t, ns: ns, rec: katestest.NewRecorder(cluster.RESTConfig()), procs: map[string]*process{}}
	defer func() {
		if t.Failed() {
			t.Logf("replicas' output:\n%s", s.out.String())
		}
	}()
	ids := []string{"r0", "r1", "r2"}
	begin := time.Now()
	for _, id := range ids {
		s.start(id)
	}
	all := []int{}
	for i := range procShards {
		all = append(all, i)
	}
	waitWritten(t, s.rec, all, "", begin)
	t.Logf("start: every shard written %s after the processes started", time.Since(begin).Round(time.Millisecond))

	// Wait for the three to settle on Assign's owners, so that each has shards to lose.
	want := shards.Assign(ids, procShards)
	deadline := time.Now().Add(within)
	for hs := holders(t, base, ns); strings.Join(hs, ",") != strings.Join(want, ","); hs = holders(t, base, ns) {
		if time.Now().After(deadline) {
			t.Fatalf("shard holders %v, want %v", hs, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
	timings := map[string]time.Duration{}

	// Kill: r0's shards run out and are written by the others.
	lost := heldBy(holders(t, base, ns), "r0")
	at := time.Now()
	s.signal("r0", syscall.SIGKILL)
	<-s.procs["r0"].done
	timings["kill"] = waitWritten(t, s.rec, lost, "r0", at)

	// Join: r0 comes back and takes its share again.
	at = time.Now()
	s.start("r0")
	rejoined := shards.Owned(want, "r0")
	for _, i := range rejoined {
		waitWrittenBy(t, s.rec, i, "r0", at)
	}
	timings["join"] = time.Since(at)

	// Pause: r1 is stopped until the others have written its shards, then woken.
	paused := heldBy(holders(t, base, ns), "r1")
	at = time.Now()
	s.signal("r1", syscall.SIGSTOP)
	timings["pause"] = waitWritten(t, s.rec, paused, "r1", at)
	s.signal("r1", syscall.SIGCONT)
	for _, i := range shards.Owned(want, "r1") {
		waitWrittenBy(t, s.rec, i, "r1", at)
	}

	// Graceful stop: r2 releases its shards once its writers have returned.
	stopped := heldBy(holders(t, base, ns), "r2")
	at = time.Now()
	s.signal("r2", syscall.SIGTERM)
	timings["graceful"] = waitWritten(t, s.rec, stopped, "r2", at)
	<-s.procs["r2"].done

	for _, id := range []string{"r0", "r1"} {
		s.signal(id, syscall.SIGTERM)
		<-s.procs[id].done
	}
	stopWatch()
	checkShardTerms(t, s.rec.Requests(), leaseHistory())
	for _, what := range []string{"kill", "join", "pause", "graceful"} {
		t.Logf("%s: the moved shards were written by their new owner within %s (lease %s, retry %s)",
			what, timings[what].Round(time.Millisecond), procLease, procRetry)
	}
	if d := timings["kill"]; d < procLease-procRetry || d > procLease+3*procRetry+2*time.Second {
		t.Errorf("kill: a new owner wrote after %s, want about the lease duration %s plus a retry period %s", d, procLease, procRetry)
	}
	if d := timings["graceful"]; d >= procLease {
		t.Errorf("graceful stop: a new owner wrote after %s, want less than the lease duration %s (released)", d, procLease)
	}
}

// waitWrittenBy waits until replica has a successful write to shard i's object after since.
func waitWrittenBy(t *testing.T, rec *katestest.Recorder, i int, replica string, since time.Time) {
	t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		for _, r := range rec.Requests() {
			if r.IsWrite() && shardOf(r) == i && r.Status < 300 && r.Replica == replica && r.Arrived.After(since) {
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("shard %d: no write by %s within %s", i, replica, within)
}

// checkShardTerms holds every successful write to a shard's object against that shard
// Lease's history (member Leases are announcements, not terms), and checks that every shard
// changed writers, so that its handovers were put to the test.
func checkShardTerms(t *testing.T, reqs []katestest.Request, leases katestest.LeaseHistory) {
	t.Helper()
	katestest.CheckTerms(t, reqs, leases, katestest.TermCheck{
		TermOf: func(r katestest.Request) string {
			if i := shardOf(r); i >= 0 {
				return shards.ShardLeaseName(procGroup, i)
			}
			return ""
		},
		IsTerm: func(name string) bool { return strings.HasPrefix(name, procGroup+"-shard-") },
	})
	writers := map[int]map[string]bool{}
	for _, r := range reqs {
		if i := shardOf(r); i >= 0 && r.IsWrite() && r.Status < 300 {
			if writers[i] == nil {
				writers[i] = map[string]bool{}
			}
			writers[i][r.Replica] = true
		}
	}
	for i := range procShards {
		if len(writers[i]) < 2 {
			t.Errorf("shard %d was written by %d replicas, want its handovers to show", i, len(writers[i]))
		}
	}
}
