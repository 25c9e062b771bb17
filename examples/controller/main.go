package main

import (
	"context"
	"errors"
	"flag"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/go-logr/logr"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"k8s.io/klog/v2/textlogger"

	"github.com/kates-dev/kates/controller"
	"github.com/kates-dev/kates/election"
	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/metrics"
	"github.com/kates-dev/kates/shards"
)

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig file (default $KUBECONFIG, then ~/.kube/config)")
	namespace := flag.String("namespace", "", "namespace to reconcile WebApps in (default: all)")
	var e election.Options
	flag.StringVar(&e.Lease, "lease", "webapp-controller", `the Lease the replicas compete for, "namespace/name" or "name" in the kubeconfig's namespace`)
	flag.StringVar(&e.Identity, "identity", "", "this replica's name in the Lease (default: host name and a random suffix)")
	flag.DurationVar(&e.LeaseDuration, "lease-duration", 15*time.Second, "how long a crashed leader goes unreplaced (whole seconds)")
	flag.DurationVar(&e.RenewDeadline, "renew-deadline", 10*time.Second, "how long the leader acts without renewing its lease")
	flag.DurationVar(&e.RetryPeriod, "retry-period", 2*time.Second, "how often the lease is renewed or tried")
	flag.BoolVar(&e.Release, "release-on-exit", true, "give the lease up on a clean exit, so a standby takes over at once")
	var serve controller.ServeOptions
	flag.StringVar(&serve.MetricsAddr, "metrics-addr", "", `address to serve /metrics on, "0" for none (default ":8443", or "127.0.0.1:8080" with -metrics-secure=false)`)
	secure := flag.Bool("metrics-secure", true, "serve /metrics over HTTPS to callers whose bearer token may get /metrics (TokenReview, SubjectAccessReview); false: plain HTTP to anyone who reaches -metrics-addr")
	flag.StringVar(&serve.CertFile, "metrics-cert-file", "", "PEM certificate for the metrics server, read again when it changes (default: self-signed, generated at start)")
	flag.StringVar(&serve.KeyFile, "metrics-key-file", "", "PEM private key of -metrics-cert-file")
	flag.StringVar(&serve.ProbeAddr, "health-probe-addr", ":8081", `address to serve /healthz and /readyz on, plain HTTP without credentials, "0" for none`)
	stamp := flag.Bool("fence-stamp", false, "mark each write with when its lease fence was checked (header "+kates.FenceCheckedHeader+"), for audits and tests")
	shardCount := flag.Int("shards", 0, "split the WebApps into this many virtual shards, each reconciled by the replica that owns it (the same on every replica); 0: one leader reconciles all")
	duration := flag.Duration("for", 0, "stop after this long (default: until interrupted)")
	logConfig := textlogger.NewConfig(textlogger.Output(os.Stdout))
	logConfig.AddFlags(flag.CommandLine) // -v: 1 logs each WebApp deleted or moved away
	flag.Parse()
	serve.Insecure = !*secure
	log := textlogger.NewLogger(logConfig)
	fatal := func(err error) { log.Error(err, "exiting"); os.Exit(1) }
	if (serve.CertFile == "") != (serve.KeyFile == "") {
		fatal(errors.New("-metrics-cert-file and -metrics-key-file go together"))
	}
	e.Fence = &kates.Fence{Stamp: *stamp}
	client, err := kates.NewClient(kates.ClientConfig{Kubeconfig: *kubeconfig})
	if err != nil {
		fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *duration > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *duration)
		defer cancel()
	}
	// A registry of our own, with the Go runtime's metrics, kates' (the view) and the controller's.
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if err := metrics.Register(client, reg); err != nil {
		fatal(err)
	}
	ctrl, err := New(client, Options{Namespace: *namespace, Election: e, Shards: *shardCount, Log: log, Metrics: reg, Serve: &serve})
	if err == nil {
		err = ctrl.Run(ctx) // until interrupted, then drains, and gives the Lease or shards up
	}
	if err != nil {
		fatal(err)
	}
}

// Options are what main's flags choose. Election's Lease names the shard group too when
// Shards > 0 (sharded instead of elected); a nil Serve serves nothing.
type Options struct {
	Namespace string // default: all
	Election  election.Options
	Shards    int
	Log       logr.Logger
	Metrics   prometheus.Registerer
	Serve     *controller.ServeOptions
}

// New returns the WebApp controller: its view (every WebApp, and the Deployments and Services
// it owns, by label), its reconcile, and election or shards.
func New(client *kates.Client, opts Options) (*controller.Controller[Snapshot], error) {
	r := &reconciler{client: client}
	co := controller.Options[Snapshot]{
		Name: "webapp",
		Queries: []kates.Query{
			{Name: "WebApps", Kind: "webapps.examples.kates.dev", Namespace: opts.Namespace},
			{Name: "Deployments", Kind: "deployments.apps", Namespace: opts.Namespace, LabelSelector: managedBySelector},
			{Name: "Services", Kind: "services", Namespace: opts.Namespace, LabelSelector: managedBySelector},
		},
		For: "WebApps", Reconcile: r.reconcile, Workers: 8,
		Log: opts.Log, Metrics: opts.Metrics, Serve: opts.Serve,
	}
	e := opts.Election
	if opts.Shards <= 0 {
		co.Election = &e
		return controller.New(client, co)
	}
	// Sharded: each WebApp's Deployment and Service carry its shard (stamped by the writes of
	// its reconcile), so that the API server sends each replica only its own shards'.
	co.Queries[1].Placement, co.Queries[2].Placement = kates.PlaceByOwnerLabel, kates.PlaceByOwnerLabel
	group, ns := e.Lease, ""
	if i := strings.IndexByte(group, '/'); i >= 0 {
		ns, group = group[:i], group[i+1:]
	}
	co.Shards = &shards.Options{Name: group, Namespace: ns, Identity: e.Identity, Shards: opts.Shards,
		LeaseDuration: e.LeaseDuration, RenewDeadline: e.RenewDeadline, RetryPeriod: e.RetryPeriod,
		Release: e.Release, StampFences: e.Fence != nil && e.Fence.Stamp}
	return controller.New(client, co)
}
