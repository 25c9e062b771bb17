package kates_test

import (
	"context"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/kstatus"
)

// States the real controllers of the local cluster play, where a wait once hung or ended early:
// an OnDelete DaemonSet after a template change, a suspended Job, a paused Deployment.

// TestWaitOnDeleteDaemonSetAfterATemplateChange: an OnDelete DaemonSet replaces its Pods only
// when someone deletes them, so after a template change it is done once its controller has
// seen the change and its Pods are available, as kubectl rollout status says. It was
// InProgress for ever, and a wait hung to its timeout.
func TestWaitOnDeleteDaemonSetAfterATemplateChange(t *testing.T) {
	c, ns := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	ds := daemonSet(ns, "agent")
	ds.Spec.UpdateStrategy = appsv1.DaemonSetUpdateStrategy{Type: appsv1.OnDeleteDaemonSetStrategyType}
	applyAll(t, ctx, c, ds)
	if err := c.Wait(ctx, []any{ds}, kates.WaitOptions{}); err != nil {
		t.Fatalf("first rollout: %v", err)
	}
	ds.Spec.Template.Annotations = map[string]string{"change": "1"}
	applyAll(t, ctx, c, ds)
	waitCtx, cancelWait := context.WithTimeout(ctx, 30*time.Second)
	defer cancelWait()
	if err := c.Wait(waitCtx, []any{ds}, kates.WaitOptions{}); err != nil {
		t.Fatalf("after a template change: %v", err)
	}
	var got kates.DaemonSet
	if err := c.Get(ctx, ds, &got); err != nil {
		t.Fatal(err)
	}
	if got.Status.ObservedGeneration != got.Generation {
		t.Errorf("Wait returned before the controller saw generation %d (observed %d)", got.Generation, got.Status.ObservedGeneration)
	}
	if got.Status.UpdatedNumberScheduled == got.Status.DesiredNumberScheduled {
		t.Logf("note: the controller replaced the pods (%d updated), so this round did not test OnDelete", got.Status.UpdatedNumberScheduled)
	}
}

// TestWaitSuspendedJob: a Job created suspended is done once its controller has suspended it
// (the Suspended condition), not before: until then it may still start Pods.
func TestWaitSuspendedJob(t *testing.T) {
	c, ns := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	job := job(ns, "later")
	job.Spec.Suspend = ptr.To(true)
	if err := c.Create(ctx, job, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Wait(ctx, []any{job}, kates.WaitOptions{}); err != nil {
		t.Fatalf("Wait: %v", err)
	}
	var got kates.Job
	if err := c.Get(ctx, job, &got); err != nil {
		t.Fatal(err)
	}
	suspended := false
	for _, cond := range got.Status.Conditions {
		suspended = suspended || (cond.Type == batchv1.JobSuspended && cond.Status == corev1.ConditionTrue)
	}
	if !suspended {
		t.Errorf("Wait returned before the Job controller suspended the Job: conditions %v", got.Status.Conditions)
	}
}

// TestWaitPausedDeploymentFailsFastNamingThePause: a Deployment paused in the middle of a
// rollout will not progress until someone resumes it; a wait on it used to hang to its timeout
// with no hint. It fails fast, naming the pause.
func TestWaitPausedDeploymentFailsFastNamingThePause(t *testing.T) {
	c, ns := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	dep := deployment(ns, "web", 2)
	applyAll(t, ctx, c, dep)
	if err := c.Wait(ctx, []any{dep}, kates.WaitOptions{}); err != nil {
		t.Fatalf("first rollout: %v", err)
	}
	dep.Spec.Paused = true
	dep.Spec.Template.Spec.Containers[0].Image = "example.com/app:2"
	applyAll(t, ctx, c, dep)
	failed, _ := waitFailsFast(t, ctx, c, []any{dep}, kates.WaitOptions{}, "web")
	if failed.Reason != "DeploymentPaused" || !strings.Contains(failed.Message, "paused") {
		t.Errorf("failed = %s (reason %s), want reason DeploymentPaused and the pause named", failed, failed.Reason)
	}
	st, err := c.Status(ctx, []any{dep})
	if err != nil {
		t.Fatal(err)
	}
	if len(st) != 1 || st[0].Status != kstatus.FailedStatus {
		t.Errorf("Status = %v, want the Deployment Failed", st)
	}
}
