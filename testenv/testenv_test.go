package testenv_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"

	"github.com/kates-dev/kates/testenv"
)

// cluster is this package's own cluster: Private, because the fault tests below stop its API
// server, which must not disturb other packages sharing KATES_TEST_KUBECONFIG.
var cluster *testenv.Cluster

func TestMain(m *testing.M) {
	ctx := context.Background()
	begin := time.Now()
	var err error
	cluster, err = testenv.Start(ctx, testenv.Options{Private: true, Log: os.Stderr})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Fprintf(os.Stderr, "testenv: cluster up in %s\n", time.Since(begin).Round(time.Millisecond))
	code := m.Run()
	if err := cluster.Stop(); err != nil {
		log.Print(err)
	}
	os.Exit(code)
}

func clientset(t *testing.T) kubernetes.Interface {
	t.Helper()
	cs, err := kubernetes.NewForConfig(cluster.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// namespace creates a namespace for one test and deletes it afterwards.
func namespace(t *testing.T, cs kubernetes.Interface) string {
	t.Helper()
	ns, err := cs.CoreV1().Namespaces().Create(context.Background(),
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "testenv-"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cs.CoreV1().Namespaces().Delete(context.Background(), ns.Name, metav1.DeleteOptions{})
	})
	return ns.Name
}

func TestNodesReady(t *testing.T) {
	nodes, err := clientset(t).CoreV1().Nodes().List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ready := 0
	for _, n := range nodes.Items {
		for _, c := range n.Status.Conditions {
			if c.Type == corev1.NodeReady && c.Status == corev1.ConditionTrue {
				ready++
			}
		}
		if n.Status.Allocatable.Cpu().Value() != 32 {
			t.Errorf("node %s allocatable cpu = %s, want 32", n.Name, n.Status.Allocatable.Cpu())
		}
	}
	if ready != 2 {
		t.Errorf("ready nodes = %d, want 2 (of %d)", ready, len(nodes.Items))
	}
}

func labels(app string) map[string]string { return map[string]string{"app": app} }

func podSpec() corev1.PodSpec {
	return corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "example.com/app:1"}}}
}

func TestDeploymentBecomesAvailable(t *testing.T) {
	cs := clientset(t)
	ns := namespace(t, cs)
	ctx := context.Background()
	dep := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web"},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To[int32](3),
			Selector: &metav1.LabelSelector{MatchLabels: labels("web")},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels("web")}, Spec: podSpec()},
		},
	}
	created := time.Now()
	if _, err := cs.AppsV1().Deployments(ns).Create(ctx, dep, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	var last *appsv1.Deployment
	err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 60*time.Second, true, func(ctx context.Context) (bool, error) {
		d, err := cs.AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		last = d
		for _, c := range d.Status.Conditions {
			if c.Type == appsv1.DeploymentAvailable && c.Status == corev1.ConditionTrue && d.Status.AvailableReplicas == 3 {
				return true, nil
			}
		}
		return false, nil
	})
	if err != nil {
		t.Fatalf("deployment not available within 60s: %v; last status: %+v", err, last.Status)
	}
	t.Logf("deployment of 3 available %s after creation", time.Since(created).Round(time.Millisecond))
}

func TestJobCompletes(t *testing.T) {
	cs := clientset(t)
	ns := namespace(t, cs)
	ctx := context.Background()
	spec := podSpec()
	spec.RestartPolicy = corev1.RestartPolicyNever
	job := &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Name: "once"},
		Spec:       batchv1.JobSpec{Template: corev1.PodTemplateSpec{Spec: spec}},
	}
	created := time.Now()
	if _, err := cs.BatchV1().Jobs(ns).Create(ctx, job, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	var last *batchv1.Job
	err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 60*time.Second, true, func(ctx context.Context) (bool, error) {
		j, err := cs.BatchV1().Jobs(ns).Get(ctx, "once", metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		last = j
		for _, c := range j.Status.Conditions {
			if c.Type == batchv1.JobComplete && c.Status == corev1.ConditionTrue {
				return true, nil
			}
		}
		return false, nil
	})
	if err != nil {
		t.Fatalf("job not complete within 60s: %v; last status: %+v", err, last.Status)
	}
	if last.Status.Succeeded != 1 {
		t.Errorf("succeeded = %d, want 1", last.Status.Succeeded)
	}
	t.Logf("job complete %s after creation", time.Since(created).Round(time.Millisecond))
}

