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

// Apply a stack in three groups, each ready before the next: the database, then the Job that
// seeds it, then the app. The annotations could as well be Argo CD sync waves or Helm's
// HIP-0025 resource groups. A Failed object would stop the run in its group, with a
// *apply.GroupError.
func ExampleRun_groups() {
	client, err := kates.NewClient(kates.ClientConfig{})
	if err != nil {
		log.Fatal(err)
	}
	objects, err := kates.ParseUnstructuredManifests(`
apiVersion: v1
kind: ConfigMap
metadata:
  name: app-settings
  namespace: groups-example
  annotations: {kates.dev/group: app, kates.dev/depends-on: seed}
data: {db: db-0.db}
---
apiVersion: batch/v1
kind: Job
metadata:
  name: seed
  namespace: groups-example
  annotations: {kates.dev/group: seed, kates.dev/depends-on: db}
spec:
  template:
    spec: {restartPolicy: Never, containers: [{name: seed, image: example.com/seed}]}
---
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
  namespace: groups-example
  annotations: {kates.dev/group: db}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: db, image: example.com/db}]}
---
apiVersion: v1
kind: Namespace
metadata: {name: groups-example}
`)
	if err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := apply.Run(ctx, client, objects, apply.Options{Wait: true, GroupTimeout: time.Minute})
	if err != nil {
		log.Fatal(err)
	}
	for _, g := range res.Groups {
		for _, i := range g.Objects {
			o := res.Objects[i]
			fmt.Println(g.Name+":", o, o.Status.Status)
		}
	}
	// Output:
	// db: Namespace groups-example Current
	// db: StatefulSet groups-example/db Current
	// seed: Job groups-example/seed Current
	// app: ConfigMap groups-example/app-settings Current
}
