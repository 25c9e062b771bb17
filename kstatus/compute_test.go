package kstatus

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"
)

// fixtureDir holds one Compute case per YAML file; its README describes the format.
const fixtureDir = "../testdata/kstatus"

// fixture is one file of fixtureDir.
type fixture struct {
	// Now, if set, is the clock for ComputeAt.
	Now time.Time `json:"now"`
	// Object is kept raw and decoded the way client-go decodes, integers as int64.
	Object json.RawMessage `json:"object"`
	// CRD, if set, is the object's CustomResourceDefinition: Compute is given what
	// KindInfoFromCRD reads from it (Options.Kinds), as kates gives it for custom resources.
	CRD      json.RawMessage `json:"crd"`
	Expected struct {
		Status    Status `json:"status"`
		Message   string `json:"message"`
		Reason    string `json:"reason"`
		Malformed bool   `json:"malformed"`
	} `json:"expected"`
}

// object decodes the fixture's object afresh, so each caller may change it.
func (fx *fixture) object(t testing.TB) *unstructured.Unstructured {
	t.Helper()
	var m map[string]any
	if err := utiljson.Unmarshal(fx.Object, &m); err != nil {
		t.Fatalf("decode object: %v", err)
	}
	return &unstructured.Unstructured{Object: m}
}

// options are the Options the fixture asks for: its clock, and its CRD's KindInfo.
func (fx *fixture) options(t testing.TB) Options {
	t.Helper()
	opts := Options{Now: fx.Now}
	if len(fx.CRD) == 0 {
		return opts
	}
	var m map[string]any
	if err := utiljson.Unmarshal(fx.CRD, &m); err != nil {
		t.Fatalf("decode crd: %v", err)
	}
	u := fx.object(t)
	_, version, _ := strings.Cut(u.GetAPIVersion(), "/")
	info, ok := KindInfoFromCRD(&unstructured.Unstructured{Object: m}, version)
	if !ok {
		t.Fatalf("crd has no version %q", version)
	}
	opts.Kinds = func(apiVersion, kind string) *KindInfo {
		if apiVersion == u.GetAPIVersion() && kind == u.GetKind() {
			return info
		}
		return nil
	}
	return opts
}

// result is the Result the fixture expects, conditions derived from status and reason.
func (fx *fixture) result() *Result {
	e := fx.Expected
	r := &Result{Status: e.Status, Message: e.Message}
	switch e.Status {
	case InProgressStatus:
		r.Conditions = []Condition{{Type: ConditionReconciling, Status: corev1.ConditionTrue, Reason: e.Reason, Message: e.Message}}
	case FailedStatus:
		r.Conditions = []Condition{{Type: ConditionStalled, Status: corev1.ConditionTrue, Reason: e.Reason, Message: e.Message}}
	}
	return r
}

// loadFixtures reads every fixture, checking each is well formed: unknown keys (a typo in
// "expected") and a missing reason for InProgress or Failed fail the test.
func loadFixtures(t testing.TB) (names []string, fixtures map[string]*fixture) {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(fixtureDir, "*.yaml"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures in %s: %v", fixtureDir, err)
	}
	fixtures = map[string]*fixture{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		fx := &fixture{}
		if err := yaml.UnmarshalStrict(data, fx); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		name := strings.TrimSuffix(filepath.Base(p), ".yaml")
		switch st := fx.Expected.Status; {
		case len(fx.Object) == 0:
			t.Fatalf("%s: no object", p)
		case !isStatus(st):
			t.Fatalf("%s: expected.status %q is not a Status", p, st)
		case (st == InProgressStatus || st == FailedStatus) && fx.Expected.Reason == "":
			t.Fatalf("%s: expected.reason is required for %s", p, st)
		}
		fixtures[name] = fx
		names = append(names, name)
	}
	sort.Strings(names)
	return names, fixtures
}

func isStatus(s Status) bool {
	for _, st := range statuses {
		if s == st {
			return true
		}
	}
	return false
}

func TestComputeFixtures(t *testing.T) {
	names, fixtures := loadFixtures(t)
	for _, name := range names {
		fx := fixtures[name]
		t.Run(name, func(t *testing.T) {
			u := fx.object(t)
			before := u.DeepCopy()
			got, err := ComputeWith(u, fx.options(t))
			if diff := cmp.Diff(fx.result(), got); diff != "" {
				t.Errorf("Compute() mismatch (-want +got):\n%s", diff)
			}
			if fx.Expected.Malformed != IsMalformed(err) || (err != nil && !IsMalformed(err)) {
				t.Errorf("Compute() error = %v, want malformed = %v", err, fx.Expected.Malformed)
			}
			if !reflect.DeepEqual(before.Object, u.Object) {
				t.Errorf("Compute() modified its argument")
			}
		})
	}
}

