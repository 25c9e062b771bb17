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
// Measured on the shared 2-core development machine (go1.26, amd64, load average 9–14
// from other work, so single timings swing 2×; ratio, which interleaves the two, is the
// figure to trust):
//
//	decode        33–48µs  5008 B  133 allocs
//	check         18–44µs  2033 B   52 allocs
//	computeWith   29–52µs  2180 B   55 allocs
//	argocd        25–39µs  3883 B   45 allocs
//	ratio         0.58–0.91 check/decode, 0.6 in most runs (bar: 1)
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
