package controller

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/go-logr/logr"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// ServeOptions says where and how the controller serves its metrics and its probes. The zero
// value serves /metrics over HTTPS on :8443 to authenticated and authorized callers only, with
// a self-signed certificate, and /healthz and /readyz in plain HTTP on :8081.
type ServeOptions struct {
	// MetricsAddr is the metrics server's address. "0" turns it off; ":0" picks a free port.
	// Default: ":8443", or "127.0.0.1:8080" when Insecure.
	MetricsAddr string
	// Insecure serves /metrics in plain HTTP to anyone who reaches MetricsAddr, which is why
	// its default is then the loopback interface only. Default false: HTTPS, and every caller
	// must present a bearer token that a TokenReview authenticates and a SubjectAccessReview
	// allows to get the non-resource URL /metrics.
	Insecure bool
	// CertFile and KeyFile are the serving certificate and its key, PEM. They are read again
	// when they change (a renewed Secret), checked at most once a second as clients connect.
	// Default: a self-signed certificate generated at start, which a scraper can only use with
	// verification turned off (Prometheus' tls_config insecure_skip_verify) — encryption
	// without server authentication; mount a real one in production.
	CertFile, KeyFile string
	// ProbeAddr is the address of /healthz and /readyz, always plain HTTP and open to all:
	// the kubelet probes it without credentials. "0" turns it off; ":0" picks a free port.
	// Default ":8081".
	ProbeAddr string
	// AuthCacheTTL is how long a caller's verdict (allowed, unauthenticated, forbidden) is
	// reused, so that a scrape every few seconds does not cost two API calls each: a revoked
	// token or right is honoured up to this long. Refusals are kept a third as long, so a
	// right just granted works soon. Default 30 s.
	AuthCacheTTL time.Duration
	// Gatherer is what /metrics serves, when Run serves (Options.Serve). Default:
	// Options.Metrics, if it is a prometheus.Gatherer (a *prometheus.Registry is).
	Gatherer prometheus.Gatherer
}

// Servers are the listeners Serve started; Close them when done.
type Servers struct {
	// MetricsURL is the metrics endpoint, "https://host:port/metrics" (or http:// when
	// Insecure); empty when off.
	MetricsURL string
	// ProbeURL is the probe server's base, "http://host:port"; empty when off.
	ProbeURL string

	servers []*http.Server
	done    sync.WaitGroup
}

// Close stops the servers, letting requests in flight finish until ctx ends, and returns once
// their goroutines have.
func (s *Servers) Close(ctx context.Context) error {
	var errs []error
	for _, srv := range s.servers {
		if err := srv.Shutdown(ctx); err != nil {
			errs = append(errs, err)
		}
	}
	s.done.Wait()
	return errors.Join(errs...)
}

// Disabled is the address that turns a server off, as controller-runtime's "0".
const Disabled = "0"

// Serve starts the metrics server (metrics gathered by gatherer, from New's registry and the
// client's) and the probe server as opts says, and returns once both listen. Callers are
// authenticated and authorized with the controller's client's identity, which therefore needs
// the right to create tokenreviews and subjectaccessreviews (examples/controller/testdata/rbac.yaml has the ClusterRoles). These reviews
// are no writes of the controller's: they are sent whether it leads or stands by.
func (c *Controller[S]) Serve(opts ServeOptions, gatherer prometheus.Gatherer) (*Servers, error) {
	s := &Servers{}
	metricsAddr, probeAddr := opts.addresses()
	if metricsAddr != Disabled {
		handler, tlsConfig, err := c.metricsServer(opts, gatherer)
		if err != nil {
			return nil, err
		}
		srv := &http.Server{Handler: handler, ReadHeaderTimeout: 5 * time.Second, TLSConfig: tlsConfig}
		scheme := "http"
		if tlsConfig != nil {
			scheme = "https"
			// HTTP/1.1 only, as kubebuilder's scaffold: HTTP/2's stream resets have been
			// the way to exhaust a server before any authentication (CVE-2023-44487).
			srv.TLSNextProto = map[string]func(*http.Server, *tls.Conn, http.Handler){}
		}
		addr, err := s.start(srv, metricsAddr, c.opts.Log)
		if err != nil {
			return nil, fmt.Errorf("metrics server: %w", err)
		}
		s.MetricsURL = scheme + "://" + addr + "/metrics"
	}
	if probeAddr != Disabled {
		srv := &http.Server{Handler: c.ProbeHandler(), ReadHeaderTimeout: 5 * time.Second}
		addr, err := s.start(srv, probeAddr, c.opts.Log)
		if err != nil {
			_ = s.Close(context.Background())
			return nil, fmt.Errorf("probe server: %w", err)
		}
		s.ProbeURL = "http://" + addr
	}
	return s, nil
}

