package main

import (
	"context"
	"errors"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/kstatus"
)

// The labels on everything the controller owns. The Deployment and Service queries select on
// managed-by, so the view never holds other programs' objects.
const (
	managedByLabel    = "app.kubernetes.io/managed-by"
	managedBySelector = managedByLabel + "=" + FieldManager
	appLabel          = "examples.kates.dev/webapp"
)

// reconcile brings one WebApp's Deployment and Service to what its spec asks, and writes its
// status. It writes only what differs from the view: a pass over a thousand settled WebApps
// sends nothing.
func (c *Controller) reconcile(ctx context.Context, app *WebApp) error {
	if app.DeletionTimestamp != nil {
		return nil // the garbage collector deletes what it owns (owner references)
	}
	key := app.Namespace + "/" + app.Name
	dep, svc := desired(app)
	if err := kates.SetOwnerReferences(app, dep, svc); err != nil {
		return c.stalled(ctx, app, "NotOwner", err)
	}
	if c.opts.Shards > 0 {
		// Sharded: stamp the WebApp's shard on what it owns, so that each replica's API
		// server sends it only its own shards' (kates.PlaceByOwnerLabel). An object without
		// the label differs from what is wanted, and the apply below stamps it.
		space := kates.ShardSpace{Key: kates.ShardByUID, Count: c.opts.Shards}
		space.StampOwnerShard(dep)
		space.StampOwnerShard(svc)
	}

	// The Deployment's kstatus: the view's, or, if we change it now, the server's answer's.
	depStatus := c.snap.Deployments[key].Status
	live := c.snap.Deployments[key].Object
	if why := deploymentDiffers(live, dep); why != "" {
		applied := &kates.Unstructured{}
		if err := c.client.Apply(ctx, dep, applied, kates.FieldManager(FieldManager), kates.ForceOwnership()); err != nil {
			return c.applyFailed(ctx, app, "Deployment", err)
		}
		fmt.Fprintf(c.opts.Log, "applied Deployment %s: %d × %s (%s)\n", key, *dep.Spec.Replicas, dep.Spec.Template.Spec.Containers[0].Image, why)
		r, err := kstatus.Compute(applied)
		if err != nil {
			return err
		}
		depStatus = *r
		live = nil
	}
	if why := serviceDiffers(c.snap.Services[key], svc); why != "" {
		if err := c.client.Apply(ctx, svc, nil, kates.FieldManager(FieldManager), kates.ForceOwnership()); err != nil {
			return c.applyFailed(ctx, app, "Service", err)
		}
		fmt.Fprintf(c.opts.Log, "applied Service %s: port %d (%s)\n", key, app.Spec.Port, why)
	}

	// The conditions follow the Deployment's computed status: Ready once it is Current (rolled
	// out and available), Stalled if it Failed (its progress deadline passed), Reconciling
	// while it rolls.
	next := app.DeepCopyObject().(*WebApp)
	next.Status.ObservedGeneration = app.Generation
	if live != nil {
		next.Status.AvailableReplicas = live.Status.AvailableReplicas
	}
	switch depStatus.Status {
	case kstatus.CurrentStatus:
		kstatus.MarkReady(next, "Available", fmt.Sprintf("%d/%d replicas available", next.Status.AvailableReplicas, app.Spec.Replicas))
	case kstatus.FailedStatus:
		kstatus.MarkStalled(next, "DeploymentFailed", depStatus.Message)
	default:
		kstatus.MarkReconciling(next, "RollingOut", orDefault(depStatus.Message, "Deployment applied"))
	}
	return c.writeStatus(ctx, app, next)
}

// applyFailed records a failed apply: as Stalled if retrying cannot help (the spec is refused,
// or the object belongs to someone else), as an error to retry otherwise.
func (c *Controller) applyFailed(ctx context.Context, app *WebApp, kind string, err error) error {
	var owned *kates.AlreadyOwnedError
	if apierrors.IsInvalid(err) || apierrors.IsBadRequest(err) || errors.As(err, &owned) {
		return c.stalled(ctx, app, "ApplyRefused", fmt.Errorf("%s: %w", kind, err))
	}
	return err
}

