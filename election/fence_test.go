package election_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/kates-dev/kates/election"
	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/testenv/katestest"
)

// TestFenceWrapTransport: a transport wrapped by a Fence passes reads always, and writes only
// while the fence is held, stamping them when asked.
func TestFenceWrapTransport(t *testing.T) {
	var got []*http.Request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r)
		w.WriteHeader(http.StatusOK)
	}))
	defer srv.Close()
	fence := &kates.Fence{Stamp: true}
	client := &http.Client{Transport: fence.WrapTransport(http.DefaultTransport)}
	do := func(method string) error {
		req, _ := http.NewRequest(method, srv.URL+"/api/v1/namespaces/default/configmaps", nil)
		resp, err := client.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		return err
	}
	if err := do(http.MethodGet); err != nil {
		t.Errorf("GET through a fence not held = %v, want it through", err)
	}
	for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		if err := do(m); !errors.Is(err, kates.ErrLeaseLost) {
			t.Errorf("%s through a fence not held = %v, want ErrLeaseLost", m, err)
		}
	}
	if len(got) != 1 {
		t.Fatalf("the server saw %d requests, want only the GET", len(got))
	}
	if err := fence.Check(); !errors.Is(err, kates.ErrLeaseLost) {
		t.Errorf("Check of a zero fence = %v, want ErrLeaseLost", err)
	}
	if _, held := fence.Deadline(); held {
		t.Error("a new fence is held")
	}
}

// TestFencedClientWrites runs an election and, from run, keeps its context's values without its
// cancellation — as a write would that a paused process sends after waking, before any timer
// has fired. While the term lasts such a write goes through; once Run has returned it
// is refused before it is sent, with ErrLeaseLost, and so is every write through a clientset
// whose rest.Config carries the fence.
func TestFencedClientWrites(t *testing.T) {
	c, ns := newClient(t)
	ctx := context.Background()
	fence := &kates.Fence{Stamp: true}
	cfg := c.RESTConfig()
	cfg.Wrap(fence.WrapTransport)
	clientset, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cm := func(name string) *kates.ConfigMap {
		return &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: name, Namespace: ns}}
	}
	if _, err := clientset.CoreV1().ConfigMaps(ns).Create(ctx, cm("before"), metav1.CreateOptions{}); !errors.Is(err, kates.ErrLeaseLost) {
		t.Errorf("a clientset write before any term = %v, want ErrLeaseLost", err)
	}
	var kept context.Context
	err = election.Run(ctx, c, election.Options{Lease: "fenced", LeaseDuration: testLease, RenewDeadline: testRenew,
		RetryPeriod: testRetry, Fence: fence}, func(runCtx context.Context) error {
		if kates.FenceFrom(runCtx) != fence {
			t.Error("run's context does not carry the election's fence")
		}
		deadline, held := fence.Deadline()
		if !held || time.Until(deadline) > testRenew {
			t.Errorf("fence deadline in %s (held %t), want held, within the renew deadline %s", time.Until(deadline), held, testRenew)
		}
		kept = context.WithoutCancel(runCtx)
		if err := c.Create(kept, cm("during"), nil); err != nil {
			return err
		}
		_, err := clientset.CoreV1().ConfigMaps(ns).Create(runCtx, cm("during-clientset"), metav1.CreateOptions{})
		return err
	})
	if err != nil {
		t.Fatalf("Run = %v", err)
	}
	err = c.Create(kept, cm("after"), nil)
	if !errors.Is(err, kates.ErrLeaseLost) {
		t.Errorf("a write with run's context values after the term = %v, want ErrLeaseLost", err)
	}
	if _, err := clientset.CoreV1().ConfigMaps(ns).Create(ctx, cm("after-clientset"), metav1.CreateOptions{}); !errors.Is(err, kates.ErrLeaseLost) {
		t.Errorf("a clientset write after the term = %v, want ErrLeaseLost", err)
	}
	// Nothing refused reached the server; the writes in the term did.
	for name, want := range map[string]bool{"before": false, "during": true, "during-clientset": true, "after": false, "after-clientset": false} {
		err := c.Get(ctx, cm(name), nil)
		if found := err == nil; found != want {
			t.Errorf("ConfigMap %q exists = %t, want %t (%v)", name, found, want, err)
		}
	}
	// Reads are never fenced.
	if err := c.Get(kept, cm("during"), nil); err != nil {
		t.Errorf("a read with run's context values after the term = %v, want it through", err)
	}
}

// TestReleaseLeavesASuccessorsLease: the Lease is rewritten under the leader (as a successor
// does once a paused leader's record has run out). The leader's next renewal notices at once —
// its run ends with ErrLeaseLost well before RenewDeadline — and with Release set it does not
// release or retake the other's record.
func TestReleaseLeavesASuccessorsLease(t *testing.T) {
	c, ns := newClient(t)
	ctx := context.Background()
	leases := katestest.Clientset(t, c).CoordinationV1().Leases(ns)
	const renew = 8 * time.Second
	opts := election.Options{Lease: "taken", Identity: "a", LeaseDuration: 10 * time.Second, RenewDeadline: renew,
		RetryPeriod: testRetry, Release: true}
	leading := make(chan struct{})
	var rewrittenAt, endedAt time.Time
	done := make(chan error, 1)
	go func() {
		done <- election.Run(ctx, c, opts, func(runCtx context.Context) error {
			close(leading)
			<-runCtx.Done()
			endedAt = time.Now()
			return nil
		})
	}()
	select {
	case <-leading:
	case <-time.After(leaseWithin):
		t.Fatal("a does not lead")
	}
	lease, err := leases.Get(ctx, "taken", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	other := "b"
	lease.Spec.HolderIdentity = &other
	if lease, err = leases.Update(ctx, lease, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	rewrittenAt = time.Now()
	select {
	case err := <-done:
		if !errors.Is(err, kates.ErrLeaseLost) {
			t.Errorf("Run = %v, want ErrLeaseLost", err)
		}
	case <-time.After(leaseWithin):
		t.Fatal("Run has not returned")
	}
	if noticed := endedAt.Sub(rewrittenAt); noticed > 2*testRetry+time.Second {
		t.Errorf("run ended %s after the Lease was rewritten, want within a retry period or two (%s), not the renew deadline (%s)",
			noticed, testRetry, renew)
	}
	after, err := leases.Get(ctx, "taken", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if after.ResourceVersion != lease.ResourceVersion || after.Spec.HolderIdentity == nil || *after.Spec.HolderIdentity != "b" {
		h := "<none>"
		if after.Spec.HolderIdentity != nil {
			h = strconv.Quote(*after.Spec.HolderIdentity)
		}
		t.Errorf("after a returned the Lease names %s at resourceVersion %s, want b's record at %s untouched", h, after.ResourceVersion, lease.ResourceVersion)
	}
}
