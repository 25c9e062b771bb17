package shards_test

import (
	"context"
	"fmt"
	"log"
	"strconv"
	"sync/atomic"
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

	"github.com/kates-dev/kates/bench/internal/fixture"
	"github.com/kates-dev/kates/kates"
)

const (
	// namespace holds the fixtures, kept between runs.
	namespace = "kates-shardbench"
	// widgetsAnnotation on the namespace records how many Widgets (each with its ConfigMaps)
	// it holds complete.
	widgetsAnnotation = "bench.kates.dev/widgets"
	// configMapsPerWidget is how many ConfigMaps each Widget controls.
	configMapsPerWidget = 4
	// creators is how many goroutines create fixtures at once.
	creators = 32
	// labelShards is the shard count of the space the ConfigMaps are stamped for
	// (kates.OwnerShardLabel): 16 virtual shards, which 1, 2 and 4 replicas split evenly.
	labelShards = 16
	// stampedAnnotation on the namespace records the shard count the ConfigMaps are stamped
	// for (fixtures made before the stamp get it on the next run).
	stampedAnnotation = "bench.kates.dev/owner-shard-count"
)

// labelSpace is the space the fixtures' ConfigMaps are stamped for.
var labelSpace = kates.ShardSpace{Key: kates.ShardByUID, Count: labelShards}

var (
	widgetsGVR = schema.GroupVersionResource{Group: "bench.kates.dev", Version: "v1", Resource: "widgets"}
	crdGVR     = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
)

// widgetCRD is the CustomResourceDefinition of widgets.bench.kates.dev: a namespaced kind with
// a free-form spec, as many operators' resources are.
func widgetCRD() *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1",
		"kind":       "CustomResourceDefinition",
		"metadata":   map[string]any{"name": "widgets.bench.kates.dev"},
		"spec": map[string]any{
			"group": "bench.kates.dev",
			"scope": "Namespaced",
			"names": map[string]any{"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
			"versions": []any{map[string]any{
				"name": "v1", "served": true, "storage": true,
				"schema": map[string]any{"openAPIV3Schema": map[string]any{
					"type": "object",
					"properties": map[string]any{
						"spec":   map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true},
						"status": map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true},
					},
				}},
				"subresources": map[string]any{"status": map[string]any{}},
			}},
		},
	}}
}

// widget returns Widget i: an application's description, a few hundred bytes of spec.
func widget(i int) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "bench.kates.dev/v1",
		"kind":       "Widget",
		"metadata": map[string]any{
			"name":      widgetName(i),
			"namespace": namespace,
			"labels": map[string]any{
				"app.kubernetes.io/name":       "bench-widget",
				"app.kubernetes.io/instance":   fmt.Sprintf("bench-widget-%d", i%50),
				"app.kubernetes.io/managed-by": "kates-bench",
				"team":                         fmt.Sprintf("team-%d", i%7),
			},
			"annotations": map[string]any{"kates.dev/revision": fmt.Sprintf("%040x", i*104729)},
		},
		"spec": map[string]any{
			"image":    fmt.Sprintf("registry.example.com/platform/widget:1.%d.%d", i%13, i%7),
			"replicas": int64(1 + i%5),
			"config": map[string]any{
				"logLevel": "info", "timeoutSeconds": int64(30), "region": fmt.Sprintf("region-%d", i%4),
				"features": []any{"alpha", "beta", fmt.Sprintf("feature-%d", i%11)},
			},
		},
	}}
}

func widgetName(i int) string { return fmt.Sprintf("widget-%06d", i) }

