package kstatus

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// Status is the computed reconcile status of one object.
type Status string

const (
	// InProgressStatus means the controller has not yet made the object match its
	// latest spec.
	InProgressStatus Status = "InProgress"
	// FailedStatus means the controller gave up, or a rule sees that waiting will not
	// help. It is not terminal: a later version of the object may become Current.
	FailedStatus Status = "Failed"
	// CurrentStatus means the latest change has been fully reconciled.
	CurrentStatus Status = "Current"
	// TerminatingStatus means the object is being deleted.
	TerminatingStatus Status = "Terminating"
	// NotFoundStatus is never returned by Compute; callers that look an object up
	// use it when the object does not exist, for example to wait for a deletion.
	NotFoundStatus Status = "NotFound"
	// UnknownStatus means a field kstatus needs has a value it cannot interpret.
	UnknownStatus Status = "Unknown"
)

// statuses lists every Status, in the order Statuses returns them.
var statuses = [...]Status{
	InProgressStatus, FailedStatus, CurrentStatus, TerminatingStatus, NotFoundStatus, UnknownStatus,
}

// Statuses returns every Status, NotFound included. The slice is the caller's to keep.
func Statuses() []Status {
	return append([]Status(nil), statuses[:]...)
}

// ParseStatus returns the Status named by s, ignoring case ("current" is CurrentStatus).
// It accepts every Status, NotFound included.
func ParseStatus(s string) (Status, error) {
	for _, st := range statuses {
		if strings.EqualFold(s, string(st)) {
			return st, nil
		}
	}
	return "", fmt.Errorf("kstatus: unknown status %q (want one of %v)", s, statuses)
}

// ConditionType names a condition kstatus reads or writes.
type ConditionType string

const (
	// ConditionReconciling is True while the controller works on the latest change.
	// It is abnormal-true: absent means False.
	ConditionReconciling ConditionType = "Reconciling"
	// ConditionStalled is True when the controller cannot make progress.
	// It is abnormal-true: absent means False.
	ConditionStalled ConditionType = "Stalled"
	// ConditionReady is the normal-true summary most controllers already publish.
	// Compute honours it for kinds without a rule of their own; MarkReconciling,
	// MarkStalled and MarkReady keep it consistent with the two conditions above.
	ConditionReady ConditionType = "Ready"
)

// Result is the outcome of Compute.
//
// A Result belongs to the caller: Compute allocates a new one per call, so it may be
// kept and changed freely.
type Result struct {
	Status Status
	// Message says, for a person, why the object has this Status. When the Status is not
	// Current it names what is short, counts written have/want ("Available: 1/3"). It does
	// not repeat the object's name: every caller that shows a Result shows the object too.
	Message string
	// Conditions holds the standard condition implied by Status: Reconciling True for
	// InProgress, Stalled True for Failed, nothing otherwise. Augment writes these.
	Conditions []Condition
}

// Condition is a standard condition computed for an object.
type Condition struct {
	Type    ConditionType
	Status  corev1.ConditionStatus
	Reason  string
	Message string
}

// Aggregate folds the statuses of several objects into one, for a caller waiting for all
// of them to reach desired. Any Failed gives Failed, then any Unknown gives Unknown, so a
// wait on a set stops at the first object that will not get there on its own. If every
// status is desired, or there are none, the result is desired; otherwise InProgress.
func Aggregate(statuses []Status, desired Status) Status {
	all, unknown := true, false
	for _, s := range statuses {
		switch s {
		case FailedStatus:
			return FailedStatus
		case UnknownStatus:
			unknown = true
		}
		if s != desired {
			all = false
		}
	}
	switch {
	case unknown:
		return UnknownStatus
	case all:
		return desired
	}
	return InProgressStatus
}
