package kates

import (
	"encoding/json"
	"fmt"
	"reflect"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// toUnstructured turns what a caller passes as a resource — a typed object (*kates.Pod or any
// client-go type), an *Unstructured or a map[string]any — into an Unstructured the caller does
// not share: changing the result never changes the argument.
func toUnstructured(resource any) (*unstructured.Unstructured, error) {
	switch r := resource.(type) {
	case nil:
		return nil, fmt.Errorf("kates: resource is nil")
	case *unstructured.Unstructured:
		if r == nil {
			return nil, fmt.Errorf("kates: resource is a nil *Unstructured")
		}
		return copyJSONObject(r.Object)
	case unstructured.Unstructured:
		return copyJSONObject(r.Object)
	case map[string]any:
		return copyJSONObject(r)
	case runtime.Object:
		if v := reflect.ValueOf(r); v.Kind() == reflect.Pointer && v.IsNil() {
			return nil, fmt.Errorf("kates: resource is a nil %T", r)
		}
		obj, err := runtime.DefaultUnstructuredConverter.ToUnstructured(r)
		if err != nil {
			return nil, fmt.Errorf("kates: convert %T: %w", r, err)
		}
		u := &unstructured.Unstructured{Object: obj}
		if u.GetKind() == "" {
			gvk, err := kindOf(r)
			if err != nil {
				return nil, err
			}
			u.SetGroupVersionKind(gvk)
		}
		return u, nil
	default:
		return nil, fmt.Errorf("kates: unsupported resource type %T: want a Kubernetes object, *kates.Unstructured or map[string]any", resource)
	}
}

// copyJSONObject copies m into an Unstructured. A map built in Go may hold values JSON encodes
// but Unstructured's deep copy refuses with a panic (an int, a map[string]string, a struct):
// such a map is copied through encoding/json instead, as the request would encode it.
func copyJSONObject(m map[string]any) (*unstructured.Unstructured, error) {
	if isJSONValue(m) {
		return (&unstructured.Unstructured{Object: m}).DeepCopy(), nil
	}
	data, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("kates: resource cannot be encoded as JSON: %w", err)
	}
	var out map[string]any
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, fmt.Errorf("kates: resource cannot be encoded as JSON: %w", err)
	}
	return &unstructured.Unstructured{Object: out}, nil
}

// kindOf finds the kind of a typed object whose TypeMeta is empty, as client-go leaves it.
func kindOf(obj runtime.Object) (schema.GroupVersionKind, error) {
	gvks, _, err := Scheme.ObjectKinds(obj)
	if err != nil || len(gvks) == 0 {
		return schema.GroupVersionKind{}, fmt.Errorf("kates: %T has no kind set and is not registered in kates.Scheme", obj)
	}
	return gvks[0], nil
}

// fromUnstructured stores u into target: nil (discard), *Unstructured, *map[string]any, or a
// pointer to a typed object. A typed target is reset first, so no field of its old value survives.
func fromUnstructured(u *unstructured.Unstructured, target any) error {
	switch t := target.(type) {
	case nil:
		return nil
	case *unstructured.Unstructured:
		if t == nil {
			return nil
		}
		t.Object = u.Object
		return nil
	case *map[string]any:
		*t = u.Object
		return nil
	case map[string]any:
		// A map is a reference: refill it in place.
		for k := range t {
			delete(t, k)
		}
		for k, v := range u.Object {
			t[k] = v
		}
		return nil
	}
	v := reflect.ValueOf(target)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("kates: target must be nil, *kates.Unstructured, *map[string]any or a pointer to a typed object, not %T", target)
	}
	v.Elem().Set(reflect.Zero(v.Elem().Type()))
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, target); err != nil {
		return fmt.Errorf("kates: convert %s into %T: %w", u.GroupVersionKind().Kind, target, err)
	}
	return nil
}

// NewUnstructured returns an Unstructured of kind (a Kind, or "kind.version.group"-style
// apiVersion as in "apps/v1") with name and namespace set.
func NewUnstructured(apiVersion, kind, namespace, name string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{}}
	u.SetAPIVersion(apiVersion)
	u.SetKind(kind)
	u.SetNamespace(namespace)
	u.SetName(name)
	return u
}

// NewObject returns a new, empty typed object for gvk from kates.Scheme with its TypeMeta set, or
// an Unstructured of that kind when the scheme does not know it.
func NewObject(gvk schema.GroupVersionKind) Object {
	if obj, err := Scheme.New(gvk); err == nil {
		if o, ok := obj.(Object); ok {
			o.GetObjectKind().SetGroupVersionKind(gvk)
			return o
		}
	}
	u := &unstructured.Unstructured{Object: map[string]any{}}
	u.SetGroupVersionKind(gvk)
	return u
}

// NewObjectFromUnstructured converts u into the typed object kates.Scheme has for its kind, or
// returns a copy of u when the scheme does not know the kind.
func NewObjectFromUnstructured(u *unstructured.Unstructured) (Object, error) {
	if u == nil {
		return nil, fmt.Errorf("kates: nil Unstructured")
	}
	obj := NewObject(u.GroupVersionKind())
	if _, ok := obj.(*unstructured.Unstructured); ok {
		return u.DeepCopy(), nil
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.DeepCopy().Object, obj); err != nil {
		return nil, fmt.Errorf("kates: convert %s %s: %w", u.GetKind(), u.GetName(), err)
	}
	obj.GetObjectKind().SetGroupVersionKind(u.GroupVersionKind())
	return obj, nil
}

func runtimeFromUnstructured(m map[string]any, into any) error {
	return runtime.DefaultUnstructuredConverter.FromUnstructured(m, into)
}

// ToUnstructured converts obj as the Client's methods do: a typed object, an Unstructured or a
// map of Go values JSON encodes.
func ToUnstructured(obj any) (*unstructured.Unstructured, error) { return toUnstructured(obj) }
