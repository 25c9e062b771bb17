package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/goleak"
	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"

	"github.com/kates-dev/kates/election"
	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/metrics"
	"github.com/kates-dev/kates/testenv/katestest"
)

// TestMetricsAuth runs the controller on the local cluster as a ServiceAccount with exactly the
// rights testdata/rbac.yaml gives it, serving as it does by default: /metrics over HTTPS with a
// self-signed certificate, each caller's token reviewed by the API server. A caller without a
// token or with a forged one gets 401, a ServiceAccount without the metrics-reader right 403,
// one with it 200 and the controller's metrics; a scrape every so often costs one review per
// TTL, not one per scrape. /healthz and /readyz answer without credentials, and /readyz is 503
// until the view is complete: before the controller runs, and while its identity may not list
// WebApps yet.
func TestMetricsAuth(t *testing.T) {
	base, ns := katestest.NewClient(t, katestest.Start(t), "kates-metrics-")
	installCRD(t, base)
	ctx := context.Background()
	ignore := goleak.IgnoreCurrent()
	var out syncBuffer
	defer func() {
		if t.Failed() {
			t.Logf("controller log:\n%s", out.String())
		}
	}()
	applyClusterRoles(t, base)
	controllerToken := serviceAccount(t, base, ns, "controller", "webapp-controller-metrics-auth")
	scraperToken := serviceAccount(t, base, ns, "scraper", "webapp-controller-metrics-reader")
	strangerToken := serviceAccount(t, base, ns, "stranger")

	// The controller's client has the controller's token and nothing else of the admin's, and
	// counts the TokenReviews it sends.
	cfg := rest.AnonymousClientConfig(base.RESTConfig())
	cfg.BearerToken = controllerToken
	var tokenReviews atomic.Int64
	cfg.WrapTransport = func(rt http.RoundTripper) http.RoundTripper {
		return roundTripperFunc(func(req *http.Request) (*http.Response, error) {
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
	ctrl, err := New(client, Options{Namespace: ns, Log: &out, Retry: 200 * time.Millisecond, Election: election.Options{
		Lease: "webapp", LeaseDuration: testLease, RenewDeadline: testRenew, RetryPeriod: testRetry}}, reg)
	if err != nil {
		t.Fatal(err)
	}
	const ttl = 5 * time.Second
	servers, err := ctrl.Serve(ServeOptions{MetricsAddr: "127.0.0.1:0", ProbeAddr: "127.0.0.1:0", AuthCacheTTL: ttl}, reg)
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
	if code, body := get(t, probe, servers.ProbeURL+"/readyz", ""); code != http.StatusServiceUnavailable {
		t.Errorf("/readyz before Run = %d %q, want 503", code, body)
	}
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- ctrl.Run(runCtx) }()
	// Running, but its identity may not list WebApps: the view stays incomplete, and so does
	// readiness, while liveness is fine.
	for range 10 {
		if code, body := get(t, probe, servers.ProbeURL+"/readyz", ""); code != http.StatusServiceUnavailable {
			t.Fatalf("/readyz while the controller may not list = %d %q, want 503", code, body)
		}
		if code, body := get(t, probe, servers.ProbeURL+"/healthz", ""); code != http.StatusOK {
			t.Errorf("/healthz = %d %q, want 200", code, body)
		}
		time.Sleep(100 * time.Millisecond)
	}
	bind(t, base, ns, "controller", "webapp-controller")
	boundAt := time.Now()
	eventually(t, time.Minute, "/readyz ready once the controller may list", func() error {
		if code, body := get(t, probe, servers.ProbeURL+"/readyz", ""); code != http.StatusOK || !strings.Contains(body, "view complete") {
			return fmt.Errorf("%d %q", code, body)
		}
		return nil
	})

	viewAt := time.Now()
	eventually(t, time.Minute, "the controller leads", func() error {
		if leading, _ := ctrl.Leading(); !leading {
			return fmt.Errorf("standing by")
		}
		return nil
	})
	leadingAt := time.Now()
	// The controller reconciles a WebApp under its own rights, so that its metrics say so.
	if err := base.Create(ctx, newWebApp(ns, "web", 0, "nginx:1.27"), nil); err != nil {
		t.Fatal(err)
	}
	eventually(t, time.Minute, "WebApp ready", func() error { return readyAt(base, ns, "web", 0, "nginx:1.27") })
	t.Logf("ready %s after the controller's rights were bound, leading %s later; its WebApp Ready %s later",
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
		{"the metrics reader", scraperToken, http.StatusOK, `webapp_reconcile_total{result="success"}`},
	} {
		code, body := get(t, scraper, servers.MetricsURL, c.token)
		if code != c.wantCode || !strings.Contains(body, c.wantBody) {
			t.Errorf("%s: GET /metrics = %d %.200q, want %d with %q", c.name, code, body, c.wantCode, c.wantBody)
		}
		if code == http.StatusOK {
			for _, m := range []string{"webapp_leader 1", `kates_client_writes_total{result="success",verb="apply"}`, "webapp_reconcile_time_seconds_count"} {
				if !strings.Contains(body, m) {
					t.Errorf("%s: the metrics lack %q", c.name, m)
				}
			}
		}
	}
	// The probes are not on the metrics server, nor the metrics on the probe server.
	if code, _ := get(t, scraper, strings.TrimSuffix(servers.MetricsURL, "/metrics")+"/healthz", scraperToken); code != http.StatusNotFound {
		t.Errorf("/healthz on the metrics server = %d, want 404", code)
	}
	if code, _ := get(t, probe, servers.ProbeURL+"/metrics", ""); code != http.StatusNotFound {
		t.Errorf("/metrics on the probe server = %d, want 404", code)
	}

	// The first scrape after the verdict's TTL asks again; those within the new one do not.
	time.Sleep(ttl)
	reviewsBefore := tokenReviews.Load()
	for i := range 6 {
		if code, _ := get(t, scraper, servers.MetricsURL, scraperToken); code != http.StatusOK {
			t.Errorf("scrape %d = %d, want 200", i, code)
		}
	}
	if n := tokenReviews.Load() - reviewsBefore; n != 1 {
		t.Errorf("6 scrapes, the first after the verdict's TTL, sent %d TokenReviews, want 1", n)
	}

	stop()
	if err := <-done; err != nil {
		t.Errorf("Run = %v", err)
	}
	if err := servers.Close(ctx); err != nil {
		t.Errorf("Close = %v", err)
	}
	scraper.CloseIdleConnections()
	probe.CloseIdleConnections()
	goleak.VerifyNone(t, append(katestest.IgnoreConnections, ignore)...)
}

type roundTripperFunc func(*http.Request) (*http.Response, error)

func (f roundTripperFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// applyClusterRoles applies the ClusterRoles of testdata/rbac.yaml. Applying is idempotent, so
// parallel runs sharing the cluster are fine; they are never deleted, which would pull the
// rights from under another run.
func applyClusterRoles(t *testing.T, c *kates.Client) {
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
		if err := c.Apply(context.Background(), obj, nil, kates.FieldManager("examples-controller-test"), kates.ForceOwnership()); err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 3 {
		t.Fatalf("testdata/rbac.yaml has %d ClusterRoles, want 3", n)
	}
}

// serviceAccount creates the ServiceAccount ns/name, binds it to each ClusterRole in roles, and
// returns a token for it from the TokenRequest API.
func serviceAccount(t *testing.T, c *kates.Client, ns, name string, roles ...string) string {
	t.Helper()
	ctx := context.Background()
	sas := katestest.Clientset(t, c).CoreV1().ServiceAccounts(ns)
	if _, err := sas.Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, role := range roles {
		bind(t, c, ns, name, role)
	}
	expiry := int64(600)
	tr, err := sas.CreateToken(ctx, name, &authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: &expiry}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return tr.Status.Token
}

// bind binds the ServiceAccount ns/name to the ClusterRole role until the test ends.
func bind(t *testing.T, c *kates.Client, ns, name, role string) {
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