// TestFixturesCoverEveryRule fails when a kind gets a rule but no fixture, or a status
// Compute can return has none.
func TestFixturesCoverEveryRule(t *testing.T) {
	names, fixtures := loadFixtures(t)
	kinds := map[string]bool{}
	seen := map[Status]bool{}
	for _, name := range names {
		u := fixtures[name].object(t)
		kinds[u.GetKind()] = true
		seen[fixtures[name].Expected.Status] = true
	}
	for gk := range rules {
		if !kinds[gk.kind] {
			t.Errorf("no fixture for kind %s (group %q)", gk.kind, gk.group)
		}
	}
	for _, st := range statuses {
		if !seen[st] && st != NotFoundStatus {
			t.Errorf("no fixture expects status %s", st)
		}
	}
}

// TestComputeNumericForms checks that rule 2 reads every form a decoder or a person may
// give a number in, and reports every other value as malformed.
func TestComputeNumericForms(t *testing.T) {
	good := map[string]any{
		"int64":        int64(2),
		"int":          2,
		"int32":        int32(2),
		"uint64":       uint64(2),
		"float64":      2.0,
		"float32":      float32(2),
		"json.Number":  json.Number("2"),
		"string":       "2",
		"float string": "2.0",
	}
	for name, v := range good {
		t.Run(name, func(t *testing.T) {
			u := generationObject(int64(3), v)
			got, err := Compute(u)
			if err != nil || got.Status != InProgressStatus ||
				got.Message != "Widget generation is 3, but latest observed generation is 2" {
				t.Errorf("Compute() = %+v, %v; want InProgress, generation 3 and 2", got, err)
			}
		})
	}
	bad := map[string]any{
		"word":          "two",
		"fraction":      2.5,
		"NaN":           math.NaN(),
		"Inf":           math.Inf(1),
		"huge":          1e30,
		"huge uint":     uint64(math.MaxUint64),
		"bool":          true,
		"object":        map[string]any{"value": 2},
		"list":          []any{2},
		"json fraction": json.Number("2.5"),
		"empty string":  "",
	}
	for name, v := range bad {
		t.Run(name, func(t *testing.T) {
			got, err := Compute(generationObject(int64(3), v))
			if !IsMalformed(err) || got == nil || got.Status != UnknownStatus ||
				!strings.HasPrefix(got.Message, "Widget status.observedGeneration: want an integer, got ") {
				t.Errorf("Compute() = %+v, %v; want Unknown and a FieldError", got, err)
			}
		})
	}
}

func generationObject(gen, observed any) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.com/v1",
		"kind":       "Widget",
		"metadata":   map[string]any{"name": "w", "generation": gen},
		"status":     map[string]any{"observedGeneration": observed},
	}}
}

func TestComputeNil(t *testing.T) {
	got, err := Compute(nil)
	if err == nil || got == nil || got.Status != UnknownStatus {
		t.Errorf("Compute(nil) = %+v, %v; want Unknown and an error", got, err)
	}
	got, err = Compute(&unstructured.Unstructured{})
	if err != nil || got.Status != CurrentStatus {
		t.Errorf("Compute(empty) = %+v, %v; want Current", got, err)
	}
}

// TestComputeResultIsOwned checks the promise that a Result belongs to its caller: two
// calls share nothing, so changing one cannot change the other.
func TestComputeResultIsOwned(t *testing.T) {
	_, fixtures := loadFixtures(t)
	for _, name := range []string{"apps-deployment-current", "apps-deployment-less-available"} {
		u := fixtures[name].object(t)
		a, _ := Compute(u)
		b, _ := Compute(u)
		want := *b
		want.Conditions = append([]Condition(nil), b.Conditions...)
		a.Message = "changed"
		a.Conditions = append(a.Conditions, Condition{Type: "Extra"})
		if len(a.Conditions) > 1 {
			a.Conditions[0].Reason = "changed"
		}
		if diff := cmp.Diff(&want, b); diff != "" {
			t.Errorf("%s: changing one Result changed another (-want +got):\n%s", name, diff)
		}
	}
}

func TestFieldError(t *testing.T) {
	_, err := Compute(generationObject(int64(1), strings.Repeat("x", 100)))
	var fe *FieldError
	if !IsMalformed(err) || !errors.As(err, &fe) || fe.Path != "status.observedGeneration" {
		t.Fatalf("Compute() error = %v; want a FieldError for status.observedGeneration", err)
	}
	if want := `Widget status.observedGeneration: want an integer, got "` + strings.Repeat("x", 40) + `..."`; err.Error() != want {
		t.Errorf("Error() = %q, want %q (long values truncated)", err.Error(), want)
	}
	if IsMalformed(errNilObject) {
		t.Errorf("IsMalformed(errNilObject) = true")
	}
}

// TestComputeUnstructuredFromConverter checks objects converted from typed ones, whose
// integers are int64 and whose absent fields are absent, not null.
func TestComputeUnstructuredFromConverter(t *testing.T) {
	pod := &corev1.Pod{
		Status: corev1.PodStatus{
			Phase: corev1.PodRunning,
			Conditions: []corev1.PodCondition{
				{Type: corev1.PodReady, Status: corev1.ConditionTrue},
			},
		},
	}
	pod.APIVersion, pod.Kind = "v1", "Pod"
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(pod)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Compute(&unstructured.Unstructured{Object: m})
	if err != nil || got.Status != CurrentStatus {
		t.Errorf("Compute() = %+v, %v; want Current", got, err)
	}
}