// addresses applies the defaults: the metrics server on :8443 when secure, on the loopback
// interface only when not; the probes on :8081.
func (o ServeOptions) addresses() (metrics, probes string) {
	metrics, probes = o.MetricsAddr, o.ProbeAddr
	switch {
	case metrics != "":
	case o.Insecure:
		metrics = "127.0.0.1:8080"
	default:
		metrics = ":8443"
	}
	if probes == "" {
		probes = ":8081"
	}
	return metrics, probes
}

func (s *Servers) start(srv *http.Server, addr string, log logr.Logger) (string, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", err
	}
	s.servers = append(s.servers, srv)
	s.done.Go(func() {
		var err error
		if srv.TLSConfig != nil {
			err = srv.ServeTLS(ln, "", "") // the certificate comes from srv.TLSConfig
		} else {
			err = srv.Serve(ln)
		}
		if err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error(err, "serve", "address", ln.Addr().String())
		}
	})
	return ln.Addr().String(), nil
}

// metricsServer returns the metrics server's handler, which serves /metrics alone, and its TLS
// configuration: unless insecure, the handler lets only authorized callers through, and the
// configuration has the certificate.
func (c *Controller[S]) metricsServer(opts ServeOptions, gatherer prometheus.Gatherer) (http.Handler, *tls.Config, error) {
	metrics := promhttp.HandlerFor(gatherer, promhttp.HandlerOpts{})
	mux := http.NewServeMux()
	if opts.Insecure {
		mux.Handle("GET /metrics", metrics)
		return mux, nil, nil
	}
	ttl := opts.AuthCacheTTL
	if ttl == 0 {
		ttl = 30 * time.Second
	}
	// The reviews go through a clientset of their own, with a rate limit of its own: callers
	// with ever new tokens cost API calls, and must not spend the controller's budget.
	cfg := c.client.RESTConfig()
	cfg.QPS, cfg.Burst, cfg.RateLimiter = 10, 20, nil
	reviews, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, nil, err
	}
	mux.Handle("GET /metrics", newReviewer(reviews, ttl, c.opts.Log).wrap(metrics))
	tlsConfig := &tls.Config{MinVersion: tls.VersionTLS12, NextProtos: []string{"http/1.1"}}
	switch {
	case opts.CertFile != "" || opts.KeyFile != "":
		files := &certFiles{cert: opts.CertFile, key: opts.KeyFile, every: time.Second, log: c.opts.Log}
		if err := files.load(); err != nil {
			return nil, nil, fmt.Errorf("metrics certificate: %w", err)
		}
		tlsConfig.GetCertificate = files.get
	default:
		host, _ := os.Hostname()
		cert, err := selfSigned([]string{"localhost", host}, time.Now())
		if err != nil {
			return nil, nil, err
		}
		tlsConfig.Certificates = []tls.Certificate{cert}
		c.opts.Log.Info("metrics: no certificate given (ServeOptions.CertFile); serving a self-signed one generated at start")
	}
	return mux, tlsConfig, nil
}

// ProbeHandler serves liveness at /healthz and readiness at /readyz, without credentials.
// Ready (Controller.Ready) once the view is complete and, sharded, the shards held are in it,
// whether leading or standing by: a standby with a complete view is what makes failover fast.
func (c *Controller[S]) ProbeHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "ok") })
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		if err := c.Ready(); err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintf(w, "ok: view complete, %s\n", c.role())
	})
	return mux
}

