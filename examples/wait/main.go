// Command wait shows kates.Client.Wait: apply objects, wait until they are reconciled while
// printing each change, see a wait fail fast with the reason, and wait for a deletion.
//
//	go run ./examples/wait --kubeconfig .kates/kubeconfig
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

	"k8s.io/utils/ptr"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/kstatus"
)

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig file (default $KUBECONFIG, then ~/.kube/config)")
	namespace := flag.String("namespace", "kates-wait-example", "namespace to work in (created, then deleted)")
	flag.Parse()
	client, err := kates.NewClient(kates.ClientConfig{Kubeconfig: *kubeconfig, Namespace: *namespace})
	if err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if err := run(ctx, client, *namespace, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

func deployment(name string, replicas int32) *kates.Deployment {
	labels := map[string]string{"app": name}
	return &kates.Deployment{
		ObjectMeta: kates.ObjectMeta{Name: name},
		Spec: kates.DeploymentSpec{
			Replicas: ptr.To(replicas),
			Selector: &kates.LabelSelector{MatchLabels: labels},
			Template: kates.PodTemplateSpec{
				ObjectMeta: kates.ObjectMeta{Labels: labels},
				Spec:       kates.PodSpec{Containers: []kates.Container{{Name: name, Image: "nginx:1.27"}}},
			},
		},
	}
}

// printChanges returns a Progress callback that prints each object whose status or message
// changed since the last call.
func printChanges(out io.Writer) func([]kates.ObjectStatus) {
	last := map[string]string{}
	return func(statuses []kates.ObjectStatus) {
		for _, s := range statuses {
			key := s.Kind + "/" + s.Name
			if last[key] != s.Message {
				last[key] = s.Message
				fmt.Fprintf(out, "  %s %s: %s: %s\n", s.Kind, s.Name, s.Status, s.Message)
			}
		}
	}
}

func run(ctx context.Context, client *kates.Client, ns string, out io.Writer) error {
	nsObj := &kates.Namespace{ObjectMeta: kates.ObjectMeta{Name: ns}}
	if err := client.Upsert(ctx, nsObj, nsObj, nil); err != nil {
		return err
	}
	defer client.Delete(context.Background(), nsObj, nil)

	// Apply a web tier and wait until it is reconciled: the Deployment rolled out, the Service's
	// endpoints ready. Wait takes the very objects applied.
	web := deployment("web", 3)
	svc := &kates.Service{
		ObjectMeta: kates.ObjectMeta{Name: "web"},
		Spec:       kates.ServiceSpec{Selector: map[string]string{"app": "web"}, Ports: []kates.ServicePort{{Port: 80}}},
	}
	objects := []any{web, svc}
	for _, o := range objects {
		if err := client.Apply(ctx, o, nil); err != nil {
			return err
		}
	}
	fmt.Fprintln(out, "waiting for the web tier:")
	begin := time.Now()
	if err := client.Wait(ctx, objects, kates.WaitOptions{Progress: printChanges(out)}); err != nil {
		return err
	}
	fmt.Fprintf(out, "web tier Current after %s\n", time.Since(begin).Round(100*time.Millisecond))

	// A Deployment no Node can take. Its controller gives up after progressDeadlineSeconds, and
	// Wait returns then, long before its timeout, naming the Pod and why.
	stuck := deployment("stuck", 1)
	stuck.Spec.ProgressDeadlineSeconds = ptr.To[int32](5)
	stuck.Spec.Template.Spec.NodeSelector = map[string]string{"example.com/no-such-node": "true"}
	if err := client.Apply(ctx, stuck, nil); err != nil {
		return err
	}
	fmt.Fprintln(out, "waiting for a Deployment that cannot be scheduled:")
	waitCtx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	err := client.Wait(waitCtx, []any{stuck}, kates.WaitOptions{})
	var werr *kates.WaitError
	if !errors.As(err, &werr) || !kates.IsWaitFailed(err) {
		return fmt.Errorf("wait on a stuck Deployment: got %v, want it to fail", err)
	}
	for _, s := range werr.Failed() {
		fmt.Fprintf(out, "%s %s failed: %s\n", s.Kind, s.Name, s.Message)
	}

	// Delete both Deployments, and wait until they are gone: by name, no object needed.
	refs := []any{kates.ObjectRef{Kind: "deploy", Name: "web"}, kates.ObjectRef{Kind: "deploy", Name: "stuck"}}
	for _, name := range []string{"web", "stuck"} {
		if err := client.Delete(ctx, &kates.Deployment{ObjectMeta: kates.ObjectMeta{Name: name}}, nil); err != nil {
			return err
		}
	}
	if err := client.Wait(ctx, refs, kates.WaitOptions{For: kstatus.NotFoundStatus}); err != nil {
		return err
	}
	fmt.Fprintln(out, "both Deployments deleted")
	return nil
}
