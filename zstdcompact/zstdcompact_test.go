package zstdcompact_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/kates-dev/kates/accumulator"
	"github.com/kates-dev/kates/zstdcompact"
)

// realistic returns the protobuf encodings of n objects shaped as testdata/realistic's
// ConfigMap or Pod (managedFields stripped), each with a name and a setting or node of its
// own, as a query's objects differ.
func realistic(tb testing.TB, kind string, n int) [][]byte {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "realistic", kind+".json"))
	if err != nil {
		tb.Fatal(err)
	}
	var out [][]byte
	for i := range n {
		var b []byte
		switch kind {
		case "pod":
			var p corev1.Pod
			if err := json.Unmarshal(data, &p); err != nil {
				tb.Fatal(err)
			}
			p.ManagedFields = nil
			p.Name, p.Spec.NodeName, p.Status.PodIP = fmt.Sprintf("%s-%d", p.Name, i), fmt.Sprintf("node-%d", i%17), fmt.Sprintf("10.1.%d.%d", i/250, i%250)
			b, err = p.Marshal()
		default:
			var c corev1.ConfigMap
			if err := json.Unmarshal(data, &c); err != nil {
				tb.Fatal(err)
			}
			c.ManagedFields = nil
			c.Name = fmt.Sprintf("%s-%d", c.Name, i)
			for k, v := range c.Data {
				c.Data[k] = strings.Replace(v, "value-0-3", fmt.Sprintf("%08x", i*2654435761), 1)
			}
			b, err = c.Marshal()
		}
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

func newCodec(tb testing.TB, first []byte) accumulator.Codec {
	tb.Helper()
	c, err := zstdcompact.New().NewCodec(first)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// TestRoundTrip: each object, compressed against the first as the dictionary, is under half
// its encoding and decompresses to it exactly, from several goroutines at once, as snapshots
// are read; the dictionary is a copy, so reusing the first object's buffer changes nothing.
func TestRoundTrip(t *testing.T) {
	for _, kind := range []string{"configmap", "pod"} {
		t.Run(kind, func(t *testing.T) {
			objs := realistic(t, kind, 20)
			first := bytes.Clone(objs[0])
			c := newCodec(t, first)
			clear(first) // the caller's buffer is reused: the codec must have copied it
			var packed [][]byte
			for i, o := range objs {
				z := c.Compress(nil, o)
				if len(z) >= len(o)/2 {
					t.Errorf("object %d: %d bytes compressed from %d; want under half", i, len(z), len(o))
				}
				packed = append(packed, z)
			}
			var wg sync.WaitGroup
			for range 4 {
				wg.Go(func() {
					for i, z := range packed {
						got, err := c.Decompress(nil, z)
						if err != nil {
							t.Errorf("object %d: %v", i, err)
						} else if !bytes.Equal(got, objs[i]) {
							t.Errorf("object %d: decompressed to %d bytes that differ from the %d encoded", i, len(got), len(objs[i]))
						}
					}
				})
			}
			wg.Wait()
		})
	}
}

// TestDecompressAppends: Compress and Decompress append to dst, as the accumulator's pooled
// buffers use them.
func TestDecompressAppends(t *testing.T) {
	objs := realistic(t, "configmap", 2)
	c := newCodec(t, objs[0])
	z := c.Compress([]byte("head"), objs[1])
	if !bytes.HasPrefix(z, []byte("head")) {
		t.Fatalf("Compress did not append to dst")
	}
	got, err := c.Decompress([]byte("prefix"), z[len("head"):])
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, append([]byte("prefix"), objs[1]...)) {
		t.Error("Decompress did not append the object to dst")
	}
}

// TestCorruptFrames: a frame damaged anywhere, or cut short, decompresses to an error or (where
// the damage misses what matters) to bytes, never a panic; one of another codec, whose
// dictionary differs, never to the object.
func TestCorruptFrames(t *testing.T) {
	objs := realistic(t, "configmap", 2)
	c := newCodec(t, objs[0])
	good := c.Compress(nil, objs[1])
	errs := 0
	for i := range good {
		for _, flip := range []byte{0x01, 0x80, 0xff} {
			bad := bytes.Clone(good)
			bad[i] ^= flip
			if _, err := c.Decompress(nil, bad); err != nil {
				errs++
			}
		}
		if _, err := c.Decompress(nil, good[:i]); err == nil {
			t.Errorf("a frame cut to %d of %d bytes decompressed without an error", i, len(good))
		}
	}
	if errs == 0 {
		t.Error("no damaged frame gave an error")
	}
	other := newCodec(t, realistic(t, "pod", 1)[0])
	if got, err := other.Decompress(nil, good); err == nil && bytes.Equal(got, objs[1]) {
		t.Error("a codec with another dictionary decompressed the object")
	}
}

// TestMaxDecoded: a frame that decompresses to more than MaxDecoded is refused, so that a
// corrupt object cannot make a read allocate without bound.
func TestMaxDecoded(t *testing.T) {
	c := newCodec(t, realistic(t, "configmap", 1)[0])
	z := c.Compress(nil, make([]byte, zstdcompact.MaxDecoded+1))
	if _, err := c.Decompress(nil, z); err == nil {
		t.Errorf("a frame of %d bytes decompressed; want an error past %d", zstdcompact.MaxDecoded+1, zstdcompact.MaxDecoded)
	}
}

// BenchmarkCompress reports what compressing one object's encoding costs (the part of
// compacting an arriving object a Compressor adds to accumulator's BenchmarkCompactEncode)
// and what decompressing it costs (the part it adds to a Get), for testdata/realistic's
// ConfigMap and Pod, with the bytes it keeps. The object differs from the dictionary in its
// name and one setting or node only, which flatters the compressed size: kates'
// BenchmarkCompactViewMemory measures objects that differ as a cluster's do.
func BenchmarkCompress(b *testing.B) {
	for _, kind := range []string{"configmap", "pod"} {
		objs := realistic(b, kind, 2)
		c := newCodec(b, objs[0])
		z := c.Compress(nil, objs[1])
		b.Run(kind+"/compress", func(b *testing.B) {
			b.ReportAllocs()
			buf := make([]byte, 0, len(objs[1]))
			for b.Loop() {
				buf = c.Compress(buf[:0], objs[1])
			}
			b.ReportMetric(float64(len(objs[1])), "B/encoded")
			b.ReportMetric(float64(len(buf)), "B/compressed")
		})
		b.Run(kind+"/decompress", func(b *testing.B) {
			b.ReportAllocs()
			buf := make([]byte, 0, len(objs[1]))
			for b.Loop() {
				var err error
				if buf, err = c.Decompress(buf[:0], z); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
