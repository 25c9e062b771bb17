package kates

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	runtimeapi "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kates-dev/kates/accumulator"
	"github.com/kates-dev/kates/internal/protodecode"
	"github.com/kates-dev/kates/zstdcompact"
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
// with its own identity. With varied, they differ further, as a real cluster's objects do
// (see vary): identical copies flatter compression against a dictionary made of one of them.
func wireObjects(tb testing.TB, name string, n int, varied bool) [][]byte {
	tb.Helper()
	out := make([][]byte, n)
	rng := rand.New(rand.NewPCG(uint64(len(name)), 37))
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
			if varied {
				varyConfigMap(&cm, i, rng)
			}
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
			if varied {
				varyPod(&pod, i, rng)
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

// hexOf returns n random hex digits.
func hexOf(rng *rand.Rand, n int) string {
	var b strings.Builder
	for b.Len() < n {
		fmt.Fprintf(&b, "%016x", rng.Uint64())
	}
	return b.String()[:n]
}

var settingValue = regexp.MustCompile(`value-0-[0-9]+`)

// varyConfigMap makes cm the i-th of many different ConfigMaps: every setting's value in its
// data is 8 random hex digits (of ~1 KiB of data, ~300 bytes that no other object repeats),
// its checksum and revision annotations are random hashes, and its instance, version and team
// labels come from 50, 7 and 12 values.
func varyConfigMap(cm *corev1.ConfigMap, i int, rng *rand.Rand) {
	for k, v := range cm.Data {
		cm.Data[k] = settingValue.ReplaceAllStringFunc(v, func(string) string { return hexOf(rng, 8) })
	}
	cm.Labels["app.kubernetes.io/instance"] = fmt.Sprintf("bench-app-%d", i%50)
	cm.Labels["app.kubernetes.io/version"] = fmt.Sprintf("1.%d.%d", i%7, i%3)
	cm.Labels["team"] = fmt.Sprintf("team-%d", i%12)
	cm.Annotations["kates.dev/checksum"] = "sha256:" + hexOf(rng, 64)
	cm.Annotations["kates.dev/revision"] = hexOf(rng, 40)
	cm.CreationTimestamp = metav1.NewTime(cm.CreationTimestamp.Add(time.Duration(i) * time.Second))
}

// varyPod makes pod the i-th replica of one of 20 Deployments, which differ in name, template
// hash, owner, image tags and digests and region; each Pod has its own node (of 100), host IP
// and start times besides the identity, IP and container IDs every copy has.
func varyPod(pod *corev1.Pod, i int, rng *rand.Rand) {
	d := i % 20
	drng := rand.New(rand.NewPCG(uint64(d), 20)) // the same for every replica of d
	hash := hexOf(drng, 10)
	app := fmt.Sprintf("bench-web-%d", d)
	pod.Labels["app.kubernetes.io/instance"] = app
	pod.Labels["app.kubernetes.io/name"] = app
	pod.Labels["pod-template-hash"] = hash
	pod.Labels["team"] = fmt.Sprintf("team-%d", d%12)
	pod.GenerateName = app + "-" + hash + "-"
	pod.Name = fmt.Sprintf("%s-%s-%s", app, hash, hexOf(rng, 5))
	for j := range pod.OwnerReferences {
		pod.OwnerReferences[j].Name = app + "-" + hash
		pod.OwnerReferences[j].UID = types.UID(fmt.Sprintf("%s-%s-%s-%s-%s", hexOf(drng, 8), hexOf(drng, 4), hexOf(drng, 4), hexOf(drng, 4), hexOf(drng, 12)))
	}
	regions := []string{"eu-west-1", "us-east-1", "ap-south-1", "eu-central-1"}
	images := map[string]string{}
	for j := range pod.Spec.Containers {
		c := &pod.Spec.Containers[j]
		repo, _, _ := strings.Cut(c.Image, ":")
		c.Image = fmt.Sprintf("%s:%d.%d.%d", repo, 1+d%3, d, drng.IntN(40))
		images[c.Name] = c.Image
		for k := range c.Env {
			if strings.HasSuffix(c.Env[k].Name, "_REGION") {
				c.Env[k].Value = regions[d%len(regions)]
			}
			if strings.HasSuffix(c.Env[k].Name, "_UPSTREAM") {
				c.Env[k].Value = fmt.Sprintf("http://backend-%d.bench.svc.cluster.local:9000", d)
			}
		}
	}
	node := rng.IntN(100)
	pod.Spec.NodeName = fmt.Sprintf("node-%03d", node)
	pod.Status.HostIP = fmt.Sprintf("10.0.%d.%d", node/250, 1+node%250)
	pod.Status.HostIPs = []corev1.HostIP{{IP: pod.Status.HostIP}}
	start := metav1.NewTime(pod.Status.StartTime.Add(time.Duration(rng.IntN(86400)) * time.Second))
	pod.Status.StartTime = &start
	pod.CreationTimestamp = start
	for j := range pod.Status.ContainerStatuses {
		cs := &pod.Status.ContainerStatuses[j]
		if img, ok := images[cs.Name]; ok {
			cs.Image = img
			cs.ImageID = img + "@sha256:" + hexOf(drng, 64)
		}
		if cs.State.Running != nil {
			cs.State.Running.StartedAt = start
		}
	}
	for j := range pod.Status.Conditions {
		pod.Status.Conditions[j].LastTransitionTime = start
	}
}

type benchStructView struct {
	ConfigMaps map[string]*corev1.ConfigMap
	Pods       map[string]*corev1.Pod
}

type benchCompactView struct {
	ConfigMaps map[string]Compact[*corev1.ConfigMap]
	Pods       map[string]Compact[*corev1.Pod]
}

// viewMode is how fillView's view holds its objects.
type viewMode int

const (
	structMode     viewMode = iota // Go structs, as a Watch into struct fields
	compactMode                    // compact, protobuf
	compressedMode                 // compact, compressed (Compressor: zstdcompact)
)

func (m viewMode) String() string { return [...]string{"struct", "compact", "compressed"}[m] }

// fillView decodes cms and pods as a Watch would into a new Accumulator holding them as mode
// says, through each store's Transformer and Replace, and returns it with its first snapshot.
func fillView(tb testing.TB, mode viewMode, cms, pods [][]byte) (*accumulator.Accumulator, any) {
	tb.Helper()
	compact := mode != structMode
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
		if mode == compressedMode {
			opts.Compressor = zstdcompact.New()
		}
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
// and the consumer's first snapshot), B/object, for a struct view, a compact one and a
// compressed compact one (zstdcompact) of the same objects, and their ratios: 10,000
// ConfigMaps and 3,000 Pods, each kind alone, and both; of copies that differ only in
// identity (same=) and of objects that differ as a real cluster's do (varied=, see vary*).
func BenchmarkCompactViewMemory(b *testing.B) {
	b.ReportAllocs()
	for _, objects := range []string{"same", "varied"} {
		for _, size := range []struct {
			name     string
			cms, pod int
		}{{"configmaps=10000", 10000, 0}, {"pods=3000", 0, 3000}, {"configmaps=10000+pods=3000", 10000, 3000}} {
			b.Run(objects+"/"+size.name, func(b *testing.B) {
				varied := objects == "varied"
				cms, pods := wireObjects(b, "configmap", size.cms, varied), wireObjects(b, "pod", size.pod, varied)
				n := size.cms + size.pod
				var perObject [3]float64
				for b.Loop() {
					for _, mode := range []viewMode{structMode, compactMode, compressedMode} {
						perObject[mode] = heapOf(func() any { acc, snap := fillView(b, mode, cms, pods); return []any{acc, snap} }, n)
					}
				}
				structs, compact, compressed := perObject[structMode], perObject[compactMode], perObject[compressedMode]
				b.ReportMetric(structs, "struct-B/object")
				b.ReportMetric(compact, "compact-B/object")
				b.ReportMetric(compressed, "compressed-B/object")
				b.ReportMetric(compact/structs, "compact/struct")
				b.ReportMetric(compressed/structs, "compressed/struct")
				b.ReportMetric(compressed/compact, "compressed/compact")
			})
		}
	}
}

// cpuTime returns the CPU time this process has used, user and system: on a machine others
// load, it counts what the work cost, where wall time counts the wait for a core too.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkCompactArrival reports what holding objects costs the client's CPU as they arrive:
// decoding the objects from the wire and storing them through each store's Transformer and
// Replace, then the first Update, per object, in CPU time of the process (garbage collection
// included), for each mode. compact minus struct is what computing status on arrival and
// encoding cost (a struct field without Entry computes no status); compressed minus compact
// is what compressing adds. The modes alternate in one loop; min-* is the cheapest round.
func BenchmarkCompactArrival(b *testing.B) {
	for _, size := range []struct {
		name     string
		cms, pod int
	}{{"configmaps=2000", 2000, 0}, {"pods=1000", 0, 1000}} {
		b.Run("varied/"+size.name, func(b *testing.B) {
			cms, pods := wireObjects(b, "configmap", size.cms, true), wireObjects(b, "pod", size.pod, true)
			n := float64(size.cms + size.pod)
			var total, cheapest [3]time.Duration
			for i := range cheapest {
				cheapest[i] = 1 << 62
			}
			for b.Loop() {
				for _, mode := range []viewMode{structMode, compactMode, compressedMode} {
					runtime.GC()
					t0 := cpuTime()
					acc, snap := fillView(b, mode, cms, pods)
					runtime.GC() // the garbage fill made is part of its cost
					d := cpuTime() - t0
					runtime.KeepAlive(acc)
					runtime.KeepAlive(snap)
					total[mode] += d
					cheapest[mode] = min(cheapest[mode], d)
				}
			}
			for _, mode := range []viewMode{structMode, compactMode, compressedMode} {
				b.ReportMetric(float64(total[mode].Nanoseconds())/float64(b.N)/n, mode.String()+"-cpu-ns/object")
				b.ReportMetric(float64(cheapest[mode].Nanoseconds())/n, "min-"+mode.String()+"-cpu-ns/object")
			}
			b.ReportMetric(float64(total[compressedMode]-total[compactMode])/float64(b.N)/n, "compress-cpu-ns/object")
		})
	}
}

// BenchmarkCompactGet compares one Get of a compact Pod (and ConfigMap), uncompressed and
// compressed, with decoding the same object from its wire bytes as a Watch does (managedFields
// left out, undecoded). The object is the second of a query's varied objects: the first is
// the compressed query's dictionary, which compresses to almost nothing against itself.
func BenchmarkCompactGet(b *testing.B) {
	b.ReportAllocs()
	for _, kind := range []string{"pod", "configmap"} {
		wire := wireObjects(b, kind, 2, true)
		gvk := corev1.SchemeGroupVersion.WithKind("Pod")
		if kind == "configmap" {
			gvk = corev1.SchemeGroupVersion.WithKind("ConfigMap")
		}
		var gets [3]func() (runtimeapi.Object, error)
		var sizes [3]int
		for _, mode := range []viewMode{compactMode, compressedMode} {
			var snap any
			if kind == "pod" {
				_, snap = fillView(b, mode, nil, wire)
			} else {
				_, snap = fillView(b, mode, wire, nil)
			}
			view := snap.(*benchCompactView)
			for _, c := range view.Pods {
				if c.ResourceVersion() == "500001" {
					gets[mode] = func() (runtimeapi.Object, error) { return c.Get() }
					sizes[mode] = c.Size()
				}
			}
			for _, c := range view.ConfigMaps {
				if c.ResourceVersion() == "1001" {
					gets[mode] = func() (runtimeapi.Object, error) { return c.Get() }
					sizes[mode] = c.Size()
				}
			}
		}
		dec := protodecode.NewObjectDecoder(nil, Scheme, protodecode.Options{StripManagedFields: true})
		gets[structMode] = func() (runtimeapi.Object, error) { return dec.DecodeItem(wire[1], gvk) }
		names := [3]string{"wire-decode", "Get", "compressed-Get"}
		// The three alternate in one loop, so that a busy machine slows them alike; the
		// ratios are the figures to read. On a loaded machine the means swing with
		// preemption: the fastest of each (min-ns/...) is what the code costs.
		b.Run(kind, func(b *testing.B) {
			var total [3]time.Duration
			fastest := [3]time.Duration{1 << 62, 1 << 62, 1 << 62}
			for b.Loop() {
				for m, get := range gets {
					t0 := time.Now()
					if _, err := get(); err != nil {
						b.Fatal(err)
					}
					d := time.Since(t0)
					total[m] += d
					fastest[m] = min(fastest[m], d)
				}
			}
			n := float64(b.N)
			for m, name := range names {
				b.ReportMetric(float64(total[m].Nanoseconds())/n, "ns/"+name)
				b.ReportMetric(float64(fastest[m].Nanoseconds()), "min-ns/"+name)
				b.ReportMetric(testing.AllocsPerRun(100, func() { _, _ = gets[m]() }), "allocs/"+name)
			}
			b.ReportMetric(float64(total[compactMode])/float64(total[structMode]), "Get/wire-decode")
			b.ReportMetric(float64(total[compressedMode])/float64(total[structMode]), "compressed-Get/wire-decode")
			b.ReportMetric(float64(fastest[compressedMode])/float64(fastest[structMode]), "min-compressed-Get/min-wire-decode")
			b.ReportMetric(float64(sizes[compactMode]), "compact-B")
			b.ReportMetric(float64(sizes[compressedMode]), "compressed-B")
		})
	}
}
