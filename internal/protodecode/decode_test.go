package protodecode_test

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/scheme"
	restclientwatch "k8s.io/client-go/rest/watch"

	"github.com/kates-dev/kates/internal/protodecode"
)

// fixtures returns realistic objects, as a local API server served them (server-side applied,
// a kubelet's status written; see bench/internal/fixture), and a few more shapes.
func fixtures(t testing.TB) []runtime.Object {
	t.Helper()
	var pod corev1.Pod
	var cm corev1.ConfigMap
	readJSON(t, "pod.json", &pod)
	readJSON(t, "configmap.json", &cm)
	require.NotEmpty(t, pod.ManagedFields, "fixture must carry managedFields")
	require.NotEmpty(t, cm.ManagedFields, "fixture must carry managedFields")
	replicas := int32(3)
	deploy := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "team-a", Generation: 4, Labels: map[string]string{"app": "web"},
			ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "m", Operation: metav1.ManagedFieldsOperationApply, FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:spec":{}}`)}}}},
		Spec:   appsv1.DeploymentSpec{Replicas: &replicas, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}, Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}}, Spec: *pod.Spec.DeepCopy()}},
		Status: appsv1.DeploymentStatus{ObservedGeneration: 4, Replicas: 3, AvailableReplicas: 2},
	}
	noManaged := cm.DeepCopy()
	noManaged.ManagedFields = nil
	return []runtime.Object{&pod, &cm, deploy, noManaged, &corev1.ConfigMap{}}
}

func readJSON(t testing.TB, name string, into any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "realistic", name))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, into))
}

var (
	standard = protobuf.NewSerializer(scheme.Scheme, scheme.Scheme)
	rawEvent = protobuf.NewRawSerializer(scheme.Scheme, scheme.Scheme)
)

func encode(t testing.TB, obj runtime.Object) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := scheme.Codecs.EncoderForVersion(standard, obj.GetObjectKind().GroupVersionKind().GroupVersion())
	// The encoder needs the kind: take it from the scheme, as the API server does.
	gvks, _, err := scheme.Scheme.ObjectKinds(obj)
	require.NoError(t, err)
	obj = obj.DeepCopyObject()
	obj.GetObjectKind().SetGroupVersionKind(gvks[0])
	enc = scheme.Codecs.EncoderForVersion(standard, gvks[0].GroupVersion())
	require.NoError(t, enc.Encode(obj, &buf))
	return buf.Bytes()
}

func withoutManagedFields(obj runtime.Object) runtime.Object {
	obj = obj.DeepCopyObject()
	if m, ok := obj.(metav1.Object); ok {
		m.SetManagedFields(nil)
	}
	return obj
}

func TestObjectDecoderMatchesApimachinery(t *testing.T) {
	for _, strip := range []bool{false, true} {
		fast := protodecode.NewObjectDecoder(standard, scheme.Scheme, protodecode.Options{StripManagedFields: strip})
		for _, obj := range fixtures(t) {
			data := encode(t, obj)
			want, wantGVK, err := standard.Decode(data, nil, nil)
			require.NoError(t, err)
			if strip {
				want = withoutManagedFields(want)
			}
			got, gotGVK, err := fast.Decode(data, nil, nil)
			require.NoError(t, err)
			require.Equal(t, wantGVK, gotGVK)
			require.Empty(t, cmp.Diff(want, got), "strip=%v %T", strip, obj)

			// Into an object of the right type, even one holding another object.
			into := obj.DeepCopyObject()
			got, _, err = fast.Decode(data, nil, into)
			require.NoError(t, err)
			require.Same(t, into, got)
			require.Empty(t, cmp.Diff(want, got), "into, strip=%v %T", strip, obj)
		}
	}
}

func TestObjectDecoderStripsAnObjectsOwnManagedFieldsOnly(t *testing.T) {
	// A List keeps ListMeta in field 1, and its items are decoded whole: only top-level objects
	// lose their managedFields, and a caller's List decodes as it always did.
	var pod corev1.Pod
	readJSON(t, "pod.json", &pod)
	list := &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: "42"}, Items: []corev1.Pod{pod, pod}}
	data := encode(t, list)
	fast := protodecode.NewObjectDecoder(standard, scheme.Scheme, protodecode.Options{StripManagedFields: true})
	got, _, err := fast.Decode(data, nil, &corev1.PodList{})
	require.NoError(t, err)
	want, _, err := standard.Decode(data, nil, &corev1.PodList{})
	require.NoError(t, err)
	require.Empty(t, cmp.Diff(want, got))
	require.NotEmpty(t, got.(*corev1.PodList).Items[1].ManagedFields)
}

