package kates_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/kstatus"
)

// Apply a manifest, then wait until every object in it is reconciled, printing each change.
// When something is stuck, the error names it and says why.
func ExampleClient_Wait() {
	client, err := kates.NewClient(kates.ClientConfig{})
	if err != nil {
		log.Fatal(err)
	}
	objects, err := kates.ParseManifests(`
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx}]}
`)
	if err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var toWait []any
	for _, o := range objects {
		if err := client.Apply(ctx, o, nil); err != nil {
			log.Fatal(err)
		}
		toWait = append(toWait, o)
	}
	err = client.Wait(ctx, toWait, kates.WaitOptions{
		Progress: func(statuses []kates.ObjectStatus) {
			for _, s := range statuses {
				fmt.Println(s) // Deployment default/web: InProgress: Available: 1/3; pod web-7c9-x2 is Pending: ...
			}
		},
	})
	var werr *kates.WaitError
	switch {
	case errors.As(err, &werr):
		for _, s := range werr.Unfinished() {
			fmt.Println("not ready:", s)
		}
	case err != nil:
		log.Fatal(err)
	}
}

// Wait for objects named by kind and name to be deleted, finalizers and all.
func ExampleClient_Wait_deletion() {
	client, err := kates.NewClient(kates.ClientConfig{})
	if err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	web := kates.ObjectRef{Kind: "deploy", Namespace: "shop", Name: "web"}
	if err := client.Delete(ctx, &kates.Deployment{ObjectMeta: kates.ObjectMeta{Namespace: "shop", Name: "web"}}, nil); err != nil {
		log.Fatal(err)
	}
	if err := client.Wait(ctx, []any{web}, kates.WaitOptions{For: kstatus.NotFoundStatus}); err != nil {
		log.Fatal(err)
	}
}

// Show the status of every Deployment in a namespace, with what blocks each one.
func ExampleClient_Status() {
	client, err := kates.NewClient(kates.ClientConfig{})
	if err != nil {
		log.Fatal(err)
	}
	statuses, err := client.Status(context.Background(), []any{kates.ObjectRef{Kind: "deploy", Namespace: "shop"}})
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range statuses {
		fmt.Printf("%-30s %-10s %s\n", s.Name, s.Status, s.Message)
	}
}
