package protodecode

import (
	"bytes"
	"compress/flate"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	runtimeapi "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/client-go/kubernetes/scheme"
)

// realisticObject reads testdata/realistic/<name>.json into into (managedFields included).
func realisticObject(tb testing.TB, name string, into runtimeapi.Object) runtimeapi.Object {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "realistic", name+".json"))
	require.NoError(tb, err)
	require.NoError(tb, json.Unmarshal(data, into))
	return into
}

// wireItem returns obj's protobuf message as a list item or an envelope's raw field carries it.
func wireItem(tb testing.TB, obj runtimeapi.Object) []byte {
	tb.Helper()
	data := encodeObject(tb, obj)
	raw, _, ok := parseEnvelope(data[len(protobufPrefix):])
	require.True(tb, ok)
	return raw
}

// TestCompactItemDecodesAsTheWire: the compact bytes of a realistic Pod and ConfigMap are
// smaller than the wire's (no managedFields), share nothing with the buffer they came from,
// and decode to what apimachinery decodes less managedFields, into an object of the caller's
// own: editing it changes nothing a later decode gives.
func TestCompactItemDecodesAsTheWire(t *testing.T) {
	standard := protobuf.NewSerializer(scheme.Scheme, scheme.Scheme)
	for _, c := range []struct {
		name string
		obj  runtimeapi.Object
		edit func(runtimeapi.Object)
	}{
		{"pod", &corev1.Pod{}, func(o runtimeapi.Object) {
			p := o.(*corev1.Pod)
			p.Labels["edited"] = "yes"
			p.Spec.Containers[0].Image = "edited"
		}},
		{"configmap", &corev1.ConfigMap{}, func(o runtimeapi.Object) {
			o.(*corev1.ConfigMap).Data["edited"] = "yes"
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			obj := realisticObject(t, c.name, c.obj)
			gvk := obj.GetObjectKind().GroupVersionKind()
			raw := wireItem(t, obj)
			want, _, err := standard.Decode(encodeObject(t, obj), nil, nil)
			require.NoError(t, err)
			want.(metav1.Object).SetManagedFields(nil)

			t0, _ := scheme.Scheme.AllKnownTypes()[gvk]
			compact := CompactItem(raw, t0)
			require.Less(t, len(compact), len(raw), "managedFields left out")
			require.Equal(t, len(compact), cap(compact), "no spare capacity")
			clear(raw) // the stream's buffer, reused

			for _, share := range []*Sharer{nil, NewCopier()} {
				dec := NewObjectDecoder(standard, scheme.Scheme, Options{StripManagedFields: true, Share: share})
				got, err := dec.DecodeItem(compact, gvk)
				require.NoError(t, err)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("DecodeItem() mismatch (-want +got):\n%s", diff)
				}
				c.edit(got)
				again, err := dec.DecodeItem(compact, gvk)
				require.NoError(t, err)
				if diff := cmp.Diff(want, again); diff != "" {
					t.Fatalf("an edit reached a later decode (-want +got):\n%s", diff)
				}
			}
		})
	}
}

// TestCompactItemKeepsWhatItCannotStrip: bytes without managedFields, of a type without
// ObjectMeta first, or malformed, are kept whole; DecodeItem reports what does not decode.
func TestCompactItemKeepsWhatItCannotStrip(t *testing.T) {
	pod := realisticObject(t, "pod", &corev1.Pod{}).(*corev1.Pod)
	pod.ManagedFields = nil
	raw := wireItem(t, pod)
	require.Equal(t, raw, CompactItem(raw, podType), "nothing to strip")

	list := &corev1.PodList{Items: []corev1.Pod{*pod}}
	listRaw := wireItem(t, list)
	require.Equal(t, listRaw, CompactItem(listRaw, reflect.TypeFor[corev1.PodList]()), "a list has ListMeta first")

	bad := raw[:len(raw)/2]
	require.Equal(t, bad, CompactItem(bad, podType))
	dec := NewObjectDecoder(protobuf.NewSerializer(scheme.Scheme, scheme.Scheme), scheme.Scheme, Options{})
	_, err := dec.DecodeItem(bad, corev1.SchemeGroupVersion.WithKind("Pod"))
	require.Error(t, err)
	_, err = dec.DecodeItem(raw, corev1.SchemeGroupVersion.WithKind("NoSuchKind"))
	require.Error(t, err)
}

// BenchmarkCompactItem measures, for a realistic Pod and ConfigMap, what a compact view would
// hold per object against the decoded struct, and what decoding an entry costs against decoding
// the object from the wire (a StripManagedFields decoder, as kates' Watch decodes):
//
//   - decode-wire and decode-compact: one decode each; B/op is the struct's size.
//   - sizes (reported as metrics, per object): wire-B (the protobuf as sent), compact-B
//     (CompactItem's), flate1-B and flate6-B (the compact bytes compressed alone by
//     compress/flate at levels 1 and 6), and go-B (the heap that keeping 1,000 decoded
//     objects holds, per object). A preset dictionary per kind is not measured here: with one
//     fixture per kind it would be the object itself; it needs a population of real objects.
func BenchmarkCompactItem(b *testing.B) {
	for _, c := range []struct {
		name string
		obj  func() runtimeapi.Object
	}{
		{"pod", func() runtimeapi.Object { return &corev1.Pod{} }},
		{"configmap", func() runtimeapi.Object { return &corev1.ConfigMap{} }},
	} {
		obj := realisticObject(b, c.name, c.obj())
		gvk := obj.GetObjectKind().GroupVersionKind()
		raw := wireItem(b, obj)
		typ, _ := scheme.Scheme.AllKnownTypes()[gvk]
		compact := CompactItem(raw, typ)
		dec := NewObjectDecoder(protobuf.NewSerializer(scheme.Scheme, scheme.Scheme), scheme.Scheme, Options{StripManagedFields: true})
		b.Run(c.name+"/decode-wire", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := dec.DecodeItem(raw, gvk); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/decode-compact", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := dec.DecodeItem(compact, gvk); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/sizes", func(b *testing.B) {
			deflate := func(level int) int {
				var buf bytes.Buffer
				w, err := flate.NewWriter(&buf, level)
				if err != nil {
					b.Fatal(err)
				}
				w.Write(compact)
				w.Close()
				return buf.Len()
			}
			var f1, f6 int
			for b.Loop() {
				f1, f6 = deflate(1), deflate(6)
			}
			b.ReportMetric(float64(len(raw)), "wire-B")
			b.ReportMetric(float64(len(compact)), "compact-B")
			b.ReportMetric(float64(f1), "flate1-B")
			b.ReportMetric(float64(f6), "flate6-B")
			b.ReportMetric(heldPerObject(func() any { o, _ := dec.DecodeItem(compact, gvk); return o }), "go-B")
		})
	}
}

// heldPerObject returns the heap that keeping 1,000 results of decode holds, per result.
func heldPerObject(decode func() any) float64 {
	const n = 1000
	held := make([]any, n)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := range held {
		held[i] = decode()
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(held)
	return float64(after.HeapAlloc-before.HeapAlloc) / n
}
