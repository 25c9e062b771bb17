package accumulator

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kates-dev/kates/kstatus"
)

func compressedKind() *compactKind {
	return &compactKind{gvk: corev1.SchemeGroupVersion.WithKind("ConfigMap"), t: reflect.TypeFor[corev1.ConfigMap](), z: &zcodec{}}
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
// short, gives errors (or, where the damage misses what is read, its content), never a panic.
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
