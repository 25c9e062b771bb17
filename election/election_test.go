package election_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kates-dev/kates/election"
	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/testenv/katestest"
)

// Short lease timings for tests: a crashed leader is replaced within about two seconds.
const (
	testLease   = 2 * time.Second
	testRenew   = 1500 * time.Millisecond
	testRetry   = 300 * time.Millisecond
	leaseWithin = 20 * time.Second // how long a test waits for an election outcome
)

// partitionable is a RoundTripper that fails every request for a Lease while cut is set, as a
// network partition between one replica and the API server would.
type partitionable struct {
	next http.RoundTripper
	cut  *atomic.Bool
}

func (p *partitionable) RoundTrip(req *http.Request) (*http.Response, error) {
	if p.cut.Load() && strings.Contains(req.URL.Path, "/leases") {
		return nil, errors.New("partitioned")
	}
	return p.next.RoundTrip(req)
}

// candidate is one replica in an election test: a client of its own, and a log of its terms.
type candidate struct {
	id     string
	client *kates.Client
	cut    atomic.Bool // partitions the candidate from the API server's Leases

	cancel context.CancelFunc
	done   chan error // Run's result

	mu      sync.Mutex
	started []time.Time // when each run began
	ended   []time.Time // when each run returned
}

func newCandidate(t *testing.T, ns, id string) *candidate {
	t.Helper()
	c := &candidate{id: id, done: make(chan error, 1)}
	cfg := cluster.RESTConfig()
	cfg.WrapTransport = func(rt http.RoundTripper) http.RoundTripper { return &partitionable{next: rt, cut: &c.cut} }
	client, err := kates.NewClientFromRESTConfig(cfg, ns)
	if err != nil {
		t.Fatal(err)
	}
	c.client = client
	return c
}

// start runs the candidate's Run in the background; its run holds until its context ends.
func (c *candidate) start(opts election.Options) {
	ctx, cancel := context.WithCancel(context.Background())
	c.cancel = cancel
	opts.Identity = c.id
	go func() {
		c.done <- election.Run(ctx, c.client, opts, func(ctx context.Context) error {
			c.mu.Lock()
			c.started = append(c.started, time.Now())
			c.mu.Unlock()
			<-ctx.Done()
			c.mu.Lock()
			c.ended = append(c.ended, time.Now())
			c.mu.Unlock()
			return ctx.Err()
		})
	}()
}

func (c *candidate) terms() (started, ended []time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Time(nil), c.started...), append([]time.Time(nil), c.ended...)
}

func (c *candidate) leading() bool {
	s, e := c.terms()
	return len(s) > len(e)
}

