package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-logr/logr/funcr"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.uber.org/goleak"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/apiserver/pkg/endpoints/request"

	"github.com/kates-dev/kates/controller"
	"github.com/kates-dev/kates/election"
	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/kstatus"
	"github.com/kates-dev/kates/metrics"
	"github.com/kates-dev/kates/testenv/katestest"
)

// Short lease timings: a crashed leader is replaced within about two seconds.
var webAppsGVR = schema.GroupVersionResource{Group: "examples.kates.dev", Version: "v1alpha1", Resource: "webapps"}

const (
	testLease = 2 * time.Second
	testRenew = 1500 * time.Millisecond
	testRetry = 300 * time.Millisecond
)

// installCRD applies testdata/crd.yaml and waits until it is served. Applying is idempotent, so
// parallel runs sharing the cluster are fine; the CRD is never deleted, which would delete
// every other run's WebApps.
func installCRD(t testing.TB, c *kates.Client) {
	t.Helper()
	data, err := os.ReadFile("testdata/crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	objs, err := kates.ParseManifests(string(data))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := c.Apply(ctx, objs[0], nil, kates.FieldManager("examples-controller-test"), kates.ForceOwnership()); err != nil {
		t.Fatal(err)
	}
	if err := c.WaitFor(ctx, "webapps.examples.kates.dev"); err != nil {
		t.Fatal(err)
	}
}

// write is one write a replica sent, with the resourceVersion the server answered.
type write struct {
	replica string
	method  string
	path    string
	rv      int64
	at      time.Time // when the answer came
}

// recorder is a replica's transport: it records when it sent each list, and
// records every write but the election's own.
type recorder struct {
	next    http.RoundTripper
	replica string
	log     *writeLog
}

type writeLog struct {
	mu     sync.Mutex
	lists  map[string][]time.Time // by replica
	writes []write
}

var requestInfo = &request.RequestInfoFactory{APIPrefixes: sets.NewString("api", "apis"), GrouplessAPIPrefixes: sets.NewString("api")}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	info, err := requestInfo.NewRequestInfo(req)
	// A list is a LIST request or a streamed one: a watch that sends the initial state
	// (sendInitialEvents), which kates uses where the server supports it.
	if err == nil && (info.Verb == "list" || info.Verb == "watch" && req.URL.Query().Get("sendInitialEvents") == "true") {
		r.log.mu.Lock()
		r.log.lists[r.replica] = append(r.log.lists[r.replica], time.Now())
		r.log.mu.Unlock()
	}
	resp, err := r.next.RoundTrip(req)
	if err != nil || req.Method == http.MethodGet || strings.Contains(req.URL.Path, "/leases") || resp.StatusCode >= 300 {
		return resp, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	var obj struct {
		Metadata struct {
			ResourceVersion string `json:"resourceVersion"`
		} `json:"metadata"`
	}
	_ = json.Unmarshal(body, &obj)
	rv, _ := strconv.ParseInt(obj.Metadata.ResourceVersion, 10, 64)
	r.log.mu.Lock()
	r.log.writes = append(r.log.writes, write{replica: r.replica, method: req.Method, path: req.URL.Path, rv: rv, at: time.Now()})
	r.log.mu.Unlock()
	return resp, nil
}

// writesBetween counts the writes replica made between from and to.
func (l *writeLog) writesBetween(replica string, from, to time.Time) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, w := range l.writes {
		if w.replica == replica && !w.at.Before(from) && !w.at.After(to) {
			n++
		}
	}
	return n
}

func (l *writeLog) listsSince(replica string, since time.Time) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, at := range l.lists[replica] {
		if !at.Before(since) {
			n++
		}
	}
	return n
}

// replica is one controller replica in the test process, with a client of its own.
type replica struct {
	id     string
	ctrl   *controller.Controller[Snapshot]
	reg    *prometheus.Registry
	cancel context.CancelFunc
	done   chan error
	wonAt  atomic.Pointer[time.Time] // when it last logged that it leads
}

