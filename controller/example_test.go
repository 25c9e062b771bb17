package controller_test

import (
	"context"
	"fmt"
	"log"

	"github.com/kates-dev/kates/controller"
	"github.com/kates-dev/kates/kates"
)

// exampleClient returns a Client of the package's test cluster whose namespace is a new one,
// and a function that deletes it.
func exampleClient() (*kates.Client, func()) {
	admin, err := kates.NewClientFromRESTConfig(cluster.RESTConfig(), "default")
	if err != nil {
		log.Fatal(err)
	}
	ns := &kates.Namespace{ObjectMeta: kates.ObjectMeta{GenerateName: "kates-controller-example-"}}
	if err := admin.Create(context.Background(), ns, ns); err != nil {
		log.Fatal(err)
	}
	client, err := kates.NewClientFromRESTConfig(cluster.RESTConfig(), ns.Name)
	if err != nil {
		log.Fatal(err)
	}
	return client, func() { _ = admin.Delete(context.Background(), ns, nil) }
}

// Example runs a controller whose primary kind is ConfigMaps labelled greeting: each one is
// reconciled once the view is complete, and again when it changes.
func Example() {
	client, cleanup := exampleClient()
	defer cleanup()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	type View struct {
		Greetings map[string]*kates.ConfigMap
	}
	seen := make(chan string, 10)
	ctrl, err := controller.New(client, controller.Options[View]{
		Name:    "greeter",
		Queries: []kates.Query{{Name: "Greetings", Kind: "configmaps", Namespace: client.Namespace(), LabelSelector: "greeting"}},
		For:     "Greetings",
		Reconcile: func(ctx context.Context, req controller.Request[View]) (controller.Result, error) {
			var cm *kates.ConfigMap
			req.View(func(v *View) { cm = v.Greetings[req.Key.String()] })
			if cm != nil {
				seen <- fmt.Sprintf("%s says %s", req.Key.Name, cm.Data["text"])
			}
			return controller.Result{}, nil
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	hello := &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: "hello", Labels: map[string]string{"greeting": "yes"}},
		Data: map[string]string{"text": "hello"}}
	if err := client.Create(ctx, hello, hello); err != nil {
		log.Fatal(err)
	}
	done := make(chan error)
	go func() { done <- ctrl.Run(ctx) }()
	fmt.Println(<-seen)

	hello.Data["text"] = "hello again"
	if err := client.Update(ctx, hello, nil); err != nil {
		log.Fatal(err)
	}
	fmt.Println(<-seen)
	cancel()
	if err := <-done; err != nil {
		log.Fatal(err)
	}
	// Output:
	// hello says hello
	// hello says hello again
}
