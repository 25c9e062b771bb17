package metrics_test

import (
	"context"
	"log"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/metrics"
)

// Serve a controller's metrics: register the Client's on a registry of the program's own
// before starting its Watches, and serve that registry on /metrics. Nothing of kates is in
// prometheus.DefaultRegisterer unless the program passes it.
func ExampleRegister() {
	client, err := kates.NewClient(kates.ClientConfig{})
	if err != nil {
		log.Fatal(err)
	}
	reg := prometheus.NewRegistry()
	if err := metrics.Register(client, reg); err != nil {
		log.Fatal(err)
	}
	http.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg}))
	go func() { log.Fatal(http.ListenAndServe(":8080", nil)) }()

	// Everything the client does from now on is counted: this Watch's query "Deployments"
	// shows as kates_accumulator_objects{query="Deployments",kind="Deployment"} and the rest.
	ctx := context.Background()
	acc, err := client.Watch(ctx, kates.Query{Name: "Deployments", Kind: "deploy"})
	if err != nil {
		log.Fatal(err)
	}
	var snap struct{ Deployments []*kates.Deployment }
	for range acc.Changed() {
		if _, err := acc.Update(ctx, &snap); err != nil {
			log.Print(err)
			continue
		}
		// ... reconcile snap ...
	}
}
