package controllers_test

import (
	"context"
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/kates-dev/kates/kates"
)

// BenchmarkApplyDeployment is one step of the latency's breakdown on its own: the server-side
// apply of a WebApp's Deployment (a new image each time), through kates' Client and through
// controller-runtime's client, as the peers make it, against KATES_TEST_KUBECONFIG's cluster.
// Run it with -count so the two take turns on a machine whose load changes.
func BenchmarkApplyDeployment(b *testing.B) {
	cfg := writerConfig(restConfig(b))
	ctx := context.Background()
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		b.Fatal(err)
	}
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "kates-ctrlbench-apply-"}}
	if ns, err = kube.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil {
		b.Fatal(err)
	}
	defer func() { _ = kube.CoreV1().Namespaces().Delete(ctx, ns.Name, metav1.DeleteOptions{}) }()
	kc, err := kates.NewClientFromRESTConfig(cfg, ns.Name)
	if err != nil {
		b.Fatal(err)
	}
	scheme := kruntime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		b.Fatal(err)
	}
	cc, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		b.Fatal(err)
	}
	app := &WebApp{ObjectMeta: metav1.ObjectMeta{Name: "app", Namespace: ns.Name, UID: "00000000-0000-0000-0000-000000000001"},
		Spec: WebAppSpec{Image: "registry.example.com/web:0", Port: 8080}}
	writers := map[string]writer{"kates": katesWriter{kc}, "controller-runtime": runtimeWriter{cc}}
	for _, name := range []string{"kates", "controller-runtime"} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			w := writers[name]
			i := 0
			for b.Loop() {
				i++
				app.Spec.Image = fmt.Sprintf("registry.example.com/web:%s-%d", name, i)
				dep, _ := desired(app)
				dep.Name = "dep-" + name
				dep.OwnerReferences = nil // app is not on the server: its garbage would be collected
				if err := w.apply(ctx, dep); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
