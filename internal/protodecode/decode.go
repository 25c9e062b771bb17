package protodecode

import (
	"bytes"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"google.golang.org/protobuf/encoding/protowire"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Options says what the decoders leave out.
type Options struct {
	// StripManagedFields leaves metadata.managedFields of decoded objects empty, without
	// decoding them. Lists and objects without ObjectMeta are decoded whole.
	StripManagedFields bool
	// Share, if set, makes decoded objects share the parts Share already holds a copy of
	// (label maps, owner references, the containers, volumes and tolerations of Pods; see
	// Sharer) instead of each decoding its own: objects then share maps, slices and structs.
	Share *Sharer
}

// protobufPrefix starts every enveloped (runtime.Unknown) protobuf object the API server sends.
var protobufPrefix = []byte{0x6b, 0x38, 0x73, 0x00}

// NegotiatedSerializer returns base with its protobuf serializers replaced by this package's:
// responses and watch frames in protobuf decode into scheme's types through the fast path;
// everything else (JSON, encoding, other media types) is base's.
func NegotiatedSerializer(base runtime.NegotiatedSerializer, scheme *runtime.Scheme, opts Options) runtime.NegotiatedSerializer {
	infos := append([]runtime.SerializerInfo(nil), base.SupportedMediaTypes()...)
	for i := range infos {
		info := &infos[i]
		if info.MediaType != runtime.ContentTypeProtobuf || info.Serializer == nil {
			continue
		}
		info.Serializer = &ObjectDecoder{Serializer: info.Serializer, scheme: scheme, opts: opts}
		if info.StreamSerializer != nil && info.StreamSerializer.Serializer != nil {
			stream := *info.StreamSerializer
			stream.Serializer = &EventDecoder{Serializer: stream.Serializer}
			info.StreamSerializer = &stream
		}
	}
	return &negotiated{NegotiatedSerializer: base, infos: infos}
}

type negotiated struct {
	runtime.NegotiatedSerializer
	infos []runtime.SerializerInfo
}

func (n *negotiated) SupportedMediaTypes() []runtime.SerializerInfo { return n.infos }

// unmarshaler is what every generated Kubernetes API type implements.
type unmarshaler interface {
	Reset()
	Unmarshal([]byte) error
}

// ObjectDecoder decodes enveloped protobuf objects (the "k8s\x00" prefix and a
// runtime.Unknown) into scheme's types without copying the envelope's bytes. It falls back to
// Serializer, apimachinery's protobuf serializer, for anything else; encoding is Serializer's.
type ObjectDecoder struct {
	runtime.Serializer
	scheme *runtime.Scheme
	opts   Options
}

// NewObjectDecoder returns an ObjectDecoder over fallback, apimachinery's protobuf serializer.
func NewObjectDecoder(fallback runtime.Serializer, scheme *runtime.Scheme, opts Options) *ObjectDecoder {
	return &ObjectDecoder{Serializer: fallback, scheme: scheme, opts: opts}
}

// Decode decodes data as apimachinery's protobuf serializer does.
func (d *ObjectDecoder) Decode(data []byte, defaults *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	obj, gvk, ok, err := d.decode(data, defaults, into)
	if !ok {
		return d.Serializer.Decode(data, defaults, into)
	}
	return obj, gvk, err
}

func (d *ObjectDecoder) decode(data []byte, defaults *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, bool, error) {
	if !bytes.HasPrefix(data, protobufPrefix) {
		return nil, nil, false, nil
	}
	raw, gvk, ok := parseEnvelope(data[len(protobufPrefix):])
	if !ok {
		return nil, nil, false, nil
	}
	if defaults != nil {
		if gvk.Kind == "" {
			gvk.Kind = defaults.Kind
		}
		if gvk.Version == "" && gvk.Group == "" {
			gvk.Group, gvk.Version = defaults.Group, defaults.Version
		}
	}
	if gvk.Kind == "" || gvk.Version == "" {
		return nil, nil, false, nil
	}
	t, known := d.scheme.AllKnownTypes()[gvk]
	if !known {
		return nil, nil, false, nil
	}
	var obj runtime.Object
	if into != nil {
		if reflect.TypeOf(into) != reflect.PointerTo(t) {
			return nil, nil, false, nil
		}
		obj = into
	} else {
		var err error
		if obj, err = d.scheme.New(gvk); err != nil {
			return nil, nil, false, nil
		}
	}
	u, ok := obj.(unmarshaler)
	if !ok {
		return nil, nil, false, nil
	}
	if err := d.unmarshal(raw, t, obj, u); err != nil {
		return nil, &gvk, true, err
	}
	obj.GetObjectKind().SetGroupVersionKind(gvk)
	return obj, &gvk, true, nil
}

// unmarshal decodes raw, the bytes of an object of type t, into obj (u), leaving out what the
// options say.
func (d *ObjectDecoder) unmarshal(raw []byte, t reflect.Type, obj runtime.Object, u unmarshaler) error {
	if d.opts.Share != nil && hasObjectMetaFirst(t) {
		if ok, err := d.opts.Share.decodeShared(raw, t, obj, u, d.opts.StripManagedFields); ok {
			return err
		}
	}
	if d.opts.StripManagedFields && hasObjectMetaFirst(t) {
		buf := scratch.Get().(*[]byte)
		defer scratch.Put(buf)
		if stripped, ok := withoutManagedFields((*buf)[:0], raw); ok {
			*buf, raw = stripped, stripped
		}
	}
	u.Reset()
	return u.Unmarshal(raw)
}

// scratch holds buffers for objects rewritten without their managedFields: the generated
// Unmarshal methods copy what they keep, so a buffer is free again once one returns.
var scratch = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

// parseEnvelope reads a runtime.Unknown: its TypeMeta (field 1: apiVersion 1, kind 2) and Raw
// (field 2). ok is false for an envelope with a content encoding or content type (field 3, 4:
// apimachinery's serializer handles them), or malformed input.
func parseEnvelope(b []byte) (raw []byte, gvk schema.GroupVersionKind, ok bool) {
	var apiVersion, kind []byte
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return nil, gvk, false
		}
		b = b[n:]
		switch {
		case num == 1 && typ == protowire.BytesType:
			tm, n := protowire.ConsumeBytes(b)
			if n < 0 {
				return nil, gvk, false
			}
			b = b[n:]
			if apiVersion, kind, ok = parseTypeMeta(tm); !ok {
				return nil, gvk, false
			}
		case num == 2 && typ == protowire.BytesType:
			v, n := protowire.ConsumeBytes(b)
			if n < 0 {
				return nil, gvk, false
			}
			b, raw = b[n:], v
		case (num == 3 || num == 4) && typ == protowire.BytesType:
			v, n := protowire.ConsumeBytes(b)
			if n < 0 || len(v) > 0 {
				return nil, gvk, false
			}
			b = b[n:]
		default:
			n := protowire.ConsumeFieldValue(num, typ, b)
			if n < 0 {
				return nil, gvk, false
			}
			b = b[n:]
		}
	}
	gv, err := schema.ParseGroupVersion(string(apiVersion))
	if err != nil {
		return nil, gvk, false
	}
	return raw, gv.WithKind(string(kind)), true
}

