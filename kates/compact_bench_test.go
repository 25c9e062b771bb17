package kates

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	runtimeapi "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kates-dev/kates/accumulator"
	"github.com/kates-dev/kates/internal/protodecode"
)

// Compact views against struct views, without a cluster: the objects are testdata/realistic's
// ConfigMap (~1 KiB of data, 8 labels, 4 annotations) and Pod (a Deployment's replica, Running
// and Ready), each copy with its own name, UID, resource version (and, for Pods, IP and
// container IDs), encoded as the API server sends them (managedFields included), then decoded
// and stored as a Watch does: a struct view with the Watch's Copier and interner, a compact
// one as a compact query does (no Sharer, no interning, compacted as each object arrives).

func readRealistic(tb testing.TB, name string, into runtimeapi.Object) {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "realistic", name+".json"))
	if err != nil {
		tb.Fatal(err)
	}
	if err := json.Unmarshal(data, into); err != nil {
		tb.Fatal(err)
	}
}

// wireObjects returns n copies of testdata/realistic/<name>.json as protobuf messages, each
// with its own identity.
func wireObjects(tb testing.TB, name string, n int) [][]byte {
	tb.Helper()
	out := make([][]byte, n)
	for i := range n {
		var data []byte
		var err error
		switch name {
		case "configmap":
			var cm corev1.ConfigMap
			readRealistic(tb, name, &cm)
			cm.Name = fmt.Sprintf("%s-%06d", cm.Name, i)
			cm.UID = types.UID(fmt.Sprintf("00000000-0000-0000-0001-%012d", i))
			cm.ResourceVersion = fmt.Sprint(1000 + i)
			data, err = cm.Marshal()
		case "pod":
			var pod corev1.Pod
			readRealistic(tb, name, &pod)
			pod.Name = fmt.Sprintf("%s-%06d", pod.Name, i)
			pod.UID = types.UID(fmt.Sprintf("00000000-0000-0000-0002-%012d", i))
			pod.ResourceVersion = fmt.Sprint(500000 + i)
			pod.Status.PodIP = fmt.Sprintf("10.%d.%d.%d", 64+i>>16, (i>>8)&255, i&255)
			pod.Status.PodIPs = []corev1.PodIP{{IP: pod.Status.PodIP}}
			for j := range pod.Status.ContainerStatuses {
				pod.Status.ContainerStatuses[j].ContainerID = fmt.Sprintf("containerd://%064x", i*8+j)
			}
			data, err = pod.Marshal()
		}
		if err != nil {
			tb.Fatal(err)
		}
		out[i] = data
	}
	return out
}

type benchStructView struct {
	ConfigMaps map[string]*corev1.ConfigMap
	Pods       map[string]*corev1.Pod
}

type benchCompactView struct {
	ConfigMaps map[string]Compact[*corev1.ConfigMap]
	Pods       map[string]Compact[*corev1.Pod]
}

// fillView decodes cms and pods as a Watch would into a new Accumulator, compact or not,
// through each store's Transformer and Replace, and returns it with its first snapshot.
func fillView(tb testing.TB, compact bool, cms, pods [][]byte) (*accumulator.Accumulator, any) {
	tb.Helper()
	in := newInterner()
	share := protodecode.NewCopier()
	share.SetIntern(in.internPart)
	opts := accumulator.Options{
		Scheme: Scheme,
		ObjectTransform: func(obj runtimeapi.Object) {
			obj.(metav1.Object).SetManagedFields(nil)
			if !compact {
				in.internObject(obj, true)
			}
		},
	}
	var snap any = &benchStructView{}
	if compact {
		share = nil
		opts.Snapshot = (*benchCompactView)(nil)
		snap = &benchCompactView{}
	}
	dec := protodecode.NewObjectDecoder(nil, Scheme, protodecode.Options{StripManagedFields: true, Share: share})
	cmGVK, podGVK := corev1.SchemeGroupVersion.WithKind("ConfigMap"), corev1.SchemeGroupVersion.WithKind("Pod")
	acc, err := accumulator.New([]accumulator.QuerySpec{{Name: "ConfigMaps", GVK: cmGVK}, {Name: "Pods", GVK: podGVK}}, opts)
	if err != nil {
		tb.Fatal(err)
	}
	load := func(query string, items [][]byte, kind string) {
		st := acc.Store(query)
		transform := st.Transformer()
		list := make([]any, 0, len(items))
		gvk := cmGVK
		if kind == "Pod" {
			gvk = podGVK
		}
		for _, b := range items {
			obj, err := dec.DecodeItem(b, gvk)
			if err != nil {
				tb.Fatal(err)
			}
			a, err := transform(obj)
			if err != nil {
				tb.Fatal(err)
			}
			list = append(list, a)
		}
		if err := st.Replace(list, "1"); err != nil {
			tb.Fatal(err)
		}
	}
	load("ConfigMaps", cms, "ConfigMap")
	load("Pods", pods, "Pod")
	if _, err := acc.Update(context.Background(), snap); err != nil {
		tb.Fatal(err)
	}
	return acc, snap
}

