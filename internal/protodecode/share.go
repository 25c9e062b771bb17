package protodecode

import (
	"errors"
	"fmt"
	"hash/crc32"
	"maps"
	"reflect"
	"sync"
	"sync/atomic"

	"google.golang.org/protobuf/encoding/protowire"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Sharing identical parts.
//
// The objects of a view repeat whole parts of one another: every Pod of a ReplicaSet has the
// same containers, volumes and tolerations, and most objects share their label set with many
// others. A Sharer keeps one canonical copy of each such part, keyed by the exact protobuf
// bytes it was decoded from, and gives every object with the same bytes that copy: the part is
// left out of the bytes the object is decoded from (as managedFields are), and set afterwards.
// So a repeated part costs neither the memory nor the decoding of a copy.
//
// The price is the contract: objects then share maps, slices and structs, and one caller
// editing a shared part changes every object holding it (and races with other readers). Check
// finds such an edit by decoding each canonical part again from its bytes and comparing.

// sharedPart is one part of an object a Sharer shares: field inner of the message in field
// outer of the object.
type sharedPart struct {
	name         string
	outer, inner protowire.Number
	// pod is set for parts of a Pod's spec; other parts are of ObjectMeta, in every kind.
	pod bool
	// decode decodes the part from its fields' bytes.
	decode func(b []byte) (any, error)
	// set sets obj's part to v; obj is of the part's kind.
	set func(obj runtime.Object, v any)
	// copy returns a deep copy of v that shares only its strings (immutable) with v.
	copy func(v any) any
}

var podType = reflect.TypeFor[corev1.Pod]()

// Field numbers of the shared parts (k8s.io/api's and apimachinery's generated.proto; checked
// against the generated struct tags by TestSharedFieldNumbers).
const (
	labelsField          = 11 // ObjectMeta.labels
	ownerReferencesField = 13 // ObjectMeta.ownerReferences
	podSpecField         = 2  // Pod.spec
	volumesField         = 1  // PodSpec.volumes
	containersField      = 2  // PodSpec.containers
	initContainersField  = 20 // PodSpec.initContainers
	tolerationsField     = 22 // PodSpec.tolerations
	affinityField        = 18 // PodSpec.affinity
	securityContextField = 14 // PodSpec.securityContext
)

func metaPart(name string, field protowire.Number, get func(*metav1.ObjectMeta) any, set func(metav1.Object, any), copy func(any) any) sharedPart {
	return sharedPart{
		name: name, outer: objectMetaField, inner: field, copy: copy,
		decode: func(b []byte) (any, error) {
			var m metav1.ObjectMeta
			if err := m.Unmarshal(b); err != nil {
				return nil, err
			}
			return get(&m), nil
		},
		set: func(obj runtime.Object, v any) { set(obj.(metav1.Object), v) },
	}
}

func podSpecPart(name string, field protowire.Number, get func(*corev1.PodSpec) any, set func(*corev1.PodSpec, any), copy func(any) any) sharedPart {
	return sharedPart{
		name: name, outer: podSpecField, inner: field, pod: true, copy: copy,
		decode: func(b []byte) (any, error) {
			var s corev1.PodSpec
			if err := s.Unmarshal(b); err != nil {
				return nil, err
			}
			return get(&s), nil
		},
		set: func(obj runtime.Object, v any) { set(&obj.(*corev1.Pod).Spec, v) },
	}
}

// sharedParts are the parts a Sharer shares, at most 16.
var sharedParts = []sharedPart{
	metaPart("metadata.labels", labelsField,
		func(m *metav1.ObjectMeta) any { return m.Labels },
		func(o metav1.Object, v any) { o.SetLabels(v.(map[string]string)) },
		func(v any) any { return maps.Clone(v.(map[string]string)) }),
	metaPart("metadata.ownerReferences", ownerReferencesField,
		func(m *metav1.ObjectMeta) any { return m.OwnerReferences },
		func(o metav1.Object, v any) { o.SetOwnerReferences(v.([]metav1.OwnerReference)) },
		func(v any) any { return copySlice(v.([]metav1.OwnerReference)) }),
	podSpecPart("spec.volumes", volumesField,
		func(s *corev1.PodSpec) any { return s.Volumes },
		func(s *corev1.PodSpec, v any) { s.Volumes = v.([]corev1.Volume) },
		func(v any) any { return copySlice(v.([]corev1.Volume)) }),
	podSpecPart("spec.containers", containersField,
		func(s *corev1.PodSpec) any { return s.Containers },
		func(s *corev1.PodSpec, v any) { s.Containers = v.([]corev1.Container) },
		func(v any) any { return copySlice(v.([]corev1.Container)) }),
	podSpecPart("spec.initContainers", initContainersField,
		func(s *corev1.PodSpec) any { return s.InitContainers },
		func(s *corev1.PodSpec, v any) { s.InitContainers = v.([]corev1.Container) },
		func(v any) any { return copySlice(v.([]corev1.Container)) }),
	podSpecPart("spec.tolerations", tolerationsField,
		func(s *corev1.PodSpec) any { return s.Tolerations },
		func(s *corev1.PodSpec, v any) { s.Tolerations = v.([]corev1.Toleration) },
		func(v any) any { return copySlice(v.([]corev1.Toleration)) }),
	podSpecPart("spec.affinity", affinityField,
		func(s *corev1.PodSpec) any { return s.Affinity },
		func(s *corev1.PodSpec, v any) { s.Affinity = v.(*corev1.Affinity) },
		func(v any) any { return v.(*corev1.Affinity).DeepCopy() }),
	podSpecPart("spec.securityContext", securityContextField,
		func(s *corev1.PodSpec) any { return s.SecurityContext },
		func(s *corev1.PodSpec, v any) { s.SecurityContext = v.(*corev1.PodSecurityContext) },
		func(v any) any { return v.(*corev1.PodSecurityContext).DeepCopy() }),
}

// copySlice deep-copies s with its generated DeepCopyInto, which shares strings only.
func copySlice[T any, P interface {
	*T
	DeepCopyInto(*T)
}](s []T) []T {
	if s == nil {
		return nil
	}
	out := make([]T, len(s))
	for i := range s {
		P(&s[i]).DeepCopyInto(&out[i])
	}
	return out
}

// maxSharedValues bounds how many canonical parts a Sharer keeps; past it, new parts are
// decoded into each object as usual (parts already kept are still shared).
const maxSharedValues = 1 << 16

// Sharer holds the canonical copies of the parts objects share (see Options.Share). It is safe
// for concurrent use; one Sharer serves one view.
type Sharer struct {
	// copies is set for a Sharer that hands out deep copies (NewCopier).
	copies bool
	// intern, if set, is called with every part decoded, before any object or the Sharer
	// holds it (SetIntern).
	intern func(v any)
	mu     sync.RWMutex
	values [16]map[string]any // by index into sharedParts: the part's bytes → its value
	count  int
	// seen holds, for a copier, the hashes of the parts' bytes decoded once and not kept:
	// a part is kept when its bytes come again (see keepSecond).
	seen [16]map[uint64]struct{}
	// rare marks, for a copier, the parts found not to repeat: their seen is dropped.
	rare [16]bool
	// hits counts, by part, the objects that found their part kept: a part whose values
	// rarely repeat (a label set unique to each object) stops being kept.
	hits [16]atomic.Int64
}

// NewSharer returns an empty Sharer whose objects share the parts it keeps.
func NewSharer() *Sharer { return &Sharer{} }

// NewCopier returns an empty Sharer that gives each object a deep copy of the part it keeps
// rather than the part itself: objects then share nothing but strings, which are immutable, and
// a copy still costs a fraction of decoding the part (a map's table copied whole, a container
// spec's fields assigned) and allocates no string. Check has nothing to check.
//
// A copier keeps a part only once its bytes have come a second time: the kept value is a
// copy no object holds, so a part that every object has its own of (a Pod's containers, which
// mount a token volume named for the Pod) would otherwise be held twice, and its bytes a
// third time, for the first rareAfter objects.
func NewCopier() *Sharer { return &Sharer{copies: true} }

// SetIntern makes s call intern with every part it decodes (a map[string]string of labels,
// an []metav1.OwnerReference, an []corev1.Container, ...), before any object holds it, so that
// its strings can be made canonical: parts decoded for one object, or kept, are then as lean
// as the rest of the object. Call it before s decodes anything.
func (s *Sharer) SetIntern(intern func(v any)) { s.intern = intern }

// Shares reports whether s's objects share parts (NewSharer) rather than copies (NewCopier).
func (s *Sharer) Shares() bool { return s != nil && !s.copies }

// Len returns how many canonical parts s holds.
func (s *Sharer) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.count
}

