package apply_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/kates-dev/kates/apply"
	"github.com/kates-dev/kates/kates"
)

// Create a namespace and a Deployment in it, then wait until the Deployment is available: one
// call, which applies the Namespace first. When something is stuck, the error (a
// *kates.WaitError) names it and says why.
func ExampleRun() {
	client, err := kates.NewClient(kates.ClientConfig{})
	if err != nil {
		log.Fatal(err)
	}
	objects, err := kates.ParseUnstructuredManifests(`
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: apply-example}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx}]}
---
apiVersion: v1
kind: Namespace
metadata: {name: apply-example}
`)
	if err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := apply.Run(ctx, client, objects, apply.Options{Wait: true})
	if err != nil {
		log.Fatal(err)
	}
	for _, o := range res.Objects {
		fmt.Println(o, o.Status.Status)
	}
	// Output:
	// Namespace apply-example Current
	// Deployment apply-example/web Current
}