func TestObjectDecoderFallsBack(t *testing.T) {
	fast := protodecode.NewObjectDecoder(standard, scheme.Scheme, protodecode.Options{StripManagedFields: true})
	var cm corev1.ConfigMap
	readJSON(t, "configmap.json", &cm)
	data := encode(t, &cm)

	t.Run("into another type", func(t *testing.T) {
		_, _, errStd := standard.Decode(data, nil, &corev1.Secret{})
		_, _, errFast := fast.Decode(data, nil, &corev1.Secret{})
		require.Equal(t, errStd == nil, errFast == nil)
	})
	t.Run("into Unknown", func(t *testing.T) {
		var want, got runtime.Unknown
		_, _, err := standard.Decode(data, nil, &want)
		require.NoError(t, err)
		_, _, err = fast.Decode(data, nil, &got)
		require.NoError(t, err)
		require.Equal(t, want, got)
	})
	t.Run("malformed", func(t *testing.T) {
		for _, bad := range [][]byte{nil, {}, []byte("k8s\x00"), data[:len(data)/2], []byte("{}"), append([]byte("k8s\x00"), 0xff, 0xff, 0xff)} {
			_, _, errStd := standard.Decode(bad, nil, nil)
			_, _, errFast := fast.Decode(bad, nil, nil)
			require.Error(t, errFast, "%q", bad)
			require.Equal(t, errStd.Error(), errFast.Error())
		}
	})
	t.Run("unknown kind", func(t *testing.T) {
		u := &runtime.Unknown{TypeMeta: runtime.TypeMeta{APIVersion: "example.com/v1", Kind: "Widget"}, Raw: []byte{}}
		b, err := u.Marshal()
		require.NoError(t, err)
		b = append([]byte("k8s\x00"), b...)
		_, _, errStd := standard.Decode(b, nil, nil)
		_, _, errFast := fast.Decode(b, nil, nil)
		require.Error(t, errFast)
		require.Equal(t, errStd.Error(), errFast.Error())
	})
}

// watchStream encodes events as the API server writes a protobuf watch: length-delimited
// frames, each a WatchEvent (raw protobuf) whose object is enveloped protobuf.
func watchStream(t testing.TB, events []watch.Event) []byte {
	t.Helper()
	info, ok := runtime.SerializerInfoForMediaType(scheme.Codecs.SupportedMediaTypes(), runtime.ContentTypeProtobuf)
	require.True(t, ok)
	var buf bytes.Buffer
	enc := streaming.NewEncoder(info.StreamSerializer.Framer.NewFrameWriter(&buf), rawEvent)
	for _, ev := range events {
		we := &metav1.WatchEvent{Type: string(ev.Type), Object: runtime.RawExtension{Raw: encode(t, ev.Object)}}
		require.NoError(t, enc.Encode(we))
	}
	return buf.Bytes()
}

// decodeStream decodes a watch stream as client-go's REST client does, with the negotiated
// serializer ns.
func decodeStream(t testing.TB, ns runtime.NegotiatedSerializer, stream []byte) []watch.Event {
	t.Helper()
	info, ok := runtime.SerializerInfoForMediaType(ns.SupportedMediaTypes(), runtime.ContentTypeProtobuf)
	require.True(t, ok)
	objects := ns.DecoderToVersion(info.Serializer, nil)
	frames := info.StreamSerializer.Framer.NewFrameReader(io.NopCloser(bytes.NewReader(stream)))
	dec := restclientwatch.NewDecoder(streaming.NewDecoder(frames, info.StreamSerializer.Serializer), objects)
	var out []watch.Event
	for {
		typ, obj, err := dec.Decode()
		if err == io.EOF {
			return out
		}
		require.NoError(t, err)
		out = append(out, watch.Event{Type: typ, Object: obj})
	}
}

