package kstatus

import (
	"os"
	"path/filepath"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// BenchmarkLibraryFirstCompute measures what the first Compute of a process pays for the
// library: loading it (Library's first call) and judging one custom resource, a Flux
// GitRepository, with it. Every user of Compute pays this once, kates status included.
func BenchmarkLibraryFirstCompute(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(fixtureDir, "bench", "custom.json"))
	if err != nil {
		b.Fatal(err)
	}
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(data); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		rs, err := loadLibrary(libraryFS)
		if err != nil {
			b.Fatal(err)
		}
		res, err := ComputeWith(u, Options{Rules: rs, NoLibrary: true})
		if err != nil || res.Status != CurrentStatus {
			b.Fatalf("ComputeWith() = %+v, %v; want Current", res, err)
		}
	}
}

// TestLibraryCompiles compiles every expression of the library, which Library leaves to
// each rule's first use: a rule that does not parse or type-check fails here, not in a
// user's Compute.
func TestLibraryCompiles(t *testing.T) {
	rs, err := loadLibrary(libraryFS)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, list := range rs.byKind {
		for _, r := range list {
			if err := r.compile(); err != nil {
				t.Error(err)
			}
			if r.inProgress == nil && r.failed == nil && r.current == nil {
				t.Errorf("library rule %s: compiled, but has no program", r.name)
			}
			n++
		}
	}
	if n != rs.Len() || n < 250 {
		t.Errorf("compiled %d rules of %d; want all, and the library has some 300", n, rs.Len())
	}
	t.Logf("compiled the %d rules of the library", n)
}

// TestLibraryLazy: loading the library compiles nothing; judging an object compiles its
// kind's rule only, and the rule, compiled concurrently, is compiled once.
func TestLibraryLazy(t *testing.T) {
	rs, err := loadLibrary(libraryFS)
	if err != nil {
		t.Fatal(err)
	}
	compiled := func() (n int) {
		for _, list := range rs.byKind {
			for _, r := range list {
				if r.inProgress != nil || r.failed != nil || r.current != nil {
					n++
				}
			}
		}
		return n
	}
	if n := compiled(); n != 0 {
		t.Fatalf("after loading, %d rules are compiled; want 0", n)
	}
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "source.toolkit.fluxcd.io/v1", "kind": "GitRepository",
		"metadata": map[string]any{"name": "app", "generation": int64(1)},
		"status": map[string]any{"observedGeneration": int64(1), "conditions": []any{
			map[string]any{"type": "Ready", "status": "True", "reason": "Succeeded", "message": "stored artifact"},
		}},
	}}
	done := make(chan *Result)
	for range 8 {
		go func() {
			res, _ := ComputeWith(u, Options{Rules: rs, NoLibrary: true})
			done <- res
		}()
	}
	for range 8 {
		if res := <-done; res.Status != CurrentStatus {
			t.Errorf("ComputeWith() = %+v; want Current", res)
		}
	}
	if n := compiled(); n != 1 {
		t.Errorf("after judging a GitRepository, %d rules are compiled; want 1", n)
	}
}
