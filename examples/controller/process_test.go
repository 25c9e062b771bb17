package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/util/retry"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/testenv/katestest"
)

// The election timings of the process tests: a crashed leader is replaced within about three
// seconds, and a term ends a second before a successor can begin.
const (
	procLease = 3 * time.Second
	procRenew = 2 * time.Second
	procRetry = 300 * time.Millisecond
)

// intruder is the holder the test writes into the Lease under a leader.
const intruder = "intruder"

// buildController builds this example as a binary, once per test binary.
var buildController = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "kates-controller-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "controller")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
})

// process is one replica of the controller running as a process of its own.
type process struct {
	id   string
	cmd  *exec.Cmd
	done chan struct{}
}

// processSet starts and stops replica processes, each behind its own proxy.
type processSet struct {
	t       *testing.T
	bin     string
	ns      string
	rec     *katestest.Recorder
	release bool
	shards  int // -shards, if positive
	out     syncBuffer
}

func (s *processSet) start(id string) *process {
	s.t.Helper()
	kubeconfig := s.rec.Kubeconfig(s.t, id, s.ns)
	cmd := exec.Command(s.bin, "-kubeconfig", kubeconfig, "-namespace", s.ns, "-lease", s.ns+"/webapp",
		"-identity", id, "-lease-duration", procLease.String(), "-renew-deadline", procRenew.String(),
		"-retry-period", procRetry.String(), "-release-on-exit="+strconv.FormatBool(s.release),
		"-metrics-addr", "127.0.0.1:0", "-health-probe-addr", "127.0.0.1:0", "-fence-stamp", "-v=1")
	if s.shards > 0 {
		cmd.Args = append(cmd.Args, "-shards", strconv.Itoa(s.shards))
	}
	cmd.Stdout = &prefixWriter{prefix: id + " ", w: &s.out}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	p := &process{id: id, cmd: cmd, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(p.done) }()
	s.t.Cleanup(func() { p.signal(syscall.SIGKILL); <-p.done })
	// A replica campaigns only once its view is complete: wait for that, so that each round
	// has two warm standbys, as a deployment that waits for readiness has.
	began := time.Now()
	viewComplete := `"view complete" controller="webapp" identity="` + id + `"`
	starts := strings.Count(s.out.String(), viewComplete)
	eventually(s.t, time.Minute, id+" view complete", func() error {
		if strings.Count(s.out.String(), viewComplete) > starts {
			return nil
		}
		return fmt.Errorf("not yet")
	})
	s.t.Logf("%s: view complete %s after start", id, time.Since(began).Round(time.Millisecond))
	if os.Getenv("DEBUG_BOOTSTRAP") != "" {
		for _, r := range s.rec.Requests() {
			if r.Replica == id && r.Arrived.After(began) {
				s.t.Logf("  %s %s %s?%s %d answer after %s", r.Arrived.Format(time.StampMilli), r.Method, r.Path, r.Query, r.Status, r.Answered.Sub(r.Arrived).Round(time.Millisecond))
			}
		}
	}
	return p
}

// dumpRequests logs the last requests of each replica, for a failure's diagnosis.
func (s *processSet) dumpRequests() {
	byReplica := map[string][]katestest.Request{}
	for _, r := range s.rec.Requests() {
		byReplica[r.Replica] = append(byReplica[r.Replica], r)
	}
	for id, reqs := range byReplica {
		var lines []string
		for _, r := range reqs[max(0, len(reqs)-15):] {
			lines = append(lines, fmt.Sprintf("%s %s %s %d (%s)", r.Arrived.Format(time.StampMilli), r.Method, r.Path, r.Status, r.Answered.Sub(r.Arrived).Round(time.Millisecond)))
		}
		s.t.Logf("%s: %d requests logged (lease requests, writes); the last:\n%s", id, len(reqs), strings.Join(lines, "\n"))
	}
}

func (p *process) signal(sig syscall.Signal) {
	if p.cmd.Process != nil {
		_ = p.cmd.Process.Signal(sig)
	}
}

