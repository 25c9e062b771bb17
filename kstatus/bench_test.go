package kstatus_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kates-dev/kates/kstatus"
)

// benchObjects are API-server-shaped objects, managedFields and all, so the decode
// baseline measures what a watcher really decodes.
var benchObjects = []struct {
	name, file string
	want       kstatus.Status
}{
	{"CurrentDeployment", "deployment.json", kstatus.CurrentStatus},
	{"ReadyCustomResource", "custom.json", kstatus.CurrentStatus},
	{"RunningPod", "pod.json", kstatus.CurrentStatus},
	// autoscaling/v1 keeps conditions as JSON text in an annotation, which Compute must
	// read: the one rule that parses.
	{"HPAv1", "hpa-v1.json", kstatus.CurrentStatus},
}

func readBench(b *testing.B, file string) []byte {
	b.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "kstatus", "bench", file))
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkCompute measures Compute on objects already decoded, as a watcher holds them.
// Compare each with BenchmarkDecodeBaseline: Compute should cost a small fraction of the
// decode every watched object already pays.
func BenchmarkCompute(b *testing.B) {
	for _, bo := range benchObjects {
		b.Run(bo.name, func(b *testing.B) {
			u := &unstructured.Unstructured{}
			if err := u.UnmarshalJSON(readBench(b, bo.file)); err != nil {
				b.Fatal(err)
			}
			if res, err := kstatus.Compute(u); err != nil || res.Status != bo.want {
				b.Fatalf("Compute() = %+v, %v; want %s", res, err, bo.want)
			}
			b.ReportAllocs()
			for b.Loop() {
				_, _ = kstatus.Compute(u)
			}
		})
	}
}

// BenchmarkDecodeBaseline decodes the same objects' JSON into unstructured, the way
// client-go's dynamic client does: the cost Compute is measured against.
func BenchmarkDecodeBaseline(b *testing.B) {
	for _, bo := range benchObjects {
		b.Run(bo.name, func(b *testing.B) {
			data := readBench(b, bo.file)
			b.ReportAllocs()
			for b.Loop() {
				u := &unstructured.Unstructured{}
				if err := u.UnmarshalJSON(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkComputeRule measures a CEL status rule of the built-in library (Flux's, the
// longest: three comprehensions over status.conditions and a message) on the object of
// ReadyCustomResource, a Flux GitRepository, beside the generic rules on the same object.
// Compare with BenchmarkDecodeBaseline/ReadyCustomResource: issue 23's bar is a rule
// costing at most 0.6 of the decode (BenchmarkComputeRuleRatio measures the ratio). On the
// 2-core test machine, load 3.6: 10.3–13.2 µs, 944 B and 34 allocs, against a decode of
// 27–44 µs, 5,008 B and 133 allocs; ratio 0.43–0.64, median 0.53, over 5 runs. Before
// objectMap, objectList and commonStrings (celvalues.go): 15–25 µs and 76 allocs, ratio 0.73.
func BenchmarkComputeRule(b *testing.B) {
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(readBench(b, "custom.json")); err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		opts kstatus.Options
		rule string
	}{
		{"FluxGitRepository/library", kstatus.Options{}, "cel:flux/GitRepository"},
		{"FluxGitRepository/generic", kstatus.Options{NoLibrary: true}, "ready"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			if res, rule, err := kstatus.Explain(u, bc.opts); err != nil || res.Status != kstatus.CurrentStatus || rule != bc.rule {
				b.Fatalf("Explain() = %+v, %s, %v; want Current by %s", res, rule, err, bc.rule)
			}
			b.ReportAllocs()
			for b.Loop() {
				_, _ = kstatus.ComputeWith(u, bc.opts)
			}
		})
	}
}

// BenchmarkComputeRuleRatio interleaves a decode of the GitRepository's JSON and a Compute of
// it by the library's Flux rule in each iteration, so that a shared machine's load weighs on
// both alike, and reports the rule's time over the decode's (the bar: 0.6).
func BenchmarkComputeRuleRatio(b *testing.B) {
	data := readBench(b, "custom.json")
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(data); err != nil {
		b.Fatal(err)
	}
	var decode, rule time.Duration
	for b.Loop() {
		t0 := time.Now()
		d := &unstructured.Unstructured{}
		if err := d.UnmarshalJSON(data); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		_, _ = kstatus.Compute(u)
		decode, rule = decode+t1.Sub(t0), rule+time.Since(t1)
	}
	b.ReportMetric(float64(rule)/float64(decode), "rule/decode")
}

// BenchmarkComputeInferred measures rule 6 (inference) on the object of
// ReadyCustomResource with no library rule and its Ready condition replaced: by an
// Available condition, by a phase Running read with the kind's definition, and with no
// status at all. Compare with BenchmarkComputeRule/FluxGitRepository/generic (rule 5).
func BenchmarkComputeInferred(b *testing.B) {
	finishes := &kstatus.KindInfo{HasStatus: true, PhaseValues: []string{"Pending", "Running", "Succeeded", "Failed"}}
	opts := kstatus.Options{NoLibrary: true, Kinds: func(string, string) *kstatus.KindInfo { return finishes }}
	for _, bc := range []struct {
		name   string
		status map[string]any
		want   kstatus.Status
		rule   string
	}{
		{"Available", map[string]any{"observedGeneration": int64(1), "conditions": []any{
			map[string]any{"type": "Available", "status": "True", "reason": "Up", "observedGeneration": int64(1)}}},
			kstatus.CurrentStatus, "infer:conditions"},
		{"PhaseRunning", map[string]any{"observedGeneration": int64(1), "phase": "Running"}, kstatus.InProgressStatus, "infer:phase"},
		{"NoStatus", nil, kstatus.InProgressStatus, "infer:no-status"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			u := &unstructured.Unstructured{}
			if err := u.UnmarshalJSON(readBench(b, "custom.json")); err != nil {
				b.Fatal(err)
			}
			if bc.status == nil {
				delete(u.Object, "status")
			} else {
				u.Object["status"] = bc.status
			}
			u.SetGeneration(1)
			if res, rule, err := kstatus.Explain(u, opts); err != nil || res.Status != bc.want || rule != bc.rule {
				b.Fatalf("Explain() = %+v, %s, %v; want %s by %s", res, rule, err, bc.want, bc.rule)
			}
			b.ReportAllocs()
			for b.Loop() {
				_, _ = kstatus.ComputeWith(u, opts)
			}
		})
	}
}
