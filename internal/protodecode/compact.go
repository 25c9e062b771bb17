package protodecode

import (
	"fmt"
	"reflect"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Compact objects.
//
// A view that holds its objects as the API server sent them, and decodes one only when it is
// read, holds a fraction of what decoded structs cost. BenchmarkCompactItem, on
// testdata/realistic: a Pod's protobuf is 12,255 bytes as sent, 2,853 without managedFields,
// against 13,441 bytes of heap for the Go struct decoded from it (0.21×); a ConfigMap's 2,751,
// 1,839 and 3,201 (0.57×). compress/flate takes the compact bytes of each alone to about half
// (1,380 and 612 bytes at level 6, 1,429 and 623 at level 1), at the cost of a compression on
// arrival and a decompression on every read; whether that is worth a choice is to be measured
// on whole views. CompactItem gives the bytes such a view keeps of a list item or of an
// object from a watch frame; DecodeItem decodes them, each time into a new object that is the
// caller's alone. The accumulator's compact fields (accumulator.Compact) hold the same bytes,
// encoded again from the decoded struct (the status is computed from it first), not taken from
// the wire: feeding CompactItem's bytes to the store would save that encode.

// CompactItem returns item, the protobuf message of an object of type t (a list's item, or an
// envelope's raw bytes), without metadata.managedFields when t keeps its ObjectMeta in field 1,
// in a slice of its own: it shares nothing with item, whose buffer a stream reuses. Anything
// it cannot strip (no managedFields, a type without ObjectMeta first, malformed bytes) is kept
// whole; DecodeItem reports what does not decode.
func CompactItem(item []byte, t reflect.Type) []byte {
	if hasObjectMetaFirst(t) {
		buf := scratch.Get().(*[]byte)
		defer scratch.Put(buf)
		if stripped, ok := withoutManagedFields((*buf)[:0], item); ok {
			*buf = stripped
			return clone(stripped)
		}
	}
	return clone(item)
}

// clone returns a copy of b with no spare capacity.
func clone(b []byte) []byte {
	out := make([]byte, len(b))
	copy(out, b)
	return out
}

// DecodeItem decodes b, the protobuf message of an object of kind gvk (what CompactItem
// returns, or a list's item), into a new object of the scheme's type for gvk, as d decodes
// an object of that kind: d's Options apply (StripManagedFields, and a Sharer's parts,
// shared or copied as the Sharer does). The object shares no memory with b, and with a copier
// or no Sharer none with any other object but immutable strings.
func (d *ObjectDecoder) DecodeItem(b []byte, gvk schema.GroupVersionKind) (runtime.Object, error) {
	t, known := d.scheme.AllKnownTypes()[gvk]
	if !known {
		return nil, fmt.Errorf("protodecode: %s is not registered", gvk)
	}
	obj, err := d.scheme.New(gvk)
	if err != nil {
		return nil, err
	}
	u, ok := obj.(unmarshaler)
	if !ok {
		return nil, fmt.Errorf("protodecode: %s has no Unmarshal", t)
	}
	if err := d.unmarshal(b, t, obj, u); err != nil {
		return nil, err
	}
	obj.GetObjectKind().SetGroupVersionKind(gvk)
	return obj, nil
}
