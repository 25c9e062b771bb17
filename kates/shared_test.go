package kates_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kates-dev/kates/kates"
)

// sharedPod is Pod i of one template, as a ReplicaSet makes them; a scheduling gate keeps the
// scheduler and kwok away, so the Pods do not change under the test.
func sharedPod(ns string, i int) *corev1.Pod {
	return &corev1.Pod{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("web-%d", i), Namespace: ns,
			Labels: map[string]string{"app": "web", "pod-template-hash": "7c9d8"}},
		Spec: corev1.PodSpec{
			SchedulingGates: []corev1.PodSchedulingGate{{Name: "kates.dev/test"}},
			Containers: []corev1.Container{{Name: "web", Image: "registry.example.com/web:1",
				Env: []corev1.EnvVar{{Name: "LEVEL", Value: "info"}}}},
			Volumes: []corev1.Volume{{Name: "cache", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}},
		},
	}
}

// TestWatchSharedValues checks WatchOptions.SharedValues against the API server: every object
// is whole and equal to the server's (without managedFields), Pods of one template share their
// containers, volumes and labels, a change reaches the snapshot as one delta and leaves the
// other objects as they were, and the mutation detector catches a caller editing a shared map.
func TestWatchSharedValues(t *testing.T) {
	c, ns := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	for i := range 3 {
		require.NoError(t, c.Apply(ctx, sharedPod(ns, i), nil, kates.FieldManager("deployer")))
	}

	type snapshot struct{ Pods []*corev1.Pod }
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	acc, err := c.WatchWith(wctx, kates.WatchOptions{SharedValues: true, MutationDetector: true},
		kates.Query{Name: "Pods", Kind: "Pod", Namespace: ns})
	require.NoError(t, err)
	var snap snapshot
	nextSnapshot(t, ctx, acc, &snap)
	require.Len(t, snap.Pods, 3)

	for _, got := range snap.Pods {
		var want corev1.Pod
		require.NoError(t, c.Get(ctx, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: got.Name, Namespace: ns}}, &want))
		want.ManagedFields = nil
		require.Empty(t, cmp.Diff(&want, got, ignoreTypeMeta), "Pod %s", got.Name)
	}
	a, b := snap.Pods[0], snap.Pods[2]
	require.Same(t, &a.Spec.Containers[0], &b.Spec.Containers[0], "containers of one template are shared")
	require.Same(t, &a.Spec.Volumes[0], &b.Spec.Volumes[0], "volumes of one template are shared")
	require.Equal(t, fmt.Sprintf("%p", a.Labels), fmt.Sprintf("%p", b.Labels), "equal label sets are shared")

	// A change to one Pod's labels gives it a label map of its own, and only it changes.
	patch := []byte(`{"metadata":{"labels":{"canary":"true"}}}`)
	require.NoError(t, c.Patch(ctx, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web-1", Namespace: ns}}, types.MergePatchType, patch, nil))
	var deltas []*kates.Delta
	for {
		select {
		case <-ctx.Done():
			t.Fatal("the patch never reached the snapshot")
		case <-acc.Changed():
		}
		_, err := acc.UpdateWithDeltas(ctx, &snap, &deltas)
		require.NoError(t, err)
		if snap.Pods[1].Labels["canary"] == "true" {
			break
		}
	}
	require.Len(t, deltas, 1)
	require.Equal(t, "web-1", deltas[0].Name)
	require.Equal(t, map[string]string{"app": "web", "pod-template-hash": "7c9d8"}, snap.Pods[0].Labels)
	require.Equal(t, map[string]string{"app": "web", "pod-template-hash": "7c9d8"}, snap.Pods[2].Labels)

	// The contract: objects are read-only. Editing a shared map is caught by the next Update.
	snap.Pods[0].Labels["app"] = "edited"
	_, err = acc.Update(ctx, &snap)
	require.True(t, errors.Is(err, kates.ErrSharedValueModified), "Update: %v", err)
}

// TestWatchSharesNothingByDefault: without SharedValues, objects hold their own copies, so a
// caller editing one object's maps reaches nothing else.
func TestWatchSharesNothingByDefault(t *testing.T) {
	c, ns := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for i := range 2 {
		require.NoError(t, c.Apply(ctx, sharedPod(ns, i), nil, kates.FieldManager("deployer")))
	}
	type snapshot struct{ Pods []*corev1.Pod }
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	acc, err := c.Watch(wctx, kates.Query{Name: "Pods", Kind: "Pod", Namespace: ns})
	require.NoError(t, err)
	var snap snapshot
	nextSnapshot(t, ctx, acc, &snap)
	require.Len(t, snap.Pods, 2)
	require.NotSame(t, &snap.Pods[0].Spec.Containers[0], &snap.Pods[1].Spec.Containers[0])
	snap.Pods[0].Labels["app"] = "edited"
	require.Equal(t, "web", snap.Pods[1].Labels["app"])
}
