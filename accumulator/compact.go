package accumulator

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"unsafe"

	"google.golang.org/protobuf/encoding/protowire"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kates-dev/kates/kstatus"
)

// Compact views.
//
// A snapshot field of Compact elements ([]Compact[*T] or map[string]Compact[*T]) holds each
// object as its protobuf encoding (without managedFields, when the Options' transforms strip
// them) and its kstatus.Result, and decodes the object only when the caller asks (Get). What
// a view of many objects then holds per object is the encoding, a fraction of the Go struct
// decoded from it (a realistic Pod's 2.9 KB against 13.4 KB; see internal/protodecode's
// compact.go), plus the view's bookkeeping, which is the same in both modes.
//
// With Options.Snapshot naming the field, the query's store compacts each object as it
// arrives (in the reflector's goroutine: status computed from the decoded struct, the struct
// encoded and dropped); without it, an Update compacts the objects it hands out, and the store
// lets go of its structs as it does for struct fields.

// Compact is a snapshot element that holds one version of an object encoded, with its status
// computed as it arrived: use it as the element of a snapshot field, []Compact[*corev1.Pod]
// or map[string]Compact[*corev1.Pod]. T must be a pointer to the Go struct the scheme
// registers for the query's kind, one with protobuf methods (every built-in kind): custom
// resources and unstructured objects have no compact form, and a field of them is an error
// (from New, with Options.Snapshot, or from Update).
//
// The encoding is shared by the store, the view and every snapshot that holds the version,
// and never modified: a Compact is a small immutable value, safe to copy and to read from
// several goroutines. Get decodes a new object on every call, which is the caller's alone.
type Compact[T any] struct {
	c *compactObject
}

// compactObject is one version of an object held compact: immutable once built.
type compactObject struct {
	// data is the object's protobuf message (the generated Marshal's output), with no spare
	// capacity; or, if kind compresses (zhead > 0), a small message holding only the
	// object's name, namespace and resource version in its metadata, data[:zhead], followed
	// by the whole message compressed (see compress.go).
	data  []byte
	zhead int32
	// status is the object's kstatus, computed before the object was encoded.
	status *kstatus.Result
	kind   *compactKind
}

// compactKind is what decoding a query's compact objects needs, shared by all of them.
type compactKind struct {
	gvk schema.GroupVersionKind
	t   reflect.Type // the struct type, such as corev1.Pod
	// z compresses and decompresses the query's objects (Options.Compressor); nil
	// when they are held uncompressed.
	z *zcodec
}

// protoMarshaler and protoUnmarshaler are what the generated types of built-in kinds
// implement.
type (
	protoMarshaler   interface{ Marshal() ([]byte, error) }
	protoUnmarshaler interface{ Unmarshal([]byte) error }
)

// compactValue is implemented by every Compact[T]: it lets Update make and read elements of
// any instantiation through reflection.
type compactValue interface {
	held() *compactObject
	with(*compactObject) any
}

var compactValueType = reflect.TypeFor[compactValue]()

func (c Compact[T]) held() *compactObject     { return c.c }
func (Compact[T]) with(co *compactObject) any { return Compact[T]{c: co} }

// ErrEmptyCompact is Get's error for the zero Compact, which holds no object.
var ErrEmptyCompact = errors.New("accumulator: empty Compact")

// Get decodes the object. Each call returns a new object, the caller's own: editing it changes
// nothing the Accumulator holds, nor what a later Get returns. It costs a protobuf decode of
// the object (as much as decoding it from the wire), so a caller that reads an object several
// times in one pass should keep what Get returned.
func (c Compact[T]) Get() (T, error) {
	var zero T
	if c.c == nil {
		return zero, ErrEmptyCompact
	}
	obj, err := c.c.decode()
	if err != nil {
		return zero, err
	}
	out, ok := obj.(T)
	if !ok {
		return zero, fmt.Errorf("accumulator: Compact[%v] holds a %T", reflect.TypeFor[T](), obj)
	}
	return out, nil
}

// Status returns the object's status, computed once as the object arrived (or, without
// Options.Snapshot, when an Update first compacted it). It decodes nothing; the result is a
// copy, the caller's own.
func (c Compact[T]) Status() kstatus.Result {
	if c.c == nil || c.c.status == nil {
		return kstatus.Result{Status: kstatus.UnknownStatus}
	}
	return copyResult(c.c.status)
}

