package kates_test

import (
	"errors"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/kates-dev/kates/kates"
)

// TestSetOwnerReferencesRefusesASecondController: the API server rejects an object with two
// controller references, so SetOwnerReferences refuses before anything is sent, names the
// controller the object has, and leaves every object as it was. Setting the same owner again
// replaces its reference.
func TestSetOwnerReferencesRefusesASecondController(t *testing.T) {
	owner := &kates.Deployment{ObjectMeta: kates.ObjectMeta{Name: "web", Namespace: "ns", UID: "uid-web"}}
	other := metav1.OwnerReference{APIVersion: "apps/v1", Kind: "StatefulSet", Name: "db", UID: "uid-db", Controller: ptr.To(true)}
	free := &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: "free", Namespace: "ns"}}
	taken := &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: "taken", Namespace: "ns", OwnerReferences: []metav1.OwnerReference{other}}}

	err := kates.SetOwnerReferences(owner, free, taken)
	var owned *kates.AlreadyOwnedError
	if !errors.As(err, &owned) || owned.Object != taken || owned.Owner.UID != "uid-db" {
		t.Fatalf("SetOwnerReferences = %v, want an *AlreadyOwnedError naming taken and its StatefulSet", err)
	}
	if len(free.OwnerReferences) != 0 || len(taken.OwnerReferences) != 1 {
		t.Errorf("a refused call changed the objects: free %v, taken %v", free.OwnerReferences, taken.OwnerReferences)
	}

	if err := kates.SetOwnerReferences(owner, free); err != nil {
		t.Fatal(err)
	}
	if err := kates.SetOwnerReferences(owner, free); err != nil {
		t.Fatalf("setting the same owner again: %v", err)
	}
	if refs := free.OwnerReferences; len(refs) != 1 || refs[0].UID != "uid-web" || refs[0].Kind != "Deployment" || !*refs[0].Controller {
		t.Errorf("owner references %v, want one controller reference to Deployment web", refs)
	}
}
