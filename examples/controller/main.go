package main

import (
	"context"
	"errors"
	"flag"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/kates-dev/kates/kates"
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
	addr := flag.String("metrics-addr", ":8080", "address to serve /metrics, /healthz and /readyz on")
	stamp := flag.Bool("fence-stamp", false, "mark each write with when its lease fence was checked (header "+kates.FenceCheckedHeader+"), for audits and tests")
	duration := flag.Duration("for", 0, "stop after this long (default: until interrupted)")
	flag.Parse()

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
	if err := client.RegisterMetrics(reg); err != nil {
		log.Fatal(err)
	}
	ctrl, err := New(client, Options{
		Namespace: *namespace,
		Log:       os.Stdout,
		Election: kates.ElectionOptions{Lease: *lease, Identity: *identity, LeaseDuration: *leaseDuration,
			RenewDeadline: *renewDeadline, RetryPeriod: *retryPeriod, Release: *release,
			Fence: &kates.Fence{Stamp: *stamp}},
	}, reg)
	if err != nil {
		log.Fatal(err)
	}

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	srv := &http.Server{Handler: ctrl.Handler(reg), ReadHeaderTimeout: 5 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Print(err)
		}
	}()
	log.Printf("serving /metrics, /healthz and /readyz on %s", ln.Addr())

	runErr := ctrl.Run(ctx)
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = srv.Shutdown(shutdown)
	if runErr != nil {
		log.Fatal(runErr)
	}
}
