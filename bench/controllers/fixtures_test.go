package controllers_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/yaml"

	"github.com/kates-dev/kates/bench/internal/fixture"
)

// The fixtures: namespace kates-ctrlbench-<N> holds N WebApps (webapp-000000, ...), kept
// between runs (the annotation webAppsAnnotation records how many are complete). Their
// Deployments and Services are the controllers' to create: the first run at a size (the
// setup run, not measured) creates them, later ones find them.

const (
	webAppsAnnotation = "bench.kates.dev/webapps"
	creators          = 32
)

var (
	webAppsGVR = schema.GroupVersionResource{Group: group, Version: version, Resource: "webapps"}
	crdGVR     = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
)

func namespaceFor(n int) string { return fmt.Sprintf("kates-ctrlbench-%d", n) }

func webAppName(i int) string { return fmt.Sprintf("webapp-%06d", i) }

const initialImage = "registry.example.com/web:1.0"

// writerConfig is the parent's: no client-side throttling.
func writerConfig(cfg *rest.Config) *rest.Config {
	cfg = rest.CopyConfig(cfg)
	cfg.QPS, cfg.Burst = -1, 0
	cfg.UserAgent = "kates-ctrlbench-writer"
	return cfg
}

// ensureFixtures creates the CRD, the namespace and its n WebApps unless the namespace records
// them already.
func ensureFixtures(ctx context.Context, cfg *rest.Config, n int) error {
	cfg = writerConfig(cfg)
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return err
	}
	if err := ensureCRD(ctx, dyn); err != nil {
		return err
	}
	name := namespaceFor(n)
	ns, err := kube.CoreV1().Namespaces().Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		ns, err = kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{})
	}
	if err != nil {
		return err
	}
	if have, _ := strconv.Atoi(ns.Annotations[webAppsAnnotation]); have >= n {
		return nil
	}
	begin := time.Now()
	err = fixture.Parallel(ctx, creators, n, func(ctx context.Context, i int) error {
		app := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": group + "/" + version, "kind": "WebApp",
			"metadata": map[string]any{"name": webAppName(i), "namespace": name,
				"labels": map[string]any{"app.kubernetes.io/part-of": "ctrlbench"}},
			"spec": map[string]any{"image": initialImage, "replicas": int64(0), "port": int64(8080), "headless": true},
		}}
		_, err := dyn.Resource(webAppsGVR).Namespace(name).Create(ctx, app, metav1.CreateOptions{})
		if apierrors.IsAlreadyExists(err) {
			err = nil
		}
		if i > 0 && i%10000 == 0 {
			log.Printf("ctrlbench: %d of %d WebApps created (%s)", i, n, time.Since(begin).Round(time.Second))
		}
		return err
	})
	if err != nil {
		return err
	}
	patch := fmt.Sprintf(`{"metadata":{"annotations":{%q:%q}}}`, webAppsAnnotation, strconv.Itoa(n))
	_, err = kube.CoreV1().Namespaces().Patch(ctx, name, types.MergePatchType, []byte(patch), metav1.PatchOptions{})
	log.Printf("ctrlbench: %d WebApps in %s created in %s", n, name, time.Since(begin).Round(time.Second))
	return err
}

func ensureCRD(ctx context.Context, dyn dynamic.Interface) error {
	data, err := os.ReadFile("../testdata/webapp-crd.yaml")
	if err != nil {
		return err
	}
	crd := &unstructured.Unstructured{}
	if err := yaml.Unmarshal(data, &crd.Object); err != nil {
		return err
	}
	if _, err := dyn.Resource(crdGVR).Create(ctx, crd, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}
	for range 100 {
		got, err := dyn.Resource(crdGVR).Get(ctx, crd.GetName(), metav1.GetOptions{})
		if err != nil {
			return err
		}
		conds, _, _ := unstructured.NestedSlice(got.Object, "status", "conditions")
		for _, c := range conds {
			if m, _ := c.(map[string]any); m["type"] == "Established" && m["status"] == "True" {
				return nil
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("CRD %s not established", crd.GetName())
}
