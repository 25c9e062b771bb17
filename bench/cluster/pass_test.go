package cluster_test

import (
	"context"
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	crcache "sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/zstdcompact"
)

// BenchmarkViewPass measures a full pass over a complete view of N ConfigMaps and 3,000
// Pods, the views of BenchmarkView, each built once outside the timing: one op reads every
// object of the view as a controller's loop over all of them would, and sums a field of
// each (a ConfigMap's data, a Pod's containers) so the read cannot be skipped. ns/object is
// the op over N+3,000.
//
// Peers:
//
//   - kates: the struct snapshot's objects, read where they are (the snapshot is the
//     caller's: no copy is needed).
//   - kates-compact, kates-compressed: every entry's Get, which decodes a fresh object the
//     caller owns (issue 37): the cost of holding objects encoded, paid on every read.
//   - controller-runtime-strip: the cache's List of each kind, which deep-copies every object
//     (its default; the copy is what makes the list the caller's), then the same read.
func BenchmarkViewPass(b *testing.B) {
	for _, n := range bootstrapSizes {
		if !sizeSelected(n) {
			continue
		}
		ns := fx.Bootstrap[n]
		objects := n + podsFor(n)
		kinds := []kind{configMaps, pods}
		runPeers(b, fmt.Sprintf("N=%d/", n),
			peer{"kates", func(b *testing.B) {
				var snap bootstrapSnapshot
				benchPass(b, objects, katesSession(ns, kates.WatchOptions{}, &snap, kinds...), func() (int, error) {
					sum := 0
					for _, cm := range snap.ConfigMaps {
						sum += len(cm.Data)
					}
					for _, p := range snap.Pods {
						sum += len(p.Spec.Containers)
					}
					return sum, nil
				})
			}},
			peer{"kates-compact", func(b *testing.B) {
				var snap compactSnapshot
				opts := kates.WatchOptions{Snapshot: (*compactSnapshot)(nil)}
				benchPass(b, objects, katesSession(ns, opts, &snap, kinds...), func() (int, error) {
					return passCompact(&snap)
				})
			}},
			peer{"kates-compressed", func(b *testing.B) {
				var snap compactSnapshot
				opts := kates.WatchOptions{Snapshot: (*compactSnapshot)(nil), Compressor: zstdcompact.New()}
				benchPass(b, objects, katesSession(ns, opts, &snap, kinds...), func() (int, error) {
					return passCompact(&snap)
				})
			}},
			peer{"controller-runtime-strip", func(b *testing.B) {
				opts := crcache.Options{DefaultTransform: crcache.TransformStripManagedFields()}
				s := controllerRuntimeSessionWith(ns, nil, opts, kinds...)
				benchPass(b, objects, s, func() (int, error) {
					c := s.view().(crcache.Cache)
					ctx := context.Background()
					var cms corev1.ConfigMapList
					if err := c.List(ctx, &cms, client.InNamespace(ns)); err != nil {
						return 0, err
					}
					var ps corev1.PodList
					if err := c.List(ctx, &ps, client.InNamespace(ns)); err != nil {
						return 0, err
					}
					sum := 0
					for i := range cms.Items {
						sum += len(cms.Items[i].Data)
					}
					for i := range ps.Items {
						sum += len(ps.Items[i].Spec.Containers)
					}
					return sum, nil
				})
			}},
		)
	}
}

// passCompact reads every entry of snap with Get.
func passCompact(snap *compactSnapshot) (int, error) {
	sum := 0
	for _, e := range snap.ConfigMaps {
		cm, err := e.Get()
		if err != nil {
			return 0, err
		}
		sum += len(cm.Data)
	}
	for _, e := range snap.Pods {
		p, err := e.Get()
		if err != nil {
			return 0, err
		}
		sum += len(p.Spec.Containers)
	}
	return sum, nil
}

// benchPass starts s once, untimed, then times b.N passes of pass over its view. Every pass
// must read the same, non-zero sum: a pass that saw fewer objects would flatter its peer.
func benchPass(b *testing.B, objects int, s *session, pass func() (int, error)) {
	s.prepare(b)
	stop := s.run(b)
	defer stop()
	want, err := pass()
	if err != nil {
		b.Fatal(err)
	}
	if want == 0 {
		b.Fatal("a pass over the view read nothing")
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		got, err := pass()
		if err != nil {
			b.Fatal(err)
		}
		if got != want {
			b.Fatalf("a pass read %d, the first %d", got, want)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*objects), "ns/object")
}
