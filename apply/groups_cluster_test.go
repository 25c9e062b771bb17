package apply_test

import (
	"context"
	"errors"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kates-dev/kates/apply"
	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/kstatus"
	"github.com/kates-dev/kates/testenv"
)

// write is one write request the client sent, as a recording transport saw it leave.
type write struct {
	at             time.Time
	method         string
	resource, name string // the last two parts of the path: "statefulsets", "db"
}

// recorder keeps every write request a client sends, in order, and the lists it sends at
// resourceVersion "0" (which the API server may answer without a write just made).
type recorder struct {
	mu       sync.Mutex
	writes   []write
	anyLists []string
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// recordingClient returns a client of a new namespace whose every write request is recorded
// as it is sent: the record that no object of a group was written before the group before it
// was ready.
func recordingClient(t *testing.T) (*kates.Client, string, *recorder) {
	t.Helper()
	ns := newNamespace(t)
	rec := &recorder{}
	cfg := cluster.RESTConfig()
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(r *http.Request) (*http.Response, error) {
			if r.Method != http.MethodGet {
				parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
				w := write{at: time.Now(), method: r.Method, name: parts[len(parts)-1]}
				if len(parts) > 1 {
					w.resource = parts[len(parts)-2]
				}
				rec.mu.Lock()
				rec.writes = append(rec.writes, w)
				rec.mu.Unlock()
			}
			if q := r.URL.Query(); r.Method == http.MethodGet && q.Get("watch") != "true" && q.Get("resourceVersion") == "0" {
				rec.mu.Lock()
				rec.anyLists = append(rec.anyLists, r.URL.String())
				rec.mu.Unlock()
			}
			return rt.RoundTrip(r)
		})
	})
	c, err := kates.NewClientFromRESTConfig(cfg, ns)
	require.NoError(t, err)
	return c, ns, rec
}

// firstWrite is when the first write of resource/name was sent; zero if none was.
func (r *recorder) firstWrite(resource, name string) time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, w := range r.writes {
		if w.resource == resource && w.name == name {
			return w.at
		}
	}
	return time.Time{}
}

// resourceOf is the resource of a kind in the stacks' paths.
func resourceOf(kind string) string {
	if strings.HasSuffix(kind, "s") {
		return strings.ToLower(kind) + "es"
	}
	return strings.ToLower(kind) + "s"
}

// gateChecker checks, as each group but the first starts, that the server has every object
// of the group before it Current and none of the group's own yet; and notes when each group
// was ready.
type gateChecker struct {
	t       *testing.T
	c       *kates.Client
	readyAt map[int]time.Time
}

func (g *gateChecker) onGroup(ev apply.GroupEvent) {
	switch ev.Phase {
	case apply.GroupReady:
		g.readyAt[ev.Index] = time.Now()
	case apply.GroupApplying:
		if ev.Index == 0 {
			return
		}
		ctx := context.Background()
		for _, o := range ev.Objects {
			err := g.c.Get(ctx, kates.NewUnstructured(o.GroupVersionKind.GroupVersion().String(), o.GroupVersionKind.Kind, o.Namespace, o.Name), nil)
			assert.Truef(g.t, apierrors.IsNotFound(err), "%s of group %s exists before its group is applied: %v", o, ev.Group, err)
		}
	}
}

// checkBefore checks, as group index starts, that the previous group's objects are all Current
// as the server has them now.
func (g *gateChecker) checkBefore(res func() *apply.Result) func(apply.GroupEvent) {
	return func(ev apply.GroupEvent) {
		g.onGroup(ev)
		if ev.Phase != apply.GroupApplying || ev.Index == 0 {
			return
		}
		r := res()
		for _, i := range r.Groups[ev.Index-1].Objects {
			o := r.Objects[i]
			u := &unstructured.Unstructured{}
			require.NoError(g.t, g.c.Get(context.Background(), kates.NewUnstructured(o.GroupVersionKind.GroupVersion().String(), o.GroupVersionKind.Kind, o.Namespace, o.Name), u))
			st, err := kstatus.Compute(u)
			require.NoError(g.t, err)
			assert.Equalf(g.t, kstatus.CurrentStatus, st.Status, "%s of group %s is %s (%s) as group %s starts", o, r.Groups[ev.Index-1], st.Status, st.Message, ev.Group)
		}
	}
}

