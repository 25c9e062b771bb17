package protodecode

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/client-go/kubernetes/scheme"
)

// TestSharedFieldNumbers checks the field numbers sharedParts relies on against the generated
// structs' protobuf tags.
func TestSharedFieldNumbers(t *testing.T) {
	for _, c := range []struct {
		t     reflect.Type
		field string
		want  int
	}{
		{reflect.TypeFor[metav1.ObjectMeta](), "Labels", labelsField},
		{reflect.TypeFor[metav1.ObjectMeta](), "OwnerReferences", ownerReferencesField},
		{reflect.TypeFor[corev1.Pod](), "Spec", podSpecField},
		{reflect.TypeFor[corev1.PodSpec](), "Volumes", volumesField},
		{reflect.TypeFor[corev1.PodSpec](), "Containers", containersField},
		{reflect.TypeFor[corev1.PodSpec](), "InitContainers", initContainersField},
		{reflect.TypeFor[corev1.PodSpec](), "Tolerations", tolerationsField},
		{reflect.TypeFor[corev1.PodSpec](), "Affinity", affinityField},
		{reflect.TypeFor[corev1.PodSpec](), "SecurityContext", securityContextField},
	} {
		f, ok := c.t.FieldByName(c.field)
		require.True(t, ok, c.field)
		require.Equal(t, c.want, protobufField(f.Tag.Get("protobuf")), "%s.%s", c.t, c.field)
	}
}

func realisticPods(t *testing.T, n int) []*corev1.Pod {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "realistic", "pod.json"))
	require.NoError(t, err)
	var pod corev1.Pod
	require.NoError(t, json.Unmarshal(data, &pod))
	pod.Spec.Tolerations = []corev1.Toleration{{Key: "node.kubernetes.io/not-ready", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute}}
	var out []*corev1.Pod
	for i := range n {
		p := pod.DeepCopy()
		p.Name += "-" + strconv.Itoa(i)
		p.Status.PodIP = "10.0.0." + strconv.Itoa(i)
		out = append(out, p)
	}
	return out
}

func encodeObject(t testing.TB, obj runtime.Object) []byte {
	t.Helper()
	var buf bytes.Buffer
	obj = obj.DeepCopyObject()
	gvks, _, err := scheme.Scheme.ObjectKinds(obj)
	require.NoError(t, err)
	obj.GetObjectKind().SetGroupVersionKind(gvks[0])
	s := protobuf.NewSerializer(scheme.Scheme, scheme.Scheme)
	require.NoError(t, scheme.Codecs.EncoderForVersion(s, gvks[0].GroupVersion()).Encode(obj, &buf))
	return buf.Bytes()
}

// TestSharerDecodesWholeObjectsSharingParts decodes Pods of one template, and ConfigMaps, with
// a Sharer: each is equal to what apimachinery decodes (less managedFields), and the Pods hold
// one copy of their containers, volumes, tolerations and labels.
func TestSharerDecodesWholeObjectsSharingParts(t *testing.T) {
	standard := protobuf.NewSerializer(scheme.Scheme, scheme.Scheme)
	share := NewSharer()
	fast := NewObjectDecoder(standard, scheme.Scheme, Options{StripManagedFields: true, Share: share})
	var got []*corev1.Pod
	for _, p := range realisticPods(t, 3) {
		data := encodeObject(t, p)
		want, _, err := standard.Decode(data, nil, nil)
		require.NoError(t, err)
		want.(*corev1.Pod).ManagedFields = nil
		obj, _, err := fast.Decode(data, nil, nil)
		require.NoError(t, err)
		require.Empty(t, cmp.Diff(want, obj))
		got = append(got, obj.(*corev1.Pod))
	}
	a, b := got[0], got[2]
	require.Same(t, &a.Spec.Containers[0], &b.Spec.Containers[0])
	require.Same(t, &a.Spec.Volumes[0], &b.Spec.Volumes[0])
	require.Same(t, &a.Spec.Tolerations[0], &b.Spec.Tolerations[0])
	require.Same(t, &a.OwnerReferences[0], &b.OwnerReferences[0])
	require.Equal(t, reflect.ValueOf(a.Labels).Pointer(), reflect.ValueOf(b.Labels).Pointer())
	require.NotEqual(t, a.Status.PodIP, b.Status.PodIP)
	require.NoError(t, share.Check())

	// A ConfigMap with another label set gets its own.
	var cm corev1.ConfigMap
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "realistic", "configmap.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &cm))
	enc := encodeObject(t, &cm)
	obj, _, err := fast.Decode(enc, nil, nil)
	require.NoError(t, err)
	want, _, err := standard.Decode(enc, nil, nil)
	require.NoError(t, err)
	want.(*corev1.ConfigMap).ManagedFields = nil
	require.Empty(t, cmp.Diff(want, obj))
}