// heapOf returns the heap fill allocates and keeps, per object.
func heapOf(fill func() any, objects int) float64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&before)
	kept := fill()
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(kept)
	return float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(objects)
}

// BenchmarkCompactViewMemory reports the heap a complete view holds per object (store, view
// and the consumer's first snapshot), B/object, for a struct view and a compact one of the
// same objects, and their ratio: 10,000 ConfigMaps and 3,000 Pods, each kind alone, and both.
func BenchmarkCompactViewMemory(b *testing.B) {
	for _, size := range []struct {
		name     string
		cms, pod int
	}{{"configmaps=10000", 10000, 0}, {"pods=3000", 0, 3000}, {"configmaps=10000+pods=3000", 10000, 3000}} {
		b.Run(size.name, func(b *testing.B) {
			cms, pods := wireObjects(b, "configmap", size.cms), wireObjects(b, "pod", size.pod)
			n := size.cms + size.pod
			var structs, compact float64
			for b.Loop() {
				structs = heapOf(func() any { acc, snap := fillView(b, false, cms, pods); return []any{acc, snap} }, n)
				compact = heapOf(func() any { acc, snap := fillView(b, true, cms, pods); return []any{acc, snap} }, n)
			}
			b.ReportMetric(structs, "struct-B/object")
			b.ReportMetric(compact, "compact-B/object")
			b.ReportMetric(compact/structs, "compact/struct")
		})
	}
}

// BenchmarkCompactGet compares one Get of a compact Pod (and ConfigMap) with decoding the
// same object from its wire bytes as a Watch does (managedFields left out, undecoded), and
// with apimachinery's generated Unmarshal of the whole wire message.
func BenchmarkCompactGet(b *testing.B) {
	for _, kind := range []string{"pod", "configmap"} {
		wire := wireObjects(b, kind, 1)
		gvk := corev1.SchemeGroupVersion.WithKind("Pod")
		var get func() (runtimeapi.Object, error)
		if kind == "pod" {
			_, snap := fillView(b, true, nil, wire)
			for _, c := range snap.(*benchCompactView).Pods {
				get = func() (runtimeapi.Object, error) { return c.Get() }
			}
		} else {
			gvk = corev1.SchemeGroupVersion.WithKind("ConfigMap")
			_, snap := fillView(b, true, wire, nil)
			for _, c := range snap.(*benchCompactView).ConfigMaps {
				get = func() (runtimeapi.Object, error) { return c.Get() }
			}
		}
		dec := protodecode.NewObjectDecoder(nil, Scheme, protodecode.Options{StripManagedFields: true})
		wireDecode := func() (runtimeapi.Object, error) { return dec.DecodeItem(wire[0], gvk) }
		// The two alternate in one loop, so that a busy machine slows both alike; the ratio
		// is the figure to read. On a loaded machine the means swing with preemption: the
		// fastest of each (min-ns/...) is what the code costs.
		b.Run(kind, func(b *testing.B) {
			var tGet, tWire time.Duration
			minGet, minWire := time.Duration(1<<62), time.Duration(1<<62)
			for b.Loop() {
				t0 := time.Now()
				if _, err := get(); err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				if _, err := wireDecode(); err != nil {
					b.Fatal(err)
				}
				dWire, dGet := time.Since(t1), t1.Sub(t0)
				tWire += dWire
				tGet += dGet
				minWire, minGet = min(minWire, dWire), min(minGet, dGet)
			}
			n := float64(b.N)
			b.ReportMetric(float64(tGet.Nanoseconds())/n, "ns/Get")
			b.ReportMetric(float64(tWire.Nanoseconds())/n, "ns/wire-decode")
			b.ReportMetric(float64(tGet)/float64(tWire), "Get/wire-decode")
			b.ReportMetric(float64(minGet.Nanoseconds()), "min-ns/Get")
			b.ReportMetric(float64(minWire.Nanoseconds()), "min-ns/wire-decode")
			b.ReportMetric(float64(minGet)/float64(minWire), "min-Get/min-wire-decode")
			b.ReportMetric(testing.AllocsPerRun(100, func() { _, _ = get() }), "allocs/Get")
			b.ReportMetric(testing.AllocsPerRun(100, func() { _, _ = wireDecode() }), "allocs/wire-decode")
		})
	}
}
