package main

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kates-dev/kates/kates"
)

// WebApp is the custom resource (testdata/crd.yaml), as a Go struct of our own: the view
// converts each WebApp into it once, as it arrives. DeepCopyObject makes it a runtime.Object
// for the client's writes, Get/SetConditions a kstatus.Object for the condition helpers.
type WebApp struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              WebAppSpec   `json:"spec"`
	Status            WebAppStatus `json:"status,omitempty"`
}

// WebAppSpec is what the user asks for.
type WebAppSpec struct {
	Image    string `json:"image"`
	Replicas int32  `json:"replicas"`
	Port     int32  `json:"port"`
	// Headless: clusterIP None. It cannot change: flipping it leaves the WebApp Stalled.
	Headless bool `json:"headless,omitempty"`
}

// WebAppStatus is what the controller reports; ObservedGeneration says which spec it is of.
type WebAppStatus struct {
	ObservedGeneration int64              `json:"observedGeneration,omitempty"`
	AvailableReplicas  int32              `json:"availableReplicas,omitempty"`
	Conditions         []metav1.Condition `json:"conditions,omitempty"`
}

func (w *WebApp) DeepCopyObject() runtime.Object {
	out := *w
	w.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Status.Conditions = append([]metav1.Condition(nil), w.Status.Conditions...)
	return &out
}

func (w *WebApp) GetConditions() []metav1.Condition  { return w.Status.Conditions }
func (w *WebApp) SetConditions(c []metav1.Condition) { w.Status.Conditions = c }

// Snapshot is the controller's view: every WebApp, and the Deployments and Services it owns
// (selected by the managed-by label, so the view holds nothing else), each Deployment with its
// computed kstatus.
type Snapshot struct {
	WebApps     map[string]*WebApp // keyed "namespace/name"
	Deployments map[string]kates.Entry[*kates.Deployment]
	Services    map[string]*kates.Service
}
