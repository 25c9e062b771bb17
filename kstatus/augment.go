package kstatus

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// ownedConditions are the condition types Augment writes and removes.
var ownedConditions = [...]ConditionType{ConditionReconciling, ConditionStalled}

// Augment computes u's status and writes it into status.conditions as the standard
// conditions, so tools that only understand Reconciling and Stalled can read it:
// InProgress sets Reconciling True, Failed sets Stalled True, and each removes the other;
// Current removes both. A Terminating object is left as it is.
//
// Condition entries of other types are not touched. An entry Augment updates keeps its
// lastTransitionTime unless its status flips, keeps any keys it has beyond
// metav1.Condition's, and gets observedGeneration from metadata.generation.
//
// On kinds with a rule of their own (Deployment, Pod, ...; see the package documentation)
// Augment ignores any Reconciling and Stalled already present when it computes: their
// controllers never write these, so the ones there are Augment's own from an earlier call,
// and honouring them would pin the object to its old status. On other kinds they may be
// the controller's, and Augment cannot tell; it honours them, as Compute does. So augment
// objects as they come from the API server, not objects augmented before and then changed
// by hand.
//
// If Compute fails (see FieldError), Augment returns its error and leaves u unchanged.
func Augment(u *unstructured.Unstructured) error {
	return AugmentAt(u, time.Time{})
}

// AugmentAt is Augment with the clock stopped at now: conditions whose status flips get
// now as their lastTransitionTime. A zero now means time.Now.
func AugmentAt(u *unstructured.Unstructured, now time.Time) error {
	res, err := compute(u, now, true)
	if err != nil {
		return err
	}
	if res.Status == TerminatingStatus {
		return nil
	}
	if now.IsZero() {
		now = time.Now()
	}
	e := &unstructuredEditor{u: u, now: now}
	for _, t := range ownedConditions {
		c, ok := findCondition(res.Conditions, t)
		if !ok {
			e.remove(string(t))
			continue
		}
		e.set(metav1.Condition{
			Type:    string(c.Type),
			Status:  metav1.ConditionStatus(c.Status),
			Reason:  c.Reason,
			Message: c.Message,
		})
	}
	return nil
}

func findCondition(conds []Condition, t ConditionType) (Condition, bool) {
	for _, c := range conds {
		if c.Type == t {
			return c, true
		}
	}
	return Condition{}, false
}
