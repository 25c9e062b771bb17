package controller_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-logr/logr/funcr"
	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/goleak"
	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"

	"github.com/kates-dev/kates/controller"
	"github.com/kates-dev/kates/election"
	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/metrics"
	"github.com/kates-dev/kates/testenv/katestest"
)

// TestMetricsAuth runs a controller on the cluster as a ServiceAccount with exactly the rights
// testdata/rbac.yaml gives it, serving as it does by default: /metrics over HTTPS with a
// self-signed certificate, each caller's token reviewed by the API server. A caller without a
// token or with a forged one gets 401, a ServiceAccount without the metrics-reader right 403,
// one with it 200 and the controller's metrics; a scrape every so often costs one review per
// TTL, not one per scrape. /healthz and /readyz answer without credentials, and /readyz is 503
// until the view is complete: before the controller runs, and while its identity may not list
// its primary kind (ConfigMaps) yet.
//
// It calls Serve itself rather than setting Options.Serve, for the servers' URLs (their ports
// are picked at start); TestServeFromRun covers Run's serving.
func TestMetricsAuth(t *testing.T) {
	base, ns := katestest.NewClient(t, cluster, "kates-controller-auth-")
	ctx := context.Background()
	ignore := goleak.IgnoreCurrent()
	var out lockedBuffer
	defer func() {
		if t.Failed() {
			t.Logf("controller log:\n%s", out.String())
		}
	}()
	applyTestClusterRoles(t, base)
	controllerToken := serviceAccountToken(t, base, ns, "controller", "kates-controller-test-metrics-auth")
	scraperToken := serviceAccountToken(t, base, ns, "scraper", "kates-controller-test-metrics-reader")
	strangerToken := serviceAccountToken(t, base, ns, "stranger")

	// The controller's client has the controller's token and nothing else of the admin's, and
	// counts the TokenReviews it sends (the reviews' clientset is made from its RESTConfig).
	cfg := rest.AnonymousClientConfig(base.RESTConfig())
	cfg.BearerToken = controllerToken
	var tokenReviews atomic.Int64
	cfg.WrapTransport = func(rt http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(req *http.Request) (*http.Response, error) {
			if req.Method == http.MethodPost && strings.HasSuffix(req.URL.Path, "/tokenreviews") {
				tokenReviews.Add(1)
			}
			return rt.RoundTrip(req)
		})
	}
	client, err := kates.NewClientFromRESTConfig(cfg, ns)
	if err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewRegistry()
	if err := metrics.Register(client, reg); err != nil {
		t.Fatal(err)
	}
	label := "app=" + ns
	ctrl, err := controller.New(client, controller.Options[view]{
		Name: "auth",
		Queries: []kates.Query{
			{Name: "Apps", Kind: "configmaps", Namespace: ns, LabelSelector: label},
			{Name: "Deployments", Kind: "deployments.apps", Namespace: ns},
		},
		For: "Apps",
		Reconcile: func(ctx context.Context, req controller.Request[view]) (controller.Result, error) {
			var app *kates.ConfigMap
			req.View(func(v *view) { app = v.Apps[req.Key.String()] })
			if app == nil || app.DeletionTimestamp != nil {
				return controller.Result{}, nil
			}
			// Under the controller's own rights, so that its metrics show a write.
			return controller.Result{}, client.Apply(ctx, deploymentFor(app), nil, kates.FieldManager(fieldManager), kates.ForceOwnership())
		},
		BackoffBase: 100 * time.Millisecond,
		BackoffMax:  time.Second,
		Election: &election.Options{Lease: "auth-controller", Identity: "auth", LeaseDuration: testLease,
			RenewDeadline: testRenew, RetryPeriod: testRetry, Release: true},
		Metrics: reg,
		Log:     funcr.New(func(prefix, args string) { out.WriteLine(prefix + " " + args) }, funcr.Options{}),
	})
	if err != nil {
		t.Fatal(err)
	}
	const ttl = 5 * time.Second
	servers, err := ctrl.Serve(controller.ServeOptions{MetricsAddr: "127.0.0.1:0", ProbeAddr: "127.0.0.1:0", AuthCacheTTL: ttl}, reg)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(servers.MetricsURL, "https://") || !strings.HasPrefix(servers.ProbeURL, "http://") {
		t.Fatalf("metrics at %s, probes at %s: want HTTPS and HTTP", servers.MetricsURL, servers.ProbeURL)
	}
	if !strings.Contains(out.String(), "self-signed") {
		t.Errorf("the log does not say the certificate is self-signed:\n%s", out.String())
	}
	// The certificate is self-signed: the scraper can only skip verifying it.
	scraper := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}
	defer scraper.CloseIdleConnections()
	probe := &http.Client{Transport: &http.Transport{}}
	defer probe.CloseIdleConnections()

	// Before Run: no view at all.
	if code, body := controller.GetURL(t, probe, servers.ProbeURL+"/readyz", ""); code != http.StatusServiceUnavailable || !strings.Contains(body, "not running") {
		t.Errorf("/readyz before Run = %d %q, want 503 not running", code, body)
	}
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- ctrl.Run(runCtx) }()
	// Running, but its identity may not list ConfigMaps: the view stays incomplete, and so
	// does readiness, while liveness is fine.
	for range 10 {
		if code, body := controller.GetURL(t, probe, servers.ProbeURL+"/readyz", ""); code != http.StatusServiceUnavailable {
			t.Fatalf("/readyz while the controller may not list = %d %q, want 503", code, body)
		}
		if code, body := controller.GetURL(t, probe, servers.ProbeURL+"/healthz", ""); code != http.StatusOK {
			t.Errorf("/healthz = %d %q, want 200", code, body)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if code, body := controller.GetURL(t, probe, servers.ProbeURL+"/readyz", ""); !strings.Contains(body, "view not complete") {
		t.Errorf("/readyz while the controller may not list = %d %q, want it to say the view is not complete", code, body)
	}
	bindClusterRole(t, base, ns, "controller", "kates-controller-test-controller")
	boundAt := time.Now()
	eventually(t, time.Minute, func() error {
		if code, body := controller.GetURL(t, probe, servers.ProbeURL+"/readyz", ""); code != http.StatusOK || !strings.Contains(body, "view complete") {
			return fmt.Errorf("/readyz once the controller may list: %d %q", code, body)
		}
		return nil
	})

	viewAt := time.Now()
	eventually(t, time.Minute, func() error {
		if !ctrl.Leading() {
			return errors.New("the controller stands by")
		}
		return nil
	})
	leadingAt := time.Now()
	// The controller reconciles an app under its own rights, so that its metrics say so.
	app := &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: "web", Namespace: ns, Labels: map[string]string{"app": ns}},
		Data: map[string]string{"image": "nginx:1.27"}}
	if err := base.Create(ctx, app, nil); err != nil {
		t.Fatal(err)
	}
	eventually(t, time.Minute, func() error {
		var dep kates.Deployment
		if err := base.Get(ctx, &kates.Deployment{ObjectMeta: kates.ObjectMeta{Name: "web", Namespace: ns}}, &dep); err != nil {
			return err
		}
		if img := dep.Spec.Template.Spec.Containers[0].Image; img != "nginx:1.27" {
			return fmt.Errorf("the app's Deployment has image %s", img)
		}
		// The reconcile is counted once it has returned, after its write.
		if n := successfulReconciles(t, reg); n == 0 {
			return errors.New("no successful reconcile counted yet")
		}
		return nil
	})
	t.Logf("ready %s after the controller's rights were bound, leading %s later; its app reconciled %s later",
		viewAt.Sub(boundAt).Round(time.Millisecond), leadingAt.Sub(viewAt).Round(time.Millisecond), time.Since(leadingAt).Round(time.Millisecond))

	for _, c := range []struct {
		name, token string
		wantCode    int
		wantBody    string
	}{
		{"no token", "", http.StatusUnauthorized, "bearer token is required"},
		{"the reader's token with its signature altered", scraperToken[:len(scraperToken)-4] + "AAAA", http.StatusUnauthorized, "not valid"},
		{"a ServiceAccount without the right", strangerToken, http.StatusForbidden, "system:serviceaccount:" + ns + ":stranger may not get /metrics"},
		{"the controller's own, without the right either", controllerToken, http.StatusForbidden, "may not get /metrics"},
		{"the metrics reader", scraperToken, http.StatusOK, `kates_controller_reconcile_total{controller="auth",result="success"}`},
	} {
		code, body := controller.GetURL(t, scraper, servers.MetricsURL, c.token)
		if code != c.wantCode || !strings.Contains(body, c.wantBody) {
			t.Errorf("%s: GET /metrics = %d %.200q, want %d with %q", c.name, code, body, c.wantCode, c.wantBody)
		}
		if code == http.StatusOK {
			for _, m := range []string{`kates_controller_leader{controller="auth"} 1`, `kates_client_writes_total{result="success",verb="apply"}`,
				`kates_controller_reconcile_time_seconds_count{controller="auth"}`} {
				if !strings.Contains(body, m) {
					t.Errorf("%s: the metrics lack %q", c.name, m)
				}
			}
		}
	}
	// The probes are not on the metrics server, nor the metrics on the probe server.
	if code, _ := controller.GetURL(t, scraper, strings.TrimSuffix(servers.MetricsURL, "/metrics")+"/healthz", scraperToken); code != http.StatusNotFound {
		t.Errorf("/healthz on the metrics server = %d, want 404", code)
	}
	if code, _ := controller.GetURL(t, probe, servers.ProbeURL+"/metrics", ""); code != http.StatusNotFound {
		t.Errorf("/metrics on the probe server = %d, want 404", code)
	}

	// The first scrape after the verdict's TTL asks again; those within the new one do not.
	time.Sleep(ttl)
	reviewsBefore := tokenReviews.Load()
	for i := range 6 {
		if code, _ := controller.GetURL(t, scraper, servers.MetricsURL, scraperToken); code != http.StatusOK {
			t.Errorf("scrape %d = %d, want 200", i, code)
		}
	}
	if n := tokenReviews.Load() - reviewsBefore; n != 1 {
		t.Errorf("6 scrapes, the first after the verdict's TTL, sent %d TokenReviews, want 1", n)
	}

	stop()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run = %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("Run did not return within a minute of its context ending")
	}
	if err := servers.Close(ctx); err != nil {
		t.Errorf("Close = %v", err)
	}
	scraper.CloseIdleConnections()
	probe.CloseIdleConnections()
	goleak.VerifyNone(t, append(katestest.IgnoreConnections, ignore)...)
}