// Name, Namespace and ResourceVersion return the object's metadata fields, read from its
// encoding without decoding it (a scan of a few dozen bytes, no allocation; with
// Options.Compressor, from the uncompressed head kept beside the compressed object).
// The strings share memory with the encoding: keeping one keeps the whole encoding alive.
func (c Compact[T]) Name() string { return c.c.metaString(metaNameField) }

// Namespace: see Name.
func (c Compact[T]) Namespace() string { return c.c.metaString(metaNamespaceField) }

// ResourceVersion: see Name.
func (c Compact[T]) ResourceVersion() string { return c.c.metaString(metaResourceVersionField) }

// Meta decodes the object's metadata alone (labels, annotations, owner references and the
// rest, but managedFields if they were stripped): a fraction of a Get for objects whose spec
// and status are the bulk. The result is the caller's own. With Options.Compressor it
// decompresses the whole object first, then decodes the metadata alone.
func (c Compact[T]) Meta() (*metav1.ObjectMeta, error) {
	if c.c == nil {
		return nil, ErrEmptyCompact
	}
	return c.c.meta()
}

// Size returns the length of the object's encoding (compressed, with its uncompressed head, if
// Options.Compressor is set), the bulk of what the view holds for it; 0 for the zero
// Compact.
func (c Compact[T]) Size() int {
	if c.c == nil {
		return 0
	}
	return len(c.c.data)
}

// Field numbers of ObjectMeta (apimachinery's generated.proto; checked against the generated
// struct tags by TestCompactMetaFieldNumbers).
const (
	objectMetaField          = 1
	metaNameField            = 1
	metaNamespaceField       = 3
	metaResourceVersionField = 6
)

// bytesField returns the first length-delimited field num of the protobuf message b; ok is
// false if there is none or b is malformed before it.
func bytesField(b []byte, num protowire.Number) (_ []byte, ok bool) {
	for len(b) > 0 {
		n0, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return nil, false
		}
		b = b[n:]
		if n0 == num && typ == protowire.BytesType {
			v, n := protowire.ConsumeBytes(b)
			return v, n >= 0
		}
		n = protowire.ConsumeFieldValue(n0, typ, b)
		if n < 0 {
			return nil, false
		}
		b = b[n:]
	}
	return nil, false
}

// metaBytes returns the object's ObjectMeta message: field 1 of the object. For a compressed
// object, that of its uncompressed head: name, namespace and resource version alone.
func (co *compactObject) metaBytes() ([]byte, bool) {
	head := co.data
	if co.zhead > 0 {
		head = co.data[:min(int(co.zhead), len(co.data))]
	}
	return bytesField(head, objectMetaField)
}

// metaString returns string field num of the object's ObjectMeta, sharing the encoding's
// memory (which is never modified); "" if absent.
func (co *compactObject) metaString(num protowire.Number) string {
	if co == nil {
		return ""
	}
	meta, ok := co.metaBytes()
	if !ok {
		return ""
	}
	v, ok := bytesField(meta, num)
	if !ok || len(v) == 0 {
		return ""
	}
	return unsafe.String(&v[0], len(v))
}

// meta decodes the object's metadata into a new ObjectMeta.
func (co *compactObject) meta() (*metav1.ObjectMeta, error) {
	m := &metav1.ObjectMeta{}
	data, buf, err := co.message()
	defer releaseBuf(buf)
	if err != nil {
		return m, err
	}
	b, ok := bytesField(data, objectMetaField)
	if !ok {
		return m, fmt.Errorf("accumulator: compact %s: no metadata", co.kind.gvk.Kind)
	}
	if err := m.Unmarshal(b); err != nil {
		return m, fmt.Errorf("accumulator: compact %s: metadata: %w", co.kind.gvk.Kind, err)
	}
	return m, nil
}

// decode decodes the object into a new struct of its kind, with apiVersion and kind set, as a
// struct view's objects carry them.
func (co *compactObject) decode() (runtime.Object, error) {
	v := reflect.New(co.kind.t)
	u, ok := v.Interface().(protoUnmarshaler)
	if !ok {
		return nil, fmt.Errorf("accumulator: %v has no Unmarshal", co.kind.t)
	}
	data, buf, err := co.message()
	defer releaseBuf(buf)
	if err != nil {
		return nil, err
	}
	if len(data) == 0 {
		// Every object compacted has metadata, so its encoding is never empty: this one was
		// cut short, and decoding it would give an object of no name without a word.
		return nil, fmt.Errorf("accumulator: decode compact %s: no encoding", co.kind.gvk.Kind)
	}
	// The generated Unmarshal copies every string and byte slice out of data, so the object
	// shares nothing with a buffer that decompression reuses.
	if err := u.Unmarshal(data); err != nil {
		return nil, fmt.Errorf("accumulator: decode compact %s: %w", co.kind.gvk.Kind, err)
	}
	obj := v.Interface().(runtime.Object)
	obj.GetObjectKind().SetGroupVersionKind(co.kind.gvk)
	return obj, nil
}

