// Command validate checks objects against the cluster's schemas before writing anything, as a
// program that renders objects from templates or user input would: a bad object is refused
// with every violation and its field path, and only valid ones are applied.
//
//	go run ./examples/validate --kubeconfig .kates/kubeconfig
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/validate"
)

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig file (default $KUBECONFIG, then ~/.kube/config)")
	namespace := flag.String("namespace", "default", "namespace to apply the valid objects in")
	flag.Parse()
	client, err := kates.NewClient(kates.ClientConfig{Kubeconfig: *kubeconfig, Namespace: *namespace})
	if err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := run(ctx, client, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// render stands for a template or a user's input: maps, as they arrive, with mistakes.
func render(name string, replicas any, extra map[string]any) map[string]any {
	spec := map[string]any{
		"replicas": replicas,
		"selector": map[string]any{"matchLabels": map[string]any{"app": name}},
		"template": map[string]any{
			"metadata": map[string]any{"labels": map[string]any{"app": name}},
			"spec":     map[string]any{"containers": []any{map[string]any{"name": "web", "image": "nginx"}}},
		},
	}
	for k, v := range extra {
		spec[k] = v
	}
	return map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": name}, "spec": spec}
}

func run(ctx context.Context, client *kates.Client, out io.Writer) error {
	v, err := validate.New(client)
	if err != nil {
		return err
	}
	defer v.Close()
	objects := []map[string]any{
		render("good", 2, nil),
		render("typo", 2, map[string]any{"replicass": 3, "strategy": map[string]any{"typ": "Recreate"}}),
		render("wrongtype", "two", nil),
	}
	misspelled := render("kind", 1, nil)
	misspelled["kind"] = "Deploymnet"
	objects = append(objects, misspelled)

	for _, obj := range objects {
		name := obj["metadata"].(map[string]any)["name"]
		err := v.Validate(ctx, obj)
		var invalid *validate.Error
		switch {
		case err == nil:
			// Valid by the cluster's own schema: apply it.
			if err := client.Apply(ctx, obj, nil); err != nil {
				return err
			}
			fmt.Fprintf(out, "%s: valid, applied\n", name)
		case errors.As(err, &invalid):
			// The error is the one the API server would answer: apierrors.IsInvalid holds.
			fmt.Fprintf(out, "%s: refused (invalid: %t):\n", name, apierrors.IsInvalid(err))
			for _, e := range invalid.Errors {
				fmt.Fprintf(out, "  %s: %s\n", e.Field, e.Detail)
			}
		case kates.IsUnknownKind(err):
			fmt.Fprintf(out, "%s: refused: %v\n", name, err)
		default:
			return err // the cluster could not be asked
		}
	}
	return nil
}