// TestServeFromRun: with Options.Serve, Run serves the metrics of Options.Metrics and the
// probes for as long as it runs, and stops serving before it returns; without a gatherer to
// serve, Run fails.
func TestServeFromRun(t *testing.T) {
	h := newHarness(t, 1)
	ignore := goleak.IgnoreCurrent()
	metricsAddr, probeAddr := freeAddr(t), freeAddr(t)
	opts := h.options()
	opts.Name = "served"
	opts.Metrics = prometheus.NewRegistry()
	opts.Serve = &controller.ServeOptions{Insecure: true, MetricsAddr: metricsAddr, ProbeAddr: probeAddr}
	_, stop := h.start(opts)
	h.settle(1, 200*time.Millisecond)
	client := &http.Client{Transport: &http.Transport{}, Timeout: 10 * time.Second}
	defer client.CloseIdleConnections()
	for _, c := range []struct {
		url, wantBody string
	}{
		{"http://" + metricsAddr + "/metrics", `kates_controller_reconcile_total{controller="served",result="success"}`},
		{"http://" + probeAddr + "/healthz", "ok"},
		{"http://" + probeAddr + "/readyz", "ok: view complete, leading"},
	} {
		if code, body := controller.GetURL(t, client, c.url, ""); code != http.StatusOK || !strings.Contains(body, c.wantBody) {
			t.Errorf("GET %s while Run runs = %d %.300q, want 200 with %q", c.url, code, body, c.wantBody)
		}
	}
	if err := stop(); err != nil {
		t.Fatalf("Run = %v", err)
	}
	client.CloseIdleConnections()
	for _, url := range []string{"http://" + metricsAddr + "/metrics", "http://" + probeAddr + "/healthz"} {
		if resp, err := client.Get(url); err == nil {
			_ = resp.Body.Close()
			t.Errorf("GET %s after Run returned = %d, want the connection refused", url, resp.StatusCode)
		}
	}
	goleak.VerifyNone(t, append(katestest.IgnoreConnections, ignore)...)

	// No gatherer: Options.Metrics is not one, and ServeOptions.Gatherer is not set.
	opts = h.options()
	opts.Name = "unserved"
	opts.Serve = &controller.ServeOptions{Insecure: true, MetricsAddr: "127.0.0.1:0", ProbeAddr: "127.0.0.1:0"}
	ctrl, err := controller.New(h.client, opts)
	if err != nil {
		t.Fatal(err)
	}
	runCtx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := ctrl.Run(runCtx); err == nil || !strings.Contains(err.Error(), "Gatherer") {
		t.Errorf("Run with Serve but nothing to gather = %v, want an error naming ServeOptions.Gatherer", err)
	}
}