// prefixWriter prefixes each write (a log line, as the controller writes them) with a name.
type prefixWriter struct {
	prefix string
	w      io.Writer
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	_, err := p.w.Write(append([]byte(time.Now().Format("15:04:05.000 ")+p.prefix), b...))
	return len(b), err
}

// holder returns the Lease's holder now ("" when released or absent).
func holder(t *testing.T, c *kates.Client, ns string) (string, *coordinationv1.Lease) {
	t.Helper()
	l, err := katestest.Clientset(t, c).CoordinationV1().Leases(ns).Get(context.Background(), "webapp", metav1.GetOptions{})
	if err != nil {
		return "", nil
	}
	if l.Spec.HolderIdentity == nil {
		return "", l
	}
	return *l.Spec.HolderIdentity, l
}

// waitHolder waits until the Lease names a holder other than each of not, and returns it.
func waitHolder(t *testing.T, s *processSet, c *kates.Client, ns string, not ...string) string {
	t.Helper()
	var h string
	defer func() {
		if t.Failed() {
			s.dumpRequests()
		}
	}()
	eventually(t, 30*time.Second, "a new lease holder", func() error {
		h, _ = holder(t, c, ns)
		if h == "" {
			return fmt.Errorf("no holder")
		}
		for _, n := range not {
			if h == n {
				return fmt.Errorf("%s still holds the lease", h)
			}
		}
		return nil
	})
	return h
}

// churn changes the replicas of the WebApps in turn until stop is closed, so that whoever
// leads has writes to make.
func churn(t *testing.T, c *kates.Client, ns string, names []string, stop <-chan struct{}) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-time.After(40 * time.Millisecond):
			}
			name := names[i%len(names)]
			patch := fmt.Sprintf(`{"spec":{"replicas":%d}}`, 1+(i/len(names))%3)
			pctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			if err := c.Patch(pctx, newWebApp(ns, name, 0, ""), kates.MergePatchType, []byte(patch), nil); err != nil {
				t.Logf("churn: %v", err)
			}
			cancel()
		}
	}()
	return done
}

// TestNoWriteOutsideTerm runs the controller as three processes, each behind a proxy of the
// test's that records every request when it arrives, and puts the leader through a crash
// (SIGKILL), a graceful stop (SIGTERM), pauses past its term (SIGSTOP, a successor wins and
// writes, SIGCONT) several times in a row, and a Lease rewritten under it by someone else,
// with the WebApps changing throughout. Against the Lease's history it asserts that:
//
//   - every write a replica made took effect (by its resourceVersion) while that replica held
//     the Lease, unless the write had passed its fence check before the term ended (a write
//     on the wire when the process was stopped: the limit the election documents);
//   - a replica writes the Lease only over a record of its own or one that had run out: it
//     never releases or retakes a successor's;
//   - a leader whose renewal finds the Lease rewritten sends no write after it notices.
//
// It runs with Release on and off.
func TestNoWriteOutsideTerm(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the controller as processes")
	}
	bin, err := buildController()
	if err != nil {
		t.Fatal(err)
	}
	for _, release := range []bool{true, false} {
		t.Run(fmt.Sprintf("release=%t", release), func(t *testing.T) { testNoWriteOutsideTerm(t, bin, release) })
	}
}

