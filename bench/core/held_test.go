package core_test

import (
	"fmt"
	"runtime"
	"testing"
	"unsafe"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kates-dev/kates/bench/internal/fixture"
)

// BenchmarkConfigMapHeld measures what one realistic ConfigMap (fixture.RealisticConfigMap, as
// the API server sends it without managedFields) costs held as a *corev1.ConfigMap, with no
// store, view or cache around it: the least any view of Go structs whose maps a caller may
// edit can hold (B/object: HeapAlloc after two GCs, over 2,000 objects held). Variants:
//
//   - decoded: as the generated Unmarshal leaves it, every string its own (controller-runtime
//     holds this, plus its store);
//   - interned: every string that repeats across objects held once (namespace, label and
//     annotation keys, label values, data keys), as kates holds it;
//   - interned-annotations: the repeating annotation values too (kates since issue 26's
//     second round);
//   - arena: and the strings of an object that do not repeat (name, uid, resourceVersion,
//     checksum and revision annotations, data values) in one exact-size allocation, so that no
//     string pays for its size class's rounding.
//
// The struct and its three maps are the same in all four: what no sharing of strings reduces.
func BenchmarkConfigMapHeld(b *testing.B) {
	const n = 2000
	raws := make([][]byte, n)
	for i := range raws {
		cm := fixture.RealisticConfigMap("kates-bench-0a1b2c-boot50000", fmt.Sprintf("cm-%06d", i), i)
		cm.TypeMeta = metav1.TypeMeta{}
		cm.UID = types.UID(fmt.Sprintf("%08x-1f2e-4d3c-8b7a-%012x", i, i*7))
		cm.ResourceVersion = fmt.Sprint(4_000_000 + i)
		cm.CreationTimestamp = metav1.Now()
		var err error
		if raws[i], err = cm.Marshal(); err != nil {
			b.Fatal(err)
		}
	}
	for _, v := range []struct {
		name                 string
		intern, annot, arena bool
	}{
		{"decoded", false, false, false},
		{"interned", true, false, false},
		{"interned-annotations", true, true, false},
		{"arena", true, true, true},
	} {
		b.Run(v.name, func(b *testing.B) {
			// The interner is the view's, not the objects': filled by a first pass, then only read.
			in := &heldInterner{m: map[string]string{}, annot: v.annot}
			for _, raw := range raws[:100] {
				var cm corev1.ConfigMap
				if err := cm.Unmarshal(raw); err != nil {
					b.Fatal(err)
				}
				in.object(&cm, true)
			}
			var held float64
			for b.Loop() {
				objs := make([]*corev1.ConfigMap, n)
				before := heapAllocated()
				for i, raw := range raws {
					cm := &corev1.ConfigMap{}
					if err := cm.Unmarshal(raw); err != nil {
						b.Fatal(err)
					}
					if v.intern {
						in.object(cm, false)
					}
					if v.arena {
						in.arena(cm)
					}
					objs[i] = cm
				}
				held += float64(heapAllocated()-before) / n
				runtime.KeepAlive(objs)
			}
			b.ReportMetric(held/float64(b.N), "B/object")
		})
	}
}

func heapAllocated() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// heldInterner holds the strings that repeat, learnt from a first pass (learn set).
type heldInterner struct {
	m     map[string]string
	annot bool
}

func (in *heldInterner) s(v string, learn bool) string {
	if c, ok := in.m[v]; ok {
		return c
	}
	if learn {
		in.m[v] = v
	}
	return v
}

func (in *heldInterner) remap(m map[string]string, values, learn bool) {
	kv := make([][2]string, 0, len(m))
	for k, v := range m {
		kv = append(kv, [2]string{k, v})
	}
	clear(m)
	for _, e := range kv {
		if values {
			e[1] = in.s(e[1], learn)
		}
		m[in.s(e[0], learn)] = e[1]
	}
}

func (in *heldInterner) object(cm *corev1.ConfigMap, learn bool) {
	cm.Namespace = in.s(cm.Namespace, learn)
	in.remap(cm.Labels, true, learn)
	// Of the annotation values, only those every object repeats are learnt.
	in.remap(cm.Annotations, in.annot && !learn, learn)
	if learn && in.annot {
		for _, v := range []string{"git@example.com:platform/config.git", "rollout of release 2026.11"} {
			in.m[v] = v
		}
	}
	in.remap(cm.Data, false, learn)
}

// arena moves cm's strings that are not interned into one allocation.
func (in *heldInterner) arena(cm *corev1.ConfigMap) {
	own := func(s string) bool {
		c, shared := in.m[s]
		return !shared || unsafe.StringData(c) != unsafe.StringData(s)
	}
	size := len(cm.Name) + len(cm.UID) + len(cm.ResourceVersion)
	for _, m := range []map[string]string{cm.Annotations, cm.Data} {
		for _, v := range m {
			if own(v) {
				size += len(v)
			}
		}
	}
	buf := make([]byte, 0, size)
	put := func(s string) string {
		if s == "" {
			return s
		}
		start := len(buf)
		buf = append(buf, s...)
		return unsafe.String(&buf[start], len(s))
	}
	cm.Name, cm.UID, cm.ResourceVersion = put(cm.Name), types.UID(put(string(cm.UID))), put(cm.ResourceVersion)
	for _, m := range []map[string]string{cm.Annotations, cm.Data} {
		for k, v := range m {
			if own(v) {
				m[k] = put(v)
			}
		}
	}
}