// freeAddr returns a loopback address whose port was free a moment ago, for servers whose
// address must be known before they start.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	return addr
}

// successfulReconciles returns kates_controller_reconcile_total{result="success"} as gathered
// from g.
func successfulReconciles(t *testing.T, g prometheus.Gatherer) float64 {
	t.Helper()
	families, err := g.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var n float64
	for _, f := range families {
		if f.GetName() != "kates_controller_reconcile_total" {
			continue
		}
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "result" && l.GetValue() == "success" {
					n += m.GetCounter().GetValue()
				}
			}
		}
	}
	return n
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// lockedBuffer collects the controller's log lines, written by its goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) WriteLine(s string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.b.WriteString(s)
	b.b.WriteByte('\n')
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// applyTestClusterRoles applies the ClusterRoles of testdata/rbac.yaml. Applying is
// idempotent, so parallel runs sharing the cluster are fine; they are never deleted, which
// would pull the rights from under another run.
func applyTestClusterRoles(t *testing.T, c *kates.Client) {
	t.Helper()
	data, err := os.ReadFile("testdata/rbac.yaml")
	if err != nil {
		t.Fatal(err)
	}
	objs, err := kates.ParseManifests(string(data))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, obj := range objs {
		if obj.GetObjectKind().GroupVersionKind().Kind != "ClusterRole" {
			continue
		}
		if err := c.Apply(context.Background(), obj, nil, kates.FieldManager(fieldManager), kates.ForceOwnership()); err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 3 {
		t.Fatalf("testdata/rbac.yaml has %d ClusterRoles, want 3", n)
	}
}

// serviceAccountToken creates the ServiceAccount ns/name, binds it to each ClusterRole in
// roles, and returns a token for it from the TokenRequest API.
func serviceAccountToken(t *testing.T, c *kates.Client, ns, name string, roles ...string) string {
	t.Helper()
	ctx := context.Background()
	sas := katestest.Clientset(t, c).CoreV1().ServiceAccounts(ns)
	if _, err := sas.Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, role := range roles {
		bindClusterRole(t, c, ns, name, role)
	}
	expiry := int64(600)
	tr, err := sas.CreateToken(ctx, name, &authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: &expiry}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return tr.Status.Token
}

// bindClusterRole binds the ServiceAccount ns/name to the ClusterRole role until the test ends.
func bindClusterRole(t *testing.T, c *kates.Client, ns, name, role string) {
	t.Helper()
	bindings := katestest.Clientset(t, c).RbacV1().ClusterRoleBindings()
	binding := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: ns + "-" + name + "-" + role},
		RoleRef:    rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: role},
		Subjects:   []rbacv1.Subject{{Kind: "ServiceAccount", Namespace: ns, Name: name}},
	}
	if _, err := bindings.Create(context.Background(), binding, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = bindings.Delete(context.Background(), binding.Name, metav1.DeleteOptions{}) })
}