// ensureFixtures creates the CRD, the namespace and want Widgets with their ConfigMaps, unless
// the namespace records at least that many already; it returns how many Widgets there are.
func ensureFixtures(ctx context.Context, cfg *rest.Config, want int) (int, error) {
	cfg = rest.CopyConfig(cfg)
	cfg.QPS, cfg.Burst = -1, 0
	cfg.UserAgent = "kates-shardbench-writer"
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return 0, err
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return 0, err
	}
	ns, err := kube.CoreV1().Namespaces().Get(ctx, namespace, metav1.GetOptions{})
	if err == nil {
		if have, _ := strconv.Atoi(ns.Annotations[widgetsAnnotation]); have >= want {
			if ns.Annotations[stampedAnnotation] == strconv.Itoa(labelShards) {
				return have, nil
			}
			return have, stampFixtures(ctx, kube)
		}
	} else if !apierrors.IsNotFound(err) {
		return 0, err
	} else if _, err := kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}}, metav1.CreateOptions{}); err != nil {
		return 0, err
	}
	if _, err := dyn.Resource(crdGVR).Create(ctx, widgetCRD(), metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return 0, err
	}
	if err := waitServed(ctx, dyn); err != nil {
		return 0, err
	}

	begin := time.Now()
	var done atomic.Int64
	err = parallel(ctx, want, func(ctx context.Context, i int) error {
		w, err := dyn.Resource(widgetsGVR).Namespace(namespace).Create(ctx, widget(i), metav1.CreateOptions{FieldManager: "kates-bench"})
		if apierrors.IsAlreadyExists(err) {
			w, err = dyn.Resource(widgetsGVR).Namespace(namespace).Get(ctx, widgetName(i), metav1.GetOptions{})
		}
		if err != nil {
			return fmt.Errorf("widget %d: %w", i, err)
		}
		for j := range configMapsPerWidget {
			cm := fixture.RealisticConfigMap(namespace, fmt.Sprintf("%s-%d", widgetName(i), j), i*configMapsPerWidget+j)
			cm.OwnerReferences = []metav1.OwnerReference{controllerRef(w.GetName(), w.GetUID())}
			labelSpace.StampOwnerShard(cm)
			_, err := kube.CoreV1().ConfigMaps(namespace).Create(ctx, cm, metav1.CreateOptions{FieldManager: "kates-bench"})
			if err != nil && !apierrors.IsAlreadyExists(err) {
				return fmt.Errorf("configmap %s: %w", cm.Name, err)
			}
		}
		if n := done.Add(1); n%2000 == 0 {
			log.Printf("shardbench: %d of %d Widgets with their ConfigMaps after %s", n, want, time.Since(begin).Round(time.Second))
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	log.Printf("shardbench: %d Widgets and %d ConfigMaps ready in %s", want, want*configMapsPerWidget, time.Since(begin).Round(time.Second))
	patch := fmt.Sprintf(`{"metadata":{"annotations":{%q:%q,%q:%q}}}`, widgetsAnnotation, strconv.Itoa(want),
		stampedAnnotation, strconv.Itoa(labelShards))
	if _, err := kube.CoreV1().Namespaces().Patch(ctx, namespace, types.MergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
		return 0, err
	}
	return want, nil
}

// stampFixtures stamps every owned ConfigMap of fixtures made before the stamp with its
// Widget's shard of labelSpace (kates.OwnerShardLabel), and records it on the namespace.
func stampFixtures(ctx context.Context, kube kubernetes.Interface) error {
	begin := time.Now()
	list, err := kube.CoreV1().ConfigMaps(namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	err = parallel(ctx, len(list.Items), func(ctx context.Context, i int) error {
		cm := &list.Items[i]
		before := cm.Labels[kates.OwnerShardLabel]
		if !labelSpace.StampOwnerShard(cm) || cm.Labels[kates.OwnerShardLabel] == before {
			return nil
		}
		patch := fmt.Sprintf(`{"metadata":{"labels":{%q:%q}}}`, kates.OwnerShardLabel, cm.Labels[kates.OwnerShardLabel])
		_, err := kube.CoreV1().ConfigMaps(namespace).Patch(ctx, cm.Name, types.MergePatchType, []byte(patch), metav1.PatchOptions{})
		return err
	})
	if err != nil {
		return err
	}
	log.Printf("shardbench: %d ConfigMaps stamped with their Widget's shard in %s", len(list.Items), time.Since(begin).Round(time.Second))
	patch := fmt.Sprintf(`{"metadata":{"annotations":{%q:%q}}}`, stampedAnnotation, strconv.Itoa(labelShards))
	_, err = kube.CoreV1().Namespaces().Patch(ctx, namespace, types.MergePatchType, []byte(patch), metav1.PatchOptions{})
	return err
}

func controllerRef(name string, uid types.UID) metav1.OwnerReference {
	yes := true
	return metav1.OwnerReference{APIVersion: "bench.kates.dev/v1", Kind: "Widget", Name: name, UID: uid, Controller: &yes, BlockOwnerDeletion: &yes}
}

// waitServed waits (at most a minute) until the API server serves Widgets.
func waitServed(ctx context.Context, dyn dynamic.Interface) error {
	deadline := time.Now().Add(time.Minute)
	for {
		_, err := dyn.Resource(widgetsGVR).Namespace(namespace).List(ctx, metav1.ListOptions{Limit: 1})
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("widgets not served after a minute: %w", err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// parallel runs create(0..n-1) on creators goroutines, stopping at the first error.
func parallel(ctx context.Context, n int, create func(ctx context.Context, i int) error) error {
	return fixture.Parallel(ctx, creators, n, create)
}
