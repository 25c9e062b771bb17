package controllers_test

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// The WebApp kind, as examples/controller defines it (testdata/webapp-crd.yaml is a copy of
// its CustomResourceDefinition), typed by hand: controller-runtime's cache needs the type in a
// scheme, with DeepCopyObject; kates decodes into it as into any struct.

const (
	group        = "examples.kates.dev"
	version      = "v1alpha1"
	fieldManager = "webapp-bench" // both peers apply as this manager, so each finds the other's work settled
	appLabel     = "examples.kates.dev/webapp"
	managedBy    = "app.kubernetes.io/managed-by"
)

var webAppGVK = schema.GroupVersionKind{Group: group, Version: version, Kind: "WebApp"}

type WebApp struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              WebAppSpec   `json:"spec"`
	Status            WebAppStatus `json:"status,omitempty"`
}

type WebAppSpec struct {
	Image    string `json:"image"`
	Replicas int32  `json:"replicas"`
	Port     int32  `json:"port"`
	Headless bool   `json:"headless,omitempty"`
}

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

type WebAppList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []WebApp `json:"items"`
}

func (l *WebAppList) DeepCopyObject() runtime.Object {
	out := &WebAppList{TypeMeta: l.TypeMeta}
	l.ListMeta.DeepCopyInto(&out.ListMeta)
	out.Items = make([]WebApp, len(l.Items))
	for i := range l.Items {
		out.Items[i] = *l.Items[i].DeepCopyObject().(*WebApp)
	}
	return out
}

// writer is how a reconcile writes: each peer's client, with the same requests (server-side
// apply with ForceOwnership as fieldManager, strict field validation; status by update, with
// the resourceVersion read).
type writer interface {
	apply(ctx context.Context, obj any) error // a *appsv1.Deployment or *corev1.Service
	updateStatus(ctx context.Context, app *WebApp) error
}

// reconcileWebApp is the WebApp logic both peers run, given the WebApp and its live
// Deployment and Service as the peer's cache or view has them (nil if absent): examples/
// controller's reconcile without its kstatus rules. It applies the Deployment and Service if
// they differ from what the WebApp asks for, in the fields the controller sets, and records
// the generation it acted on in the status. It writes nothing for a settled WebApp.
func reconcileWebApp(ctx context.Context, app *WebApp, dep *appsv1.Deployment, svc *corev1.Service, w writer) error {
	if app == nil || app.DeletionTimestamp != nil {
		return nil // the garbage collector deletes what it owns
	}
	wantDep, wantSvc := desired(app)
	if deploymentDiffers(dep, wantDep) {
		if err := w.apply(ctx, wantDep); err != nil {
			return err
		}
	}
	if serviceDiffers(svc, wantSvc) {
		if err := w.apply(ctx, wantSvc); err != nil {
			return err
		}
	}
	if app.Status.ObservedGeneration == app.Generation {
		return nil
	}
	next := app.DeepCopyObject().(*WebApp)
	next.TypeMeta = metav1.TypeMeta{APIVersion: webAppGVK.GroupVersion().String(), Kind: webAppGVK.Kind}
	next.Status.ObservedGeneration = app.Generation
	if err := w.updateStatus(ctx, next); err != nil && !apierrors.IsConflict(err) && !apierrors.IsNotFound(err) {
		return err // a Conflict: a newer version is on its way through the watch
	}
	return nil
}

// desired returns the Deployment (replicas as asked: 0 in the fixtures, so no Pods) and the
// Service app asks for. The Service is headless (clusterIP None) whatever the WebApp says:
// 50,000 Services with virtual IPs would exhaust the local cluster's service range.
func desired(app *WebApp) (*appsv1.Deployment, *corev1.Service) {
	yes := true
	meta := metav1.ObjectMeta{Name: app.Name, Namespace: app.Namespace,
		Labels: map[string]string{managedBy: fieldManager, appLabel: app.Name},
		OwnerReferences: []metav1.OwnerReference{{APIVersion: group + "/" + version, Kind: "WebApp",
			Name: app.Name, UID: app.UID, Controller: &yes, BlockOwnerDeletion: &yes}}}
	replicas := app.Spec.Replicas
	dep := &appsv1.Deployment{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: meta,
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{appLabel: app.Name}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{appLabel: app.Name}},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{
					Name: "web", Image: app.Spec.Image,
					Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: app.Spec.Port}},
				}}},
			},
		},
	}
	svc := &corev1.Service{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Service"},
		ObjectMeta: *meta.DeepCopy(),
		Spec: corev1.ServiceSpec{
			ClusterIP: corev1.ClusterIPNone,
			Selector:  map[string]string{appLabel: app.Name},
			Ports:     []corev1.ServicePort{{Name: "http", Port: app.Spec.Port, TargetPort: intstr.FromString("http")}},
		},
	}
	return dep, svc
}

func deploymentDiffers(live, want *appsv1.Deployment) bool {
	if live == nil || !ownedAs(live.ObjectMeta, want.ObjectMeta) ||
		live.Spec.Replicas == nil || *live.Spec.Replicas != *want.Spec.Replicas {
		return true
	}
	lc, wc := live.Spec.Template.Spec.Containers, want.Spec.Template.Spec.Containers
	return len(lc) != 1 || lc[0].Image != wc[0].Image || len(lc[0].Ports) != 1 || lc[0].Ports[0].ContainerPort != wc[0].Ports[0].ContainerPort
}

func serviceDiffers(live, want *corev1.Service) bool {
	return live == nil || !ownedAs(live.ObjectMeta, want.ObjectMeta) ||
		len(live.Spec.Ports) != 1 || live.Spec.Ports[0].Port != want.Spec.Ports[0].Port ||
		live.Spec.ClusterIP != corev1.ClusterIPNone
}

// ownedAs reports whether live carries want's labels and controller reference.
func ownedAs(live, want metav1.ObjectMeta) bool {
	for k, v := range want.Labels {
		if live.Labels[k] != v {
			return false
		}
	}
	ref := metav1.GetControllerOfNoCopy(&live)
	return ref != nil && ref.UID == want.OwnerReferences[0].UID
}
