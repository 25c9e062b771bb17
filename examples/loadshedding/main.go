// Command loadshedding shows what the Accumulator does for a consumer slower than the cluster: a
// writer changes one ConfigMap as fast as the API server allows while the consumer takes a second
// per reconcile. The consumer is never queued behind stale events: each Update hands it the latest
// complete view, and the events in between are shed.
//
//	go run ./examples/loadshedding --kubeconfig .kates/kubeconfig --changes 500
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"strconv"
	"time"

	"github.com/kates-dev/kates/kates"
)

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig file (default $KUBECONFIG, then ~/.kube/config)")
	namespace := flag.String("namespace", "default", "namespace to write the ConfigMap in")
	changes := flag.Int("changes", 500, "how many times the writer changes the ConfigMap")
	work := flag.Duration("work", time.Second, "how long the consumer takes per reconcile")
	flag.Parse()
	client, err := kates.NewClient(kates.ClientConfig{Kubeconfig: *kubeconfig, Namespace: *namespace})
	if err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := run(ctx, client, *changes, *work, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context, client *kates.Client, changes int, work time.Duration, out io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ns := client.Namespace()
	acc, err := client.Watch(ctx, kates.Query{Name: "ConfigMaps", Kind: "cm", Namespace: ns, FieldSelector: "metadata.name=counter"})
	if err != nil {
		return err
	}
	cm := &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: "counter"}, Data: map[string]string{"n": "0"}}
	if err := client.Upsert(ctx, cm, cm, cm); err != nil {
		return err
	}
	defer client.Delete(context.Background(), cm, nil)

	// The writer: another client, so its writes reach the consumer through the watch.
	writer, err := kates.NewClientFromRESTConfig(client.RESTConfig(), ns)
	if err != nil {
		return err
	}
	writeErr := make(chan error, 1)
	go func() {
		for i := 1; i <= changes; i++ {
			cm.Data["n"] = strconv.Itoa(i)
			if err := writer.Update(ctx, cm, cm); err != nil {
				writeErr <- err
				return
			}
		}
		writeErr <- nil
	}()

	var snap struct{ ConfigMaps []*kates.ConfigMap }
	begin := time.Now()
	reconciles := 0
	for range acc.Changed() {
		if _, err := acc.Update(ctx, &snap); err != nil {
			return err
		}
		if len(snap.ConfigMaps) == 0 {
			continue
		}
		n, _ := strconv.Atoi(snap.ConfigMaps[0].Data["n"])
		reconciles++
		fmt.Fprintf(out, "reconcile %d sees n=%d\n", reconciles, n)
		if n == changes {
			break
		}
		time.Sleep(work) // the slow part of reconciling
	}
	if err := <-writeErr; err != nil {
		return err
	}
	fmt.Fprintf(out, "%d changes, %d reconciles, %s: the consumer always saw the latest state\n",
		changes, reconciles, time.Since(begin).Round(100*time.Millisecond))
	return nil
}
