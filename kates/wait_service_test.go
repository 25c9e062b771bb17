package kates_test

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/utils/ptr"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/kstatus"
)

// A Service is done when its ready endpoints are exactly its selected, ready, non-terminating
// Pods. The tests here wait on workloads and the Services in front of them while the real
// controllers roll them out, scale them and narrow selectors, and check at the instant each
// Wait returns, on fresh reads of the Pods and then of the EndpointSlices, that the Service
// reaches every ready Pod it selects and nothing else.

// serviceReachesExactly fails t unless Service name's ready endpoints are exactly the ready,
// non-terminating Pods it selects (with an address and not finished), read now: Pods first,
// then EndpointSlices, so the slices are at least as new as the Pods. It returns how many Pods
// the Service reaches.
func serviceReachesExactly(t *testing.T, ctx context.Context, c *kates.Client, ns, name, when string) int {
	t.Helper()
	var svc kates.Service
	if err := c.Get(ctx, &kates.Service{ObjectMeta: kates.ObjectMeta{Name: name, Namespace: ns}}, &svc); err != nil {
		t.Fatal(err)
	}
	var pods []*kates.Pod
	if err := c.List(ctx, kates.Query{Kind: "Pod", Namespace: ns}, &pods); err != nil {
		t.Fatal(err)
	}
	var slices []*kates.EndpointSlice
	if err := c.List(ctx, kates.Query{Kind: "EndpointSlice", Namespace: ns, LabelSelector: "kubernetes.io/service-name=" + name}, &slices); err != nil {
		t.Fatal(err)
	}
	endpoint := map[string]bool{}
	for _, s := range slices {
		for _, ep := range s.Endpoints {
			if ep.TargetRef != nil && ep.TargetRef.Kind == "Pod" && (ep.Conditions.Ready == nil || *ep.Conditions.Ready) {
				endpoint[ep.TargetRef.Name] = true
			}
		}
	}
	selector := labels.SelectorFromSet(svc.Spec.Selector)
	should := map[string]bool{}
	for _, p := range pods {
		if !selector.Matches(labels.Set(p.Labels)) || p.DeletionTimestamp != nil || p.Status.PodIP == "" ||
			p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed {
			continue
		}
		for _, cond := range p.Status.Conditions {
			if cond.Type == corev1.PodReady && cond.Status == corev1.ConditionTrue {
				should[p.Name] = true
			}
		}
	}
	var missing, extra []string
	for p := range should {
		if !endpoint[p] {
			missing = append(missing, p)
		}
	}
	for p := range endpoint {
		if !should[p] {
			extra = append(extra, p)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing) > 0 {
		t.Errorf("%s: Wait returned while ready pods %v were not endpoints of Service %s", when, missing, name)
	}
	if len(extra) > 0 {
		t.Errorf("%s: Wait returned while Service %s still listed as ready endpoints %v, which are gone, terminating, unready or not selected",
			when, name, extra)
	}
	return len(should)
}

// TestWaitForAServiceMeansItReachesEveryReadyPod: the EndpointSlice controller lags the Pods it
// lists, and the Wait's own watches of Deployments, Pods and EndpointSlices lag one another, so
// a Deployment can be Current while its Service does not route to every ready Pod yet. Wait on
// both must return only once it does; each round scales the Deployment so the race gets
// several chances.
func TestWaitForAServiceMeansItReachesEveryReadyPod(t *testing.T) {
	c, ns := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	dep := deployment(ns, "web", 2)
	svc := service(ns, "web", map[string]string{"app": "web"})
	for _, replicas := range []int32{2, 5, 9} {
		dep.Spec.Replicas = &replicas
		applyAll(t, ctx, c, dep, svc)
		if err := c.Wait(ctx, []any{dep, svc}, kates.WaitOptions{}); err != nil {
			t.Fatalf("%d replicas: Wait: %v", replicas, err)
		}
		if n := serviceReachesExactly(t, ctx, c, ns, "web", fmt.Sprintf("%d replicas", replicas)); n != int(replicas) {
			t.Errorf("%d replicas: the Service reaches %d ready pods after Wait", replicas, n)
		}
	}
	// Status confirms a Service's verdict on fresh reads too, and says which rule judged it.
	st, err := c.Status(ctx, []any{svc})
	if err != nil {
		t.Fatal(err)
	}
	if len(st) != 1 || st[0].Status != kstatus.CurrentStatus || st[0].Rule == "" {
		t.Errorf("Status of the Service = %+v, want Current with the rule that judged it", st)
	}
}

// TestWaitForServicesInFrontOfStatefulSetsAndDaemonSets: the same promise for the other
// workloads a Service fronts: a StatefulSet scaled up and rolled, a DaemonSet rolled, each with
// a Service in front, and a headless Service that publishes not-ready addresses (as
// StatefulSets' peer discovery does).
func TestWaitForServicesInFrontOfStatefulSetsAndDaemonSets(t *testing.T) {
	c, ns := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	db := statefulSet(ns, "db", 2)
	agent := daemonSet(ns, "agent")
	dbSvc := service(ns, "db", map[string]string{"app": "db"})
	peers := service(ns, "db-peers", map[string]string{"app": "db"})
	peers.Spec.ClusterIP = "None"
	peers.Spec.PublishNotReadyAddresses = true
	agentSvc := service(ns, "agent", map[string]string{"app": "agent"})
	for round, change := range []func(){
		func() {},
		func() { db.Spec.Replicas = ptr.To[int32](4) },
		func() { db.Spec.Template.Annotations = map[string]string{"round": "2"} },
		func() { agent.Spec.Template.Annotations = map[string]string{"round": "3"} },
		func() { db.Spec.Replicas = ptr.To[int32](1) },
	} {
		change()
		applyAll(t, ctx, c, db, agent, dbSvc, peers, agentSvc)
		if err := c.Wait(ctx, []any{db, agent, dbSvc, peers, agentSvc}, kates.WaitOptions{}); err != nil {
			t.Fatalf("round %d: Wait: %v", round, err)
		}
		when := fmt.Sprintf("round %d", round)
		if n := serviceReachesExactly(t, ctx, c, ns, "db", when); n != int(*db.Spec.Replicas) {
			t.Errorf("%s: Service db reaches %d pods, want %d", when, n, *db.Spec.Replicas)
		}
		serviceReachesExactly(t, ctx, c, ns, "db-peers", when)
		if n := serviceReachesExactly(t, ctx, c, ns, "agent", when); n == 0 {
			t.Errorf("%s: Service agent reaches no pod", when)
		}
	}
}

// TestWaitAfterRolloutsAndNarrowedSelectors: two Deployments (stable and canary) behind three
// Services, one of which ("edge") is narrowed to the canary and widened again, while both roll
// out. At the instant each Wait returns, no Service lists as a ready endpoint a Pod that is
// gone, terminating or outside its selector, and every ready Pod it selects is an endpoint.
func TestWaitAfterRolloutsAndNarrowedSelectors(t *testing.T) {
	c, ns := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	stable := labelledDeployment(ns, "stable", 3, map[string]string{"app": "web", "track": "stable"})
	canary := labelledDeployment(ns, "canary", 1, map[string]string{"app": "web", "track": "canary"})
	web := service(ns, "web", map[string]string{"app": "web"})
	stableSvc := service(ns, "web-stable", map[string]string{"track": "stable"})
	edge := service(ns, "edge", map[string]string{"app": "web"})
	wide, narrow := map[string]string{"app": "web"}, map[string]string{"app": "web", "track": "canary"}
	rollout := func(d *kates.Deployment, v int) {
		d.Spec.Template.Spec.Containers[0].Image = fmt.Sprintf("example.com/app:%d", v)
	}
	for round, change := range []func(){
		func() {},
		func() { rollout(stable, 2) },
		func() { edge.Spec.Selector = narrow },
		func() { rollout(canary, 2); rollout(stable, 3) },
		func() { edge.Spec.Selector = wide; stable.Spec.Replicas = ptr.To[int32](5) },
		func() { edge.Spec.Selector = narrow; rollout(stable, 4) },
	} {
		change()
		applyAll(t, ctx, c, stable, canary, web, stableSvc, edge)
		if err := c.Wait(ctx, []any{stable, canary, web, stableSvc, edge}, kates.WaitOptions{}); err != nil {
			t.Fatalf("round %d: Wait: %v", round, err)
		}
		when := fmt.Sprintf("round %d", round)
		total := int(*stable.Spec.Replicas + *canary.Spec.Replicas)
		if n := serviceReachesExactly(t, ctx, c, ns, "web", when); n != total {
			t.Errorf("%s: Service web reaches %d pods, want %d", when, n, total)
		}
		serviceReachesExactly(t, ctx, c, ns, "web-stable", when)
		want := total
		if len(edge.Spec.Selector) == 2 {
			want = int(*canary.Spec.Replicas)
		}
		if n := serviceReachesExactly(t, ctx, c, ns, "edge", when); n != want {
			t.Errorf("%s: Service edge (selector %v) reaches %d pods, want %d", when, edge.Spec.Selector, n, want)
		}
	}
}

func applyAll(t *testing.T, ctx context.Context, c *kates.Client, objects ...any) {
	t.Helper()
	for _, o := range objects {
		if err := c.Apply(ctx, o, nil); err != nil {
			t.Fatal(err)
		}
	}
}

func service(ns, name string, selector map[string]string) *kates.Service {
	return &kates.Service{ObjectMeta: kates.ObjectMeta{Name: name, Namespace: ns},
		Spec: kates.ServiceSpec{Selector: selector, Ports: []kates.ServicePort{{Port: 80}}}}
}

func labelledDeployment(ns, name string, replicas int32, labels map[string]string) *kates.Deployment {
	d := deployment(ns, name, replicas)
	d.Spec.Selector.MatchLabels = labels
	d.Spec.Template.Labels = labels
	return d
}

func statefulSet(ns, name string, replicas int32) *kates.StatefulSet {
	labels := map[string]string{"app": name}
	return &kates.StatefulSet{
		ObjectMeta: kates.ObjectMeta{Name: name, Namespace: ns},
		Spec: appsv1.StatefulSetSpec{
			Replicas:    ptr.To(replicas),
			ServiceName: name + "-peers",
			Selector:    &kates.LabelSelector{MatchLabels: labels},
			Template: kates.PodTemplateSpec{
				ObjectMeta: kates.ObjectMeta{Labels: labels},
				Spec:       kates.PodSpec{Containers: []kates.Container{{Name: "main", Image: "example.com/db:1"}}},
			},
		},
	}
}

func daemonSet(ns, name string) *kates.DaemonSet {
	labels := map[string]string{"app": name}
	return &kates.DaemonSet{
		ObjectMeta: kates.ObjectMeta{Name: name, Namespace: ns},
		Spec: appsv1.DaemonSetSpec{
			Selector: &kates.LabelSelector{MatchLabels: labels},
			Template: kates.PodTemplateSpec{
				ObjectMeta: kates.ObjectMeta{Labels: labels},
				Spec:       kates.PodSpec{Containers: []kates.Container{{Name: "main", Image: "example.com/agent:1"}}},
			},
		},
	}
}

// TestWaitSkipLoadBalancers: the local cluster, like kind, minikube and most CI clusters, has
// no load-balancer controller, so a LoadBalancer Service never gets an address. A plain Wait
// times out naming that; with SkipLoadBalancers it returns once the Service reaches its Pods.
func TestWaitSkipLoadBalancers(t *testing.T) {
	c, ns := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	dep := deployment(ns, "web", 2)
	lb := service(ns, "web", map[string]string{"app": "web"})
	lb.Spec.Type = "LoadBalancer"
	applyAll(t, ctx, c, dep, lb)

	short, cancelShort := context.WithTimeout(ctx, 3*time.Second)
	defer cancelShort()
	err := c.Wait(short, []any{dep, lb}, kates.WaitOptions{})
	var werr *kates.WaitError
	if !errors.As(err, &werr) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Wait on a LoadBalancer Service without a controller = %v, want a timeout", err)
	}
	unfinished := werr.Unfinished()
	if len(unfinished) != 1 || unfinished[0].Kind != "Service" || !strings.Contains(unfinished[0].Message, "load balancer") {
		t.Errorf("unfinished after the timeout = %v, want the Service, waiting for a load balancer", unfinished)
	}

	if err := c.Wait(ctx, []any{dep, lb}, kates.WaitOptions{SkipLoadBalancers: true}); err != nil {
		t.Fatalf("Wait with SkipLoadBalancers: %v", err)
	}
	if n := serviceReachesExactly(t, ctx, c, ns, "web", "SkipLoadBalancers"); n != 2 {
		t.Errorf("the Service reaches %d pods after Wait, want 2", n)
	}
}