// TestRunGroupsGateEachGroup: a database (StatefulSet and Service), a Job that seeds it and
// an app (Deployment and Service) that reads it, listed app first, are applied in the order
// their annotations say — kates' own, Argo CD sync waves, Helm's HIP-0025 — with each gate
// observed: when a group starts, the server has every object of the group before it Current
// and no object of its own; every write of a group is sent after the group before it was
// ready; and the server's own times agree (the seed Job completed before the app was created).
// The three conventions give the same order.
func TestRunGroupsGateEachGroup(t *testing.T) {
	var orders [][]string
	for _, tt := range []struct {
		file   string
		groups []string
	}{
		{"stack-kates.yaml", []string{"db", "seed", "app"}},
		{"stack-argocd.yaml", []string{"wave -1", "wave 0", "wave 5"}},
		{"stack-helm.yaml", []string{"db", "seed", "app"}},
	} {
		t.Run(tt.file, func(t *testing.T) {
			c, ns, rec := recordingClient(t)
			objs, _ := manifests(t, c, tt.file)
			var res *apply.Result
			gates := &gateChecker{t: t, c: c, readyAt: map[int]time.Time{}}
			var planned apply.Result
			opts := apply.Options{Wait: true, GroupTimeout: time.Minute, OnGroup: func(ev apply.GroupEvent) {
				if ev.Phase == apply.GroupPlanned {
					planned.Groups = append(planned.Groups, ev.Group)
					planned.Objects = append(planned.Objects, ev.Objects...)
				}
				gates.checkBefore(func() *apply.Result { return &planned })(ev)
			}}
			res, err := apply.Run(timeout(t), c, objs, opts)
			require.NoError(t, err)

			var names []string
			var order []string
			for _, g := range res.Groups {
				names = append(names, g.Name)
				var members []string
				for _, i := range g.Objects {
					o := res.Objects[i]
					members = append(members, o.GroupVersionKind.Kind+" "+o.Name)
					assert.Equal(t, g.Name, o.Group, "%s: Group", o)
					assert.Equal(t, kstatus.CurrentStatus, o.Status.Status, "%s", o)
				}
				order = append(order, strings.Join(members, ", "))
			}
			if diff := cmp.Diff(tt.groups, names); diff != "" {
				t.Errorf("groups mismatch (-want +got):\n%s", diff)
			}
			orders = append(orders, order)

			// The recorded writes: each group's after the group before was ready.
			for gi := 1; gi < len(res.Groups); gi++ {
				for _, i := range res.Groups[gi].Objects {
					o := res.Objects[i]
					sent := rec.firstWrite(resourceOf(o.GroupVersionKind.Kind), o.Name)
					require.False(t, sent.IsZero(), "%s: no write recorded", o)
					assert.Truef(t, sent.After(gates.readyAt[gi-1]), "%s written at %s, before group %s was ready at %s",
						o, sent.Format(time.StampMicro), res.Groups[gi-1], gates.readyAt[gi-1].Format(time.StampMicro))
				}
			}
			// The server's times: the seed completed before the app was created.
			job, web := &kates.Job{}, &kates.Deployment{}
			require.NoError(t, c.Get(context.Background(), kates.NewUnstructured("batch/v1", "Job", ns, "seed"), job))
			require.NoError(t, c.Get(context.Background(), kates.NewUnstructured("apps/v1", "Deployment", ns, "web"), web))
			require.NotNil(t, job.Status.CompletionTime)
			assert.False(t, web.CreationTimestamp.Before(job.Status.CompletionTime), "app created at %s, before the seed completed at %s", web.CreationTimestamp, job.Status.CompletionTime)
		})
	}
	for i := 1; i < len(orders); i++ {
		if diff := cmp.Diff(orders[0], orders[i]); diff != "" {
			t.Errorf("the conventions order the stack differently (-kates +other):\n%s", diff)
		}
	}
}

// stuckDeployment is a Deployment no Node can run: its Pod is created and never scheduled,
// so kstatus never calls it Current, and .status.replicas is 1 and .status.unavailableReplicas
// 1 for good.
func stuckDeployment(name string, annotations map[string]string) *kates.Deployment {
	d := &kates.Deployment{}
	d.Name, d.Annotations = name, annotations
	d.Spec.Selector = &kates.LabelSelector{MatchLabels: map[string]string{"app": name}}
	d.Spec.Template.Labels = map[string]string{"app": name}
	d.Spec.Template.Spec.NodeSelector = map[string]string{"no-such-node": "true"}
	d.Spec.Template.Spec.Containers = []kates.Container{{Name: "c", Image: "example.com/c:1"}}
	return d
}

// grouped is a ConfigMap in group "next", after group "gate".
func grouped(name string) map[string]any {
	cm := configMap(name, "1")
	cm["metadata"].(map[string]any)["annotations"] = map[string]any{apply.GroupAnnotation: "next", apply.DependsOnAnnotation: "gate"}
	return cm
}

