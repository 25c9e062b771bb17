package kates_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/kstatus"
	"github.com/kates-dev/kates/testenv"
)

// progressLog records what Wait's Progress callback was told.
type progressLog struct {
	mu    sync.Mutex
	calls [][]kates.ObjectStatus
}

func (l *progressLog) record(s []kates.ObjectStatus) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls = append(l.calls, s)
}

// seen reports whether any call reported an object of kind with status and a message containing
// msg.
func (l *progressLog) seen(kind string, status kstatus.Status, msg string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, call := range l.calls {
		for _, s := range call {
			if s.Kind == kind && s.Status == status && strings.Contains(s.Message, msg) {
				return true
			}
		}
	}
	return false
}

func (l *progressLog) last() []kates.ObjectStatus {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.calls) == 0 {
		return nil
	}
	return l.calls[len(l.calls)-1]
}

func asAny(objs []kates.Object) []any {
	out := make([]any, len(objs))
	for i, o := range objs {
		out[i] = o
	}
	return out
}

func TestWaitBatchOfEveryKindReachesCurrent(t *testing.T) {
	c, ns := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	objs, group := manifestWithUniqueGroup(t, "wait/batch.yaml")
	crd := objs[0].(*apiextensionsv1.CustomResourceDefinition)
	t.Cleanup(func() { _ = c.Delete(context.Background(), crd, nil) })

	// Wait starts before anything exists, the Gadget kind included: it must wait for the kind,
	// then for the objects.
	var progress progressLog
	first := make(chan struct{})
	var once sync.Once
	done := make(chan error, 1)
	begin := time.Now()
	go func() {
		done <- c.Wait(ctx, asAny(objs), kates.WaitOptions{Progress: func(s []kates.ObjectStatus) {
			progress.record(s)
			once.Do(func() { close(first) })
		}})
	}()
	select {
	case <-first:
	case err := <-done:
		t.Fatalf("Wait returned before anything was created: %v", err)
	}
	if !progress.seen("Gadget", kstatus.NotFoundStatus, "Waiting for kind") {
		t.Errorf("first progress %v: want the Gadget NotFound, waiting for its kind", progress.last())
	}

	// Wait coalesces events, so Progress promises no intermediate state: a Deployment made
	// Ready between two of Wait's views goes from NotFound to Current with nothing between.
	// To check that a state which lasts is reported, the Deployment is first applied held: its
	// Pods name a scheduler that does not exist, so they stay Pending (not Unschedulable, which
	// turns Failed after kstatus.ScheduleWindow) and the Deployment InProgress for as long as
	// the test likes. It is released, by applying the manifest as it is, once Progress said so.
	var dep *kates.Deployment
	for _, o := range objs {
		if o.GetObjectKind().GroupVersionKind().Group == group {
			if err := c.WaitFor(ctx, "gadgets."+group); err != nil {
				t.Fatal(err)
			}
		}
		apply := o
		if d, ok := o.(*kates.Deployment); ok {
			dep = d
			held := d.DeepCopy()
			held.Spec.Template.Spec.SchedulerName = "kates.dev/no-such-scheduler"
			apply = held
		}
		if err := c.Apply(ctx, apply, nil); err != nil {
			t.Fatal(err)
		}
	}
	if dep == nil {
		t.Fatal("wait/batch.yaml has no Deployment")
	}
	for !progress.seen("Deployment", kstatus.InProgressStatus, "") {
		select {
		case err := <-done:
			t.Fatalf("Wait returned while the Deployment was held: %v; last progress %v", err, progress.last())
		case <-ctx.Done():
			t.Fatalf("progress never showed the held Deployment InProgress; last progress %v", progress.last())
		case <-time.After(20 * time.Millisecond):
		}
	}
	if err := c.Apply(ctx, dep, nil); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("Wait: %v", err)
	}
	t.Logf("batch of %d objects Current %s after Wait started (%d progress calls)", len(objs), time.Since(begin).Round(time.Millisecond), len(progress.calls))

	final := progress.last()
	if len(final) != len(objs) {
		t.Fatalf("last progress has %d objects, want %d: %v", len(final), len(objs), final)
	}
	for i, s := range final {
		if s.Status != kstatus.CurrentStatus || s.Name != objs[i].GetName() {
			t.Errorf("last progress[%d] = %v, want %s Current", i, s, objs[i].GetName())
		}
	}
	// Status, one shot, judges as Wait does; the Service counts its endpoints.
	statuses, err := c.Status(ctx, asAny(objs))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range statuses {
		if s.Status != kstatus.CurrentStatus {
			t.Errorf("Status: %v, want Current", s)
		}
		if s.Kind == "Service" && !strings.Contains(s.Message, "endpoints:") {
			t.Errorf("Service message %q does not count endpoints", s.Message)
		}
		if s.Namespace != ns && s.Kind != "CustomResourceDefinition" {
			t.Errorf("%v: namespace %q, want %q", s, s.Namespace, ns)
		}
	}
}