// waitLeading waits until one of cs leads and returns it.
func waitLeading(t *testing.T, cs ...*candidate) *candidate {
	t.Helper()
	deadline := time.Now().Add(leaseWithin)
	for time.Now().Before(deadline) {
		for _, c := range cs {
			if c.leading() {
				return c
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no candidate leads after %s", leaseWithin)
	return nil
}

func waitDone(t *testing.T, c *candidate) error {
	t.Helper()
	select {
	case err := <-c.done:
		return err
	case <-time.After(leaseWithin):
		t.Fatalf("%s: Run has not returned after %s", c.id, leaseWithin)
		return nil
	}
}

func leaseHolder(t *testing.T, c *kates.Client, ns, name string) string {
	t.Helper()
	l, err := katestest.Clientset(t, c).CoordinationV1().Leases(ns).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if l.Spec.HolderIdentity == nil {
		return ""
	}
	return *l.Spec.HolderIdentity
}

// TestRunFencesAPartitionedLeader cuts the leader off from the API server: its run's
// context is cancelled (Run returns ErrLeaseLost) before the standby's run starts, and
// no goroutine of either election is left.
func TestRunFencesAPartitionedLeader(t *testing.T) {
	_, ns := newClient(t)
	ignore := goleak.IgnoreCurrent()
	opts := election.Options{Lease: ns + "/fence", LeaseDuration: testLease, RenewDeadline: testRenew, RetryPeriod: testRetry}
	a, b := newCandidate(t, ns, "a"), newCandidate(t, ns, "b")
	a.start(opts)
	if waitLeading(t, a) != a {
		t.Fatal("a does not lead")
	}
	b.start(opts)
	time.Sleep(3 * testRetry) // b is standing by
	if b.leading() {
		t.Fatal("b leads while a holds the lease")
	}
	a.cut.Store(true)
	cutAt := time.Now()
	if err := waitDone(t, a); !errors.Is(err, election.ErrLeaseLost) {
		t.Errorf("partitioned leader's Run = %v, want ErrLeaseLost", err)
	}
	if waitLeading(t, b) != b {
		t.Fatal("b does not lead")
	}
	_, aEnded := a.terms()
	bStarted, _ := b.terms()
	if !aEnded[0].Before(bStarted[0]) {
		t.Errorf("a's run ended at %s, after b's began at %s: two leaders at once",
			aEnded[0].Format(time.StampMicro), bStarted[0].Format(time.StampMicro))
	}
	t.Logf("partitioned at 0, a stopped at %s, b started at %s", aEnded[0].Sub(cutAt).Round(time.Millisecond),
		bStarted[0].Sub(cutAt).Round(time.Millisecond))
	b.cancel()
	if err := waitDone(t, b); err != nil {
		t.Errorf("Run after ctx ended = %v, want nil", err)
	}
	goleak.VerifyNone(t, append(katestest.IgnoreConnections, ignore)...)
}

// TestRunCrashOrRelease ends the leader's context: without Release the lease stays its
// own until it runs out, as a crashed leader's; with Release it is given up at once, so the
// standby takes over long before the (here long) lease duration.
func TestRunCrashOrRelease(t *testing.T) {
	for _, tc := range []struct {
		name    string
		release bool
		lease   time.Duration
	}{
		{"crash", false, testLease},
		{"release", true, 60 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, ns := newClient(t)
			ignore := goleak.IgnoreCurrent()
			opts := election.Options{Lease: "lease", LeaseDuration: tc.lease, RenewDeadline: testRenew,
				RetryPeriod: testRetry, Release: tc.release}
			a, b := newCandidate(t, ns, "a"), newCandidate(t, ns, "b")
			a.start(opts)
			waitLeading(t, a)
			b.start(opts)
			a.cancel()
			if err := waitDone(t, a); err != nil {
				t.Errorf("Run after ctx ended = %v, want nil", err)
			}
			holder := leaseHolder(t, c, ns, "lease")
			switch {
			case !tc.release && holder != "a":
				t.Errorf("lease holder after a crashed leader returned = %q, want %q (not released)", holder, "a")
			case tc.release && holder == "a":
				t.Errorf("lease holder after Run returned with Release = %q, want it released", holder)
			}
			begin := time.Now()
			waitLeading(t, b)
			t.Logf("b leads %s after a returned", time.Since(begin).Round(time.Millisecond))
			if tc.release && time.Since(begin) >= tc.lease {
				t.Errorf("b took over after %s, the full lease duration: the lease was not released", time.Since(begin))
			}
			b.cancel()
			if err := waitDone(t, b); err != nil {
				t.Errorf("Run after ctx ended = %v, want nil", err)
			}
			goleak.VerifyNone(t, append(katestest.IgnoreConnections, ignore)...)
		})
	}
}

// TestRunReturnsRunsError: run returning on its own ends Run with its error.
func TestRunReturnsRunsError(t *testing.T) {
	c, _ := newClient(t)
	want := errors.New("done")
	err := election.Run(context.Background(), c, election.Options{Lease: "own", LeaseDuration: testLease,
		RenewDeadline: testRenew, RetryPeriod: testRetry}, func(ctx context.Context) error { return want })
	if !errors.Is(err, want) {
		t.Errorf("Run = %v, want run's error %v", err, want)
	}
}

func TestOptionsRejected(t *testing.T) {
	c, _ := newClient(t)
	for _, tc := range []struct {
		name string
		opts election.Options
		want string
	}{
		{"no lease", election.Options{}, "lease"},
		{"lease of no name", election.Options{Lease: "ns/"}, "lease"},
		{"deadline not below whole-second lease", election.Options{Lease: "l", LeaseDuration: 1900 * time.Millisecond, RenewDeadline: 1500 * time.Millisecond}, "renew deadline"},
		{"lease under a second", election.Options{Lease: "l", LeaseDuration: 500 * time.Millisecond}, "at least 1s"},
		{"retry not below deadline", election.Options{Lease: "l", RetryPeriod: 10 * time.Second}, "retry period"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := election.Run(context.Background(), c, tc.opts, func(context.Context) error {
				return fmt.Errorf("run called")
			})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Run = %v, want an error about %q", err, tc.want)
			}
		})
	}
}

// ExampleRun is the warm-standby pattern: every replica watches from the start, and
// the one that holds the lease reconciles. A standby's view is complete and current when it
// wins, so its first Update hands it everything at once, without a list.
func ExampleRun() {
	ctx := context.Background()
	client, err := kates.NewClient(kates.ClientConfig{})
	if err != nil {
		log.Fatal(err)
	}
	acc, err := client.Watch(ctx, kates.Query{Name: "Deployments", Kind: "deployments.apps"})
	if err != nil {
		log.Fatal(err)
	}
	var snap struct{ Deployments map[string]*kates.Deployment }
	err = election.Run(ctx, client, election.Options{
		Lease: "my-system/my-controller",
		Views: []*kates.Accumulator{acc}, // campaign only with a complete view
	}, func(ctx context.Context) error {
		for {
			select {
			case <-ctx.Done(): // lease lost or shutting down: stop writing now
				return nil
			case <-acc.Changed():
				if _, err := acc.Update(ctx, &snap); err != nil {
					continue
				}
				// reconcile(ctx, &snap), writing with ctx
			}
		}
	})
	if errors.Is(err, election.ErrLeaseLost) {
		os.Exit(1) // or call Run again to stand by, view still warm
	}
}