// TestRunGroupsStopAtAFailedObject: a Deployment in the first group whose Pod cannot pull its
// image is Failed; the run stops at once with a GroupError naming the group, the object and
// why, and nothing of the next group is written.
func TestRunGroupsStopAtAFailedObject(t *testing.T) {
	c, ns, rec := recordingClient(t)
	broken := stuckDeployment("broken", map[string]string{apply.GroupAnnotation: "gate"})
	broken.Spec.Template.Spec.NodeSelector = nil
	broken.Spec.Template.Labels[testenv.SimulateLabel] = "ImagePullBackOff"
	began := time.Now()
	res, err := apply.Run(timeout(t), c, []any{grouped("after"), broken}, apply.Options{Wait: true, GroupTimeout: time.Minute})
	var gerr *apply.GroupError
	require.ErrorAs(t, err, &gerr)
	assert.True(t, kates.IsWaitFailed(err), "errors.Is(err, kates.ErrWaitFailed): %v", err)
	assert.Less(t, time.Since(began), 50*time.Second, "the failure did not stop the run at once")
	for _, want := range []string{"group gate (1 of 2) not ready (groups not applied: next)", "Deployment " + ns + "/broken: Failed", "ImagePullBackOff"} {
		assert.Contains(t, err.Error(), want)
	}
	assert.Equal(t, []string{"Deployment broken applied", "ConfigMap after not applied"}, actions(res))
	assert.True(t, rec.firstWrite("configmaps", "after").IsZero(), "the ConfigMap of the next group was written")
	err = c.Get(context.Background(), kates.NewUnstructured("v1", "ConfigMap", ns, "after"), nil)
	assert.True(t, apierrors.IsNotFound(err), "configmap after: %v, want NotFound", err)
}

// TestRunGroupsHonourReadinessExpressions: an object's readiness annotations decide its gate
// instead of its kstatus. A Deployment that can never be Current passes the gate once its
// expression holds (HIP-0025's JSONPath, kates' CEL), and one whose failure expression holds
// stops the run.
func TestRunGroupsHonourReadinessExpressions(t *testing.T) {
	gate := func(more map[string]string) map[string]string {
		a := map[string]string{apply.GroupAnnotation: "gate"}
		for k, v := range more {
			a[k] = v
		}
		return a
	}
	t.Run("ready", func(t *testing.T) {
		c, ns, rec := recordingClient(t)
		objs := []any{
			grouped("after"),
			stuckDeployment("helm", gate(map[string]string{
				"helm.sh/readiness-success": `["{.replicas} == 1"]`,
				"helm.sh/readiness-failure": `["{.replicas} > 1"]`,
			})),
			stuckDeployment("cel", gate(map[string]string{apply.ReadyWhenAnnotation: "has(self.status.replicas) && self.status.replicas == 1"})),
		}
		res, err := apply.Run(timeout(t), c, objs, apply.Options{Wait: true, GroupTimeout: time.Minute})
		require.NoError(t, err)
		for _, o := range res.Objects {
			require.NotNil(t, o.Status, "%s", o)
			assert.Equal(t, kstatus.CurrentStatus, o.Status.Status, "%s: %s", o, o.Status.Message)
		}
		assert.Contains(t, res.Objects[0].Status.Message, "helm.sh/readiness-success: {.replicas} == 1")
		require.NoError(t, c.Get(context.Background(), kates.NewUnstructured("v1", "ConfigMap", ns, "after"), nil))
		rec.mu.Lock()
		defer rec.mu.Unlock()
		assert.Empty(t, rec.anyLists, "the waits listed at any resource version, maybe from before the apply")
	})
	for _, tt := range []struct {
		name        string
		annotations map[string]string
		want        string
	}{
		{"failed by HIP-0025", map[string]string{
			"helm.sh/readiness-success": `["{.availableReplicas} >= 1"]`,
			"helm.sh/readiness-failure": `["{.unavailableReplicas} >= 1"]`,
		}, "helm.sh/readiness-failure: {.unavailableReplicas} >= 1"},
		{"failed by CEL", map[string]string{apply.FailedWhenAnnotation: "has(self.status.unavailableReplicas) && self.status.unavailableReplicas >= 1"}, "kates.dev/failed-when"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, ns, rec := recordingClient(t)
			res, err := apply.Run(timeout(t), c, []any{grouped("after"), stuckDeployment("stuck", gate(tt.annotations))}, apply.Options{Wait: true, GroupTimeout: time.Minute})
			var gerr *apply.GroupError
			require.ErrorAs(t, err, &gerr)
			assert.True(t, kates.IsWaitFailed(err), "%v", err)
			assert.Contains(t, err.Error(), "Deployment "+ns+"/stuck: Failed")
			assert.Contains(t, err.Error(), tt.want)
			assert.Equal(t, kstatus.FailedStatus, res.Objects[0].Status.Status)
			assert.True(t, rec.firstWrite("configmaps", "after").IsZero(), "the ConfigMap of the next group was written")
		})
	}
}

