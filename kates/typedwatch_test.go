package kates_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kates-dev/kates/kates"
)

// ignoreTypeMeta leaves TypeMeta out of comparisons: Get and Watch fill it differently, and
// it is not what the tests compare.
var ignoreTypeMeta = cmpopts.IgnoreTypes(metav1.TypeMeta{})

// TestWatchTypedObjectsAreTheServers checks the protobuf decode of typed watches against the API
// server's own answer: every object a Watch hands out equals the object Get reads as JSON,
// without managedFields by default (they are never decoded) and with them under
// KeepManagedFields.
func TestWatchTypedObjectsAreTheServers(t *testing.T) {
	c, ns := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	// Two managers of each object, so managedFields have two entries, as on a real cluster.
	for _, name := range []string{"a", "b"} {
		cm := &corev1.ConfigMap{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Labels: map[string]string{"set": "typed", "app": name},
				Annotations: map[string]string{"note": "from " + name}},
			Data: map[string]string{"config.yaml": "key: value\n"}, BinaryData: map[string][]byte{"blob": {0, 1, 2, 0xff}}}
		require.NoError(t, c.Apply(ctx, cm, nil, kates.FieldManager("deployer")))
		require.NoError(t, c.Apply(ctx, &corev1.ConfigMap{TypeMeta: cm.TypeMeta, ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns,
			Labels: map[string]string{"owner": "team-a"}}}, nil, kates.FieldManager("labeller")))
		secret := &corev1.Secret{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Secret"},
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Labels: map[string]string{"set": "typed"}},
			Data:       map[string][]byte{"token": []byte("s3cr3t-" + name)}, Type: corev1.SecretTypeOpaque}
		require.NoError(t, c.Apply(ctx, secret, nil, kates.FieldManager("deployer")))
	}

	type snapshot struct {
		ConfigMaps []*corev1.ConfigMap
		Secrets    []*corev1.Secret
	}
	watch := func(opts kates.WatchOptions) snapshot {
		t.Helper()
		wctx, stop := context.WithCancel(ctx)
		defer stop()
		acc, err := c.WatchWith(wctx, opts,
			kates.Query{Name: "ConfigMaps", Kind: "cm", Namespace: ns, LabelSelector: "set=typed"},
			kates.Query{Name: "Secrets", Kind: "secret", Namespace: ns, LabelSelector: "set=typed"})
		require.NoError(t, err)
		var snap snapshot
		nextSnapshot(t, ctx, acc, &snap)
		require.Len(t, snap.ConfigMaps, 2)
		require.Len(t, snap.Secrets, 2)
		return snap
	}
	stripped, kept := watch(kates.WatchOptions{}), watch(kates.WatchOptions{KeepManagedFields: true})

	for i, name := range []string{"a", "b"} {
		var cm corev1.ConfigMap
		require.NoError(t, c.Get(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}}, &cm))
		var secret corev1.Secret
		require.NoError(t, c.Get(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}}, &secret))
		require.Len(t, cm.ManagedFields, 2, "the fixture has two managers")

		require.Empty(t, cmp.Diff(&cm, kept.ConfigMaps[i], ignoreTypeMeta), "ConfigMap %s, KeepManagedFields", name)
		require.Empty(t, cmp.Diff(&secret, kept.Secrets[i], ignoreTypeMeta), "Secret %s, KeepManagedFields", name)

		cm.ManagedFields, secret.ManagedFields = nil, nil
		require.Empty(t, cmp.Diff(&cm, stripped.ConfigMaps[i], ignoreTypeMeta), "ConfigMap %s", name)
		require.Empty(t, cmp.Diff(&secret, stripped.Secrets[i], ignoreTypeMeta), "Secret %s", name)
	}
}