// startReplica starts a replica of the controller for namespace ns, with a client of its own
// (so its LISTs and writes are its own), and waits until its view is complete. Its log lines
// go to out, timed.
func startReplica(t *testing.T, base *kates.Client, id string, log *writeLog, election election.Options, out io.Writer) *replica {
	t.Helper()
	cfg := base.RESTConfig()
	cfg.WrapTransport = func(rt http.RoundTripper) http.RoundTripper { return &recorder{next: rt, replica: id, log: log} }
	client, err := kates.NewClientFromRESTConfig(cfg, base.Namespace())
	if err != nil {
		t.Fatal(err)
	}
	election.Identity = id
	r := &replica{id: id, reg: prometheus.NewRegistry(), done: make(chan error, 1)}
	if err := metrics.Register(client, r.reg); err != nil { // as main does
		t.Fatal(err)
	}
	logger := funcr.New(func(prefix, args string) {
		now := time.Now()
		if strings.Contains(args, `"msg"="leading"`) {
			r.wonAt.Store(&now)
		}
		fmt.Fprintf(out, "%s %s %s\n", now.Format("15:04:05.000"), prefix, args)
	}, funcr.Options{Verbosity: 1})
	r.ctrl, err = New(client, Options{Namespace: base.Namespace(), Election: election, Log: logger, Metrics: r.reg})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	go func() { r.done <- r.ctrl.Run(ctx) }()
	eventually(t, 30*time.Second, id+" view complete", r.ctrl.Ready)
	return r
}

