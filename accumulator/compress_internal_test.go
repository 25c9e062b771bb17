package accumulator

import (
	"bytes"
	"compress/flate"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kates-dev/kates/kstatus"
)

// flateCompressor is a Compressor for this package's own tests, which cannot import
// zstdcompact (it imports accumulator): the standard library's flate, with the query's first
// object as its dictionary, as zstdcompact uses it. zstdcompact's tests run the same checks
// through the public API with zstd.
type flateCompressor struct{}

type flateCodec struct{ dict []byte }

func (flateCompressor) NewCodec(first []byte) (Codec, error) {
	return flateCodec{dict: bytes.Clone(first)}, nil
}

func (c flateCodec) Compress(dst, src []byte) []byte {
	var b bytes.Buffer
	w, _ := flate.NewWriterDict(&b, flate.BestSpeed, c.dict)
	_, _ = w.Write(src)
	_ = w.Close()
	return append(dst, b.Bytes()...)
}

func (c flateCodec) Decompress(dst, src []byte) ([]byte, error) {
	r := flate.NewReaderDict(bytes.NewReader(src), c.dict)
	out, err := io.ReadAll(io.LimitReader(r, 64<<20))
	if err != nil {
		return dst, err
	}
	return append(dst, out...), nil
}

func compressedKind() *compactKind {
	return &compactKind{gvk: corev1.SchemeGroupVersion.WithKind("ConfigMap"), t: reflect.TypeFor[corev1.ConfigMap](), z: &zcodec{c: flateCompressor{}}}
}

func testCM(i int) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{
			Name: fmt.Sprintf("cm-%04d", i), Namespace: "ns", ResourceVersion: fmt.Sprint(100 + i),
			Labels: map[string]string{"app.kubernetes.io/name": "web", "team": fmt.Sprint("team-", i%3)},
		},
		Data: map[string]string{"application.properties": strings.Repeat(fmt.Sprintf("setting-%d = value\n", i), 40)},
	}
}

// TestCompressedCompactRoundTrips: a compressed object is smaller than its encoding, reads its
// name, namespace and resource version from its head, and decodes (Get and Meta) to what was
// compacted; from several goroutines at once, as snapshots are read.
func TestCompressedCompactRoundTrips(t *testing.T) {
	k := compressedKind()
	st := &kstatus.Result{Status: kstatus.CurrentStatus}
	var objs []Compact[*corev1.ConfigMap]
	for i := range 20 {
		co, err := newCompact(testCM(i), k, st)
		if err != nil {
			t.Fatal(err)
		}
		plain, _ := testCM(i).Marshal()
		if co.zhead <= 0 || len(co.data) >= len(plain)/2 {
			t.Errorf("object %d: %d bytes (head %d) compressed from %d; want a head and under half", i, len(co.data), co.zhead, len(plain))
		}
		objs = append(objs, Compact[*corev1.ConfigMap]{c: co})
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for i, c := range objs {
				want := testCM(i)
				want.APIVersion, want.Kind = "v1", "ConfigMap"
				got, err := c.Get()
				if err != nil {
					t.Error(err)
					return
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("Get() mismatch (-want +got):\n%s", diff)
				}
				if c.Name() != want.Name || c.Namespace() != want.Namespace || c.ResourceVersion() != want.ResourceVersion {
					t.Errorf("accessors say %s/%s@%s; want %s/%s@%s", c.Namespace(), c.Name(), c.ResourceVersion(),
						want.Namespace, want.Name, want.ResourceVersion)
				}
				m, err := c.Meta()
				if err != nil {
					t.Error(err)
				} else if diff := cmp.Diff(want.ObjectMeta, *m); diff != "" {
					t.Errorf("Meta() mismatch (-want +got):\n%s", diff)
				}
			}
		})
	}
	wg.Wait()
}

