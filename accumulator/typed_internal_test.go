package accumulator

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/yaml"

	"github.com/kates-dev/kates/kstatus"
)

// TestStatusViewAgreesWithCompute runs every kstatus fixture whose kind client-go's scheme
// registers through both ways a status is computed: kstatus.Compute on the whole object in
// unstructured form, and on the statusView of the typed object (what typed stores do). They
// must agree, so typed stores keep kstatus' one set of rules.
func TestStatusViewAgreesWithCompute(t *testing.T) {
	paths, err := filepath.Glob("../testdata/kstatus/*.yaml")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no kstatus fixtures: %v", err)
	}
	known := clientgoscheme.Scheme.AllKnownTypes()
	tested := 0
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".yaml")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var fx struct {
				Now      time.Time       `json:"now"`
				Object   json.RawMessage `json:"object"`
				Expected struct {
					Malformed bool `json:"malformed"`
				} `json:"expected"`
			}
			if err := yaml.Unmarshal(data, &fx); err != nil {
				t.Fatal(err)
			}
			u := &unstructured.Unstructured{}
			if err := u.UnmarshalJSON(fx.Object); err != nil {
				t.Skipf("not an object: %v", err)
			}
			gvk := u.GroupVersionKind()
			typ := known[gvk]
			if typ == nil || fx.Expected.Malformed {
				t.Skip("no typed form (a kind the scheme lacks, or a malformed field)")
			}
			typed := reflect.New(typ).Interface()
			if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, typed); err != nil {
				t.Skipf("no typed form: %v", err)
			}
			// The whole typed object, in the unstructured form a JSON decode gives.
			whole, err := runtime.DefaultUnstructuredConverter.ToUnstructured(typed)
			if err != nil {
				t.Fatal(err)
			}
			want, wantErr := kstatus.ComputeAt(&unstructured.Unstructured{Object: whole}, fx.Now)
			got, gotErr := kstatus.ComputeAt(statusView(gvk, typed), fx.Now)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Compute(statusView) mismatch (-whole object +view):\n%s", diff)
			}
			if (wantErr == nil) != (gotErr == nil) {
				t.Errorf("errors differ: whole object %v, view %v", wantErr, gotErr)
			}
			tested++
		})
	}
	if tested < 20 {
		t.Errorf("only %d fixtures had a typed form; the check proves little", tested)
	}
}

// TestScalarFields: statusView's spec holds scalars as ToUnstructured writes them, down to
// three levels, and no lists or maps.
func TestScalarFields(t *testing.T) {
	type inner struct {
		Partition *int32 `json:"partition,omitempty"`
		Deep      struct {
			TooDeep string `json:"tooDeep"`
		} `json:"deep"`
	}
	type strategy struct {
		Type          string `json:"type,omitempty"`
		RollingUpdate *inner `json:"rollingUpdate,omitempty"`
	}
	type spec struct {
		Replicas       *int32            `json:"replicas,omitempty"`
		Paused         bool              `json:"paused,omitempty"`
		MinReady       int32             `json:"minReadySeconds"`
		UpdateStrategy strategy          `json:"updateStrategy"`
		Containers     []string          `json:"containers"`
		Selector       map[string]string `json:"selector"`
		Hidden         string            `json:"-"`
	}
	three, zero := int32(3), int32(0)
	got := scalarFields(reflect.ValueOf(spec{
		Replicas:       &three,
		MinReady:       0,
		UpdateStrategy: strategy{Type: "RollingUpdate", RollingUpdate: &inner{Partition: &zero}},
		Containers:     []string{"a"},
		Selector:       map[string]string{"a": "b"},
		Hidden:         "x",
	}), 3)
	want := map[string]any{
		"replicas":        int64(3),
		"minReadySeconds": int64(0),
		"updateStrategy": map[string]any{
			"type":          "RollingUpdate",
			"rollingUpdate": map[string]any{"partition": int64(0)},
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("scalarFields mismatch (-want +got):\n%s", diff)
	}
}

// TestHandOutLeavesOneCopy: once an Update has handed a version out, the store no longer holds
// its own copy of it, whether the snapshot took the stored object itself (same type) or a
// conversion (typed store, unstructured field), for a kind the scheme registers.
func TestHandOutLeavesOneCopy(t *testing.T) {
	gvk := corev1.SchemeGroupVersion.WithKind("ConfigMap")
	for _, tt := range []struct {
		name   string
		target any
	}{
		{"typed field", &struct{ CMs []*corev1.ConfigMap }{}},
		{"unstructured field", &struct {
			CMs map[string]*unstructured.Unstructured
		}{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			acc, err := New([]QuerySpec{{Name: "CMs", GVK: gvk}}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer acc.Stop()
			cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "x", ResourceVersion: "5", UID: "u"},
				Data: map[string]string{"k": "v"}}
			if err := acc.Store("CMs").Replace([]any{cm}, "5"); err != nil {
				t.Fatal(err)
			}
			if _, err := acc.Update(context.Background(), tt.target); err != nil {
				t.Fatal(err)
			}
			it := acc.Store("CMs").objects[objKey{"a", "x"}]
			if it == nil || it.obj != nil {
				t.Errorf("stored item %+v: want one whose object was given up", it)
			}
		})
	}
}
