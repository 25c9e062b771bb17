package controller

import (
	"context"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/google/go-cmp/cmp"
	"github.com/prometheus/client_golang/prometheus"
	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"

	"github.com/kates-dev/kates/kates"
)

// These are the unit tests of the metrics and probe servers (serve.go), which reach into their
// unexported parts, hence package controller. TestMetricsAuth (serveauth_test.go) runs them on
// the cluster.

// TestVerdictCache: a verdict is served until its TTL ends and not after; a full cache drops
// the expired verdicts first, then the one that expires soonest, and never holds more than its
// bound.
func TestVerdictCache(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	c := newVerdictCache(3)
	c.now = func() time.Time { return now }
	ok := verdict{code: http.StatusOK, user: "reader"}

	c.put("a", ok, 30*time.Second)
	if v, hit := c.get("a"); !hit || v != ok {
		t.Errorf("get(a) right after put = %+v, %v; want %+v, true", v, hit, ok)
	}
	now = now.Add(29 * time.Second)
	if _, hit := c.get("a"); !hit {
		t.Errorf("get(a) 29s into a 30s TTL missed")
	}
	now = now.Add(time.Second)
	if _, hit := c.get("a"); hit {
		t.Errorf("get(a) at the end of its 30s TTL hit")
	}
	if n := c.size(); n != 0 {
		t.Errorf("size after the only verdict expired = %d, want 0", n)
	}
	if _, hit := c.get("never"); hit {
		t.Errorf("get of a key never put hit")
	}

	// Full: the verdict that expires soonest goes, whatever the order of insertion.
	c.put("b", ok, 20*time.Second)
	c.put("c", ok, 10*time.Second)
	c.put("d", ok, 30*time.Second)
	c.put("e", ok, 40*time.Second)
	if got, want := cachedKeys(c, "b", "c", "d", "e"), []string{"b", "d", "e"}; !cmp.Equal(want, got) {
		t.Errorf("after a fourth put into a cache of 3, present %v, want %v", got, want)
	}
	// Putting a key already there replaces it and evicts nothing.
	c.put("d", verdict{code: http.StatusForbidden, user: "stranger"}, 30*time.Second)
	if v, _ := c.get("d"); v.code != http.StatusForbidden {
		t.Errorf("get(d) after replacing it = %+v, want the Forbidden verdict", v)
	}
	if got, want := cachedKeys(c, "b", "d", "e"), []string{"b", "d", "e"}; !cmp.Equal(want, got) {
		t.Errorf("after replacing d, present %v, want %v", got, want)
	}
	// Expired verdicts go first: b (20s) and d (30s) have expired at 35s, e (40s) not.
	now = now.Add(35 * time.Second)
	c.put("f", ok, 5*time.Second)
	c.put("g", ok, 5*time.Second)
	if n := c.size(); n != 3 {
		t.Errorf("size = %d, want 3 (e, f, g)", n)
	}
	if got, want := cachedKeys(c, "b", "d", "e", "f", "g"), []string{"e", "f", "g"}; !cmp.Equal(want, got) {
		t.Errorf("after two puts once b and d expired, present %v, want %v", got, want)
	}
}

// cachedKeys returns those of keys that c has a live verdict for, in order.
func cachedKeys(c *verdictCache, keys ...string) []string {
	var in []string
	for _, k := range keys {
		if _, hit := c.get(k); hit {
			in = append(in, k)
		}
	}
	return in
}

// fakeReviews is an API server's TokenReview and SubjectAccessReview, scripted: tokens names the
// user of each valid token, allowed the users who may get /metrics.
type fakeReviews struct {
	tokens        map[string]string
	allowed       map[string]bool
	tokenReviews  int
	accessReviews []authorizationv1.SubjectAccessReviewSpec
	fail          error // when set, every TokenReview fails with it
}

