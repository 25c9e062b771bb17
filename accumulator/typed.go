package accumulator

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Typed stores.
//
// A store holds each object in one of two forms: *unstructured.Unstructured, or a pointer to
// the Go struct of its kind (protobuf decodes straight into it, and Options.Snapshot lets an
// unstructured arrival be converted once into the snapshot's type). Everything that reads
// stored objects goes through the functions below, so the rest of the package does not care
// which form a store holds.

// convertObject returns a new *t holding obj, which is left untouched: a deep copy when obj is
// a *t already, and otherwise a conversion through the unstructured form (typed objects lack
// apiVersion and kind after protobuf decoding; they are set from gvk).
func convertObject(obj any, t reflect.Type, gvk schema.GroupVersionKind) (reflect.Value, error) {
	if co, ok := obj.(*compactObject); ok {
		decoded, err := co.decode()
		if err != nil {
			return reflect.Value{}, err
		}
		if reflect.TypeOf(decoded) == reflect.PointerTo(t) {
			return reflect.ValueOf(decoded), nil // new: the caller's own
		}
		obj = decoded
	}
	if reflect.TypeOf(obj) == reflect.PointerTo(t) {
		switch o := obj.(type) {
		case *unstructured.Unstructured:
			return reflect.ValueOf(o.DeepCopy()), nil
		case runtime.Object:
			return reflect.ValueOf(o.DeepCopyObject()), nil
		}
	}
	var m map[string]any
	if u, ok := obj.(*unstructured.Unstructured); ok {
		m = u.Object
	} else {
		var err error
		if m, err = runtime.DefaultUnstructuredConverter.ToUnstructured(obj); err != nil {
			return reflect.Value{}, err
		}
		if _, ok := m["apiVersion"]; !ok {
			m["apiVersion"] = gvk.GroupVersion().String()
		}
		if _, ok := m["kind"]; !ok {
			m["kind"] = gvk.Kind
		}
		if t == unstructuredType {
			return reflect.ValueOf(&unstructured.Unstructured{Object: m}), nil
		}
	}
	if t == unstructuredType {
		return reflect.ValueOf(&unstructured.Unstructured{Object: runtime.DeepCopyJSON(m)}), nil
	}
	out := reflect.New(t)
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(m, out.Interface()); err != nil {
		return reflect.Value{}, err
	}
	return out, nil
}

// asUnstructured returns obj in unstructured form for a reader that wants one (a
// FilteredUpdate predicate): obj itself if it is one, otherwise a conversion.
func asUnstructured(obj any, gvk schema.GroupVersionKind) (*unstructured.Unstructured, error) {
	if u, ok := obj.(*unstructured.Unstructured); ok {
		return u, nil
	}
	v, err := convertObject(obj, unstructuredType, gvk)
	if err != nil {
		return nil, err
	}
	return v.Interface().(*unstructured.Unstructured), nil
}

// statusView returns the part of typed object obj that kstatus rules read, in the unstructured
// form kstatus.Compute takes: apiVersion and kind; the metadata the rules read (name,
// namespace, generation, creationTimestamp, deletionTimestamp, annotations, finalizers);
// status, whole; and
// of spec only its scalar fields, to three levels of nested structs (spec.replicas,
// spec.updateStrategy.rollingUpdate.partition), without lists or maps.
//
// This is how typed stores keep one set of status rules without a full conversion per event:
// converting a Pod's spec (containers, env, probes, volumes) is most of converting a Pod, and
// no rule reads a list or map in spec. TestStatusViewAgreesWithCompute checks, over every
// fixture kstatus is tested with, that the view gives the same Result as the whole object;
// a rule that starts reading a list or map in spec must widen the view (see wholeSpec).
// wholeSpec lists the kinds whose rule reads a map or list in spec, so their view carries the
// whole spec: a ResourceQuota compares spec.hard with status.hard. Their specs are small.
var wholeSpec = map[schema.GroupKind]bool{{Kind: "ResourceQuota"}: true}

