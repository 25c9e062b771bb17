package accumulator

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kates-dev/kates/kstatus"
)

var (
	unstructuredType = reflect.TypeFor[unstructured.Unstructured]()
	resultType       = reflect.TypeFor[kstatus.Result]()
	entryPkgPath     = reflect.TypeFor[Entry[*unstructured.Unstructured]]().PkgPath()
)

// plan says how to fill one snapshot struct type: one fieldPlan per query, in query order.
// Plans are built (and the type validated) once per struct type.
type plan struct {
	fields []fieldPlan
	err    error // why the type cannot be a snapshot; fields is nil then
}

// fieldPlan says how to fill one snapshot field.
type fieldPlan struct {
	index     []int        // the field's index path in the struct
	fieldType reflect.Type // []E or map[K]E, K a string type
	isMap     bool
	elemType  reflect.Type // E: *T or Entry[*T]
	entry     bool         // E is Entry[*T]
	// compact: E is Compact[*T]; maker makes its elements, and kind is what decoding them
	// needs (shared with the store's compact objects, when it compacts them as they arrive).
	compact bool
	maker   compactValue
	kind    *compactKind
	objType reflect.Type // T
	// status computes an entry's status (the Accumulator's computeStatus) when its item has
	// none yet.
	status func(*unstructured.Unstructured) (*kstatus.Result, error)
	// shared returns the Accumulator's shared copy of a result (sharedResult).
	shared func(*kstatus.Result) *kstatus.Result
}

// planFor returns the plan for target, which must be a non-nil pointer to a struct.
func (a *Accumulator) planFor(target any) (reflect.Value, *plan, error) {
	if target == nil {
		return reflect.Value{}, nil, errors.New("accumulator: target is nil; want a pointer to a snapshot struct")
	}
	v := reflect.ValueOf(target)
	if v.Kind() != reflect.Pointer || v.Type().Elem().Kind() != reflect.Struct {
		return reflect.Value{}, nil, fmt.Errorf("accumulator: target is a %T; want a pointer to a snapshot struct", target)
	}
	if v.IsNil() {
		return reflect.Value{}, nil, fmt.Errorf("accumulator: target is a nil %T; want a pointer to a snapshot struct", target)
	}
	t := v.Type().Elem()
	p, ok := a.plans[t]
	if !ok {
		p = a.buildPlan(t)
		a.plans[t] = p
	}
	if p.err != nil {
		return reflect.Value{}, nil, p.err
	}
	return v.Elem(), p, nil
}

func (a *Accumulator) buildPlan(t reflect.Type) *plan {
	p := &plan{fields: make([]fieldPlan, len(a.queries))}
	var errs []error
	for i, q := range a.queries {
		fp, err := q.fieldPlan(t)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		fp.status = a.computeStatus
		fp.shared = a.sharedResult
		p.fields[i] = fp
	}
	if len(errs) > 0 {
		return &plan{err: errors.Join(errs...)}
	}
	return p
}

// fieldPlan validates the field of struct type t that q fills.
func (q *query) fieldPlan(t reflect.Type) (fieldPlan, error) {
	name := q.spec.Name
	f, ok := t.FieldByName(name)
	if !ok {
		return fieldPlan{}, fmt.Errorf("accumulator: query %q: snapshot type %v has no field %s", name, t, name)
	}
	if !f.IsExported() {
		return fieldPlan{}, fmt.Errorf("accumulator: query %q: field %v.%s is not exported", name, t, name)
	}
	// A field promoted through an embedded pointer could not be set without allocating
	// the embedded struct; refuse it rather than touch more of the caller's struct.
	for i := 1; i < len(f.Index); i++ {
		if t.FieldByIndex(f.Index[:i]).Type.Kind() == reflect.Pointer {
			return fieldPlan{}, fmt.Errorf("accumulator: query %q: field %v.%s is promoted through an embedded pointer", name, t, name)
		}
	}

	fp := fieldPlan{index: f.Index, fieldType: f.Type}
	wrongType := func(why string) error {
		return fmt.Errorf("accumulator: query %q (%s): field %v.%s has type %v, which %s; want one of []*T, map[string]*T, []Entry[*T] or map[string]Entry[*T] with T %s",
			name, q.describeKind(), t, name, f.Type, why, q.wantTypes())
	}
	switch f.Type.Kind() {
	case reflect.Slice:
	case reflect.Map:
		if f.Type.Key().Kind() != reflect.String {
			return fieldPlan{}, wrongType("is not keyed by string")
		}
		fp.isMap = true
	default:
		return fieldPlan{}, wrongType("is neither a slice nor a map")
	}
	fp.elemType = f.Type.Elem()
	ptr := fp.elemType
	if isEntryType(fp.elemType) {
		fp.entry = true
		ptr = fp.elemType.Field(0).Type
	} else if isCompactType(fp.elemType) {
		fp.compact = true
		fp.maker = reflect.Zero(fp.elemType).Interface().(compactValue)
		ptr = compactElem(fp.elemType)
	}
	if ptr.Kind() != reflect.Pointer || ptr.Elem().Kind() != reflect.Struct {
		return fieldPlan{}, wrongType("does not hold pointers to structs")
	}
	fp.objType = ptr.Elem()
	if err := q.checkObjType(fp.objType); err != nil {
		return fieldPlan{}, wrongType(err.Error())
	}
	if fp.compact {
		if err := q.checkCompact(fp.objType); err != nil {
			return fieldPlan{}, wrongType(err.Error())
		}
		fp.kind = q.compactKind()
	}
	return fp, nil
}