func (r *replica) stop(t *testing.T) {
	t.Helper()
	r.cancel()
	select {
	case err := <-r.done:
		if err != nil {
			t.Errorf("%s: Run = %v", r.id, err)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("%s: Run has not returned 30s after its context ended", r.id)
	}
}

func (r *replica) leading() bool { return r.ctrl.Leading() }

// wonAt returns when r last began to lead.
func (r *replica) lastWon() time.Time {
	if at := r.wonAt.Load(); at != nil {
		return *at
	}
	return time.Time{}
}

// eventually retries f every 50ms until it returns nil, failing with its last error after d.
func eventually(t *testing.T, d time.Duration, what string, f func() error) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		err := f()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: still %v after %s", what, err, d)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func newWebApp(ns, name string, replicas int32, image string) *WebApp {
	return &WebApp{
		TypeMeta:   metav1.TypeMeta{APIVersion: "examples.kates.dev/v1alpha1", Kind: "WebApp"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec:       WebAppSpec{Image: image, Replicas: replicas, Port: 8080},
	}
}

func getWebApp(c *kates.Client, ns, name string) (*WebApp, error) {
	var app WebApp
	err := c.Get(context.Background(), newWebApp(ns, name, 0, ""), &app)
	return &app, err
}

func patchReplicas(t *testing.T, c *kates.Client, ns, name string, replicas int32) {
	t.Helper()
	patch := fmt.Sprintf(`{"spec":{"replicas":%d}}`, replicas)
	if err := c.Patch(context.Background(), newWebApp(ns, name, 0, ""), kates.MergePatchType, []byte(patch), nil); err != nil {
		t.Fatal(err)
	}
}

// readyAt checks that the WebApp's status reports generation gen Ready, and that its
// Deployment asks for replicas of image, both owned by it.
func readyAt(c *kates.Client, ns, name string, replicas int32, image string) error {
	app, err := getWebApp(c, ns, name)
	if err != nil {
		return err
	}
	var dep kates.Deployment
	if err := c.Get(context.Background(), &kates.Deployment{ObjectMeta: kates.ObjectMeta{Namespace: ns, Name: name}}, &dep); err != nil {
		return err
	}
	if *dep.Spec.Replicas != replicas || dep.Spec.Template.Spec.Containers[0].Image != image {
		return fmt.Errorf("Deployment asks for %d × %s, want %d × %s", *dep.Spec.Replicas,
			dep.Spec.Template.Spec.Containers[0].Image, replicas, image)
	}
	if !kates.HasOwnerReference(app, &dep) {
		return fmt.Errorf("Deployment not owned by the WebApp")
	}
	ready := kstatus.GetCondition(app, string(kstatus.ConditionReady))
	if app.Status.ObservedGeneration != app.Generation || ready == nil || ready.Status != metav1.ConditionTrue {
		return fmt.Errorf("WebApp at generation %d has status of generation %d, Ready %+v", app.Generation,
			app.Status.ObservedGeneration, ready)
	}
	return nil
}

// syncBuffer is a bytes.Buffer for the controller's log, written by its goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
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

// watchWebApps records every version of the WebApps in ns that the API server sends, until
// the returned stop is called; versions returns them so far.
func watchWebApps(t *testing.T, c *kates.Client, ns string) (versions func() []*WebApp, stop func()) {
	t.Helper()
	w, err := c.DynamicInterface().Resource(webAppsGVR).Namespace(ns).Watch(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen []*WebApp
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ev := range w.ResultChan() {
			u, ok := ev.Object.(*kates.Unstructured)
			if !ok || ev.Type == watch.Deleted {
				continue
			}
			var app WebApp
			data, _ := u.MarshalJSON()
			if json.Unmarshal(data, &app) == nil {
				mu.Lock()
				seen = append(seen, &app)
				mu.Unlock()
			}
		}
	}()
	return func() []*WebApp {
			mu.Lock()
			defer mu.Unlock()
			return append([]*WebApp(nil), seen...)
		}, func() {
			w.Stop()
			<-done
		}
}

// TestWebAppLifecycle creates, updates and deletes a WebApp under one replica: its Deployment
// and Service are applied and owned, its status goes Reconciling while the Deployment rolls and
// Ready once it is available, for the current generation; deleting it has the garbage collector
// delete what it owned; the replica serves its metrics and health, and leaves no goroutine.
func TestWebAppLifecycle(t *testing.T) {
	base, ns := katestest.NewClient(t, katestest.Start(t), "kates-webapp-")
	installCRD(t, base)
	ctx := context.Background()
	ignore := goleak.IgnoreCurrent()
	var out syncBuffer
	defer func() {
		if t.Failed() {
			t.Logf("controller log:\n%s", out.String())
		}
	}()
	versions, stopWatch := watchWebApps(t, base, ns)
	r := startReplica(t, base, "solo", &writeLog{lists: map[string][]time.Time{}},
		election.Options{Lease: "webapp", LeaseDuration: testLease, RenewDeadline: testRenew, RetryPeriod: testRetry}, &out)

	if err := base.Create(ctx, newWebApp(ns, "web", 2, "nginx:1.27"), nil); err != nil {
		t.Fatal(err)
	}
	eventually(t, time.Minute, "WebApp ready", func() error { return readyAt(base, ns, "web", 2, "nginx:1.27") })
	var svc kates.Service
	if err := base.Get(ctx, &kates.Service{ObjectMeta: kates.ObjectMeta{Namespace: ns, Name: "web"}}, &svc); err != nil {
		t.Fatal(err)
	}
	app, _ := getWebApp(base, ns, "web")
	if svc.Spec.Ports[0].Port != 8080 || !kates.HasOwnerReference(app, &svc) {
		t.Errorf("Service port %d, owned %v; want 8080, owned by the WebApp", svc.Spec.Ports[0].Port, kates.HasOwnerReference(app, &svc))
	}

	patch := `{"spec":{"replicas":3,"image":"nginx:1.28"}}`
	if err := base.Patch(ctx, newWebApp(ns, "web", 0, ""), kates.MergePatchType, []byte(patch), nil); err != nil {
		t.Fatal(err)
	}
	eventually(t, time.Minute, "WebApp ready after the update", func() error { return readyAt(base, ns, "web", 3, "nginx:1.28") })
	// The status went through Reconciling for generation 2 (written with the apply, while the
	// Deployment rolled) before it was Ready for it. The watch recording the versions may lag
	// the read that saw it Ready: wait for it to catch up.
	eventually(t, 10*time.Second, "the watch's versions of generation 2", func() error {
		reconciling, readyAfter := false, false
		for _, v := range versions() {
			if v.Status.ObservedGeneration != 2 {
				continue
			}
			if kstatus.IsConditionTrue(v, string(kstatus.ConditionReconciling)) {
				reconciling = true
			}
			if reconciling && kstatus.IsConditionTrue(v, string(kstatus.ConditionReady)) {
				readyAfter = true
			}
		}
		if !reconciling || !readyAfter {
			return fmt.Errorf("Reconciling seen %v, then Ready %v; want both", reconciling, readyAfter)
		}
		return nil
	})
	res, err := kstatus.Compute(mustUnstructured(t, app))
	if err != nil || res.Status != kstatus.CurrentStatus {
		t.Errorf("kstatus.Compute of the ready WebApp = %+v, %v; want Current", res, err)
	}

	// The probes, and the metrics without authentication (what -metrics-secure=false serves).
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(r.reg, promhttp.HandlerOpts{}))
	mux.Handle("/", r.ctrl.ProbeHandler())
	srv := httptest.NewServer(mux)
	for _, c := range []struct{ path, want string }{
		{"/healthz", "ok"},
		{"/readyz", "leading"},
		{"/metrics", `kates_controller_reconcile_total{controller="webapp",result="success"}`},
		{"/metrics", `kates_accumulator_objects{kind="Deployment"`},
		{"/metrics", `kates_client_writes_total{result="success",verb="apply"}`},
	} {
		path, want := c.path, c.want
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), want) {
			t.Errorf("GET %s = %d %q, want 200 with %q", path, resp.StatusCode, body, want)
		}
	}
	srv.Close()

	if err := base.Delete(ctx, newWebApp(ns, "web", 0, ""), nil); err != nil {
		t.Fatal(err)
	}
	eventually(t, time.Minute, "owned objects garbage collected", func() error {
		for _, obj := range []kates.Object{&kates.Deployment{}, &kates.Service{}} {
			obj.SetNamespace(ns)
			obj.SetName("web")
			err := base.Get(ctx, obj, nil)
			if err == nil {
				return fmt.Errorf("%T still exists", obj)
			}
			if !strings.Contains(err.Error(), "not found") {
				return err
			}
		}
		return nil
	})

	r.stop(t)
	stopWatch()
	goleak.VerifyNone(t, append(katestest.IgnoreConnections, ignore)...)
}

