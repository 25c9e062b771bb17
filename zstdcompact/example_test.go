package zstdcompact_test

import (
	"context"

	corev1 "k8s.io/api/core/v1"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/zstdcompact"
)

// A view of every ConfigMap and Pod held compact and compressed: each entry keeps its
// object's protobuf encoding compressed with zstd, and decodes it on Get.
func ExampleNew() {
	ctx := context.Background()
	client, err := kates.NewClient(kates.ClientConfig{})
	if err != nil {
		panic(err)
	}
	var snap struct {
		ConfigMaps []kates.Compact[*corev1.ConfigMap]
		Pods       []kates.Compact[*corev1.Pod]
	}
	acc, err := client.WatchWith(ctx, kates.WatchOptions{Snapshot: &snap, Compressor: zstdcompact.New()},
		kates.Query{Name: "ConfigMaps", Kind: "ConfigMap"}, kates.Query{Name: "Pods", Kind: "Pod"})
	if err != nil {
		panic(err)
	}
	for range acc.Changed() {
		if _, err := acc.Update(ctx, &snap); err != nil {
			panic(err)
		}
		for _, p := range snap.Pods {
			_ = p.Status() // no decode: computed as the Pod arrived
		}
	}
}
