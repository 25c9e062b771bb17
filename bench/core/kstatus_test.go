package core_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kates-dev/kates/kstatus"
)

// kstatusFixtures are the directories of API-server-shaped objects (managedFields and all) that
// BenchmarkKstatus runs on: the kstatus package's own, and the ones cluster's TestCapture
// recorded from a real cluster (kwok playing the kubelet), one per kind.
var kstatusFixtures = []string{"../../testdata/kstatus/bench", "../testdata/kstatus"}

// BenchmarkKstatus measures kstatus.Compute per object ("compute", or "rule" where a CEL status
// rule judges it) beside decoding the same
// object's JSON into unstructured the way client-go's dynamic client does ("decode"): the floor
// for any per-event work, and the cost Compute is judged against.
func BenchmarkKstatus(b *testing.B) {
	var files []string
	for _, dir := range kstatusFixtures {
		m, err := filepath.Glob(filepath.Join(dir, "*.json"))
		if err != nil {
			b.Fatal(err)
		}
		files = append(files, m...)
	}
	slices.Sort(files)
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			b.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		// An object a CEL status rule judges (a custom resource of the built-in library) has
		// its own bar: the rule costs at most its decode (issue 13), against 0.07× for the
		// built-in rules. Its row says "rule" so the report can tell them apart.
		u := &unstructured.Unstructured{}
		if err := u.UnmarshalJSON(data); err != nil {
			b.Fatal(err)
		}
		row := "/compute"
		if _, by, _ := kstatus.Explain(u, kstatus.Options{}); strings.HasPrefix(by, "cel:") {
			row = "/rule"
		}
		b.Run(name+row, func(b *testing.B) {
			u := &unstructured.Unstructured{}
			if err := u.UnmarshalJSON(data); err != nil {
				b.Fatal(err)
			}
			if _, err := kstatus.Compute(u); err != nil {
				b.Fatalf("Compute(%s): %v", name, err)
			}
			b.ReportAllocs()
			for b.Loop() {
				_, _ = kstatus.Compute(u)
			}
		})
		b.Run(name+"/decode", func(b *testing.B) {
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
