// Command crud walks through kates.Client's reads and writes against a cluster: create, get,
// update, patch, server-side apply, list and delete, with typed and unstructured objects.
//
//	go run ./examples/crud --kubeconfig .kates/kubeconfig
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"time"

	"k8s.io/utils/ptr"

	"github.com/kates-dev/kates/kates"
)

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig file (default $KUBECONFIG, then ~/.kube/config)")
	namespace := flag.String("namespace", "kates-crud-example", "namespace to work in (created, then deleted)")
	flag.Parse()
	client, err := kates.NewClient(kates.ClientConfig{Kubeconfig: *kubeconfig, Namespace: *namespace})
	if err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := run(ctx, client, *namespace, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context, client *kates.Client, ns string, out io.Writer) error {
	// Namespaces are cluster-scoped: no namespace needed.
	if err := client.Upsert(ctx, &kates.Namespace{ObjectMeta: kates.ObjectMeta{Name: ns}}, &kates.Namespace{}, nil); err != nil {
		return err
	}
	defer client.Delete(context.Background(), &kates.Namespace{ObjectMeta: kates.ObjectMeta{Name: ns}}, nil)

	// Create a typed object; the server's answer (UID, resourceVersion) lands in cm.
	cm := &kates.ConfigMap{
		ObjectMeta: kates.ObjectMeta{Name: "settings", Namespace: ns},
		Data:       map[string]string{"color": "blue"},
	}
	if err := client.Create(ctx, cm, cm); err != nil {
		return err
	}
	fmt.Fprintf(out, "created ConfigMap %s/%s (has uid: %v)\n", cm.Namespace, cm.Name, cm.UID != "")

	// Update it; a stale resourceVersion would fail with apierrors.IsConflict.
	cm.Data["size"] = "large"
	if err := client.Update(ctx, cm, cm); err != nil {
		return err
	}

	// Patch by name only, with an unstructured reference.
	ref := kates.NewUnstructured("v1", "ConfigMap", ns, "settings")
	if err := client.Patch(ctx, ref, kates.MergePatchType, []byte(`{"data":{"shape":"round"}}`), cm); err != nil {
		return err
	}
	fmt.Fprintf(out, "ConfigMap data after update and patch: %v\n", cm.Data)

	// Server-side apply a Deployment: created now, updated by the same call later.
	labels := map[string]string{"app": "web"}
	dep := &kates.Deployment{
		ObjectMeta: kates.ObjectMeta{Name: "web", Namespace: ns},
		Spec: kates.DeploymentSpec{
			Replicas: ptr.To[int32](2),
			Selector: &kates.LabelSelector{MatchLabels: labels},
			Template: kates.PodTemplateSpec{
				ObjectMeta: kates.ObjectMeta{Labels: labels},
				Spec:       kates.PodSpec{Containers: []kates.Container{{Name: "web", Image: "nginx:1.27"}}},
			},
		},
	}
	if err := client.Apply(ctx, dep, dep, kates.FieldManager("crud-example")); err != nil {
		return err
	}
	fmt.Fprintf(out, "applied Deployment %s with %d replicas\n", dep.Name, *dep.Spec.Replicas)

	// List with kubectl's short names and selectors.
	var deployments []*kates.Deployment
	if err := client.List(ctx, kates.Query{Kind: "deploy", Namespace: ns, LabelSelector: ""}, &deployments); err != nil {
		return err
	}
	var configMaps []*kates.Unstructured
	if err := client.List(ctx, kates.Query{Kind: "cm", Namespace: ns}, &configMaps); err != nil {
		return err
	}
	fmt.Fprintf(out, "listed %d Deployment(s) and %d ConfigMap(s)\n", len(deployments), len(configMaps))

	// Delete by name; a Get afterwards is NotFound.
	if err := client.Delete(ctx, ref, nil); err != nil {
		return err
	}
	err := client.Get(ctx, ref, nil)
	fmt.Fprintf(out, "after delete, Get says: %v\n", err)
	return nil
}