// serve is Run's Serve: the gatherer is opts.Gatherer, or the Metrics registry.
func (c *Controller[S]) serve(opts ServeOptions) (*Servers, error) {
	g := opts.Gatherer
	if g == nil {
		g, _ = c.opts.Metrics.(prometheus.Gatherer)
	}
	if g == nil {
		return nil, errors.New("controller: ServeOptions.Gatherer is required when Options.Metrics is not a prometheus.Gatherer")
	}
	servers, err := c.Serve(opts, g)
	if err != nil {
		return nil, err
	}
	switch {
	case servers.MetricsURL == "":
	case opts.Insecure:
		c.opts.Log.Info("serving metrics in plain HTTP, without authentication", "url", servers.MetricsURL)
	default:
		c.opts.Log.Info("serving metrics to authorized callers", "url", servers.MetricsURL)
	}
	if servers.ProbeURL != "" {
		c.opts.Log.Info("serving /healthz and /readyz", "url", servers.ProbeURL)
	}
	return servers, nil
}

// verdict is what the API server said of a caller: the HTTP status to answer and who it is.
type verdict struct {
	code int // http.StatusOK, StatusUnauthorized or StatusForbidden
	user string
}

// reviewer authenticates a request's bearer token with a TokenReview and authorizes its user
// with a SubjectAccessReview for the non-resource URL and verb requested, as the API server
// would authorize the same request to itself. Verdicts are cached by a hash of the token (the
// token itself is never kept), the verb and the path.
type reviewer struct {
	client kubernetes.Interface
	cache  *verdictCache
	ttl    time.Duration
	log    logr.Logger
}

func newReviewer(client kubernetes.Interface, ttl time.Duration, log logr.Logger) *reviewer {
	return &reviewer{client: client, cache: newVerdictCache(1024), ttl: ttl, log: log}
}

func (a *reviewer) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		scheme, token, _ := strings.Cut(r.Header.Get("Authorization"), " ")
		if token = strings.TrimSpace(token); !strings.EqualFold(scheme, "Bearer") || token == "" {
			w.Header().Set("WWW-Authenticate", `Bearer realm="metrics"`)
			http.Error(w, "Unauthorized: a bearer token is required", http.StatusUnauthorized)
			return
		}
		v, err := a.review(r.Context(), token, "get", r.URL.Path)
		switch {
		case err != nil:
			// The API server could not be asked: the caller is not to blame, and the
			// reason (which names our identity's rights) is ours to read, not theirs.
			a.log.Error(err, "metrics: reviewing a caller")
			http.Error(w, "cannot check the credentials now", http.StatusServiceUnavailable)
		case v.code == http.StatusUnauthorized:
			w.Header().Set("WWW-Authenticate", `Bearer realm="metrics"`)
			http.Error(w, "Unauthorized: the token is not valid", v.code)
		case v.code == http.StatusForbidden:
			http.Error(w, fmt.Sprintf("Forbidden: %s may not get %s", v.user, r.URL.Path), v.code)
		default:
			next.ServeHTTP(w, r)
		}
	})
}

// review returns the cached verdict on token for verb on path, or asks the API server.
// Errors are not cached.
func (a *reviewer) review(ctx context.Context, token, verb, path string) (verdict, error) {
	sum := sha256.Sum256([]byte(token))
	key := string(sum[:]) + "\x00" + verb + "\x00" + path
	if v, ok := a.cache.get(key); ok {
		return v, nil
	}
	tr, err := a.client.AuthenticationV1().TokenReviews().Create(ctx, &authenticationv1.TokenReview{
		Spec: authenticationv1.TokenReviewSpec{Token: token},
	}, metav1.CreateOptions{})
	if err != nil {
		return verdict{}, fmt.Errorf("TokenReview: %w", err)
	}
	if !tr.Status.Authenticated {
		v := verdict{code: http.StatusUnauthorized}
		a.cache.put(key, v, a.ttl/3)
		return v, nil
	}
	user := tr.Status.User
	extra := map[string]authorizationv1.ExtraValue{}
	for k, v := range user.Extra {
		extra[k] = authorizationv1.ExtraValue(v)
	}
	sar, err := a.client.AuthorizationV1().SubjectAccessReviews().Create(ctx, &authorizationv1.SubjectAccessReview{
		Spec: authorizationv1.SubjectAccessReviewSpec{
			User: user.Username, UID: user.UID, Groups: user.Groups, Extra: extra,
			NonResourceAttributes: &authorizationv1.NonResourceAttributes{Path: path, Verb: verb},
		},
	}, metav1.CreateOptions{})
	if err != nil {
		return verdict{}, fmt.Errorf("SubjectAccessReview of %s: %w", user.Username, err)
	}
	if !sar.Status.Allowed {
		v := verdict{code: http.StatusForbidden, user: user.Username}
		a.cache.put(key, v, a.ttl/3)
		return v, nil
	}
	v := verdict{code: http.StatusOK, user: user.Username}
	a.cache.put(key, v, a.ttl)
	return v, nil
}

