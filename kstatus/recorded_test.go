package kstatus_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kates-dev/kates/kstatus"
)

// TestRecordedControllerStates judges the objects in testdata/kstatus/recorded, each as the
// real controllers of the local cluster left it in a state a wait meets (a paused rollout, an
// OnDelete DaemonSet after a template change, a suspended Job, ...). kates' TestControllerStates
// drives the controllers there and records them with -record-kstatus, writing expected.json
// beside them; this test holds the rules to those verdicts without a cluster.
func TestRecordedControllerStates(t *testing.T) {
	dir := filepath.Join("..", "testdata", "kstatus", "recorded")
	data, err := os.ReadFile(filepath.Join(dir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	type verdict struct {
		Status kstatus.Status `json:"status"`
		Reason string         `json:"reason,omitempty"`
	}
	var expected map[string]verdict
	if err := json.Unmarshal(data, &expected); err != nil {
		t.Fatal(err)
	}
	if len(expected) == 0 {
		t.Fatal("expected.json lists no recorded object")
	}
	for file, want := range expected {
		t.Run(file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, file))
			if err != nil {
				t.Fatal(err)
			}
			u := &unstructured.Unstructured{}
			if err := json.Unmarshal(data, &u.Object); err != nil {
				t.Fatal(err)
			}
			res, err := kstatus.Compute(u)
			if err != nil {
				t.Fatal(err)
			}
			got := verdict{Status: res.Status}
			if want.Reason != "" && len(res.Conditions) > 0 {
				got.Reason = res.Conditions[0].Reason
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Compute(%s) mismatch (-want +got):\n%s\nmessage: %s", file, diff, res.Message)
			}
		})
	}
}
