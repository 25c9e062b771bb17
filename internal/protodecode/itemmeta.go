package protodecode

import "google.golang.org/protobuf/encoding/protowire"

// Reading an object's placement without decoding it.
//
// A replica of a sharded view that places objects on the client (by their controller's UID,
// which the API server cannot select on) receives every object of the collection and keeps a
// share of them. Decoding the rest would cost most of its list's CPU, and what decoding leaves
// behind (the parts a Sharer keeps) most of its memory. ReadItemMeta reads the few fields that
// place an object straight from its bytes, allocating nothing, so that a list decodes only the
// items the view keeps (DecodeList's keep).

// Field numbers of the fields ReadItemMeta reads (apimachinery's generated.proto; checked
// against the generated struct tags by TestItemMetaFieldNumbers).
const (
	namespaceField       = 3 // ObjectMeta.namespace
	uidField             = 5 // ObjectMeta.uid
	ownerRefUIDField     = 4 // OwnerReference.uid
	ownerRefControlField = 6 // OwnerReference.controller
	mapKeyField          = 1 // a map entry's key
	mapValueField        = 2 // a map entry's value
)

// ItemMeta is what places an object: slices of the object's bytes, valid while they are.
type ItemMeta struct {
	Namespace, UID []byte
	// ControllerUID is the UID of the first owner reference marked as the controller, if
	// HasController.
	ControllerUID []byte
	HasController bool
	// Label is the value of the label ReadItemMeta was asked for, if HasLabel.
	Label    []byte
	HasLabel bool
}

// ReadItemMeta reads obj's placement from its protobuf bytes (an object message, such as a list
// item, whose field 1 is its ObjectMeta), and the value of label if label is not empty. ok is
// false if the bytes are malformed: decode the object to find out what is wrong.
func ReadItemMeta(obj []byte, label string) (m ItemMeta, ok bool) {
	for len(obj) > 0 {
		num, typ, n := protowire.ConsumeTag(obj)
		if n < 0 {
			return m, false
		}
		obj = obj[n:]
		if num == objectMetaField && typ == protowire.BytesType {
			meta, n := protowire.ConsumeBytes(obj)
			if n < 0 || !readObjectMeta(meta, label, &m) {
				return m, false
			}
			obj = obj[n:]
			continue
		}
		n = protowire.ConsumeFieldValue(num, typ, obj)
		if n < 0 {
			return m, false
		}
		obj = obj[n:]
	}
	return m, true
}

func readObjectMeta(b []byte, label string, m *ItemMeta) bool {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return false
		}
		b = b[n:]
		if typ != protowire.BytesType {
			n = protowire.ConsumeFieldValue(num, typ, b)
			if n < 0 {
				return false
			}
			b = b[n:]
			continue
		}
		v, n := protowire.ConsumeBytes(b)
		if n < 0 {
			return false
		}
		b = b[n:]
		switch num {
		case namespaceField:
			m.Namespace = v
		case uidField:
			m.UID = v
		case labelsField:
			if label == "" {
				continue
			}
			key, value, ok := readStringEntry(v)
			if !ok {
				return false
			}
			if string(key) == label {
				m.Label, m.HasLabel = value, true
			}
		case ownerReferencesField:
			uid, controller, ok := readOwnerRef(v)
			if !ok {
				return false
			}
			if controller && !m.HasController {
				m.ControllerUID, m.HasController = uid, true
			}
		}
	}
	return true
}

// readStringEntry reads a map<string, string> entry.
func readStringEntry(b []byte) (key, value []byte, ok bool) {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return nil, nil, false
		}
		b = b[n:]
		if typ == protowire.BytesType && (num == mapKeyField || num == mapValueField) {
			v, n := protowire.ConsumeBytes(b)
			if n < 0 {
				return nil, nil, false
			}
			if num == mapKeyField {
				key = v
			} else {
				value = v
			}
			b = b[n:]
			continue
		}
		n = protowire.ConsumeFieldValue(num, typ, b)
		if n < 0 {
			return nil, nil, false
		}
		b = b[n:]
	}
	return key, value, true
}

// readOwnerRef reads an OwnerReference's uid and controller fields.
func readOwnerRef(b []byte) (uid []byte, controller, ok bool) {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return nil, false, false
		}
		b = b[n:]
		switch {
		case num == ownerRefUIDField && typ == protowire.BytesType:
			v, n := protowire.ConsumeBytes(b)
			if n < 0 {
				return nil, false, false
			}
			uid, b = v, b[n:]
		case num == ownerRefControlField && typ == protowire.VarintType:
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				return nil, false, false
			}
			controller, b = v != 0, b[n:]
		default:
			n = protowire.ConsumeFieldValue(num, typ, b)
			if n < 0 {
				return nil, false, false
			}
			b = b[n:]
		}
	}
	return uid, controller, true
}