func mustUnstructured(t *testing.T, app *WebApp) *kates.Unstructured {
	t.Helper()
	data, err := json.Marshal(app)
	if err != nil {
		t.Fatal(err)
	}
	u := &kates.Unstructured{}
	if err := u.UnmarshalJSON(data); err != nil {
		t.Fatal(err)
	}
	return u
}

// TestFailoverToWarmStandby runs three replicas, each with a client of its own, and kills the
// leader (its context ends and the lease is not released, as in a crash). A change made while
// no replica leads is reconciled by the standby that takes over, within the lease duration
// plus one Update, from its warm view: it sends no LIST after winning. No replica ever writes
// while another holds the lease: every write, ordered by resourceVersion among the Lease's
// versions, falls in a term of its writer's.
func TestFailoverToWarmStandby(t *testing.T) {
	base, ns := katestest.NewClient(t, katestest.Start(t), "kates-failover-")
	installCRD(t, base)
	ctx := context.Background()
	ignore := goleak.IgnoreCurrent()
	var out syncBuffer
	defer func() {
		if t.Failed() {
			t.Logf("controller log:\n%s", out.String())
		}
	}()
	leaseHistory, stopLeaseWatch := katestest.WatchLeases(t, base, ns)
	log := &writeLog{lists: map[string][]time.Time{}}
	election := election.Options{Lease: "webapp", LeaseDuration: testLease, RenewDeadline: testRenew, RetryPeriod: testRetry}
	var replicas []*replica
	for i := range 3 {
		replicas = append(replicas, startReplica(t, base, fmt.Sprintf("replica-%d", i), log, election, &out))
	}
	if err := base.Create(ctx, newWebApp(ns, "web", 1, "nginx:1.27"), nil); err != nil {
		t.Fatal(err)
	}
	eventually(t, time.Minute, "WebApp ready", func() error { return readyAt(base, ns, "web", 1, "nginx:1.27") })
	leader := leadingReplica(t, replicas)

	killedAt := time.Now()
	leader.stop(t) // no Release: the lease stays the dead leader's until it runs out
	patchReplicas(t, base, ns, "web", 2)
	changedAt := time.Now()
	var reconciledAt time.Time
	eventually(t, 30*time.Second, "change reconciled by a new leader", func() error {
		var dep kates.Deployment
		if err := base.Get(ctx, &kates.Deployment{ObjectMeta: kates.ObjectMeta{Namespace: ns, Name: "web"}}, &dep); err != nil {
			return err
		}
		if *dep.Spec.Replicas != 2 {
			return fmt.Errorf("Deployment asks for %d replicas, want 2", *dep.Spec.Replicas)
		}
		reconciledAt = time.Now()
		return nil
	})
	next := leadingReplica(t, replicas)
	wonAt := next.lastWon()
	if next == leader {
		t.Fatalf("the killed %s leads again", leader.id)
	}
	if !wonAt.After(changedAt) {
		t.Errorf("%s won at %s, before the change at %s: not a change made meanwhile", next.id,
			wonAt.Format(time.StampMilli), changedAt.Format(time.StampMilli))
	}
	// Takeover: the lease duration after the standbys last saw the dead leader's record change
	// (at most one retry period after it was sent), plus their next try. Then one Update.
	detect, pass := wonAt.Sub(killedAt), reconciledAt.Sub(wonAt)
	t.Logf("%s killed; %s won after %s and reconciled the change %s later (one Update and a pass)",
		leader.id, next.id, detect.Round(time.Millisecond), pass.Round(time.Millisecond))
	if limit := testLease + 3*testRetry + time.Second; detect > limit {
		t.Errorf("%s took over %s after the leader was killed, more than the lease duration (%s) and a retry: want at most %s",
			next.id, detect, testLease, limit)
	}
	if n := log.listsSince(next.id, wonAt); n != 0 {
		t.Errorf("%s sent %d LIST requests after it won: its view was not warm", next.id, n)
	}
	if n := log.listsSince(next.id, time.Time{}); n < 3 {
		t.Errorf("%s sent %d LIST requests in all, want at least its 3 initial ones", next.id, n)
	}
	eventually(t, time.Minute, "WebApp ready after failover", func() error { return readyAt(base, ns, "web", 2, "nginx:1.27") })

	for _, r := range replicas {
		if r != leader {
			r.stop(t)
		}
	}
	stopLeaseWatch()

	// The write log against the Lease's history.
	lease := leaseHistory()
	log.mu.Lock()
	writes := append([]write(nil), log.writes...)
	log.mu.Unlock()
	writers := map[string]int{}
	termWriter := map[int32]string{}
	for _, w := range writes {
		at, ok := lease.At("webapp", w.rv)
		switch {
		case !ok:
			t.Errorf("%s wrote %s %s at resourceVersion %d, before any lease", w.replica, w.method, w.path, w.rv)
		case at.Holder != w.replica:
			t.Errorf("%s wrote %s %s at resourceVersion %d while %s held the lease (term %d)", w.replica, w.method, w.path, w.rv, at.Holder, at.Transitions)
		case termWriter[at.Transitions] != "" && termWriter[at.Transitions] != w.replica:
			t.Errorf("term %d has writes by %s and %s", at.Transitions, termWriter[at.Transitions], w.replica)
		default:
			termWriter[at.Transitions] = w.replica
			writers[w.replica]++
		}
	}
	if writers[leader.id] == 0 || writers[next.id] == 0 {
		t.Errorf("writes by replica %v: want writes by both %s and %s", writers, leader.id, next.id)
	}
	t.Logf("%d writes in %d lease versions; writes by replica %v, terms %v", len(writes), len(lease), writers, termWriter)
	goleak.VerifyNone(t, append(katestest.IgnoreConnections, ignore)...)
}

