package shards_test

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/shards"
)

// TestStampedByDefault: the objects a run writes with its context carry their owner's shard
// stamp (kates.OwnerShardLabel) without the run calling StampOwnerShard, whichever write made
// them — create, apply, update, upsert — and an object with no controller is left unlabeled.
func TestStampedByDefault(t *testing.T) {
	ns := newNamespace(t)
	client, err := kates.NewClientFromRESTConfig(cluster.RESTConfig(), ns)
	if err != nil {
		t.Fatal(err)
	}
	const n = 4
	space := kates.ShardSpace{Key: kates.ShardByUID, Count: n}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	written := make(chan error, 1)
	go func() {
		done := false
		_ = shards.Run(ctx, client, shards.Options{Name: "stamp", Shards: n, LeaseDuration: testLease,
			RenewDeadline: testRenew, RetryPeriod: testRetry, Release: true}, func(ctx context.Context, shard int) error {
			if shard == 0 && !done {
				done = true
				written <- writeOwned(ctx, client, ns)
			}
			<-ctx.Done()
			return nil
		})
	}()
	if err := <-written; err != nil {
		t.Fatal(err)
	}
	owner := &corev1.ConfigMap{}
	if err := client.Get(ctx, &corev1.ConfigMap{TypeMeta: metav1.TypeMeta{Kind: "ConfigMap", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Name: "owner", Namespace: ns}}, owner); err != nil {
		t.Fatal(err)
	}
	want := space.OwnerShardLabelValue(space.ShardOf(owner))
	if got, ok := owner.Labels[kates.OwnerShardLabel]; ok {
		t.Errorf("the owner, which has no controller, is labeled %s=%s, want no label", kates.OwnerShardLabel, got)
	}
	for _, name := range []string{"created", "applied", "updated", "upserted"} {
		cm := &corev1.ConfigMap{}
		if err := client.Get(ctx, &corev1.ConfigMap{TypeMeta: metav1.TypeMeta{Kind: "ConfigMap", APIVersion: "v1"},
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}}, cm); err != nil {
			t.Fatal(err)
		}
		if got := cm.Labels[kates.OwnerShardLabel]; got != want {
			t.Errorf("%s: %s=%q, want %q (its owner's shard)", name, kates.OwnerShardLabel, got, want)
		}
	}
}

// writeOwned writes, with ctx, an owner ConfigMap and four ConfigMaps it controls, each by a
// different write; none stamped by the caller.
func writeOwned(ctx context.Context, client *kates.Client, ns string) error {
	cm := func(name string) *corev1.ConfigMap {
		return &corev1.ConfigMap{TypeMeta: metav1.TypeMeta{Kind: "ConfigMap", APIVersion: "v1"},
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}, Data: map[string]string{"k": "v"}}
	}
	owner := cm("owner")
	if err := client.Create(ctx, owner, owner); err != nil {
		return err
	}
	owned := func(name string) *corev1.ConfigMap {
		o := cm(name)
		if err := kates.SetOwnerReferences(owner, o); err != nil {
			panic(err)
		}
		return o
	}
	if err := client.Create(ctx, owned("created"), nil); err != nil {
		return err
	}
	if err := client.Apply(ctx, owned("applied"), nil); err != nil {
		return err
	}
	// Created without a controller, then updated with one.
	plain := cm("updated")
	if err := client.Create(ctx, plain, plain); err != nil {
		return err
	}
	if err := kates.SetOwnerReferences(owner, plain); err != nil {
		return err
	}
	if err := client.Update(ctx, plain, nil); err != nil {
		return err
	}
	if err := client.Create(ctx, cm("upserted"), nil); err != nil {
		return err
	}
	return client.Upsert(ctx, owned("upserted"), owned("upserted"), nil)
}