// verdictCache holds verdicts until they expire, at most max of them: when full, an insertion
// drops the expired ones, then if need be the one that expires soonest, so that callers with
// ever new tokens cannot grow it.
type verdictCache struct {
	mu      sync.Mutex
	max     int
	now     func() time.Time
	entries map[string]cachedVerdict
}

type cachedVerdict struct {
	verdict
	expires time.Time
}

func newVerdictCache(max int) *verdictCache {
	return &verdictCache{max: max, now: time.Now, entries: map[string]cachedVerdict{}}
}

func (c *verdictCache) get(key string) (verdict, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok {
		return verdict{}, false
	}
	if !c.now().Before(e.expires) {
		delete(c.entries, key)
		return verdict{}, false
	}
	return e.verdict, true
}

func (c *verdictCache) put(key string, v verdict, ttl time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	if _, ok := c.entries[key]; !ok && len(c.entries) >= c.max {
		var soonest string
		for k, e := range c.entries {
			if !now.Before(e.expires) {
				delete(c.entries, k)
			} else if soonest == "" || e.expires.Before(c.entries[soonest].expires) {
				soonest = k
			}
		}
		if len(c.entries) >= c.max {
			delete(c.entries, soonest)
		}
	}
	c.entries[key] = cachedVerdict{verdict: v, expires: now.Add(ttl)}
}

func (c *verdictCache) size() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

// certFiles serves the certificate in a pair of PEM files, read again when either changes
// (size or modification time), looked at no more often than every.
type certFiles struct {
	cert, key string
	every     time.Duration
	log       logr.Logger

	mu      sync.Mutex
	current *tls.Certificate
	stamp   string
	checked time.Time
}

// stampOf identifies the files' versions. A Secret volume swaps a symlink on update: Stat
// follows it to the new files.
func (f *certFiles) stampOf() (string, error) {
	var b strings.Builder
	for _, name := range []string{f.cert, f.key} {
		fi, err := os.Stat(name)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "%d/%d;", fi.Size(), fi.ModTime().UnixNano())
	}
	return b.String(), nil
}

// load reads the pair now.
func (f *certFiles) load() error {
	stamp, err := f.stampOf()
	if err != nil {
		return err
	}
	cert, err := tls.LoadX509KeyPair(f.cert, f.key)
	if err != nil {
		return err
	}
	f.mu.Lock()
	f.current, f.stamp, f.checked = &cert, stamp, time.Now()
	f.mu.Unlock()
	return nil
}

// get is the tls.Config's GetCertificate. A pair that fails to load (one file written, not yet
// the other) leaves the previous certificate in use, and is tried again at the next check.
func (f *certFiles) get(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	f.mu.Lock()
	due := time.Since(f.checked) >= f.every
	if due {
		f.checked = time.Now()
	}
	current, stamp := f.current, f.stamp
	f.mu.Unlock()
	if !due {
		return current, nil
	}
	if now, err := f.stampOf(); err == nil && now == stamp {
		return current, nil
	}
	if err := f.load(); err != nil {
		f.log.Error(err, "metrics: keeping the previous certificate")
		return current, nil
	}
	f.log.Info("metrics: certificate reloaded", "file", f.cert)
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.current, nil
}

// selfSigned generates an ECDSA P-256 certificate for hosts (names or IP addresses, plus the
// loopback addresses), valid for a year from now.
func selfSigned(hosts []string, now time.Time) (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return tls.Certificate{}, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: "kates controller metrics (self-signed)"},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(365 * 24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
	}
	for _, h := range hosts {
		if ip := net.ParseIP(h); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else if h != "" {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, nil
}