func statusView(gvk schema.GroupVersionKind, obj any) *unstructured.Unstructured {
	m := make(map[string]any, 5)
	m["apiVersion"] = gvk.GroupVersion().String()
	m["kind"] = gvk.Kind
	if mo, ok := obj.(metav1.Object); ok {
		m["metadata"] = metadataView(mo)
	}
	v := reflect.ValueOf(obj)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return &unstructured.Unstructured{Object: m}
	}
	v = v.Elem()
	if f := v.FieldByName("Status"); f.IsValid() && f.Kind() == reflect.Struct {
		if st, err := runtime.DefaultUnstructuredConverter.ToUnstructured(f.Addr().Interface()); err == nil && len(st) > 0 {
			m["status"] = st
		}
	}
	if f := v.FieldByName("Spec"); f.IsValid() && f.Kind() == reflect.Struct {
		if wholeSpec[gvk.GroupKind()] {
			if sp, err := runtime.DefaultUnstructuredConverter.ToUnstructured(f.Addr().Interface()); err == nil && len(sp) > 0 {
				m["spec"] = sp
			}
		} else if sp := scalarFields(f, 3); len(sp) > 0 {
			m["spec"] = sp
		}
	}
	return &unstructured.Unstructured{Object: m}
}

// metadataView returns the metadata fields kstatus reads, as JSON would decode them.
func metadataView(mo metav1.Object) map[string]any {
	md := make(map[string]any, 7)
	md["name"] = mo.GetName()
	if ns := mo.GetNamespace(); ns != "" {
		md["namespace"] = ns
	}
	if g := mo.GetGeneration(); g != 0 {
		md["generation"] = g
	}
	if ct := mo.GetCreationTimestamp(); !ct.IsZero() {
		md["creationTimestamp"] = ct.UTC().Format(time.RFC3339)
	}
	if dt := mo.GetDeletionTimestamp(); dt != nil {
		md["deletionTimestamp"] = dt.UTC().Format(time.RFC3339)
	}
	// Annotations: a Deployment's revision (is a paused one mid-rollout?) and an
	// autoscaling/v1 HorizontalPodAutoscaler's conditions live there.
	if ann := mo.GetAnnotations(); len(ann) > 0 {
		a := make(map[string]any, len(ann))
		for k, v := range ann {
			a[k] = v
		}
		md["annotations"] = a
	}
	if fins := mo.GetFinalizers(); len(fins) > 0 {
		l := make([]any, len(fins))
		for i, f := range fins {
			l[i] = f
		}
		md["finalizers"] = l
	}
	return md
}

var jsonMarshalerType = reflect.TypeFor[json.Marshaler]()

// scalarFields returns the scalar fields of struct v under their JSON names, as
// ToUnstructured would write them (int64 for integers, omitempty honoured), and those of its
// nested structs down to depth levels; lists, maps and types with their own JSON encoding
// (quantities, times, int-or-strings) are left out.
func scalarFields(v reflect.Value, depth int) map[string]any {
	t := v.Type()
	var out map[string]any
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if name == "-" || sf.Anonymous {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		omitEmpty := strings.Contains(opts, "omitempty")
		f := v.Field(i)
		if f.Kind() == reflect.Pointer {
			if f.IsNil() {
				continue
			}
			f = f.Elem()
			omitEmpty = false
		}
		var val any
		switch f.Kind() {
		case reflect.String:
			if omitEmpty && f.Len() == 0 {
				continue
			}
			val = f.String()
		case reflect.Bool:
			if omitEmpty && !f.Bool() {
				continue
			}
			val = f.Bool()
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			if omitEmpty && f.Int() == 0 {
				continue
			}
			val = f.Int()
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			if omitEmpty && f.Uint() == 0 {
				continue
			}
			val = int64(f.Uint())
		case reflect.Struct:
			if depth <= 1 || reflect.PointerTo(f.Type()).Implements(jsonMarshalerType) || f.Type().Implements(jsonMarshalerType) {
				continue
			}
			sub := scalarFields(f, depth-1)
			if sub == nil {
				if omitEmpty {
					continue
				}
				sub = map[string]any{}
			}
			val = sub
		default:
			continue
		}
		if out == nil {
			out = make(map[string]any)
		}
		out[name] = val
	}
	return out
}

// describeObject names obj for an error message.
func describeObject(kind string, obj any) string {
	if m, ok := obj.(metav1.Object); ok {
		return fmt.Sprintf("%s %s", kind, keyOf(m))
	}
	return kind
}
