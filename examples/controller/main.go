package main

import (
	"context"
	"flag"
	"log"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/kates-dev/kates/election"
	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/metrics"
)

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig file (default $KUBECONFIG, then ~/.kube/config)")
	namespace := flag.String("namespace", "", "namespace to reconcile WebApps in (default: all)")
	lease := flag.String("lease", "webapp-controller", `the Lease the replicas compete for, "namespace/name" or "name" in the kubeconfig's namespace`)
	identity := flag.String("identity", "", "this replica's name in the Lease (default: host name and a random suffix)")
	leaseDuration := flag.Duration("lease-duration", 15*time.Second, "how long a crashed leader goes unreplaced (whole seconds)")
	renewDeadline := flag.Duration("renew-deadline", 10*time.Second, "how long the leader acts without renewing its lease")
	retryPeriod := flag.Duration("retry-period", 2*time.Second, "how often the lease is renewed or tried")
	release := flag.Bool("release-on-exit", true, "give the lease up on a clean exit, so a standby takes over at once")
	var serve ServeOptions
	flag.StringVar(&serve.MetricsAddr, "metrics-addr", "", `address to serve /metrics on, "0" for none (default ":8443", or "127.0.0.1:8080" with -metrics-secure=false)`)
	secure := flag.Bool("metrics-secure", true, "serve /metrics over HTTPS to callers whose bearer token may get /metrics (TokenReview, SubjectAccessReview); false: plain HTTP to anyone who reaches -metrics-addr")
	flag.StringVar(&serve.CertFile, "metrics-cert-file", "", "PEM certificate for the metrics server, read again when it changes (default: self-signed, generated at start)")
	flag.StringVar(&serve.KeyFile, "metrics-key-file", "", "PEM private key of -metrics-cert-file")
	flag.StringVar(&serve.ProbeAddr, "health-probe-addr", ":8081", `address to serve /healthz and /readyz on, plain HTTP without credentials, "0" for none`)
	stamp := flag.Bool("fence-stamp", false, "mark each write with when its lease fence was checked (header "+kates.FenceCheckedHeader+"), for audits and tests")
	shardCount := flag.Int("shards", 0, "split the WebApps into this many virtual shards, each reconciled by the replica that owns it (the same on every replica); 0: one leader reconciles all")
	duration := flag.Duration("for", 0, "stop after this long (default: until interrupted)")
	flag.Parse()
	serve.Insecure = !*secure
	if (serve.CertFile == "") != (serve.KeyFile == "") {
		log.Fatal("-metrics-cert-file and -metrics-key-file go together")
	}

	client, err := kates.NewClient(kates.ClientConfig{Kubeconfig: *kubeconfig})
	if err != nil {
		log.Fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *duration > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *duration)
		defer cancel()
	}

	// A registry of our own, not the global one: everything on it is ours to name.
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	// kates' own metrics on the same registry: objects held and events per query, Update
	// durations, time to bootstrap, list/watch errors, writes by verb and result.
	if err := metrics.Register(client, reg); err != nil {
		log.Fatal(err)
	}
	ctrl, err := New(client, Options{
		Namespace: *namespace,
		Shards:    *shardCount,
		Log:       os.Stdout,
		Election: election.Options{Lease: *lease, Identity: *identity, LeaseDuration: *leaseDuration,
			RenewDeadline: *renewDeadline, RetryPeriod: *retryPeriod, Release: *release,
			Fence: &kates.Fence{Stamp: *stamp}},
	}, reg)
	if err != nil {
		log.Fatal(err)
	}

	servers, err := ctrl.Serve(serve, reg)
	if err != nil {
		log.Fatal(err)
	}
	switch {
	case servers.MetricsURL == "":
		log.Print("not serving metrics (-metrics-addr=0)")
	case serve.Insecure:
		log.Printf("serving metrics at %s, in plain HTTP without authentication (-metrics-secure=false)", servers.MetricsURL)
	default:
		log.Printf("serving metrics at %s to authorized callers", servers.MetricsURL)
	}
	if servers.ProbeURL != "" {
		log.Printf("serving /healthz and /readyz at %s", servers.ProbeURL)
	}

	runErr := ctrl.Run(ctx)
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = servers.Close(shutdown)
	if runErr != nil {
		log.Fatal(runErr)
	}
}