// reconciles returns the reconciles reg has counted, whatever their result.
func reconciles(t *testing.T, reg *prometheus.Registry) float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	n := 0.0
	for _, f := range families {
		if f.GetName() == "kates_controller_reconcile_total" {
			for _, m := range f.GetMetric() {
				n += m.GetCounter().GetValue()
			}
		}
	}
	return n
}

func leadingReplica(t *testing.T, replicas []*replica) *replica {
	t.Helper()
	var leader *replica
	eventually(t, 30*time.Second, "a leader", func() error {
		leader = nil
		for _, r := range replicas {
			if r.leading() {
				if leader != nil {
					return fmt.Errorf("%s and %s both lead", leader.id, r.id)
				}
				leader = r
			}
		}
		if leader == nil {
			return fmt.Errorf("none leads")
		}
		return nil
	})
	return leader
}

// TestBurstIsCoalesced changes five WebApps a hundred times in all, from five writers at once,
// under one replica: the controller applies Deployments far fewer times than there were
// changes — the changes that arrive during a pass are shed, and the next pass reconciles the
// latest of them — and ends with every WebApp at its final spec, Ready.
func TestBurstIsCoalesced(t *testing.T) {
	base, ns := katestest.NewClient(t, katestest.Start(t), "kates-burst-")
	installCRD(t, base)
	ctx := context.Background()
	var out syncBuffer
	log := &writeLog{lists: map[string][]time.Time{}}
	r := startReplica(t, base, "solo", log, election.Options{Lease: "webapp", LeaseDuration: testLease,
		RenewDeadline: testRenew, RetryPeriod: testRetry}, &out)
	defer r.stop(t)
	const apps, changesEach = 5, 20
	for i := range apps {
		if err := base.Create(ctx, newWebApp(ns, fmt.Sprintf("app-%d", i), 1, "nginx:1.27"), nil); err != nil {
			t.Fatal(err)
		}
	}
	for i := range apps {
		eventually(t, time.Minute, "WebApps ready", func() error { return readyAt(base, ns, fmt.Sprintf("app-%d", i), 1, "nginx:1.27") })
	}
	deploymentApplies := func() int {
		log.mu.Lock()
		defer log.mu.Unlock()
		n := 0
		for _, w := range log.writes {
			if w.method == http.MethodPatch && strings.Contains(w.path, "/deployments/") {
				n++
			}
		}
		return n
	}
	passes := func() float64 { return reconciles(t, r.reg) }
	appliesBefore, passesBefore := deploymentApplies(), passes()

	var wg sync.WaitGroup
	for i := range apps {
		wg.Go(func() {
			for n := range changesEach { // ends at replicas 1
				patch := fmt.Sprintf(`{"spec":{"replicas":%d}}`, n%3)
				if err := base.Patch(ctx, newWebApp(ns, fmt.Sprintf("app-%d", i), 0, ""), kates.MergePatchType, []byte(patch), nil); err != nil {
					t.Error(err) // not Fatal: this is not the test's goroutine
					return
				}
			}
		})
	}
	wg.Wait()
	for i := range apps {
		eventually(t, time.Minute, "WebApps ready after the burst", func() error {
			return readyAt(base, ns, fmt.Sprintf("app-%d", i), (changesEach-1)%3, "nginx:1.27")
		})
	}
	applies := deploymentApplies() - appliesBefore
	t.Logf("%d changes: %d Deployment applies, %.0f reconciles (some for the Deployments' own status changes)",
		apps*changesEach, applies, passes()-passesBefore)
	if applies >= apps*changesEach {
		t.Errorf("%d Deployment applies for %d changes: the burst was not coalesced", applies, apps*changesEach)
	}
}