func TestWaitForDeletionRespectsFinalizers(t *testing.T) {
	c, ns := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	plain := &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: "plain"}}
	held := &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: "held", Finalizers: []string{"kates.dev/test"}}}
	dep := deployment(ns, "web", 1)
	for _, o := range []kates.Object{plain, held, dep} {
		if err := c.Create(ctx, o, o); err != nil {
			t.Fatal(err)
		}
	}
	objects := []any{plain, held, kates.ObjectRef{Kind: "deploy", Name: "web"}}
	for _, o := range []kates.Object{plain, held, dep} {
		if err := c.Delete(ctx, o, nil); err != nil {
			t.Fatal(err)
		}
	}

	// The finalizer holds "held": a short wait times out, naming it and why.
	short, cancelShort := context.WithTimeout(ctx, time.Second)
	err := c.Wait(short, objects, kates.WaitOptions{For: kstatus.NotFoundStatus})
	cancelShort()
	var werr *kates.WaitError
	if !errors.As(err, &werr) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Wait with a finalizer pending: got %v, want a *WaitError that timed out", err)
	}
	unfinished := werr.Unfinished()
	if len(unfinished) != 1 || unfinished[0].Name != "held" || unfinished[0].Status != kstatus.TerminatingStatus ||
		!strings.Contains(unfinished[0].Message, "kates.dev/test") {
		t.Errorf("Unfinished() = %v, want only held, Terminating on kates.dev/test", unfinished)
	}
	if !strings.Contains(err.Error(), "ConfigMap "+ns+"/held: Terminating") {
		t.Errorf("error does not list held: %v", err)
	}

	done := make(chan error, 1)
	go func() { done <- c.Wait(ctx, objects, kates.WaitOptions{For: kstatus.NotFoundStatus}) }()
	var live kates.ConfigMap
	if err := c.Get(ctx, held, &live); err != nil {
		t.Fatal(err)
	}
	live.Finalizers = nil
	begin := time.Now()
	if err := c.Update(ctx, &live, nil); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("Wait for deletion: %v", err)
	}
	t.Logf("deletion wait returned %s after the finalizer was removed", time.Since(begin).Round(time.Millisecond))
}

// waitFailsFast waits for objects with a 60 s timeout and checks that Wait fails well before
// it, with the one object named failedName Failed; it returns that object's status and Wait's
// error.
func waitFailsFast(t *testing.T, ctx context.Context, c *kates.Client, objects []any, opts kates.WaitOptions, failedName string) (kates.ObjectStatus, error) {
	t.Helper()
	const timeout = 60 * time.Second
	waitCtx, cancelWait := context.WithTimeout(ctx, timeout)
	defer cancelWait()
	begin := time.Now()
	err := c.Wait(waitCtx, objects, opts)
	took := time.Since(begin)
	t.Logf("Wait returned after %s: %v", took.Round(time.Millisecond), err)
	var werr *kates.WaitError
	if !kates.IsWaitFailed(err) || !errors.As(err, &werr) {
		t.Fatalf("got %v, want a *WaitError wrapping ErrWaitFailed", err)
	}
	if took > timeout/2 {
		t.Errorf("Wait took %s, not well before its %s timeout", took, timeout)
	}
	failed := werr.Failed()
	if len(failed) != 1 || failed[0].Name != failedName {
		t.Fatalf("Failed() = %v, want %s", failed, failedName)
	}
	return failed[0], err
}

func TestWaitFailsFastNamingTheUnschedulablePod(t *testing.T) {
	c, _ := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	objs, _ := manifestWithUniqueGroup(t, "wait/unschedulable.yaml")
	for _, o := range objs {
		if err := c.Apply(ctx, o, nil); err != nil {
			t.Fatal(err)
		}
	}
	var progress progressLog
	failed, err := waitFailsFast(t, ctx, c, asAny(objs), kates.WaitOptions{Progress: progress.record}, "stuck")
	msg := failed.Message
	if !strings.Contains(msg, "pod stuck-") || !strings.Contains(msg, "Unschedulable") || !strings.Contains(msg, "node") {
		t.Errorf("message %q does not name the unschedulable pod and why", msg)
	}
	if len(failed.Related) == 0 || failed.Related[0].Kind != "Pod" {
		t.Errorf("Related = %v, want the pod", failed.Related)
	}
	if !strings.Contains(err.Error(), "pod stuck-") {
		t.Errorf("error does not name the pod: %v", err)
	}
	if !progress.seen("Deployment", kstatus.InProgressStatus, "Unschedulable") {
		t.Errorf("progress never explained the InProgress Deployment by its pod")
	}

	// Without fail-fast the wait goes on to its deadline, and says the object failed.
	short, cancelShort := context.WithTimeout(ctx, time.Second)
	defer cancelShort()
	err = c.Wait(short, asAny(objs), kates.WaitOptions{NoFailFast: true})
	var werr *kates.WaitError
	if !errors.Is(err, context.DeadlineExceeded) || kates.IsWaitFailed(err) || !errors.As(err, &werr) ||
		len(werr.Failed()) != 1 {
		t.Errorf("Wait with NoFailFast: got %v, want a timeout listing the failed Deployment", err)
	}
}