// isEntryType reports whether t is an instantiation of Entry.
func isEntryType(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && t.PkgPath() == entryPkgPath && strings.HasPrefix(t.Name(), "Entry[") &&
		t.NumField() == 2 && t.Field(0).Name == "Object" && t.Field(1).Type == resultType
}

// checkObjType checks that struct type T can hold q's kind: unstructured.Unstructured always
// can; a kind the scheme knows needs exactly its registered type; a kind the scheme does not
// know (a custom resource, say) takes any struct the scheme does not register for another kind.
func (q *query) checkObjType(t reflect.Type) error {
	if t == unstructuredType {
		return nil
	}
	if q.schemeType != nil {
		if t != q.schemeType {
			return fmt.Errorf("cannot hold %s", q.spec.GVK.Kind)
		}
		return nil
	}
	if obj, ok := reflect.New(t).Interface().(runtime.Object); ok {
		if kinds, _, err := q.scheme.ObjectKinds(obj); err == nil && len(kinds) > 0 {
			return fmt.Errorf("is registered for %s", kinds[0].Kind)
		}
	}
	return nil
}

func (q *query) describeKind() string {
	gv := q.spec.GVK.GroupVersion().String()
	return gv + ", Kind=" + q.spec.GVK.Kind
}

func (q *query) wantTypes() string {
	if q.schemeType != nil {
		return fmt.Sprintf("%v or %v", q.schemeType, unstructuredType)
	}
	return fmt.Sprintf("%v or a struct for this custom kind", unstructuredType)
}

// convert makes the snapshot element for one version of an object, obj: obj itself if owned
// (the store gives its object up to this hand-out; see item) and of the field's type, and
// otherwise a copy or a conversion of it; wrapped in an Entry with a copy of status if the
// field wants one, with it's status (computed now if no one asked for it before). It reports
// whether it took obj itself.
func (fp *fieldPlan) convert(obj any, owned bool, it *item, gvk schema.GroupVersionKind) (out reflect.Value, took bool, err error) {
	if fp.compact {
		co, ok := obj.(*compactObject)
		if !ok {
			// A struct or unstructured source (a store that holds structs, the client's own
			// write): encode it, with its status.
			if co, err = newCompact(obj, fp.kind, fp.shared(it.statusOf(obj, gvk, fp.status))); err != nil {
				return reflect.Value{}, false, err
			}
		}
		// A compact object is immutable: the view shares the store's.
		return reflect.ValueOf(fp.maker.with(co)), ok && owned, nil
	}
	var v reflect.Value
	if owned && reflect.TypeOf(obj) == reflect.PointerTo(fp.objType) {
		v, took = reflect.ValueOf(obj), true
	} else if v, err = convertObject(obj, fp.objType, gvk); err != nil {
		return reflect.Value{}, false, fmt.Errorf("convert %s to %v: %w", describeObject(gvk.Kind, obj), fp.objType, err)
	}
	if !fp.entry {
		return v, took, nil
	}
	e := reflect.New(fp.elemType).Elem()
	e.Field(0).Set(v)
	e.Field(1).Set(reflect.ValueOf(copyResult(it.statusOf(obj, gvk, fp.status))))
	return e, took, nil
}

// outObject returns the object of a snapshot element made by convert.
func outObject(out reflect.Value) any {
	if out.Kind() == reflect.Struct && out.Type().Implements(compactValueType) {
		return out.Interface().(compactValue).held()
	}
	if out.Kind() == reflect.Struct {
		out = out.Field(0)
	}
	return out.Interface()
}

// copyResult copies r so that a caller editing its snapshot cannot reach the stored result.
func copyResult(r *kstatus.Result) kstatus.Result {
	c := *r
	c.Conditions = slices.Clone(r.Conditions)
	return c
}