func parseTypeMeta(b []byte) (apiVersion, kind []byte, ok bool) {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return nil, nil, false
		}
		b = b[n:]
		if (num == 1 || num == 2) && typ == protowire.BytesType {
			v, n := protowire.ConsumeBytes(b)
			if n < 0 {
				return nil, nil, false
			}
			b = b[n:]
			if num == 1 {
				apiVersion = v
			} else {
				kind = v
			}
			continue
		}
		n = protowire.ConsumeFieldValue(num, typ, b)
		if n < 0 {
			return nil, nil, false
		}
		b = b[n:]
	}
	return apiVersion, kind, true
}

// Field numbers of the generated messages (k8s.io/api's and apimachinery's generated.proto).
const (
	objectMetaField    = 1  // metadata, in every top-level kind
	managedFieldsField = 17 // ObjectMeta.managedFields
)

// hasObjectMetaFirst reports whether t, a scheme type, keeps its ObjectMeta in protobuf field 1
// (every Kubernetes kind does; lists keep ListMeta there), checked once per type from the
// generated struct tags rather than assumed.
func hasObjectMetaFirst(t reflect.Type) bool {
	if v, ok := metaFirst.Load(t); ok {
		return v.(bool)
	}
	ok := false
	if t.Kind() == reflect.Struct {
		if f, found := t.FieldByName("ObjectMeta"); found && f.Type == reflect.TypeOf(metav1.ObjectMeta{}) {
			ok = protobufField(f.Tag.Get("protobuf")) == objectMetaField
		}
	}
	metaFirst.Store(t, ok)
	return ok
}

var metaFirst sync.Map // reflect.Type → bool

// managedFieldsNumber is ObjectMeta.ManagedFields' protobuf field number, read from its tag once.
var managedFieldsNumber = func() int {
	f, _ := reflect.TypeOf(metav1.ObjectMeta{}).FieldByName("ManagedFields")
	return protobufField(f.Tag.Get("protobuf"))
}()

// protobufField returns the field number of a gogo protobuf struct tag ("bytes,17,rep,name=…").
func protobufField(tag string) int {
	parts := strings.SplitN(tag, ",", 3)
	if len(parts) < 2 {
		return 0
	}
	n, err := strconv.Atoi(parts[1])
	if err != nil {
		return 0
	}
	return n
}