// TestCorruptCompressedCompact: a compressed object whose bytes are damaged anywhere, or cut
// short, gives errors (or, where the damage misses what is read, its content), never a panic;
// one cut short always gives an error from Get.
func TestCorruptCompressedCompact(t *testing.T) {
	k := compressedKind()
	st := &kstatus.Result{Status: kstatus.CurrentStatus}
	if _, err := newCompact(testCM(0), k, st); err != nil { // the dictionary
		t.Fatal(err)
	}
	good, err := newCompact(testCM(1), k, st)
	if err != nil {
		t.Fatal(err)
	}
	read := func(co *compactObject) {
		c := Compact[*corev1.ConfigMap]{c: co}
		_, _ = c.Get()
		_, _ = c.Meta()
		_, _, _ = c.Name(), c.Namespace(), c.ResourceVersion()
	}
	for i := range good.data {
		for _, flip := range []byte{0x01, 0x80, 0xff} {
			bad := *good
			bad.data = append([]byte(nil), good.data...)
			bad.data[i] ^= flip
			read(&bad)
		}
		cut := *good
		cut.data = good.data[:i]
		if int(cut.zhead) > i {
			cut.zhead = int32(i)
		}
		read(&cut)
		if _, err := (Compact[*corev1.ConfigMap]{c: &cut}).Get(); err == nil {
			t.Errorf("Get of an object cut to %d of %d bytes: no error", i, len(good.data))
		}
	}
	// A compressed object of a kind that has compressed nothing, or of no kind.
	orphan := *good
	orphan.kind = compressedKind()
	if _, err := (Compact[*corev1.ConfigMap]{c: &orphan}).Get(); err == nil {
		t.Error("Get of a frame without its dictionary: no error")
	}
	plain := *good
	plain.kind = &compactKind{gvk: k.gvk, t: k.t}
	if _, err := (Compact[*corev1.ConfigMap]{c: &plain}).Get(); err == nil {
		t.Error("Get of a compressed object of an uncompressed kind: no error")
	}
	tooLong := *good
	tooLong.zhead = int32(len(good.data) + 1)
	read(&tooLong)
}

// BenchmarkCompactEncode reports what compacting one object costs, encoded alone, for
// testdata/realistic's ConfigMap and Pod (managedFields stripped), each with its own name
// and a different setting or node than the query's first object. zstdcompact's
// BenchmarkCompress reports what compressing the encoding adds.
func BenchmarkCompactEncode(b *testing.B) {
	for _, kind := range []string{"configmap", "pod"} {
		{
			b.Run(kind, func(b *testing.B) {
				b.ReportAllocs()
				var obj, first interface {
					protoMarshaler
					metav1.Object
				}
				var k *compactKind
				if kind == "pod" {
					p0, p1 := &corev1.Pod{}, &corev1.Pod{}
					readRealistic(b, kind, p0)
					readRealistic(b, kind, p1)
					p1.Name, p1.Spec.NodeName, p1.Status.PodIP = p1.Name+"-b", "node-17", "10.1.2.3"
					first, obj = p0, p1
					k = &compactKind{gvk: corev1.SchemeGroupVersion.WithKind("Pod"), t: reflect.TypeFor[corev1.Pod]()}
				} else {
					c0, c1 := &corev1.ConfigMap{}, &corev1.ConfigMap{}
					readRealistic(b, kind, c0)
					readRealistic(b, kind, c1)
					c1.Name = c1.Name + "-b"
					for key := range c1.Data {
						c1.Data[key] = strings.Replace(c1.Data[key], "value-0-3", "e9c01a7f", 1)
					}
					first, obj = c0, c1
					k = &compactKind{gvk: corev1.SchemeGroupVersion.WithKind("ConfigMap"), t: reflect.TypeFor[corev1.ConfigMap]()}
				}
				first.SetManagedFields(nil)
				obj.SetManagedFields(nil)
				if _, err := newCompact(first, k, nil); err != nil {
					b.Fatal(err)
				}
				var co *compactObject
				for b.Loop() {
					var err error
					if co, err = newCompact(obj, k, nil); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(len(co.data)), "B/object")
			})
		}
	}
}

func readRealistic(tb testing.TB, name string, into any) {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "realistic", name+".json"))
	if err != nil {
		tb.Fatal(err)
	}
	if err := json.Unmarshal(data, into); err != nil {
		tb.Fatal(err)
	}
}

// failingCompressor makes no codec.
type failingCompressor struct{}

func (failingCompressor) NewCodec([]byte) (Codec, error) { return nil, errors.New("out of tables") }

// TestCompressorErrors: a Compressor that cannot make a codec fails the object's compaction
// with its error, named as the compressor's, rather than holding the object some other way.
func TestCompressorErrors(t *testing.T) {
	k := &compactKind{gvk: corev1.SchemeGroupVersion.WithKind("ConfigMap"), t: reflect.TypeFor[corev1.ConfigMap](), z: &zcodec{c: failingCompressor{}}}
	if _, err := newCompact(testCM(0), k, nil); err == nil || !strings.Contains(err.Error(), "compressor: out of tables") {
		t.Errorf("newCompact with a failing compressor: %v; want the compressor's error", err)
	}
}
