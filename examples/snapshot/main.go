// Command snapshot is the skeleton of a controller that must see all of several kinds before it
// acts: it watches Deployments, Services and ConfigMaps in one namespace and, each time anything
// changes, reconciles against a complete snapshot — never half a view — with every Deployment's
// computed status at hand.
//
//	go run ./examples/snapshot --kubeconfig .kates/kubeconfig --namespace default
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"time"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/kstatus"
)

// Snapshot is what the controller reconciles: each field is filled by the query of its name.
type Snapshot struct {
	Deployments []kates.Entry[*kates.Deployment] // with each one's kstatus
	Services    map[string]*kates.Service        // keyed "namespace/name"
	ConfigMaps  []*kates.ConfigMap
}

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig file (default $KUBECONFIG, then ~/.kube/config)")
	namespace := flag.String("namespace", "", "namespace to watch (default: all)")
	duration := flag.Duration("for", 0, "stop after this long (default: until interrupted)")
	flag.Parse()
	client, err := kates.NewClient(kates.ClientConfig{Kubeconfig: *kubeconfig})
	if err != nil {
		log.Fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if *duration > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *duration)
		defer cancel()
	}
	if err := run(ctx, client, *namespace, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context, client *kates.Client, ns string, out io.Writer) error {
	// Telling Watch the snapshot type checks it now rather than at the first Update, and has
	// objects converted into it as they arrive, off this loop's path.
	acc, err := client.WatchWith(ctx, kates.WatchOptions{Snapshot: (*Snapshot)(nil)},
		kates.Query{Name: "Deployments", Kind: "deployments.apps", Namespace: ns},
		kates.Query{Name: "Services", Kind: "svc", Namespace: ns},
		kates.Query{Name: "ConfigMaps", Kind: "cm", Namespace: ns},
	)
	if err != nil {
		return err
	}
	var snap Snapshot
	for range acc.Changed() { // closed when ctx ends
		var deltas []*kates.Delta
		changed, err := acc.UpdateWithDeltas(ctx, &snap, &deltas)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err // Forbidden, say: the view would be incomplete
		}
		if changed {
			reconcile(out, &snap, deltas)
		}
	}
	return nil
}

// reconcile is where a real controller would render configuration from the whole snapshot.
func reconcile(out io.Writer, snap *Snapshot, deltas []*kates.Delta) {
	statuses := make([]kstatus.Status, 0, len(snap.Deployments))
	for _, d := range snap.Deployments {
		statuses = append(statuses, d.Status.Status)
	}
	fmt.Fprintf(out, "%s reconcile: %d change(s); %d Deployment(s) %s, %d Service(s), %d ConfigMap(s)\n",
		time.Now().Format("15:04:05.000"), len(deltas), len(snap.Deployments),
		kstatus.Aggregate(statuses, kstatus.CurrentStatus), len(snap.Services), len(snap.ConfigMaps))
	for _, d := range snap.Deployments {
		if d.Status.Status != kstatus.CurrentStatus {
			fmt.Fprintf(out, "  deployment %s: %s: %s\n", d.Object.Name, d.Status.Status, d.Status.Message)
		}
	}
}