// TestSharerCheckCatchesAnEdit is the mutation detector at work: a caller editing a shared
// label map, or a shared container, is caught by Check.
func TestSharerCheckCatchesAnEdit(t *testing.T) {
	for _, edit := range []struct {
		name, part string
		do         func(p *corev1.Pod)
	}{
		{"label", "metadata.labels", func(p *corev1.Pod) { p.Labels["team"] = "edited" }},
		{"image", "spec.containers", func(p *corev1.Pod) { p.Spec.Containers[0].Image = "edited:1" }},
		{"resource", "spec.containers", func(p *corev1.Pod) {
			p.Spec.Containers[0].Resources.Limits[corev1.ResourceMemory] = p.Spec.Containers[0].Resources.Requests[corev1.ResourceCPU]
		}},
	} {
		t.Run(edit.name, func(t *testing.T) {
			share := NewSharer()
			fast := NewObjectDecoder(protobuf.NewSerializer(scheme.Scheme, scheme.Scheme), scheme.Scheme, Options{StripManagedFields: true, Share: share})
			var pods []*corev1.Pod
			for _, p := range realisticPods(t, 2) {
				obj, _, err := fast.Decode(encodeObject(t, p), nil, nil)
				require.NoError(t, err)
				pods = append(pods, obj.(*corev1.Pod))
			}
			require.NoError(t, share.Check())
			edit.do(pods[0])
			err := share.Check()
			require.True(t, errors.Is(err, ErrSharedValueModified), "Check() = %v", err)
			require.True(t, strings.Contains(err.Error(), edit.part), "Check() = %v, want it to name %s", err, edit.part)
		})
	}
}

func TestSharerFallsBackOnMalformedInput(t *testing.T) {
	share := NewSharer()
	standard := protobuf.NewSerializer(scheme.Scheme, scheme.Scheme)
	fast := NewObjectDecoder(standard, scheme.Scheme, Options{StripManagedFields: true, Share: share})
	data := encodeObject(t, realisticPods(t, 1)[0])
	for _, bad := range [][]byte{data[:len(data)/2], data[:len(data)-3]} {
		_, _, errStd := standard.Decode(bad, nil, nil)
		_, _, errFast := fast.Decode(bad, nil, nil)
		require.Equal(t, errStd == nil, errFast == nil)
	}
}

// TestCopierSharesOnlyStrings: by default (NewCopier) objects get deep copies of the parts kept
// once, equal to apimachinery's decode, sharing strings (immutable) and nothing else.
func TestCopierSharesOnlyStrings(t *testing.T) {
	standard := protobuf.NewSerializer(scheme.Scheme, scheme.Scheme)
	share := NewCopier()
	fast := NewObjectDecoder(standard, scheme.Scheme, Options{StripManagedFields: true, Share: share})
	var got []*corev1.Pod
	for _, p := range realisticPods(t, 3) {
		data := encodeObject(t, p)
		want, _, err := standard.Decode(data, nil, nil)
		require.NoError(t, err)
		want.(*corev1.Pod).ManagedFields = nil
		obj, _, err := fast.Decode(data, nil, nil)
		require.NoError(t, err)
		require.Empty(t, cmp.Diff(want, obj))
		got = append(got, obj.(*corev1.Pod))
	}
	a, b := got[1], got[2]
	require.NotSame(t, &a.Spec.Containers[0], &b.Spec.Containers[0])
	require.NotSame(t, &a.Spec.Volumes[0], &b.Spec.Volumes[0])
	require.NotSame(t, &a.OwnerReferences[0], &b.OwnerReferences[0])
	require.NotEqual(t, reflect.ValueOf(a.Labels).Pointer(), reflect.ValueOf(b.Labels).Pointer())
	require.Equal(t, unsafeStringData(a.Spec.Containers[0].Image), unsafeStringData(b.Spec.Containers[0].Image), "strings are shared")
	a.Labels["edited"] = "yes"
	a.Spec.Containers[0].Image = "edited"
	require.NotContains(t, b.Labels, "edited")
	require.NotEqual(t, "edited", b.Spec.Containers[0].Image)
	require.NoError(t, share.Check())
}

func unsafeStringData(s string) *byte { return unsafe.StringData(s) }

// partIndex returns the index of sharedParts' part name.
func partIndex(t *testing.T, name string) int {
	t.Helper()
	for i, p := range sharedParts {
		if p.name == name {
			return i
		}
	}
	t.Fatalf("no shared part %s", name)
	return -1
}

