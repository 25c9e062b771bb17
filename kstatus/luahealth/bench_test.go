package luahealth

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kates-dev/kates/kstatus"
)

// BenchmarkLuaHealth measures a Lua health check on the object of kstatus'
// BenchmarkComputeRule (a Flux GitRepository, Ready), beside decoding that object's JSON,
// the cost every watched object already pays: issue 23's bar is a Lua check costing no
// more than the decode (a CEL rule, 0.6 of it). "check" is our own check in testdata/bench
// run directly; "computeWith" is the same through kstatus.ComputeWith; "argocd" is Argo
// CD's own script for the kind, when its module zip can be had.
//
// Measured on the 2-core development machine (go1.26, amd64), -benchtime=2s:
//
//	decode       ~15.1µs  153 allocs
//	check         ~3.9µs   36 allocs   0.26x decode
//	computeWith   ~4.3µs   39 allocs   0.28x decode
//	argocd        ~4.5µs   41 allocs   0.30x decode
func BenchmarkLuaHealth(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "kstatus", "bench", "custom.json"))
	if err != nil {
		b.Fatal(err)
	}
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(data); err != nil {
		b.Fatal(err)
	}
	checks, err := LoadFS(os.DirFS("testdata/bench"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	check := checks[0]
	rs, err := RuleSet(check)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("decode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			u := &unstructured.Unstructured{}
			if err := u.UnmarshalJSON(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	run := func(b *testing.B, c *Check, want HealthStatus) {
		if h, err := c.Health(u); err != nil || h.Status != want {
			b.Fatalf("Health() = %+v, %v; want %s", h, err, want)
		}
		b.ReportAllocs()
		for b.Loop() {
			_, _ = c.Health(u)
		}
	}
	b.Run("check", func(b *testing.B) { run(b, check, Healthy) })
	b.Run("computeWith", func(b *testing.B) {
		opts := kstatus.Options{Rules: rs}
		if res, rule, err := kstatus.Explain(u, opts); err != nil || res.Status != kstatus.CurrentStatus || rule != "lua:"+check.Name {
			b.Fatalf("Explain() = %+v, %s, %v; want Current by the Lua check", res, rule, err)
		}
		b.ReportAllocs()
		for b.Loop() {
			_, _ = kstatus.ComputeWith(u, opts)
		}
	})
	// ratio interleaves a decode and a check in each iteration, so that the load of a
	// shared machine weighs on both alike, and reports the check's time over the decode's.
	b.Run("ratio", func(b *testing.B) {
		var dec, chk time.Duration
		for b.Loop() {
			t0 := time.Now()
			d := &unstructured.Unstructured{}
			if err := d.UnmarshalJSON(data); err != nil {
				b.Fatal(err)
			}
			t1 := time.Now()
			_, _ = check.Health(u)
			t2 := time.Now()
			dec += t1.Sub(t0)
			chk += t2.Sub(t1)
		}
		b.ReportMetric(float64(chk)/float64(dec), "check/decode")
	})
	b.Run("argocd", func(b *testing.B) {
		all, err := argoCDChecks()
		if all == nil {
			b.Skipf("Argo CD's checks cannot be read: %v", err)
		}
		c := findCheck(all, "source.toolkit.fluxcd.io", "GitRepository")
		if c == nil {
			b.Fatal("no Argo CD check for GitRepository")
		}
		run(b, c, Healthy)
	})
}