func TestRestrictedIdentityIsForbidden(t *testing.T) {
	admin := clientset(t)
	ns := namespace(t, admin)
	ctx := context.Background()
	restricted, err := kubernetes.NewForConfig(cluster.RESTConfigAs("alice"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = restricted.CoreV1().ConfigMaps(ns).List(ctx, metav1.ListOptions{})
	if !apierrors.IsForbidden(err) {
		t.Fatalf("list as alice: got %v, want Forbidden", err)
	}
	_, err = restricted.CoreV1().Secrets(ns).Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "s"}}, metav1.CreateOptions{})
	if !apierrors.IsForbidden(err) {
		t.Fatalf("create as alice: got %v, want Forbidden", err)
	}
	// The kubeconfig form of the same identity is refused too.
	path, err := cluster.KubeconfigAs("alice")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
}

func TestAPIServerRestartKeepsData(t *testing.T) {
	cs := clientset(t)
	ns := namespace(t, cs)
	ctx := context.Background()
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "survivor"}, Data: map[string]string{"k": "v"}}
	if _, err := cs.CoreV1().ConfigMaps(ns).Create(ctx, cm, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := cluster.StopAPIServer(); err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 2*time.Second)
	_, err := cs.CoreV1().ConfigMaps(ns).Get(short, "survivor", metav1.GetOptions{})
	cancel()
	if err == nil {
		t.Fatal("Get succeeded while the API server was stopped")
	}
	begin := time.Now()
	if err := cluster.StartAPIServer(ctx); err != nil {
		t.Fatal(err)
	}
	t.Logf("API server restarted in %s", time.Since(begin).Round(time.Millisecond))
	got, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, "survivor", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("Get after restart: %v", err)
	}
	if got.Data["k"] != "v" {
		t.Errorf("data after restart = %v, want k=v", got.Data)
	}
}

func TestSecondAPIServerSharesEtcd(t *testing.T) {
	ctx := context.Background()
	cs := clientset(t)
	ns := namespace(t, cs)
	cfg, stop, err := cluster.StartSecondAPIServer(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	second, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "via-b"}}
	if _, err := second.CoreV1().ConfigMaps(ns).Create(ctx, cm, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, "via-b", metav1.GetOptions{}); err != nil {
		t.Fatalf("object written through B not visible through A: %v", err)
	}

	// Stopped, it answers no more (and a long -count run does not pile them up).
	stop()
	if _, err := second.CoreV1().ConfigMaps(ns).Get(ctx, "via-b", metav1.GetOptions{}); err == nil {
		t.Fatal("the second API server still answers after stop")
	}
	stop() // a second call does nothing
}

func TestCompactEtcdExpiresOldResourceVersions(t *testing.T) {
	ctx := context.Background()
	cs := clientset(t)
	ns := namespace(t, cs)
	first, err := cs.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "old"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		first.Data = map[string]string{"i": fmt.Sprint(i)}
		if first, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, first, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	list, err := cs.CoreV1().ConfigMaps(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	oldRV := list.ResourceVersion
	// More writes, then compact past oldRV.
	for i := 0; i < 3; i++ {
		first.Data = map[string]string{"j": fmt.Sprint(i)}
		if first, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, first, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	// A restarted API server's watch cache starts at the current revision; with etcd compacted
	// meanwhile, a watch resuming from before the gap must get 410 Gone, as on a real cluster.
	if err := cluster.StopAPIServer(); err != nil {
		t.Fatal(err)
	}
	rev, err := cluster.CompactEtcd(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := cluster.StartAPIServer(ctx); err != nil {
		t.Fatal(err)
	}
	t.Logf("compacted etcd at revision %d; resuming a watch from %s", rev, oldRV)
	w, err := cs.CoreV1().ConfigMaps(ns).Watch(ctx, metav1.ListOptions{ResourceVersion: oldRV})
	if err == nil {
		defer w.Stop()
		select {
		case ev := <-w.ResultChan():
			if ev.Type != watch.Error {
				t.Fatalf("first event %s, want an error", ev.Type)
			}
			err = apierrors.FromObject(ev.Object)
		case <-time.After(30 * time.Second):
			t.Fatal("no event within 30s")
		}
	}
	if !apierrors.IsResourceExpired(err) && !apierrors.IsGone(err) {
		t.Fatalf("watch from compacted RV %s: got %v, want 410 Gone", oldRV, err)
	}
}

func TestStopIsIdempotentAndCleansUp(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a second cluster")
	}
	ctx := context.Background()
	c, err := testenv.Start(ctx, testenv.Options{Private: true, NoNodes: true})
	if err != nil {
		t.Fatal(err)
	}
	dir := c.Dir()
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	if err := c.Stop(); err != nil {
		t.Fatalf("second Stop: %v", err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("data dir %s still exists after Stop (err=%v)", dir, err)
	}
	if _, err := kubernetes.NewForConfig(c.RESTConfig()); err != nil {
		t.Fatal(err)
	}
	cs, _ := kubernetes.NewForConfig(c.RESTConfig())
	short, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if _, err := cs.CoreV1().Namespaces().List(short, metav1.ListOptions{}); err == nil {
		t.Error("API server still answers after Stop")
	}
}

func TestPodLogsServedByKwok(t *testing.T) {
	cs := clientset(t)
	ns := namespace(t, cs)
	ctx := context.Background()
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "talker"}, Spec: podSpec()}
	if _, err := cs.CoreV1().Pods(ns).Create(ctx, pod, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	var logs string
	err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		body, err := cs.CoreV1().Pods(ns).GetLogs("talker", &corev1.PodLogOptions{}).DoRaw(ctx)
		logs = string(body)
		// A pod not yet running has no logs: empty, without error.
		return err == nil && logs != "", nil
	})
	if err != nil {
		t.Fatalf("no logs within 30s: last %q", logs)
	}
	for _, line := range testenv.ContainerLogLines {
		if !strings.Contains(logs, line) {
			t.Errorf("logs %q lack %q", logs, line)
		}
	}
}