// value returns the canonical value of part i decoded from b, decoding and keeping it if s has
// none yet. ok is false if b does not decode.
func (s *Sharer) value(i int, b []byte) (any, bool) {
	s.mu.RLock()
	v, ok := s.values[i][string(b)]
	kept := len(s.values[i])
	s.mu.RUnlock()
	if ok {
		s.hits[i].Add(1)
		if s.copies {
			v = sharedParts[i].copy(v)
		}
		return v, true
	}
	v, err := sharedParts[i].decode(b)
	if err != nil {
		return nil, false
	}
	if s.intern != nil {
		s.intern(v)
	}
	if s.copies {
		return s.keepSecond(i, b, v), true
	}
	if kept >= rareAfter && s.hits[i].Load() < int64(kept) {
		return v, true // this part rarely repeats: keeping it would only cost memory
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.values[i][string(b)]; ok {
		return c, true
	}
	if s.count < maxSharedValues {
		if s.values[i] == nil {
			s.values[i] = map[string]any{}
		}
		s.values[i][string(b)] = v
		s.count++
	}
	return v, true
}

// keepSecond is a copier's value for part i decoded into v from b, which s does not keep: the
// first time b comes, v itself, and s notes b's hash; the second time, s keeps v and returns a
// copy. Once rareAfter parts' bytes have come once and fewer than that many objects found
// their part kept, the part is rare: s stops noting its hashes (and drops them).
func (s *Sharer) keepSecond(i int, b []byte, v any) any {
	h := seenHash(b)
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.values[i][string(b)]; ok || s.rare[i] {
		return v // kept meanwhile (v is a fresh decode: as good as a copy), or rare
	}
	if _, again := s.seen[i][h]; !again {
		switch {
		case len(s.seen[i]) >= rareAfter && s.hits[i].Load() < int64(len(s.seen[i])):
			s.rare[i], s.seen[i] = true, nil
		case len(s.seen[i]) < maxSharedValues:
			if s.seen[i] == nil {
				s.seen[i] = map[uint64]struct{}{}
			}
			s.seen[i][h] = struct{}{}
		}
		return v
	}
	// A hash seen before, of these bytes or (rarely) others: either way v is b's value.
	if s.count >= maxSharedValues {
		return v
	}
	if s.values[i] == nil {
		s.values[i] = map[string]any{}
	}
	s.values[i][string(b)] = v
	s.count++
	return sharedParts[i].copy(v)
}

// castagnoli is the table of the CRC-32 the hardware computes (SSE 4.2, ARMv8 CRC).
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// seenHash is what a copier notes of a part's bytes: their CRC-32 and length. Two parts alike
// in both are rare, and cost only a part kept one object early (keepSecond keys what it keeps
// by the bytes themselves). hash/crc32 is linked already, where hash/maphash would add to
// every program (internal/linksize).
func seenHash(b []byte) uint64 {
	return uint64(crc32.Checksum(b, castagnoli))<<32 | uint64(uint32(len(b)))
}

// rareAfter is how many values of a part a Sharer keeps (a copier: notes) before it checks
// that they repeat: once it keeps that many, it keeps no more unless on average each was found
// again at least once.
const rareAfter = 1024

// ErrSharedValueModified is the error Check returns: a caller modified a value that objects
// share.
var ErrSharedValueModified = errors.New("a value shared between objects was modified")

// Check decodes every canonical part again from the bytes it came from and compares it with
// the value objects hold (as client-go's cache mutation detector compares its copies), and
// returns an error wrapping ErrSharedValueModified naming the first part that differs.
func (s *Sharer) Check() error {
	if s.copies {
		return nil
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	for i, vals := range s.values[:len(sharedParts)] {
		for b, v := range vals {
			fresh, err := sharedParts[i].decode([]byte(b))
			if err != nil {
				continue
			}
			if !equality.Semantic.DeepEqual(fresh, v) {
				return fmt.Errorf("%w: %s, now %v, was %v", ErrSharedValueModified, sharedParts[i].name, v, fresh)
			}
		}
	}
	return nil
}

// partRange is where one part's fields lie in an object's bytes.
type partRange struct{ start, end int }

// rewrite appends to dst obj (the bytes of an object of type t) without its managedFields (if
// strip) and without the parts s shares, and returns where each part's fields were in obj.
// ok is false, and dst is not to be used, if obj is malformed, a part's fields are not
// contiguous, or there is nothing to leave out.
func rewrite(dst, obj []byte, t reflect.Type, strip bool) (_ []byte, parts [16]partRange, ok bool) {
	if managedFieldsNumber != managedFieldsField {
		return nil, parts, false
	}
	pod := t == podType
	found := false
	b := obj
	for len(b) > 0 {
		start := len(obj) - len(b)
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return nil, parts, false
		}
		if (num == objectMetaField || (pod && num == podSpecField)) && typ == protowire.BytesType {
			msg, m := protowire.ConsumeBytes(b[n:])
			if m < 0 {
				return nil, parts, false
			}
			base := start + n + m - len(msg) // offset of msg in obj
			size, any, ok := keptSize(msg, base, num, pod, strip, &parts)
			if !ok {
				return nil, parts, false
			}
			b = b[n+m:]
			if !any {
				dst = append(dst, obj[start:start+n+m]...)
				continue
			}
			found = true
			dst = protowire.AppendTag(dst, num, protowire.BytesType)
			dst = protowire.AppendVarint(dst, uint64(size))
			dst = appendKeptFields(dst, msg, num, pod, strip)
			continue
		}
		m := protowire.ConsumeFieldValue(num, typ, b[n:])
		if m < 0 {
			return nil, parts, false
		}
		dst = append(dst, b[:n+m]...)
		b = b[n+m:]
	}
	return dst, parts, found
}

// partOf returns the index of the shared part at field inner of outer, or -1.
func partOf(outer, inner protowire.Number, pod bool) int {
	for i, p := range sharedParts {
		if p.outer == outer && p.inner == inner && (!p.pod || pod) {
			return i
		}
	}
	return -1
}

// left reports whether field inner of the message in field outer is left out.
func left(outer, inner protowire.Number, pod, strip bool) bool {
	return (outer == objectMetaField && inner == managedFieldsField && strip) || partOf(outer, inner, pod) >= 0
}

// keptSize checks msg (at offset base of the object), records where its shared parts are, and
// returns the size of the fields kept and whether any is left out.
func keptSize(msg []byte, base int, outer protowire.Number, pod, strip bool, parts *[16]partRange) (size int, leftOut, ok bool) {
	b := msg
	for len(b) > 0 {
		off := base + len(msg) - len(b)
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return 0, false, false
		}
		m := protowire.ConsumeFieldValue(num, typ, b[n:])
		if m < 0 {
			return 0, false, false
		}
		b = b[n+m:]
		if !left(outer, num, pod, strip) {
			size += n + m
			continue
		}
		leftOut = true
		if i := partOf(outer, num, pod); i >= 0 {
			r := &parts[i]
			switch {
			case r.end == 0:
				*r = partRange{off, off + n + m}
			case r.end == off: // the next entry of a repeated field
				r.end = off + n + m
			default:
				return 0, false, false // not contiguous: decode whole
			}
		}
	}
	return size, leftOut, true
}