func TestWaitTimeoutListsUnfinished(t *testing.T) {
	c, ns := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cm := &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: "present"}}
	if err := c.Create(ctx, cm, cm); err != nil {
		t.Fatal(err)
	}
	dep := deployment(ns, "nowhere", 1)
	dep.Spec.Template.Spec.NodeSelector = map[string]string{"kates.dev/no-such-node": "true"}
	if err := c.Create(ctx, dep, dep); err != nil {
		t.Fatal(err)
	}
	short, cancelShort := context.WithTimeout(ctx, 3*time.Second)
	defer cancelShort()
	begin := time.Now()
	err := c.Wait(short, []any{cm, dep, kates.ObjectRef{Kind: "cm", Name: "absent"}}, kates.WaitOptions{})
	var werr *kates.WaitError
	if !errors.As(err, &werr) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v, want a *WaitError that timed out", err)
	}
	if took := time.Since(begin); took > 5*time.Second {
		t.Errorf("Wait returned %s after a 3s deadline", took)
	}
	got := map[string]kates.ObjectStatus{}
	for _, s := range werr.Unfinished() {
		got[s.Name] = s
	}
	if len(got) != 2 || got["absent"].Status != kstatus.NotFoundStatus || got["nowhere"].Status != kstatus.InProgressStatus ||
		!strings.Contains(got["nowhere"].Message, "Unschedulable") {
		t.Errorf("Unfinished() = %v, want absent NotFound and nowhere InProgress, Unschedulable", werr.Unfinished())
	}
	for _, want := range []string{"2 of 3 objects not Current", "ConfigMap " + ns + "/absent: NotFound", "Deployment " + ns + "/nowhere: InProgress"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
}

func TestWatchStatusFollowsASelection(t *testing.T) {
	c, _ := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	watchCtx, stop := context.WithCancel(ctx)
	calls := make(chan []kates.ObjectStatus, 100)
	done := make(chan error, 1)
	go func() {
		done <- c.WatchStatus(watchCtx, []any{kates.ObjectRef{Kind: "configmaps", LabelSelector: "set=w"}},
			func(s []kates.ObjectStatus) { calls <- s })
	}()
	next := func() []kates.ObjectStatus {
		t.Helper()
		select {
		case s := <-calls:
			return s
		case <-ctx.Done():
			t.Fatal("no call")
		}
		return nil
	}
	if s := next(); len(s) != 0 {
		t.Fatalf("first call %v, want an empty selection", s)
	}
	for _, name := range []string{"b", "a"} {
		cm := &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: name, Labels: map[string]string{"set": "w"}}}
		if err := c.Create(ctx, cm, nil); err != nil {
			t.Fatal(err)
		}
		_ = next()
	}
	if err := c.Create(ctx, &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: "other"}}, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Delete(ctx, &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: "b"}}, nil); err != nil {
		t.Fatal(err)
	}
	if s := next(); len(s) != 1 || s[0].Name != "a" || s[0].Status != kstatus.CurrentStatus {
		t.Errorf("after deleting b: %v, want only a, Current", s)
	}
	stop()
	if err := <-done; err != nil {
		t.Errorf("WatchStatus returned %v when its context ended, want nil", err)
	}
}