// TestRunGroupsRefuseBeforeWriting: a cycle, a dependency on a group no object is in, an
// object in two groups, a readiness annotation without its pair: every problem listed in one
// InvalidError, and not one write sent.
func TestRunGroupsRefuseBeforeWriting(t *testing.T) {
	c, ns, rec := recordingClient(t)
	annotated := func(name string, annotations map[string]any) map[string]any {
		cm := configMap(name, "1")
		cm["metadata"].(map[string]any)["annotations"] = annotations
		return cm
	}
	objs := []any{
		configMap("fine", "1"),
		annotated("a", map[string]any{apply.GroupAnnotation: "a", apply.DependsOnAnnotation: "b"}),
		annotated("b", map[string]any{apply.GroupAnnotation: "b", apply.DependsOnAnnotation: "a"}),
		annotated("c", map[string]any{apply.GroupAnnotation: "c", apply.DependsOnAnnotation: "nowhere"}),
		annotated("d", map[string]any{apply.GroupAnnotation: "d", "helm.sh/resource-group": "e"}),
		annotated("f", map[string]any{apply.GroupAnnotation: "f", "helm.sh/readiness-success": `["{.x} == 1"]`}),
	}
	_, err := apply.Run(timeout(t), c, objs, apply.Options{Wait: true})
	var invalid *apply.InvalidError
	require.ErrorAs(t, err, &invalid)
	for _, want := range []string{
		"(ConfigMap a): dependency cycle between groups: a → b → a",
		`(ConfigMap c): kates.dev/group "c" depends on group "nowhere", which no object of the batch is in`,
		`(ConfigMap d): in two groups, by kates.dev/group "d" and by helm.sh/resource-group "e"`,
		`(ConfigMap f): annotations helm.sh/readiness-success and helm.sh/readiness-failure go together`,
	} {
		assert.Contains(t, err.Error(), want)
	}
	rec.mu.Lock()
	assert.Empty(t, rec.writes, "writes sent for refused batches")
	rec.mu.Unlock()
	var cms []*kates.ConfigMap
	require.NoError(t, c.List(context.Background(), kates.Query{Kind: "ConfigMap", Namespace: ns}, &cms))
	for _, cm := range cms {
		assert.Equal(t, "kube-root-ca.crt", cm.Name, "a ConfigMap in the namespace after refused batches")
	}
}

// TestRunArgoCDTodoAppInWaveOrder: a real project's manifests (the todo app of Red Hat's Argo
// CD tutorial, testdata/argocd-todo.yaml) applied in the order of their sync waves and their
// PostSync hook, each wave ready before the next.
func TestRunArgoCDTodoAppInWaveOrder(t *testing.T) {
	c, ns, rec := recordingClient(t)
	data, err := os.ReadFile("testdata/argocd-todo.yaml")
	require.NoError(t, err)
	objs, err := kates.ParseUnstructuredManifests(strings.ReplaceAll(string(data), "namespace: todo", "namespace: "+ns))
	require.NoError(t, err)
	readyAt := map[int]time.Time{}
	res, err := apply.Run(timeout(t), c, objs, apply.Options{Wait: true, GroupTimeout: time.Minute, OnGroup: func(ev apply.GroupEvent) {
		if ev.Phase == apply.GroupReady {
			readyAt[ev.Index] = time.Now()
		}
	}})
	require.NoError(t, err)
	var got []string
	for _, g := range res.Groups {
		var members []string
		for _, i := range g.Objects {
			members = append(members, res.Objects[i].GroupVersionKind.Kind+" "+res.Objects[i].Name)
		}
		got = append(got, g.Name+": "+strings.Join(members, ", "))
	}
	want := []string{
		"wave 0: Deployment postgresql, Service postgres",
		"wave 1: Job todo-table",
		"wave 2: ServiceAccount todo-gitops, Deployment todo-gitops, Service todo-gitops",
		"wave 3: Ingress todo",
		"PostSync wave 0: Job todo-insert",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("waves mismatch (-want +got):\n%s", diff)
	}
	for gi := 1; gi < len(res.Groups); gi++ {
		for _, i := range res.Groups[gi].Objects {
			o := res.Objects[i]
			sent := rec.firstWrite(resourceOf(o.GroupVersionKind.Kind), o.Name)
			assert.Truef(t, sent.After(readyAt[gi-1]), "%s written before %s was ready", o, res.Groups[gi-1])
		}
	}
	t.Logf("todo app: %d waves, all ready", len(res.Groups))
	if errors.Is(err, context.DeadlineExceeded) {
		t.Fatal(err)
	}
}
