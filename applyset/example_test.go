package applyset_test

import (
	"context"
	"fmt"
	"log"

	"github.com/kates-dev/kates/applyset"
	"github.com/kates-dev/kates/kates"
)

// Apply manifests as an ApplySet, then delete the objects that earlier applies of the set made
// and these manifests no longer hold, as kubectl apply --prune --applyset=web does.
func ExampleOpen() {
	client, err := kates.NewClient(kates.ClientConfig{})
	if err != nil {
		log.Fatal(err)
	}
	objects, err := kates.ParseUnstructuredManifests(`
apiVersion: v1
kind: ConfigMap
metadata: {name: settings}
data: {level: info}
`)
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	set, err := applyset.Open(ctx, client, applyset.Options{Parent: "web"}) // the Secret "web"
	if err != nil {
		log.Fatal(err) // e.g. the Secret exists and belongs to another tool's set
	}
	var objs []*kates.Unstructured
	for _, o := range objects {
		objs = append(objs, o.Object)
	}
	if _, err := set.ApplyAll(ctx, objs); err != nil {
		log.Fatal(err)
	}
	pruned, err := set.Prune(ctx)
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range pruned {
		fmt.Printf("pruned %s %s/%s\n", p.Kind, p.Namespace, p.Name)
	}
}
