package kates

import (
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kates-dev/kates/internal/protodecode"
)

// TestItemShardAgreesWithPlacer: a list item placed from its bytes (itemShard, which decides
// what a client-placed replica leaves undecoded) lands in the shard placer gives the decoded
// object, for every placement and key, objects with and without a controller, owned by
// non-controllers only, cluster-scoped, and stamped with their owner's label.
func TestItemShardAgreesWithPlacer(t *testing.T) {
	yes, no := true, false
	var objs []*corev1.ConfigMap
	for k := range 200 {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("c%d", k), Namespace: fmt.Sprintf("ns-%d", k%13),
			UID: types.UID(fmt.Sprintf("uid-%d-%x", k, k*7919))}}
		owner := func(c *bool) metav1.OwnerReference {
			return metav1.OwnerReference{APIVersion: "v1", Kind: "ConfigMap", Name: "o", UID: types.UID(fmt.Sprintf("owner-%d", k/3)), Controller: c}
		}
		switch k % 5 {
		case 1:
			cm.OwnerReferences = []metav1.OwnerReference{owner(&yes)}
		case 2:
			cm.OwnerReferences = []metav1.OwnerReference{owner(&no), owner(nil)}
		case 3:
			cm.Namespace = ""
			cm.OwnerReferences = []metav1.OwnerReference{owner(nil), owner(&yes)}
		}
		objs = append(objs, cm)
	}
	for _, key := range []ShardKey{ShardByUID, ShardByNamespace} {
		space := ShardSpace{Key: key, Count: 16}
		for k, cm := range objs {
			if k%5 == 4 && key == ShardByUID {
				space.StampOwnerShard(cm) // the label agrees with the controller
			}
			data, err := cm.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			m, ok := protodecode.ReadItemMeta(data, OwnerShardLabel)
			if !ok {
				t.Fatalf("%s: not read", cm.Name)
			}
			for _, p := range []Placement{PlaceByKey, PlaceByOwner, PlaceByOwnerLabel} {
				if got, want := space.itemShard(p, m), space.placer(p)(cm); got != want {
					t.Errorf("%s by %s, placement %d: itemShard %d, placer %d", cm.Name, key, p, got, want)
				}
			}
		}
	}
}
