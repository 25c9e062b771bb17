package core_test

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kates-dev/kates/bench/internal/fixture"
)

// BenchmarkConvert measures, per object, the steps between a watch event and a consumer's
// snapshot, beside the decode every event pays ("decode": JSON into unstructured):
//
//   - from-unstructured: runtime.DefaultUnstructuredConverter.FromUnstructured into the typed
//     struct, what Accumulator.Update does for each changed object of a typed snapshot field;
//   - deepcopy: Unstructured.DeepCopy, what it does for an unstructured field;
//   - typed-decode: decoding the same JSON straight into the typed struct, what a typed
//     (client-go or controller-runtime) informer does instead of decode;
//   - typed-deepcopy: the generated DeepCopy of the typed struct, what handing out a copy of
//     an object already converted would cost.
func BenchmarkConvert(b *testing.B) {
	cm := fixture.ConfigMap(1, 1, false)
	cmJSON, err := json.Marshal(cm)
	if err != nil {
		b.Fatal(err)
	}
	objects := []struct {
		name  string
		data  []byte
		typed reflect.Type
	}{
		{"configmap", cmJSON, reflect.TypeFor[corev1.ConfigMap]()},
		{"deployment", readFile(b, "../../testdata/kstatus/bench/deployment.json"), reflect.TypeFor[appsv1.Deployment]()},
		{"pod", readFile(b, "../../testdata/kstatus/bench/pod.json"), reflect.TypeFor[corev1.Pod]()},
	}
	for _, o := range objects {
		u := &unstructured.Unstructured{}
		if err := u.UnmarshalJSON(o.data); err != nil {
			b.Fatal(err)
		}
		u.SetManagedFields(nil) // as kates stores it by default
		b.Run(o.name+"/decode", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				v := &unstructured.Unstructured{}
				if err := v.UnmarshalJSON(o.data); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(o.name+"/from-unstructured", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				v := reflect.New(o.typed).Interface()
				if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, v); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(o.name+"/deepcopy", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = u.DeepCopy()
			}
		})
		b.Run(o.name+"/typed-deepcopy", func(b *testing.B) {
			typed := reflect.New(o.typed).Interface().(runtime.Object)
			if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, typed); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				_ = typed.DeepCopyObject()
			}
		})
		b.Run(o.name+"/typed-decode", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				v := reflect.New(o.typed).Interface()
				if err := json.Unmarshal(o.data, v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func readFile(b *testing.B, path string) []byte {
	b.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	return data
}