// TestCopierKeepsOnlyPartsThatRepeat: a copier keeps a part when its bytes come a second time,
// never a part each object has its own of (here the containers and volumes of Pods that mount a
// token volume named for the Pod, as the ServiceAccount admission plugin writes them), and once
// rareAfter such parts came, it stops noting them. Every part it decodes goes through its intern
// function first, and every object still equals apimachinery's decode.
func TestCopierKeepsOnlyPartsThatRepeat(t *testing.T) {
	standard := protobuf.NewSerializer(scheme.Scheme, scheme.Scheme)
	share := NewCopier()
	interned := map[string]int{}
	share.SetIntern(func(v any) { interned[reflect.TypeOf(v).String()]++ })
	fast := NewObjectDecoder(standard, scheme.Scheme, Options{StripManagedFields: true, Share: share})
	n := rareAfter + 10
	pods := realisticPods(t, n)
	for i, p := range pods {
		token := "kube-api-access-" + strconv.Itoa(i)
		p.Spec.Volumes = append(p.Spec.Volumes, corev1.Volume{Name: token, VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{}}})
		for c := range p.Spec.Containers {
			p.Spec.Containers[c].VolumeMounts = append(p.Spec.Containers[c].VolumeMounts, corev1.VolumeMount{Name: token, MountPath: "/var/run/secrets/kubernetes.io/serviceaccount", ReadOnly: true})
		}
	}
	var got []*corev1.Pod
	for i, p := range pods {
		data := encodeObject(t, p)
		obj, _, err := fast.Decode(data, nil, nil)
		require.NoError(t, err)
		if i < 3 || i == n-1 {
			want, _, err := standard.Decode(data, nil, nil)
			require.NoError(t, err)
			want.(*corev1.Pod).ManagedFields = nil
			require.Empty(t, cmp.Diff(want, obj), "pod %d", i)
		}
		got = append(got, obj.(*corev1.Pod))
	}

	containers, volumes, labels := partIndex(t, "spec.containers"), partIndex(t, "spec.volumes"), partIndex(t, "metadata.labels")
	require.Empty(t, share.values[containers], "containers of one Pod each are kept")
	require.Empty(t, share.values[volumes], "volumes of one Pod each are kept")
	require.True(t, share.rare[containers] && share.rare[volumes], "rare after %d", rareAfter)
	require.Nil(t, share.seen[containers], "a rare part's hashes are dropped")
	require.Len(t, share.values[labels], 1, "the label set all Pods have is kept")
	require.Equal(t, n, interned["[]v1.Container"], "each Pod's containers decoded and interned once")
	require.Equal(t, 2, interned["map[string]string"], "labels decoded twice: once noted, once kept")

	// The first Pod holds its own decode; from the second on, copies of the kept value.
	a, b, c := got[0], got[1], got[2]
	require.NotEqual(t, reflect.ValueOf(a.Labels).Pointer(), reflect.ValueOf(b.Labels).Pointer())
	require.NotEqual(t, reflect.ValueOf(b.Labels).Pointer(), reflect.ValueOf(c.Labels).Pointer())
	for k := range b.Labels {
		for k2 := range c.Labels {
			if k == k2 {
				require.Equal(t, unsafeStringData(k), unsafeStringData(k2), "copies share strings")
			}
		}
	}
	b.Labels["edited"] = "yes"
	require.NotContains(t, c.Labels, "edited")
	require.NotContains(t, a.Labels, "edited")
}

// TestDecodeListMatchesApimachinery decodes lists as they stream in: the items equal what
// apimachinery decodes (without managedFields), in order, with the list's metadata; a truncated
// list is an error, and JSON is ErrNotProtobufList.
func TestDecodeListMatchesApimachinery(t *testing.T) {
	standard := protobuf.NewSerializer(scheme.Scheme, scheme.Scheme)
	pods := realisticPods(t, 5)
	list := &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: "42", Continue: "next"}}
	for _, p := range pods {
		list.Items = append(list.Items, *p)
	}
	data := encodeObject(t, list)
	want, _, err := standard.Decode(data, nil, &corev1.PodList{})
	require.NoError(t, err)

	for _, share := range []*Sharer{nil, NewCopier(), NewSharer()} {
		dec := NewObjectDecoder(standard, scheme.Scheme, Options{StripManagedFields: true, Share: share})
		var got []runtime.Object
		lm, err := dec.DecodeList(bytes.NewReader(data), corev1.SchemeGroupVersion.WithKind("Pod"), nil, func(o runtime.Object) { got = append(got, o) })
		require.NoError(t, err)
		require.Equal(t, "42", lm.ResourceVersion)
		require.Equal(t, "next", lm.Continue)
		require.Len(t, got, len(pods))
		for i, o := range got {
			w := want.(*corev1.PodList).Items[i].DeepCopy()
			w.ManagedFields = nil
			w.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("Pod"))
			require.Empty(t, cmp.Diff(w, o), "item %d", i)
		}

		_, err = dec.DecodeList(bytes.NewReader(data[:len(data)-10]), corev1.SchemeGroupVersion.WithKind("Pod"), nil, func(runtime.Object) {})
		require.Error(t, err, "truncated")
		_, err = dec.DecodeList(strings.NewReader(`{"kind":"PodList"}`), corev1.SchemeGroupVersion.WithKind("Pod"), nil, func(runtime.Object) {})
		require.ErrorIs(t, err, ErrNotProtobufList)
	}
}