func (f *fakeReviews) client() *fake.Clientset {
	c := fake.NewClientset()
	c.PrependReactor("create", "tokenreviews", func(a k8stesting.Action) (bool, runtime.Object, error) {
		f.tokenReviews++
		if f.fail != nil {
			return true, nil, f.fail
		}
		tr := a.(k8stesting.CreateAction).GetObject().(*authenticationv1.TokenReview).DeepCopy()
		if user, ok := f.tokens[tr.Spec.Token]; ok {
			tr.Status.Authenticated = true
			tr.Status.User = authenticationv1.UserInfo{Username: user, UID: "uid-" + user,
				Groups: []string{"system:serviceaccounts", "system:authenticated"}}
		}
		return true, tr, nil
	})
	c.PrependReactor("create", "subjectaccessreviews", func(a k8stesting.Action) (bool, runtime.Object, error) {
		sar := a.(k8stesting.CreateAction).GetObject().(*authorizationv1.SubjectAccessReview).DeepCopy()
		f.accessReviews = append(f.accessReviews, sar.Spec)
		na := sar.Spec.NonResourceAttributes
		sar.Status.Allowed = f.allowed[sar.Spec.User] && na != nil && na.Path == "/metrics" && na.Verb == "get"
		return true, sar, nil
	})
	return c
}

// TestReviewer runs callers through the metrics server's authentication and authorization
// against a scripted API server: 401 without a bearer token or with one the TokenReview does not
// authenticate, 403 for a user the SubjectAccessReview does not allow to get /metrics, 200 for
// one it does; each verdict is reused until its TTL ends (a refusal's is a third as long), and a
// failed review is answered 503 and not reused.
func TestReviewer(t *testing.T) {
	f := &fakeReviews{
		tokens:  map[string]string{"reader-token": "system:serviceaccount:ns:reader", "stranger-token": "system:serviceaccount:ns:stranger"},
		allowed: map[string]bool{"system:serviceaccount:ns:reader": true},
	}
	const ttl = 30 * time.Second
	r := newReviewer(f.client(), ttl, logr.Discard())
	now := time.Unix(1_000_000, 0)
	r.cache.now = func() time.Time { return now }
	handler := r.wrap(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "the metrics") }))

	type result struct {
		Code                        int
		TokenReviews, AccessReviews int // made for this request
	}
	steps := []struct {
		name    string
		auth    string        // the Authorization header
		advance time.Duration // of the clock, before the request
		want    result
	}{
		{"no Authorization header", "", 0, result{401, 0, 0}},
		{"not a bearer token", "Basic cmVhZGVyOnNlY3JldA==", 0, result{401, 0, 0}},
		{"an empty bearer token", "Bearer ", 0, result{401, 0, 0}},
		{"the scheme alone", "Bearer", 0, result{401, 0, 0}},
		{"a token the API server does not know", "Bearer forged", 0, result{401, 1, 0}},
		{"the same bad token, cached", "Bearer forged", 0, result{401, 0, 0}},
		{"a user without the right", "Bearer stranger-token", 0, result{403, 1, 1}},
		{"the same user, cached", "Bearer stranger-token", 0, result{403, 0, 0}},
		{"a user with the right", "Bearer reader-token", 0, result{200, 1, 1}},
		{"the scheme in lower case", "bearer reader-token", 0, result{200, 0, 0}},
		{"the same user, cached", "Bearer reader-token", time.Second, result{200, 0, 0}},
		{"a refusal expires after a third of the TTL", "Bearer stranger-token", ttl / 3, result{403, 1, 1}},
		{"the allowed verdict lasts the whole TTL", "Bearer reader-token", ttl - ttl/3 - 2*time.Second, result{200, 0, 0}},
		{"and is asked again after it", "Bearer reader-token", 2 * time.Second, result{200, 1, 1}},
	}
	for _, s := range steps {
		now = now.Add(s.advance)
		trBefore, sarBefore := f.tokenReviews, len(f.accessReviews)
		req := httptest.NewRequest(http.MethodGet, "/metrics", nil)
		if s.auth != "" {
			req.Header.Set("Authorization", s.auth)
		}
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, req)
		got := result{rec.Code, f.tokenReviews - trBefore, len(f.accessReviews) - sarBefore}
		if diff := cmp.Diff(s.want, got); diff != "" {
			t.Errorf("%s: mismatch (-want +got):\n%s", s.name, diff)
		}
		if rec.Code == http.StatusUnauthorized && rec.Header().Get("WWW-Authenticate") == "" {
			t.Errorf("%s: 401 without WWW-Authenticate", s.name)
		}
		if body := rec.Body.String(); (rec.Code == http.StatusOK) != (body == "the metrics") {
			t.Errorf("%s: %d with body %q", s.name, rec.Code, body)
		}
	}
	// The SubjectAccessReview asks about the caller the TokenReview named, for get /metrics.
	want := authorizationv1.SubjectAccessReviewSpec{
		User: "system:serviceaccount:ns:reader", UID: "uid-system:serviceaccount:ns:reader",
		Groups:                []string{"system:serviceaccounts", "system:authenticated"},
		Extra:                 map[string]authorizationv1.ExtraValue{},
		NonResourceAttributes: &authorizationv1.NonResourceAttributes{Path: "/metrics", Verb: "get"},
	}
	if diff := cmp.Diff(want, f.accessReviews[len(f.accessReviews)-1]); diff != "" {
		t.Errorf("SubjectAccessReview spec mismatch (-want +got):\n%s", diff)
	}

	// The API server cannot be asked: 503, and the next request asks again.
	f.fail = errors.New("connection refused")
	for i := range 2 {
		before := f.tokenReviews
		req := httptest.NewRequest(http.MethodGet, "/metrics", nil)
		req.Header.Set("Authorization", "Bearer other-token")
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, req)
		if rec.Code != http.StatusServiceUnavailable || f.tokenReviews != before+1 {
			t.Errorf("request %d while reviews fail: %d after %d TokenReviews; want 503 after 1", i, rec.Code, f.tokenReviews-before)
		}
		if strings.Contains(rec.Body.String(), "connection refused") {
			t.Errorf("request %d while reviews fail: the body %q tells the caller our error", i, rec.Body.String())
		}
	}
}