func TestWatchStreamMatchesApimachinery(t *testing.T) {
	var events []watch.Event
	for _, obj := range fixtures(t) {
		events = append(events, watch.Event{Type: watch.Added, Object: obj}, watch.Event{Type: watch.Modified, Object: obj})
	}
	events = append(events,
		watch.Event{Type: watch.Bookmark, Object: &corev1.Pod{ObjectMeta: metav1.ObjectMeta{ResourceVersion: "99", Annotations: map[string]string{metav1.InitialEventsAnnotationKey: "true"}}}},
		watch.Event{Type: watch.Deleted, Object: fixtures(t)[0]},
		watch.Event{Type: watch.Error, Object: &metav1.Status{Status: metav1.StatusFailure, Code: 410, Reason: metav1.StatusReasonExpired, Message: "too old resource version"}},
	)
	stream := watchStream(t, events)
	base := serializer.NewCodecFactory(scheme.Scheme).WithoutConversion()
	want := decodeStream(t, base, stream)
	require.Len(t, want, len(events))

	got := decodeStream(t, protodecode.NegotiatedSerializer(base, scheme.Scheme, protodecode.Options{}), stream)
	require.Empty(t, cmp.Diff(want, got))

	stripped := decodeStream(t, protodecode.NegotiatedSerializer(base, scheme.Scheme, protodecode.Options{StripManagedFields: true}), stream)
	for i := range want {
		want[i].Object = withoutManagedFields(want[i].Object)
	}
	require.Empty(t, cmp.Diff(want, stripped))
}

func TestNegotiatedSerializerKeepsJSON(t *testing.T) {
	base := serializer.NewCodecFactory(scheme.Scheme).WithoutConversion()
	ns := protodecode.NegotiatedSerializer(base, scheme.Scheme, protodecode.Options{StripManagedFields: true})
	want, got := base.SupportedMediaTypes(), ns.SupportedMediaTypes()
	require.Len(t, got, len(want))
	for i := range want {
		require.Equal(t, want[i].MediaType, got[i].MediaType)
		if want[i].MediaType != runtime.ContentTypeProtobuf {
			require.Equal(t, want[i].Serializer, got[i].Serializer, want[i].MediaType)
		}
	}
	// base's own list is untouched.
	_, isFast := base.SupportedMediaTypes()[len(want)-1].Serializer.(*protodecode.ObjectDecoder)
	require.False(t, isFast)
}

func FuzzObjectDecoder(f *testing.F) {
	for _, obj := range fixtures(f) {
		f.Add(encode(f, obj))
	}
	fast := protodecode.NewObjectDecoder(standard, scheme.Scheme, protodecode.Options{StripManagedFields: true})
	events := &protodecode.EventDecoder{Serializer: rawEvent}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, _, err := fast.Decode(data, nil, nil)
		want, _, errStd := standard.Decode(data, nil, nil)
		if err == nil && errStd == nil {
			// Decoding the same bytes, the fast path may differ only by managedFields.
			if diff := cmp.Diff(withoutManagedFields(want), got); diff != "" {
				t.Fatalf("fast decode differs:\n%s", diff)
			}
		}
		var ev metav1.WatchEvent
		_, _, _ = events.Decode(data, nil, &ev)
	})
}

func benchmarkDecode(b *testing.B, ns runtime.NegotiatedSerializer, stream []byte, n int) {
	b.ReportAllocs()
	b.SetBytes(int64(len(stream)))
	info, _ := runtime.SerializerInfoForMediaType(ns.SupportedMediaTypes(), runtime.ContentTypeProtobuf)
	objects := ns.DecoderToVersion(info.Serializer, nil)
	for b.Loop() {
		frames := info.StreamSerializer.Framer.NewFrameReader(io.NopCloser(bytes.NewReader(stream)))
		dec := restclientwatch.NewDecoder(streaming.NewDecoder(frames, info.StreamSerializer.Serializer), objects)
		for range n {
			if _, _, err := dec.Decode(); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkWatchDecode decodes 100 watch events of realistic objects as client-go's REST client
// does, through apimachinery's protobuf serializers and through this package's.
func BenchmarkWatchDecode(b *testing.B) {
	objs := fixtures(b)
	base := serializer.NewCodecFactory(scheme.Scheme).WithoutConversion()
	for _, c := range []struct {
		name string
		obj  runtime.Object
	}{{"Pod", objs[0]}, {"ConfigMap", objs[1]}} {
		events := make([]watch.Event, 100)
		for i := range events {
			events[i] = watch.Event{Type: watch.Added, Object: c.obj}
		}
		stream := watchStream(b, events)
		b.Run(c.name+"/apimachinery", func(b *testing.B) { benchmarkDecode(b, base, stream, len(events)) })
		b.Run(c.name+"/protodecode", func(b *testing.B) {
			benchmarkDecode(b, protodecode.NegotiatedSerializer(base, scheme.Scheme, protodecode.Options{}), stream, len(events))
		})
		b.Run(c.name+"/protodecode-strip", func(b *testing.B) {
			benchmarkDecode(b, protodecode.NegotiatedSerializer(base, scheme.Scheme, protodecode.Options{StripManagedFields: true}), stream, len(events))
		})
	}
}
