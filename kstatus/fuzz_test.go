package kstatus

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utiljson "k8s.io/apimachinery/pkg/util/json"
)

// decoders are the ways a program may have decoded the object kstatus is given: as
// client-go does (int64 where integral), as encoding/json does (float64), and with
// UseNumber (json.Number). The fuzz input picks one.
var decoders = [...]func([]byte) (map[string]any, error){
	func(b []byte) (map[string]any, error) {
		var m map[string]any
		return m, utiljson.Unmarshal(b, &m)
	},
	func(b []byte) (map[string]any, error) {
		var m map[string]any
		return m, json.Unmarshal(b, &m)
	},
	func(b []byte) (map[string]any, error) {
		var m map[string]any
		d := json.NewDecoder(bytes.NewReader(b))
		d.UseNumber()
		return m, d.Decode(&m)
	},
}

// FuzzCompute feeds arbitrary JSON objects to Compute and Augment. Neither may panic;
// Compute must return a valid Status with a message and the conditions it promises, and an
// error exactly when the Status is Unknown; after Augment, Compute must agree with the
// status Augment wrote.
// fuzzKinds says every kind declares a status and finishes.
func fuzzKinds(string, string) *KindInfo {
	return &KindInfo{HasStatus: true, PhaseValues: []string{"Pending", "Running", "Succeeded", "Failed"}}
}

func FuzzCompute(f *testing.F) {
	_, fixtures := loadFixtures(f)
	for _, fx := range fixtures {
		for i := range decoders {
			f.Add([]byte(fx.Object), uint8(i))
		}
	}
	// The library's fixtures seed ruled kinds: CEL rules must keep Compute's promises too.
	rulePaths, ruleFixtures := loadRuleFixtures(f)
	for _, p := range rulePaths {
		for i := range decoders {
			f.Add([]byte(ruleFixtures[p].Object), uint8(i))
		}
	}
	bench, _ := filepath.Glob(filepath.Join(fixtureDir, "bench", "*.json"))
	for _, p := range bench {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, uint8(0))
	}

	now := time.Date(2026, 3, 1, 10, 0, 30, 0, time.UTC)
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		m, err := decoders[int(mode)%len(decoders)](data)
		if err != nil || m == nil {
			return
		}
		u := &unstructured.Unstructured{Object: m}
		res, err := ComputeAt(u, now)
		checkResult(t, res, err)
		// With a kind's definition, as kates gives it, rule 6 reads more (6c, 6d).
		res, err = ComputeWith(u, Options{Now: now, Kinds: fuzzKinds})
		checkResult(t, res, err)

		want, err := compute(u, now, true)
		checkResult(t, want, err)
		if err := AugmentAt(u, now); err != nil {
			if !IsMalformed(err) {
				t.Fatalf("AugmentAt() error = %v, want a FieldError", err)
			}
			return
		}
		got, err := ComputeAt(u, now)
		checkResult(t, got, err)
		if got.Status != want.Status || got.Message != want.Message {
			t.Fatalf("after Augment, Compute() = %s %q; Augment wrote %s %q", got.Status, got.Message, want.Status, want.Message)
		}
	})
}

// checkResult checks the promises Compute makes about any Result.
func checkResult(t *testing.T, res *Result, err error) {
	t.Helper()
	if res == nil {
		t.Fatalf("Compute() = nil, %v", err)
	}
	if !isStatus(res.Status) || res.Status == NotFoundStatus {
		t.Fatalf("Compute() status = %q", res.Status)
	}
	if res.Message == "" {
		t.Fatalf("Compute() = %s with no message", res.Status)
	}
	if (res.Status == UnknownStatus) != (err != nil) || (err != nil && !IsMalformed(err)) {
		t.Fatalf("Compute() = %s, %v; want a FieldError exactly when Unknown", res.Status, err)
	}
	var want ConditionType
	switch res.Status {
	case InProgressStatus:
		want = ConditionReconciling
	case FailedStatus:
		want = ConditionStalled
	}
	if want == "" {
		if len(res.Conditions) != 0 {
			t.Fatalf("Compute() = %s with conditions %+v", res.Status, res.Conditions)
		}
		return
	}
	if len(res.Conditions) != 1 || res.Conditions[0].Type != want || res.Conditions[0].Status != "True" ||
		res.Conditions[0].Message != res.Message {
		t.Fatalf("Compute() = %s with conditions %+v, want one %s True", res.Status, res.Conditions, want)
	}
}
