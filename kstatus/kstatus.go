package kstatus

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Status is the computed reconcile status of one object.
type Status string

const (
	InProgressStatus  Status = "InProgress"
	FailedStatus      Status = "Failed"
	CurrentStatus     Status = "Current"
	TerminatingStatus Status = "Terminating"
	NotFoundStatus    Status = "NotFound"
	UnknownStatus     Status = "Unknown"
)

// ConditionType names one of the standard abnormal-true conditions kstatus computes.
type ConditionType string

const (
	ConditionReconciling ConditionType = "Reconciling"
	ConditionStalled     ConditionType = "Stalled"
)

// Result is the outcome of Compute.
type Result struct {
	Status     Status
	Message    string
	Conditions []Condition
}

// Condition is a standard condition computed for an object.
type Condition struct {
	Type    ConditionType
	Status  corev1.ConditionStatus
	Reason  string
	Message string
}

// Compute returns the reconcile status of u. SKELETON: the kstatus work replaces this.
func Compute(u *unstructured.Unstructured) (*Result, error) {
	return &Result{Status: UnknownStatus}, nil
}