// withoutManagedFields appends to dst the object message obj without the managedFields of its
// ObjectMeta (field 1): the other fields are copied as they are, and field 1's length is
// rewritten. ok is false, and dst is not to be used, if obj is malformed or has no
// managedFields to leave out (then obj itself is as good).
func withoutManagedFields(dst, obj []byte) (_ []byte, ok bool) {
	if managedFieldsNumber != managedFieldsField {
		return nil, false // the generated code changed: decode whole
	}
	b := obj
	found := false
	for len(b) > 0 {
		start := b
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return nil, false
		}
		b = b[n:]
		if num == objectMetaField && typ == protowire.BytesType {
			meta, m := protowire.ConsumeBytes(b)
			if m < 0 {
				return nil, false
			}
			b = b[m:]
			size, ok := keptMetaSize(meta)
			if !ok {
				return nil, false
			}
			if size == len(meta) {
				dst = append(dst, start[:n+m]...)
				continue
			}
			found = true
			dst = protowire.AppendTag(dst, objectMetaField, protowire.BytesType)
			dst = protowire.AppendVarint(dst, uint64(size))
			dst = appendKept(dst, meta)
			continue
		}
		m := protowire.ConsumeFieldValue(num, typ, b)
		if m < 0 {
			return nil, false
		}
		b = b[m:]
		dst = append(dst, start[:n+m]...)
	}
	return dst, found
}

// keptMetaSize checks meta, an ObjectMeta message, and returns how many bytes its fields other
// than managedFields take.
func keptMetaSize(meta []byte) (size int, ok bool) {
	b := meta
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return 0, false
		}
		m := protowire.ConsumeFieldValue(num, typ, b[n:])
		if m < 0 {
			return 0, false
		}
		if num != managedFieldsField {
			size += n + m
		}
		b = b[n+m:]
	}
	return size, true
}

// appendKept appends meta's fields other than managedFields; keptMetaSize checked meta.
func appendKept(dst, meta []byte) []byte {
	b := meta
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		m := protowire.ConsumeFieldValue(num, typ, b[n:])
		if num != managedFieldsField {
			dst = append(dst, b[:n+m]...)
		}
		b = b[n+m:]
	}
	return dst
}

// EventDecoder decodes the frames of a protobuf watch stream into metav1.WatchEvent, leaving
// the event's Object.Raw pointing into the frame rather than copying it: client-go's watch
// decoder decodes that object before it reads the next frame into the same buffer. It falls
// back to Serializer, apimachinery's raw protobuf serializer, for anything else.
type EventDecoder struct {
	runtime.Serializer
}

var watchEventKind = metav1.SchemeGroupVersion.WithKind("WatchEvent")

// Decode decodes data, a frame, into into, which must be a *metav1.WatchEvent for the fast path.
func (d *EventDecoder) Decode(data []byte, defaults *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	ev, ok := into.(*metav1.WatchEvent)
	if !ok || ev == nil || !parseWatchEvent(data, ev) {
		return d.Serializer.Decode(data, defaults, into)
	}
	gvk := watchEventKind
	return ev, &gvk, nil
}

// eventTypes are the watch event types, so that decoding one allocates nothing.
var eventTypes = []string{"ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR"}

// parseWatchEvent reads a WatchEvent message (type: field 1; object: field 2, a RawExtension
// whose raw is its field 1) into ev. It reports false, leaving ev to be decoded again from
// scratch, on malformed input.
func parseWatchEvent(b []byte, ev *metav1.WatchEvent) bool {
	*ev = metav1.WatchEvent{}
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return false
		}
		b = b[n:]
		if (num == 1 || num == 2) && typ == protowire.BytesType {
			v, m := protowire.ConsumeBytes(b)
			if m < 0 {
				return false
			}
			b = b[m:]
			if num == 1 {
				ev.Type = eventType(v)
				continue
			}
			raw, ok := parseRawExtension(v)
			if !ok {
				return false
			}
			ev.Object.Raw = raw
			continue
		}
		m := protowire.ConsumeFieldValue(num, typ, b)
		if m < 0 {
			return false
		}
		b = b[m:]
	}
	return true
}

func eventType(v []byte) string {
	for _, t := range eventTypes {
		if string(v) == t {
			return t
		}
	}
	return string(v)
}

func parseRawExtension(b []byte) (raw []byte, ok bool) {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return nil, false
		}
		b = b[n:]
		if num == 1 && typ == protowire.BytesType {
			v, m := protowire.ConsumeBytes(b)
			if m < 0 {
				return nil, false
			}
			b, raw = b[m:], v
			continue
		}
		m := protowire.ConsumeFieldValue(num, typ, b)
		if m < 0 {
			return nil, false
		}
		b = b[m:]
	}
	return raw, true
}