// TestServeAddresses: the default addresses, "0" turning a server off, and the insecure metrics
// server bound to the loopback interface unless an address is named.
func TestServeAddresses(t *testing.T) {
	for _, c := range []struct {
		name                   string
		opts                   ServeOptions
		wantMetrics, wantProbe string
	}{
		{"defaults", ServeOptions{}, ":8443", ":8081"},
		{"insecure: loopback only", ServeOptions{Insecure: true}, "127.0.0.1:8080", ":8081"},
		{"insecure on an address named", ServeOptions{Insecure: true, MetricsAddr: ":9090"}, ":9090", ":8081"},
		{"both off", ServeOptions{MetricsAddr: Disabled, ProbeAddr: Disabled}, "0", "0"},
		{"free ports", ServeOptions{MetricsAddr: "127.0.0.1:0", ProbeAddr: ":0"}, "127.0.0.1:0", ":0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			metrics, probe := c.opts.addresses()
			if metrics != c.wantMetrics || probe != c.wantProbe {
				t.Errorf("addresses() = %q, %q; want %q, %q", metrics, probe, c.wantMetrics, c.wantProbe)
			}
		})
	}

	servers, err := (&Controller[struct{}]{opts: Options[struct{}]{Log: logr.Discard()}}).Serve(ServeOptions{MetricsAddr: Disabled, ProbeAddr: Disabled}, prometheus.NewRegistry())
	if err != nil {
		t.Fatal(err)
	}
	if servers.MetricsURL != "" || servers.ProbeURL != "" {
		t.Errorf("Serve with both off serves metrics at %q and probes at %q", servers.MetricsURL, servers.ProbeURL)
	}
	_ = servers.Close(t.Context())
}

