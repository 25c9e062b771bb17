package kates

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"unsafe"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestInternSharesRepeatedStrings: two Pods decoded separately (here: built from fresh
// strings) share their repeated strings once interned, and keep their content.
func TestInternSharesRepeatedStrings(t *testing.T) {
	fresh := func(s string) string { return string([]byte(s)) }
	pod := func() *corev1.Pod {
		return &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: fresh("web"), Name: fresh("p"),
				Labels: map[string]string{fresh("app.kubernetes.io/name"): fresh("web")}},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: fresh("main"), Image: fresh("example.com/web:1"),
				Env: []corev1.EnvVar{{Name: fresh("LOG"), Value: fresh("info")}}}}},
			Status: corev1.PodStatus{Phase: corev1.PodPhase(fresh("Running"))},
		}
	}
	a, b := pod(), pod()
	in := newInterner()
	in.internObject(a, false)
	in.internObject(b, false)
	same := func(what, x, y string) {
		t.Helper()
		if x != y || unsafe.StringData(x) != unsafe.StringData(y) {
			t.Errorf("%s: %q and %q are not one string", what, x, y)
		}
	}
	same("namespace", a.Namespace, b.Namespace)
	same("image", a.Spec.Containers[0].Image, b.Spec.Containers[0].Image)
	same("env value", a.Spec.Containers[0].Env[0].Value, b.Spec.Containers[0].Env[0].Value)
	same("phase", string(a.Status.Phase), string(b.Status.Phase))
	for k := range a.Labels {
		for k2 := range b.Labels {
			same("label key", k, k2)
		}
	}
	if a.Labels["app.kubernetes.io/name"] != "web" || a.Name != "p" {
		t.Errorf("interning changed the object: %+v", a.ObjectMeta)
	}
}

// TestInternPartSharesRepeatedStrings: the parts a protodecode.Sharer decodes (and that
// internObject leaves alone in typed objects) share their strings once internPart has seen
// them, decoded apart, and keep their content.
func TestInternPartSharesRepeatedStrings(t *testing.T) {
	fresh := func(s string) string { return string([]byte(s)) }
	containers := func() []corev1.Container {
		return []corev1.Container{{Name: fresh("main"), Image: fresh("example.com/web:1"),
			Env:          []corev1.EnvVar{{Name: fresh("LOG"), Value: fresh("info")}},
			VolumeMounts: []corev1.VolumeMount{{Name: fresh("kube-api-access-" + strconv.Itoa(len(fresh("x")))), MountPath: fresh("/var/run/secrets")}}}}
	}
	labels := func() map[string]string { return map[string]string{fresh("app"): fresh("web")} }
	refs := func() []metav1.OwnerReference {
		return []metav1.OwnerReference{{APIVersion: fresh("apps/v1"), Kind: fresh("ReplicaSet"), Name: fresh("web-7c9d8")}}
	}
	volumes := func() []corev1.Volume {
		return []corev1.Volume{{Name: fresh("config"), VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: fresh("web-config")}}}}}
	}
	tolerations := func() []corev1.Toleration {
		return []corev1.Toleration{{Key: fresh("node.kubernetes.io/not-ready"), Operator: corev1.TolerationOpExists}}
	}
	in := newInterner()
	ca, cb := containers(), containers()
	la, lb := labels(), labels()
	ra, rb := refs(), refs()
	va, vb := volumes(), volumes()
	ta, tb := tolerations(), tolerations()
	for _, v := range []any{ca, cb, la, lb, ra, rb, va, vb, ta, tb} {
		in.internPart(v)
	}
	same := func(what, x, y string) {
		t.Helper()
		if x != y || unsafe.StringData(x) != unsafe.StringData(y) {
			t.Errorf("%s: %q and %q are not one string", what, x, y)
		}
	}
	same("image", ca[0].Image, cb[0].Image)
	same("env value", ca[0].Env[0].Value, cb[0].Env[0].Value)
	same("mount path", ca[0].VolumeMounts[0].MountPath, cb[0].VolumeMounts[0].MountPath)
	same("label value", la["app"], lb["app"])
	for k := range la {
		for k2 := range lb {
			same("label key", k, k2)
		}
	}
	same("owner kind", ra[0].Kind, rb[0].Kind)
	same("volume name", va[0].Name, vb[0].Name)
	same("config map name", va[0].ConfigMap.Name, vb[0].ConfigMap.Name)
	same("toleration key", ta[0].Key, tb[0].Key)
	if ca[0].Image != "example.com/web:1" || la["app"] != "web" || ra[0].Name != "web-7c9d8" {
		t.Errorf("interning changed the parts: %+v %v %+v", ca[0], la, ra[0])
	}
}

// realisticPod reads testdata/realistic/pod.json.
func realisticPod(b *testing.B) *corev1.Pod {
	b.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "realistic", "pod.json"))
	if err != nil {
		b.Fatal(err)
	}
	var pod corev1.Pod
	if err := json.Unmarshal(data, &pod); err != nil {
		b.Fatal(err)
	}
	return &pod
}

// BenchmarkInternPod interns realistic Pods (testdata/realistic/pod.json), each decoded afresh
// as a watch would, into an interner that has seen the first.
func BenchmarkInternPod(b *testing.B) {
	pod := realisticPod(b)
	in := newInterner()
	in.internObject(pod.DeepCopy(), false)
	pods := make([]*corev1.Pod, 256)
	for i := range pods {
		pods[i] = pod.DeepCopy()
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		in.internObject(pods[i%len(pods)], false)
		i++
	}
}

// BenchmarkInternPodParallel is BenchmarkInternPod from several goroutines at once, as the
// reflectors of a Watch's queries intern concurrently.
func BenchmarkInternPodParallel(b *testing.B) {
	pod := realisticPod(b)
	in := newInterner()
	in.internObject(pod.DeepCopy(), false)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		pods := make([]*corev1.Pod, 64)
		for i := range pods {
			pods[i] = pod.DeepCopy()
		}
		i := 0
		for pb.Next() {
			in.internObject(pods[i%len(pods)], false)
			i++
		}
	})
}

// TestInternAnnotationValuesByKey: the values of an annotation key that repeat across objects
// are interned; a key whose values are one of a kind stops being looked up, and stops filling
// the interner, after valueTrials objects.
func TestInternAnnotationValuesByKey(t *testing.T) {
	fresh := func(s string) string { return string([]byte(s)) }
	in := newInterner()
	var cms []*corev1.ConfigMap
	n := valueTrials + 100
	for i := range n {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fresh("c"), Annotations: map[string]string{
			fresh("source"):   fresh("git@example.com:platform/config.git"),
			fresh("checksum"): fresh(strconv.Itoa(i)),
		}}}
		in.internObject(cm, false)
		cms = append(cms, cm)
	}
	first, last := cms[0].Annotations, cms[n-1].Annotations
	if unsafe.StringData(first["source"]) != unsafe.StringData(last["source"]) {
		t.Errorf("a value every object repeats is not interned")
	}
	if last["source"] != "git@example.com:platform/config.git" || last["checksum"] != strconv.Itoa(n-1) {
		t.Errorf("interning changed the annotations: %v", last)
	}
	if st := in.values["checksum"]; st.repeats() || st.looked.Load() != valueTrials {
		t.Errorf("a key of unique values: looked up %d times (want %d), still interned: %v", st.looked.Load(), valueTrials, st.repeats())
	}
	if _, kept := in.m[strconv.Itoa(n-1)]; kept {
		t.Errorf("a unique value past the trials was added to the interner")
	}
	if !in.values["source"].repeats() {
		t.Errorf("a key whose values repeat stopped being interned")
	}
}