// TestSimulatedContainerFailures: Pods marked with testenv.SimulateLabel show the container
// state a kubelet would, and keep it: kwok's pod-ready stage leaves them alone.
func TestSimulatedContainerFailures(t *testing.T) {
	cs := clientset(t)
	ns := namespace(t, cs)
	ctx := context.Background()
	tests := []struct {
		reason   string
		phase    corev1.PodPhase
		restarts int32
	}{
		{reason: "CrashLoopBackOff", phase: corev1.PodRunning, restarts: 3},
		{reason: "ImagePullBackOff", phase: corev1.PodPending},
		{reason: "ErrImagePull", phase: corev1.PodPending},
	}
	for _, tt := range tests {
		name := strings.ToLower(tt.reason)
		pod := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{testenv.SimulateLabel: tt.reason}},
			Spec:       podSpec(),
		}
		if _, err := cs.CoreV1().Pods(ns).Create(ctx, pod, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	// A plain Pod beside them still becomes Ready: the edit to pod-ready narrows it, no more.
	if _, err := cs.CoreV1().Pods(ns).Create(ctx, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "plain"}, Spec: podSpec()}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitPod := func(name string, done func(*corev1.Pod) bool) *corev1.Pod {
		t.Helper()
		var last *corev1.Pod
		err := wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
			p, err := cs.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
			if err != nil {
				return false, err
			}
			last = p
			return done(p), nil
		})
		if err != nil {
			t.Fatalf("pod %s: %v; last status: %+v", name, err, last.Status)
		}
		return last
	}
	hasStatuses := func(p *corev1.Pod) bool { return len(p.Status.ContainerStatuses) > 0 }
	waitPod("plain", func(p *corev1.Pod) bool {
		return p.Status.Phase == corev1.PodRunning && hasStatuses(p) && p.Status.ContainerStatuses[0].Ready
	})
	for _, tt := range tests {
		waitPod(strings.ToLower(tt.reason), hasStatuses)
	}
	// Give pod-ready, were it still to match, time to act; then every simulated Pod must still
	// show its failure.
	time.Sleep(time.Second)
	for _, tt := range tests {
		p := waitPod(strings.ToLower(tt.reason), hasStatuses)
		cst := p.Status.ContainerStatuses[0]
		if p.Status.Phase != tt.phase || cst.Ready || cst.State.Waiting == nil || cst.State.Waiting.Reason != tt.reason || cst.RestartCount != tt.restarts {
			t.Errorf("pod %s: phase %s, container %+v; want phase %s, waiting %s, %d restarts, not ready",
				p.Name, p.Status.Phase, cst, tt.phase, tt.reason, tt.restarts)
		}
	}
}