func TestWaitRejectsBadArguments(t *testing.T) {
	c, _ := newClient(t)
	ctx := context.Background()
	tests := []struct {
		name    string
		objects []any
		opts    kates.WaitOptions
		want    string
	}{
		{"unsupported status", []any{kates.ObjectRef{Kind: "cm", Name: "x"}}, kates.WaitOptions{For: kstatus.InProgressStatus}, "cannot wait for InProgress"},
		{"no kind", []any{kates.ObjectRef{Name: "x"}}, kates.WaitOptions{}, "has no kind"},
		{"not an object", []any{42}, kates.WaitOptions{}, "unsupported resource type int"},
		{"bad selector", []any{kates.ObjectRef{Kind: "cm", LabelSelector: "a in (("}}, kates.WaitOptions{}, "invalid label selector"},
		{"unstructured without kind", []any{&unstructured.Unstructured{Object: map[string]any{}}}, kates.WaitOptions{}, "has no kind"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := c.Wait(ctx, tt.objects, tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Wait() = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// TestWaitFailsFastOnAContainerThatCannotStart: a Deployment whose Pods crash loop, or whose
// image cannot be pulled, is Failed as soon as its controller's Pod shows it, and Wait returns at
// once naming the Pod and the reason. kwok plays the kubelet (testenv.SimulateLabel); the
// Deployment and ReplicaSet controllers are real.
func TestWaitFailsFastOnAContainerThatCannotStart(t *testing.T) {
	for _, reason := range []string{"CrashLoopBackOff", "ImagePullBackOff"} {
		t.Run(reason, func(t *testing.T) {
			c, ns := newClient(t)
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			dep := deployment(ns, "broken", 2)
			dep.Spec.Template.Labels[testenv.SimulateLabel] = reason
			if err := c.Create(ctx, dep, dep); err != nil {
				t.Fatal(err)
			}
			failed, _ := waitFailsFast(t, ctx, c, []any{dep}, kates.WaitOptions{}, "broken")
			if msg := failed.Message; !strings.Contains(msg, "pod broken-") || !strings.Contains(msg, reason) {
				t.Errorf("message %q does not name the pod and %s", msg, reason)
			}
		})
	}
}

// TestWaitForACondition: WaitOptions.Condition waits, as kubectl wait --for=condition=... does,
// for a status condition the real Deployment controller sets; an unmet or missing condition
// times out naming what the object has instead.
func TestWaitForACondition(t *testing.T) {
	c, ns := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	dep := deployment(ns, "web", 2)
	if err := c.Create(ctx, dep, dep); err != nil {
		t.Fatal(err)
	}
	var progress progressLog
	if err := c.Wait(ctx, []any{dep}, kates.WaitOptions{Condition: "available", Progress: progress.record}); err != nil {
		t.Fatalf("Wait for condition available: %v", err)
	}
	if last := progress.last(); len(last) != 1 || last[0].Reason != "ConditionMet" ||
		!strings.HasPrefix(last[0].Message, "condition Available is True: MinimumReplicasAvailable") {
		t.Errorf("last progress %+v, want condition Available met", last)
	}

	for _, tt := range []struct{ condition, want string }{
		{"Available=False", "condition Available is True, want False"},
		{"Frobnicated", "no condition Frobnicated yet; Deployment is available"},
	} {
		short, cancelShort := context.WithTimeout(ctx, time.Second)
		err := c.Wait(short, []any{dep}, kates.WaitOptions{Condition: tt.condition})
		cancelShort()
		var werr *kates.WaitError
		if !errors.As(err, &werr) || !errors.Is(err, context.DeadlineExceeded) || len(werr.Unfinished()) != 1 ||
			!strings.HasPrefix(werr.Unfinished()[0].Message, tt.want) || !strings.Contains(err.Error(), "without condition "+tt.condition) {
			t.Errorf("Wait for condition %s: %v; want a timeout saying %q", tt.condition, err, tt.want)
		}
	}

	for _, bad := range []kates.WaitOptions{{Condition: "=True"}, {Condition: "Ready=True=False"}, {Condition: "Ready", For: kstatus.NotFoundStatus}} {
		if err := c.Wait(ctx, []any{dep}, bad); err == nil || errors.As(err, new(*kates.WaitError)) {
			t.Errorf("Wait with %+v: %v, want an argument error", bad, err)
		}
	}
}

// TestWaitEndingBeforeTheFirstViewNamesEveryObject: a wait whose context ends before the first
// complete view (a timeout shorter than the first list on a loaded server) still lists every
// object, Unknown and not observed, instead of "0 of 0 objects".
func TestWaitEndingBeforeTheFirstViewNamesEveryObject(t *testing.T) {
	c, ns := newClient(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cm := &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: "never-seen", Namespace: ns}}
	err := c.Wait(ctx, []any{cm, kates.ObjectRef{Kind: "deploy", Name: "web"}}, kates.WaitOptions{})
	var werr *kates.WaitError
	if !errors.As(err, &werr) || !errors.Is(err, context.Canceled) {
		t.Fatalf("Wait with an ended context = %v, want a *WaitError wrapping context.Canceled", err)
	}
	got := werr.Unfinished()
	if len(got) != 2 || got[0].Kind != "ConfigMap" || got[0].Name != "never-seen" || got[0].Namespace != ns ||
		got[1].Kind != "Deployment" || got[1].Group != "apps" || got[0].Status != kstatus.UnknownStatus || got[0].Reason != "NotObserved" {
		t.Errorf("Unfinished() = %v, want both objects, Unknown and not observed", got)
	}
	if !strings.Contains(err.Error(), "2 of 2 objects not Current") {
		t.Errorf("error %q does not count both objects", err)
	}
}