func (c *Controller) stalled(ctx context.Context, app *WebApp, reason string, cause error) error {
	next := app.DeepCopyObject().(*WebApp)
	next.Status.ObservedGeneration = app.Generation
	kstatus.MarkStalled(next, reason, cause.Error())
	if err := c.writeStatus(ctx, app, next); err != nil {
		return errors.Join(cause, err)
	}
	return nil // reported where the user looks; retrying will not help until the spec changes
}

// writeStatus writes next's status if it differs from app's. UpdateStatus carries the view's
// resourceVersion: if the WebApp changed meanwhile the write fails with a Conflict rather than
// overwrite a newer status, and the change's event brings another pass.
func (c *Controller) writeStatus(ctx context.Context, app, next *WebApp) error {
	if apiequality.Semantic.DeepEqual(app.Status, next.Status) {
		return nil
	}
	if err := c.client.UpdateStatus(ctx, next, nil); err != nil {
		if apierrors.IsConflict(err) || apierrors.IsNotFound(err) {
			return nil // a newer version (or its deletion) is on its way through the watch
		}
		return err
	}
	ready := kstatus.GetCondition(next, string(kstatus.ConditionReady))
	fmt.Fprintf(c.opts.Log, "status %s/%s: Ready=%s %s: %s\n", app.Namespace, app.Name, ready.Status, ready.Reason, ready.Message)
	return nil
}

// desired returns the Deployment and Service app asks for, as apply configurations: only the
// fields the controller sets, everything else left to the server's defaults and other managers.
func desired(app *WebApp) (*kates.Deployment, *kates.Service) {
	labels := map[string]string{managedByLabel: FieldManager, appLabel: app.Name}
	meta := kates.ObjectMeta{Name: app.Name, Namespace: app.Namespace, Labels: labels}
	replicas := app.Spec.Replicas
	dep := &kates.Deployment{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: meta,
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{appLabel: app.Name}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{appLabel: app.Name}},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{
					Name:  "web",
					Image: app.Spec.Image,
					Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: app.Spec.Port}},
				}}},
			},
		},
	}
	svc := &kates.Service{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Service"},
		ObjectMeta: *meta.DeepCopy(),
		Spec: corev1.ServiceSpec{
			Selector: map[string]string{appLabel: app.Name},
			Ports: []corev1.ServicePort{{Name: "http", Port: app.Spec.Port,
				TargetPort: intstr.FromString("http")}},
		},
	}
	if app.Spec.Headless {
		svc.Spec.ClusterIP = corev1.ClusterIPNone
	}
	return dep, svc
}

// deploymentDiffers says how live differs from want in the fields the controller sets, or ""
// if it does not.
func deploymentDiffers(live, want *kates.Deployment) string {
	switch {
	case live == nil:
		return "missing"
	case !ownedAs(live.ObjectMeta, want.ObjectMeta):
		return "not labelled or owned"
	case live.Spec.Replicas == nil || *live.Spec.Replicas != *want.Spec.Replicas:
		return "replicas"
	}
	lc, wc := live.Spec.Template.Spec.Containers, want.Spec.Template.Spec.Containers
	if len(lc) != 1 || lc[0].Image != wc[0].Image || len(lc[0].Ports) != 1 || lc[0].Ports[0].ContainerPort != wc[0].Ports[0].ContainerPort {
		return "container"
	}
	return ""
}

// serviceDiffers is deploymentDiffers for the Service.
func serviceDiffers(live, want *kates.Service) string {
	switch {
	case live == nil:
		return "missing"
	case !ownedAs(live.ObjectMeta, want.ObjectMeta):
		return "not labelled or owned"
	case len(live.Spec.Ports) != 1 || live.Spec.Ports[0].Port != want.Spec.Ports[0].Port:
		return "port"
	case (live.Spec.ClusterIP == corev1.ClusterIPNone) != (want.Spec.ClusterIP == corev1.ClusterIPNone):
		return "headless"
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

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