// TestServeInsecure: with Insecure the metrics are plain HTTP without credentials, on a server
// of their own; the probes are on theirs, and /readyz is 503 before the controller runs.
func TestServeInsecure(t *testing.T) {
	reg := prometheus.NewRegistry()
	type view struct{ Apps map[string]*kates.ConfigMap }
	c, err := New(nil, Options[view]{
		Name:    "insecure",
		Queries: []kates.Query{{Name: "Apps", Kind: "configmaps"}},
		For:     "Apps",
		Reconcile: func(context.Context, Request[view]) (Result, error) {
			return Result{}, nil
		},
		Metrics: reg,
	})
	if err != nil {
		t.Fatal(err)
	}
	servers, err := c.Serve(ServeOptions{Insecure: true, MetricsAddr: "127.0.0.1:0", ProbeAddr: "127.0.0.1:0"}, reg)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = servers.Close(t.Context()) }()
	metricsBase := strings.TrimSuffix(servers.MetricsURL, "/metrics")
	if !strings.HasPrefix(metricsBase, "http://127.0.0.1:") || !strings.HasPrefix(servers.ProbeURL, "http://127.0.0.1:") || metricsBase == servers.ProbeURL {
		t.Fatalf("metrics at %s, probes at %s: want two loopback ports, plain HTTP", servers.MetricsURL, servers.ProbeURL)
	}
	for _, c := range []struct {
		url      string
		wantCode int
		wantBody string
	}{
		{servers.MetricsURL, 200, `kates_controller_leader{controller="insecure"} 0`},
		{servers.MetricsURL, 200, `kates_controller_max_concurrent_reconciles{controller="insecure"} 4`},
		{metricsBase + "/healthz", 404, ""},
		{servers.ProbeURL + "/healthz", 200, "ok"},
		{servers.ProbeURL + "/readyz", 503, "not running"},
		{servers.ProbeURL + "/metrics", 404, ""},
	} {
		code, body := getURL(t, http.DefaultClient, c.url, "")
		if code != c.wantCode || !strings.Contains(body, c.wantBody) {
			t.Errorf("GET %s = %d %q, want %d with %q", c.url, code, body, c.wantCode, c.wantBody)
		}
	}
}

// getURL GETs url, with token as a bearer token unless empty, and returns the status and body.
func getURL(t *testing.T, client *http.Client, url, token string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(body)
}

// TestCertFilesReload: the certificate served is the files', read again once they change, and a
// pair that does not load leaves the previous certificate in use.
func TestCertFilesReload(t *testing.T) {
	dir := t.TempDir()
	f := &certFiles{cert: filepath.Join(dir, "tls.crt"), key: filepath.Join(dir, "tls.key"), log: logr.Discard()}
	first := writeCertPair(t, f, "first", time.Now().Add(-time.Minute))
	if err := f.load(); err != nil {
		t.Fatal(err)
	}
	served := func() string {
		t.Helper()
		cert, err := f.get(nil)
		if err != nil {
			t.Fatal(err)
		}
		leaf, err := x509.ParseCertificate(cert.Certificate[0])
		if err != nil {
			t.Fatal(err)
		}
		return leaf.DNSNames[0]
	}
	if got := served(); got != first {
		t.Errorf("served %q, want %q", got, first)
	}
	second := writeCertPair(t, f, "second", time.Now())
	if got := served(); got != second {
		t.Errorf("served %q after the files changed, want %q", got, second)
	}
	// A key that does not match (a Secret half updated): the second stays.
	if err := os.WriteFile(f.key, []byte("not a key"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := served(); got != second {
		t.Errorf("served %q with a broken key file, want %q still", got, second)
	}
	third := writeCertPair(t, f, "third", time.Now().Add(time.Minute))
	if got := served(); got != third {
		t.Errorf("served %q once the pair is whole again, want %q", got, third)
	}

	// Checked no more often than every: a change inside it is seen at the next check.
	f.every = time.Hour
	writeCertPair(t, f, "fourth", time.Now().Add(2*time.Minute))
	if got := served(); got != third {
		t.Errorf("served %q within the check interval, want %q still", got, third)
	}
}

// writeCertPair writes a self-signed certificate for host and its key to f's files, stamped
// mtime (their size may not change), and returns host.
func writeCertPair(t *testing.T, f *certFiles, host string, mtime time.Time) string {
	t.Helper()
	cert, err := selfSigned([]string{host}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	key, err := x509.MarshalPKCS8PrivateKey(cert.PrivateKey)
	if err != nil {
		t.Fatal(err)
	}
	for name, block := range map[string]*pem.Block{
		f.cert: {Type: "CERTIFICATE", Bytes: cert.Certificate[0]},
		f.key:  {Type: "PRIVATE KEY", Bytes: key},
	} {
		if err := os.WriteFile(name, pem.EncodeToMemory(block), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(name, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	return host
}
