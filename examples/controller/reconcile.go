package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/go-logr/logr"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kates-dev/kates/controller"
	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/kstatus"
)

// FieldManager applies everything the controller writes; the view selects on managedByLabel,
// so it never holds other programs' objects.
const (
	FieldManager      = "webapp-controller"
	managedByLabel    = "app.kubernetes.io/managed-by"
	managedBySelector = managedByLabel + "=" + FieldManager
	appLabel          = "examples.kates.dev/webapp"
)

type reconciler struct{ client *kates.Client }

// reconcile brings one WebApp's Deployment and Service to what its spec asks, and writes its
// status. It is level-based: it compares the WebApp with what it owns now, whatever changed,
// and writes only what differs, so a reconcile of a settled WebApp sends nothing.
func (r *reconciler) reconcile(ctx context.Context, req controller.Request[Snapshot]) (controller.Result, error) {
	var app *WebApp
	var dep kates.Entry[*kates.Deployment]
	var svc *kates.Service
	key := req.Key.String()
	req.View(func(s *Snapshot) { app, dep, svc = s.WebApps[key], s.Deployments[key], s.Services[key] })
	if app == nil || app.DeletionTimestamp != nil {
		return controller.Result{}, nil // the garbage collector deletes what it owned
	}
	log := logr.FromContextOrDiscard(ctx) // with the WebApp's key
	wantDep, wantSvc := desired(app)
	if err := kates.SetOwnerReferences(app, wantDep, wantSvc); err != nil {
		return controller.Result{}, r.failed(ctx, app, "NotOwner", err)
	}
	// The Deployment's kstatus, as the view computed it; one we change now is rolling out,
	// and its next version in the view reconciles this WebApp again.
	status, live := dep.Status, dep.Object
	if why := deploymentDiffers(live, wantDep); why != "" {
		if err := r.client.Apply(ctx, wantDep, nil, kates.FieldManager(FieldManager), kates.ForceOwnership()); err != nil {
			return controller.Result{}, r.failed(ctx, app, "ApplyRefused", fmt.Errorf("Deployment: %w", err))
		}
		log.Info("applied Deployment", "replicas", app.Spec.Replicas, "image", app.Spec.Image, "why", why)
		status, live = kstatus.Result{Status: kstatus.InProgressStatus, Message: "Deployment applied"}, nil
	}
	if why := serviceDiffers(svc, wantSvc); why != "" {
		if err := r.client.Apply(ctx, wantSvc, nil, kates.FieldManager(FieldManager), kates.ForceOwnership()); err != nil {
			return controller.Result{}, r.failed(ctx, app, "ApplyRefused", fmt.Errorf("Service: %w", err))
		}
		log.Info("applied Service", "port", app.Spec.Port, "why", why)
	}

	// The conditions follow the Deployment's status: Ready once Current (rolled out and
	// available), Stalled if Failed (past its progress deadline), Reconciling while it rolls.
	next := app.DeepCopyObject().(*WebApp)
	next.Status.ObservedGeneration = app.Generation
	if live != nil {
		next.Status.AvailableReplicas = live.Status.AvailableReplicas
	}
	switch status.Status {
	case kstatus.CurrentStatus:
		kstatus.MarkReady(next, "Available", fmt.Sprintf("%d/%d replicas available", next.Status.AvailableReplicas, app.Spec.Replicas))
	case kstatus.FailedStatus:
		kstatus.MarkStalled(next, "DeploymentFailed", status.Message)
	default:
		kstatus.MarkReconciling(next, "RollingOut", status.Message)
	}
	return controller.Result{}, r.writeStatus(ctx, app, next)
}

// failed reports err as Stalled, where the user looks, if retrying cannot help until the spec
// changes (it is refused, or an object belongs to someone else), and returns it to be retried
// otherwise.
func (r *reconciler) failed(ctx context.Context, app *WebApp, reason string, err error) error {
	var owned *kates.AlreadyOwnedError
	if reason == "ApplyRefused" && !apierrors.IsInvalid(err) && !apierrors.IsBadRequest(err) && !errors.As(err, &owned) {
		return err
	}
	next := app.DeepCopyObject().(*WebApp)
	next.Status.ObservedGeneration = app.Generation
	kstatus.MarkStalled(next, reason, err.Error())
	return r.writeStatus(ctx, app, next)
}

// writeStatus writes next's status if it differs from app's, at the view's resourceVersion: a
// WebApp changed meanwhile gives a Conflict, not an overwrite, and its change a new reconcile.
func (r *reconciler) writeStatus(ctx context.Context, app, next *WebApp) error {
	if apiequality.Semantic.DeepEqual(app.Status, next.Status) {
		return nil
	}
	if err := r.client.UpdateStatus(ctx, next, nil); err != nil && !apierrors.IsConflict(err) && !apierrors.IsNotFound(err) {
		return err
	}
	ready := kstatus.GetCondition(next, string(kstatus.ConditionReady))
	logr.FromContextOrDiscard(ctx).Info("status", "ready", ready.Status, "reason", ready.Reason, "message", ready.Message)
	return nil
}

// desired returns the Deployment and Service app asks for, as apply configurations: only the
// fields the controller sets, everything else left to the server's defaults and other managers.
func desired(app *WebApp) (*kates.Deployment, *kates.Service) {
	labels := map[string]string{managedByLabel: FieldManager, appLabel: app.Name}
	meta := kates.ObjectMeta{Name: app.Name, Namespace: app.Namespace, Labels: labels}
	selector := map[string]string{appLabel: app.Name}
	replicas := app.Spec.Replicas
	dep := &kates.Deployment{
		TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"}, ObjectMeta: meta,
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: selector},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: selector},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: app.Spec.Image,
					Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: app.Spec.Port}}}}},
			},
		},
	}
	svc := &kates.Service{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Service"}, ObjectMeta: *meta.DeepCopy(),
		Spec: corev1.ServiceSpec{Selector: selector, Ports: []corev1.ServicePort{{Name: "http", Port: app.Spec.Port,
			TargetPort: intstr.FromString("http")}}},
	}
	if app.Spec.Headless {
		svc.Spec.ClusterIP = corev1.ClusterIPNone
	}
	return dep, svc
}

// deploymentDiffers says how live differs from want in the fields the controller sets, or "".
func deploymentDiffers(live, want *kates.Deployment) string {
	if live == nil || !ownedAs(live.ObjectMeta, want.ObjectMeta) {
		return "missing, or not labelled and owned"
	}
	lc, wc := live.Spec.Template.Spec.Containers, want.Spec.Template.Spec.Containers
	if live.Spec.Replicas == nil || *live.Spec.Replicas != *want.Spec.Replicas || len(lc) != 1 || lc[0].Image != wc[0].Image ||
		len(lc[0].Ports) != 1 || lc[0].Ports[0].ContainerPort != wc[0].Ports[0].ContainerPort {
		return "spec"
	}
	return ""
}

// serviceDiffers is deploymentDiffers for the Service.
func serviceDiffers(live, want *kates.Service) string {
	if live == nil || !ownedAs(live.ObjectMeta, want.ObjectMeta) {
		return "missing, or not labelled and owned"
	}
	if len(live.Spec.Ports) != 1 || live.Spec.Ports[0].Port != want.Spec.Ports[0].Port ||
		(live.Spec.ClusterIP == corev1.ClusterIPNone) != (want.Spec.ClusterIP == corev1.ClusterIPNone) {
		return "spec"
	}
	return ""
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