// TestStalledWhenTheSpecCannotBeApplied flips a WebApp's Service to headless, which the API
// server refuses (a Service's clusterIP cannot change): the WebApp is reported Stalled, with
// the server's reason, for its current generation, and kstatus reads it as Failed.
func TestStalledWhenTheSpecCannotBeApplied(t *testing.T) {
	base, ns := katestest.NewClient(t, katestest.Start(t), "kates-stalled-")
	installCRD(t, base)
	ctx := context.Background()
	var out syncBuffer
	r := startReplica(t, base, "solo", &writeLog{lists: map[string][]time.Time{}}, election.Options{Lease: "webapp",
		LeaseDuration: testLease, RenewDeadline: testRenew, RetryPeriod: testRetry}, &out)
	defer r.stop(t)
	if err := base.Create(ctx, newWebApp(ns, "web", 0, "nginx:1.27"), nil); err != nil {
		t.Fatal(err)
	}
	eventually(t, time.Minute, "WebApp ready", func() error { return readyAt(base, ns, "web", 0, "nginx:1.27") })
	if err := base.Patch(ctx, newWebApp(ns, "web", 0, ""), kates.MergePatchType, []byte(`{"spec":{"headless":true}}`), nil); err != nil {
		t.Fatal(err)
	}
	eventually(t, time.Minute, "WebApp stalled", func() error {
		app, err := getWebApp(base, ns, "web")
		if err != nil {
			return err
		}
		stalled := kstatus.GetCondition(app, string(kstatus.ConditionStalled))
		if app.Status.ObservedGeneration != app.Generation || stalled == nil || stalled.Status != metav1.ConditionTrue {
			return fmt.Errorf("generation %d, status of %d, Stalled %+v", app.Generation, app.Status.ObservedGeneration, stalled)
		}
		if stalled.Reason != "ApplyRefused" || !strings.Contains(stalled.Message, "Service") {
			return fmt.Errorf("Stalled %s: %s; want ApplyRefused naming the Service", stalled.Reason, stalled.Message)
		}
		if res, err := kstatus.Compute(mustUnstructured(t, app)); err != nil || res.Status != kstatus.FailedStatus {
			return fmt.Errorf("kstatus.Compute = %+v, %v; want Failed", res, err)
		}
		return nil
	})
}