// newCompact encodes obj (typed, of kind k, or unstructured) with status st. obj is not
// modified: an unstructured one is converted into k's struct first.
func newCompact(obj any, k *compactKind, st *kstatus.Result) (*compactObject, error) {
	typed := obj
	if reflect.TypeOf(obj) != reflect.PointerTo(k.t) {
		v, err := convertObject(obj, k.t, k.gvk)
		if err != nil {
			return nil, fmt.Errorf("compact %s: %w", describeObject(k.gvk.Kind, obj), err)
		}
		typed = v.Interface()
	}
	m, ok := typed.(protoMarshaler)
	if !ok {
		return nil, fmt.Errorf("compact %s: %T has no Marshal", describeObject(k.gvk.Kind, obj), typed)
	}
	if k.z != nil {
		co, err := k.z.compact(m)
		if err != nil {
			return nil, fmt.Errorf("compact %s: %w", describeObject(k.gvk.Kind, obj), err)
		}
		co.status, co.kind = st, k
		return co, nil
	}
	data, err := m.Marshal()
	if err != nil {
		return nil, fmt.Errorf("compact %s: %w", describeObject(k.gvk.Kind, obj), err)
	}
	return &compactObject{data: data, status: st, kind: k}, nil
}

// maxSharedResults bounds an Accumulator's table of shared results (sharedResult).
const maxSharedResults = 4096

// resultKey is a status result without conditions.
type resultKey struct {
	status  kstatus.Status
	message string
}

// sharedResult returns the Accumulator's one copy of r when r has no conditions: most objects
// of a view read the same few results ("Current: Resource is always ready" for every
// ConfigMap), and a compact object, whose status is kept from its arrival, would otherwise
// hold its own copy (64 bytes and more). Results are never modified once computed (Entry and
// Compact.Status hand out copies), so they can be shared. The table is bounded: once full,
// results it does not hold are kept as they are.
func (a *Accumulator) sharedResult(r *kstatus.Result) *kstatus.Result {
	if r == nil || len(r.Conditions) > 0 || len(r.Message) > 256 {
		return r
	}
	k := resultKey{r.Status, r.Message}
	if v, ok := a.results.Load(k); ok {
		return v.(*kstatus.Result)
	}
	if a.resultCount.Load() >= maxSharedResults {
		return r
	}
	v, loaded := a.results.LoadOrStore(k, r)
	if !loaded {
		a.resultCount.Add(1)
	}
	return v.(*kstatus.Result)
}

// isCompactType reports whether t is an instantiation of Compact.
func isCompactType(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && t.PkgPath() == entryPkgPath && strings.HasPrefix(t.Name(), "Compact[") &&
		t.Implements(compactValueType)
}

// compactElem returns the T of Compact[T] t: the type Get returns.
func compactElem(t reflect.Type) reflect.Type {
	m, _ := t.MethodByName("Get")
	return m.Type.Out(0)
}

// compactKind returns q's compactKind, made once.
func (q *query) compactKind() *compactKind {
	if q.ckind == nil {
		q.ckind = &compactKind{gvk: q.spec.GVK, t: q.schemeType}
		if q.compressor != nil {
			q.ckind.z = &zcodec{c: q.compressor}
		}
	}
	return q.ckind
}

// checkCompact checks that q's objects have a compact form of struct type t.
func (q *query) checkCompact(t reflect.Type) error {
	if q.schemeType == nil || t != q.schemeType {
		return errors.New("is compact, which holds only kinds the scheme registers, as their registered struct (custom resources and unstructured objects have no protobuf form)")
	}
	p := reflect.PointerTo(t)
	if !p.Implements(reflect.TypeFor[protoMarshaler]()) || !p.Implements(reflect.TypeFor[protoUnmarshaler]()) {
		return fmt.Errorf("is compact, but %v has no protobuf methods", t)
	}
	return nil
}