func testNoWriteOutsideTerm(t *testing.T, bin string, release bool) {
	base, ns := katestest.NewClient(t, katestest.Start(t), "kates-terms-")
	installCRD(t, base)
	ctx := context.Background()
	leaseHistory, stopLeaseWatch := katestest.WatchLeases(t, base, ns)
	s := &processSet{t: t, bin: bin, ns: ns, rec: katestest.NewRecorder(base.RESTConfig()), release: release}
	defer func() {
		if t.Failed() {
			t.Logf("controller log:\n%s", s.out.String())
		}
	}()
	var names []string
	for i := range 12 {
		name := fmt.Sprintf("web-%d", i)
		names = append(names, name)
		app := newWebApp(ns, name, 1, "nginx:1.27")
		app.Spec.Headless = true
		if err := base.Create(ctx, app, nil); err != nil {
			t.Fatal(err)
		}
	}
	procs := map[string]*process{}
	for i := range 3 {
		id := fmt.Sprintf("replica-%d", i)
		procs[id] = s.start(id)
	}
	stopChurn := make(chan struct{})
	churned := churn(t, base, ns, names, stopChurn)
	defer func() {
		select {
		case <-stopChurn:
		default:
			close(stopChurn)
		}
		<-churned
	}()

	leader := waitHolder(t, s, base, ns)
	timings := map[string][]time.Duration{}
	// Crash: the leader is killed; another takes over once its record runs out.
	at := time.Now()
	procs[leader].signal(syscall.SIGKILL)
	<-procs[leader].done
	next := waitHolder(t, s, base, ns, leader)
	timings["crash"] = append(timings["crash"], time.Since(at))
	procs[leader] = s.start(leader)
	leader = next

	// Graceful stop: with Release the successor takes over at once.
	at = time.Now()
	procs[leader].signal(syscall.SIGTERM)
	<-procs[leader].done
	next = waitHolder(t, s, base, ns, leader)
	timings["graceful"] = append(timings["graceful"], time.Since(at))
	procs[leader] = s.start(leader)
	leader = next

	// Pauses: the leader is stopped until a successor holds the lease and has written, then
	// woken; three times in a row, the same process.
	paused := leader
	for range 3 {
		at = time.Now()
		procs[paused].signal(syscall.SIGSTOP)
		next = waitHolder(t, s, base, ns, paused)
		timings["pause"] = append(timings["pause"], time.Since(at))
		waitLeaderWrites(t, s.rec, base, ns, time.Now(), 3, paused)
		procs[paused].signal(syscall.SIGCONT)
		// Let the woken process run (and, before the fix, take the lease back) while the
		// successor writes. It may hold the Lease again only by taking it over a record that
		// had run out (a successor that lost its own term under load): CheckTerms below holds
		// every such write against the record's expiry.
		time.Sleep(procLease)
		if h, _ := holder(t, base, ns); h == paused {
			t.Logf("the woken %s holds the lease again (CheckTerms judges how it took it)", paused)
		}
		// The woken process is now a standby: pause the next leader the same way in the
		// next round, unless it is the successor's turn to be paused again.
		leader, _ = holder(t, base, ns)
		if leader == "" {
			leader = waitHolder(t, s, base, ns)
		}
		paused = leader
	}

	// Someone else rewrites the Lease under the leader: its next renewal fails, and it sends
	// no write after noticing.
	waitHolder(t, s, base, ns)
	waitLeaderWrites(t, s.rec, base, ns, time.Now(), 3)
	var rewrittenAt time.Time
	// The leader renews every retry period: under load a read and a write can take longer
	// than that, so try as often as it takes.
	backoff := wait.Backoff{Steps: 100, Duration: 10 * time.Millisecond, Factor: 1, Jitter: 0.5}
	err := retry.RetryOnConflict(backoff, func() error {
		var lease *coordinationv1.Lease
		leader, lease = holder(t, base, ns)
		intruder := intruder
		lease.Spec.HolderIdentity = &intruder
		now := metav1.NewMicroTime(time.Now())
		lease.Spec.RenewTime = &now
		rewrittenAt = time.Now() // sent: the leader may hear of it before this call returns
		_, err := katestest.Clientset(t, base).CoordinationV1().Leases(ns).Update(ctx, lease, metav1.UpdateOptions{})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	waitHolder(t, s, base, ns, intruder)

	close(stopChurn)
	<-churned
	for _, p := range procs {
		p.signal(syscall.SIGCONT)
		p.signal(syscall.SIGTERM)
		<-p.done
	}
	stopLeaseWatch()
	// Every write the controller makes needs its term of the Lease; checkNoticed judges those
	// that follow the test's own rewrite.
	katestest.CheckTerms(t, s.rec.Requests(), leaseHistory(), katestest.TermCheck{
		TermOf:   func(katestest.Request) string { return "webapp" },
		Intruder: intruder,
	})
	checkNoticed(t, s.rec.Requests(), leader, rewrittenAt)
	for what, ds := range timings {
		t.Logf("%s: another replica held the lease after %v", what, ds)
	}
}

// waitLeaderWrites waits until the replica the Lease names (none of not) has made n successful
// writes (not to the Lease) since since, and returns it. The holder is read again on every try:
// under load a replica the test saw win can lose its term before it writes, and its successor's
// writes are the ones to wait for.
func waitLeaderWrites(t *testing.T, rec *katestest.Recorder, c *kates.Client, ns string, since time.Time, n int, not ...string) string {
	t.Helper()
	var who string
	eventually(t, 30*time.Second, "the leader's writes", func() error {
		who, _ = holder(t, c, ns)
		if who == "" || slices.Contains(not, who) {
			return fmt.Errorf("the Lease names %q", who)
		}
		got := 0
		reqs := map[string]int{}
		for _, r := range rec.Requests() {
			if r.Replica != who || !r.Arrived.After(since) {
				continue
			}
			if r.IsWrite() && !r.IsLease() && r.Status < 300 {
				got++
			}
			reqs[fmt.Sprintf("%s %d %s", r.Method, r.Status, r.Path)]++
		}
		if got < n {
			return fmt.Errorf("%s: %d writes, want %d; requests since: %v", who, got, n, reqs)
		}
		return nil
	})
	return who
}

// checkNoticed asserts that leader, whose Lease was rewritten at rewrittenAt, failed its next
// renewal and sent no write after it noticed: after its first request for the Lease once the
// renewal failed (it reads the Lease again to stand by).
func checkNoticed(t *testing.T, reqs []katestest.Request, leader string, rewrittenAt time.Time) {
	t.Helper()
	var failed, reread, reacquired time.Time
	for _, r := range reqs {
		if r.Replica != leader || !r.IsLease() || r.Arrived.Before(rewrittenAt.Add(-time.Second)) {
			continue
		}
		switch {
		case failed.IsZero() && r.Method == http.MethodPut && r.Status == http.StatusConflict:
			failed = r.Answered
		case !failed.IsZero() && reread.IsZero() && r.Arrived.After(failed):
			reread = r.Arrived
		case !reread.IsZero() && reacquired.IsZero() && r.IsWrite() && r.Status < 300 && r.Holder != nil && *r.Holder == leader:
			// The intruder's record ran out and this replica won a term of its own again:
			// its writes from then on are checkTerms' to judge.
			reacquired = r.Arrived
		}
	}
	if failed.IsZero() {
		// Under load the leader's term can end at its deadline before its next renewal is
		// sent: it then stands by without a failed PUT, and its first read of the Lease after
		// the rewrite is the first request it makes as a standby.
		for _, r := range reqs {
			if r.Replica == leader && r.IsLease() && r.Method == http.MethodGet && r.Arrived.After(rewrittenAt) {
				failed, reread = r.Arrived, r.Arrived
				t.Logf("%s's term ended before a renewal found the Lease rewritten; it read the Lease as a standby %s after the rewrite",
					leader, failed.Sub(rewrittenAt).Round(time.Millisecond))
				break
			}
		}
	} else {
		t.Logf("%s's renewal failed %s after the Lease was rewritten", leader, failed.Sub(rewrittenAt).Round(time.Millisecond))
	}
	if failed.IsZero() || reread.IsZero() {
		t.Fatalf("%s: no failed renewal and re-read of the Lease after it was rewritten at %s", leader, rewrittenAt.Format(time.StampMicro))
	}
	for _, r := range reqs {
		if r.Replica != leader || !r.IsWrite() || r.IsLease() || !r.Arrived.After(failed) ||
			!reacquired.IsZero() && r.Arrived.After(reacquired) {
			continue
		}
		if r.FenceChecked.IsZero() || r.FenceChecked.After(reread) {
			t.Errorf("%s sent %s %s (fence checked %s) at %s, after its renewal failed at %s and it re-read the Lease at %s",
				leader, r.Method, r.Path, r.FenceChecked.Format(time.StampMicro), r.Arrived.Format(time.StampMicro),
				failed.Format(time.StampMicro), reread.Format(time.StampMicro))
		}
	}
}
