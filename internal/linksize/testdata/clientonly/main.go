// Command clientonly is the smallest program a reader of the cluster writes with kates: it
// makes a client, watches one kind and waits for one object. internal/linksize builds it to
// measure what importing only the kates package costs.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/kates-dev/kates/kates"
)

func main() {
	ctx := context.Background()
	client, err := kates.NewClient(kates.ClientConfig{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	acc, err := client.Watch(ctx, kates.Query{Name: "deployments", Kind: "Deployment"})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var snap struct{ Deployments []*kates.Deployment }
	if _, err := acc.Update(ctx, &snap); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := client.Wait(ctx, []any{snap.Deployments}, kates.WaitOptions{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
