package protodecode

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/scheme"
)

// TestItemMetaFieldNumbers checks the field numbers ReadItemMeta relies on against the
// generated structs' protobuf tags.
func TestItemMetaFieldNumbers(t *testing.T) {
	for _, c := range []struct {
		t     reflect.Type
		field string
		want  int
	}{
		{reflect.TypeFor[corev1.ConfigMap](), "ObjectMeta", objectMetaField},
		{reflect.TypeFor[metav1.ObjectMeta](), "Namespace", namespaceField},
		{reflect.TypeFor[metav1.ObjectMeta](), "UID", uidField},
		{reflect.TypeFor[metav1.ObjectMeta](), "Labels", labelsField},
		{reflect.TypeFor[metav1.ObjectMeta](), "OwnerReferences", ownerReferencesField},
		{reflect.TypeFor[metav1.OwnerReference](), "UID", ownerRefUIDField},
		{reflect.TypeFor[metav1.OwnerReference](), "Controller", ownerRefControlField},
	} {
		f, ok := c.t.FieldByName(c.field)
		require.True(t, ok, c.field)
		require.Equal(t, c.want, protobufField(f.Tag.Get("protobuf")), "%s.%s", c.t, c.field)
	}
}

// itemMetaCases are objects whose placement ReadItemMeta must read as the decoded object has
// it: no owner, owners of which a later one is the controller, two marked controller (the
// first counts, as for kates' placement), a controller field set to false, no namespace, and
// the asked-for label among others, or absent.
func itemMetaCases(t *testing.T) []runtime.Object {
	yes, no := true, false
	owner := func(uid string, controller *bool) metav1.OwnerReference {
		return metav1.OwnerReference{APIVersion: "v1", Kind: "ConfigMap", Name: "o-" + uid, UID: types.UID(uid), Controller: controller}
	}
	cm := func(ns string, labels map[string]string, owners ...metav1.OwnerReference) *corev1.ConfigMap {
		return &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Name: "c", Namespace: ns, UID: "self-uid", ResourceVersion: "7", Labels: labels,
				Annotations: map[string]string{"a": "b"}, OwnerReferences: owners},
			Data: map[string]string{"k": "v"},
		}
	}
	pods := realisticPods(t, 1)
	return []runtime.Object{
		cm("ns", nil),
		cm("ns", map[string]string{"app": "x", "shards.kates.dev/owner-shard": "3-of-16", "z": "y"},
			owner("first", nil), owner("second", &no), owner("ctrl", &yes)),
		cm("ns", map[string]string{"app": "x"}, owner("ctrl-1", &yes), owner("ctrl-2", &yes)),
		cm("", map[string]string{"shards.kates.dev/owner-shard": ""}, owner("not-ctrl", &no)),
		pods[0],
	}
}

func TestReadItemMetaAgreesWithDecoding(t *testing.T) {
	const label = "shards.kates.dev/owner-shard"
	for i, obj := range itemMetaCases(t) {
		data, err := obj.(interface{ Marshal() ([]byte, error) }).Marshal()
		require.NoError(t, err)
		m, ok := ReadItemMeta(data, label)
		require.True(t, ok, "case %d", i)
		meta := obj.(metav1.Object)
		require.Equal(t, meta.GetNamespace(), string(m.Namespace), "case %d: namespace", i)
		require.Equal(t, string(meta.GetUID()), string(m.UID), "case %d: uid", i)
		wantCtrl, hasCtrl := "", false
		for _, ref := range meta.GetOwnerReferences() {
			if ref.Controller != nil && *ref.Controller {
				wantCtrl, hasCtrl = string(ref.UID), true
				break
			}
		}
		require.Equal(t, hasCtrl, m.HasController, "case %d: has controller", i)
		require.Equal(t, wantCtrl, string(m.ControllerUID), "case %d: controller uid", i)
		value, hasLabel := meta.GetLabels()[label]
		require.Equal(t, hasLabel, m.HasLabel, "case %d: has label", i)
		require.Equal(t, value, string(m.Label), "case %d: label", i)

		// Not asked for a label, it reads none.
		m, ok = ReadItemMeta(data, "")
		require.True(t, ok)
		require.False(t, m.HasLabel, "case %d", i)

		// Cut short anywhere inside its metadata, the item is malformed or reads a prefix,
		// and never panics.
		for cut := range min(len(data), 400) {
			ReadItemMeta(data[:cut], label)
		}
	}
	_, ok := ReadItemMeta([]byte{0x0a, 0x05, 0x1a}, label) // metadata of 5 bytes, 1 present
	require.False(t, ok)
}

func BenchmarkReadItemMeta(b *testing.B) {
	pod := realisticPods(&testing.T{}, 1)[0]
	data, err := pod.Marshal()
	require.NoError(b, err)
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := ReadItemMeta(data, "shards.kates.dev/owner-shard"); !ok {
			b.Fatal("not read")
		}
	}
}

// TestDecodeListKeep: items keep refuses are neither decoded nor passed on; the others are
// decoded as without keep.
func TestDecodeListKeep(t *testing.T) {
	standard := protobuf.NewSerializer(scheme.Scheme, scheme.Scheme)
	list := &corev1.ConfigMapList{ListMeta: metav1.ListMeta{ResourceVersion: "9"}}
	for _, name := range []string{"a", "b", "c", "d"} {
		list.Items = append(list.Items, corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns", UID: types.UID("uid-" + name)}})
	}
	data := encodeObject(t, list)
	dec := NewObjectDecoder(standard, scheme.Scheme, Options{StripManagedFields: true, Share: NewCopier()})
	asked := 0
	keep := func(item []byte) bool {
		asked++
		m, ok := ReadItemMeta(item, "")
		return ok && (bytes.Equal(m.UID, []byte("uid-b")) || bytes.Equal(m.UID, []byte("uid-d")))
	}
	var got []string
	lm, err := dec.DecodeList(bytes.NewReader(data), corev1.SchemeGroupVersion.WithKind("ConfigMap"), keep, func(o runtime.Object) {
		got = append(got, o.(*corev1.ConfigMap).Name)
	})
	require.NoError(t, err)
	require.Equal(t, "9", lm.ResourceVersion)
	require.Equal(t, 4, asked)
	require.Equal(t, []string{"b", "d"}, got)
}