// appendKeptFields appends msg's fields other than those left out; keptSize checked msg.
func appendKeptFields(dst, msg []byte, outer protowire.Number, pod, strip bool) []byte {
	b := msg
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		m := protowire.ConsumeFieldValue(num, typ, b[n:])
		if !left(outer, num, pod, strip) {
			dst = append(dst, b[:n+m]...)
		}
		b = b[n+m:]
	}
	return dst
}

// shared decodes raw, an object of type t, into u (obj) with s's shared parts: the parts are
// left out of the bytes decoded and set from s afterwards. ok is false if raw could not be
// rewritten; the caller then decodes it as usual.
func (s *Sharer) decodeShared(raw []byte, t reflect.Type, obj runtime.Object, u unmarshaler, strip bool) (ok bool, err error) {
	buf := scratch.Get().(*[]byte)
	defer scratch.Put(buf)
	out, parts, ok := rewrite((*buf)[:0], raw, t, strip)
	if !ok {
		return false, nil
	}
	*buf = out
	u.Reset()
	if err := u.Unmarshal(out); err != nil {
		return true, err
	}
	for i, r := range parts[:len(sharedParts)] {
		if r.end == 0 {
			continue
		}
		v, ok := s.value(i, raw[r.start:r.end])
		if !ok {
			// Malformed part: decode the object whole, which reports it.
			u.Reset()
			return true, u.Unmarshal(raw)
		}
		sharedParts[i].set(obj, v)
	}
	return true, nil
}
