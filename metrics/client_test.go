package metrics_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"go.uber.org/goleak"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/metrics"
)

// metricValue sums, over the series of the metric name whose labels include labels, a
// counter's or gauge's value, or a histogram's sample count; 0 when there is none.
func metricValue(t *testing.T, g prometheus.Gatherer, name string, labels map[string]string) float64 {
	t.Helper()
	v, _ := metricSeries(t, g, name, labels)
	return v
}

// metricSeries is metricValue, and also reports how many series matched.
func metricSeries(t *testing.T, g prometheus.Gatherer, name string, labels map[string]string) (float64, int) {
	t.Helper()
	families, err := g.Gather()
	if err != nil {
		t.Fatalf("Gather: %v", err)
	}
	sum, n := 0.0, 0
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
	series:
		for _, m := range f.GetMetric() {
			have := map[string]string{}
			for _, lp := range m.GetLabel() {
				have[lp.GetName()] = lp.GetValue()
			}
			for k, v := range labels {
				if have[k] != v {
					continue series
				}
			}
			n++
			switch f.GetType() {
			case dto.MetricType_COUNTER:
				sum += m.GetCounter().GetValue()
			case dto.MetricType_GAUGE:
				sum += m.GetGauge().GetValue()
			case dto.MetricType_HISTOGRAM:
				sum += float64(m.GetHistogram().GetSampleCount())
			default:
				t.Fatalf("%s: unexpected metric type %s", name, f.GetType())
			}
		}
	}
	return sum, n
}

// holdsWithin polls cond until it holds, failing the test after timeout with what it waited for.
func holdsWithin(t *testing.T, timeout time.Duration, what func() string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("after %s: %s", timeout, what())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// registered returns a client of a fresh namespace that reports metrics to a registry of its
// own, and the registry.
func registered(t *testing.T) (*kates.Client, string, *prometheus.Registry) {
	t.Helper()
	c, ns := newClient(t)
	reg := prometheus.NewRegistry()
	if err := metrics.Register(c, reg); err != nil {
		t.Fatal(err)
	}
	return c, ns, reg
}

func TestMetricsFollowAnAccumulator(t *testing.T) {
	c, ns, reg := registered(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	createConfigMaps(t, c, ns, "met", 5)

	acc, err := c.Watch(ctx, kates.Query{Name: "ConfigMaps", Kind: "cm", Namespace: ns, LabelSelector: "set=met"})
	if err != nil {
		t.Fatal(err)
	}
	q := map[string]string{"query": "ConfigMaps", "kind": "ConfigMap"}
	with := func(k, v string) map[string]string {
		out := map[string]string{k: v}
		for k, v := range q {
			out[k] = v
		}
		return out
	}
	value := func(name string, labels map[string]string) float64 { return metricValue(t, reg, name, labels) }
	var snap struct{ ConfigMaps []*kates.ConfigMap }
	nextSnapshot(t, ctx, acc, &snap)

	// Bootstrap: one complete list of 5 objects, timed, and the Update that took it.
	if got := value("kates_accumulator_bootstrap_duration_seconds", q); got <= 0 || got > 60 {
		t.Errorf("bootstrap duration %v s, want in (0, 60]", got)
	}
	if got := value("kates_accumulator_events_total", with("type", "replace")); got != 1 {
		t.Errorf("replace events %v, want 1", got)
	}
	if got := value("kates_accumulator_objects", q); got != 5 {
		t.Errorf("objects %v, want 5", got)
	}
	updates := map[string]string{"queries": "ConfigMaps"}
	if got := value("kates_accumulator_update_duration_seconds", updates); got < 1 {
		t.Errorf("Update histogram count %v, want at least 1", got)
	}
	for _, name := range []string{"kates_accumulator_relists_total", "kates_accumulator_list_watch_errors_total", "kates_accumulator_coalesced_events_total"} {
		v, n := metricSeries(t, reg, name, q)
		if v != 0 || n != 1 {
			t.Errorf("%s: %v in %d series, want 0 in 1 (a series from the start)", name, v, n)
		}
	}

	// Another client's creates reach the store through the watch.
	writer, err := kates.NewClientFromRESTConfig(cluster.RESTConfig(), ns)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		cm := &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: fmt.Sprintf("extra-%d", i), Labels: map[string]string{"set": "met"}}}
		if err := writer.Create(ctx, cm, nil); err != nil {
			t.Fatal(err)
		}
	}
	holdsWithin(t, 30*time.Second, func() string {
		return fmt.Sprintf("objects %v and adds %v, want 8 and 3", value("kates_accumulator_objects", q), value("kates_accumulator_events_total", with("type", "add")))
	}, func() bool {
		return value("kates_accumulator_objects", q) == 8 && value("kates_accumulator_events_total", with("type", "add")) == 3
	})

	// A slow consumer: two updates of one object before any Update, the second coalesced.
	cm := &kates.ConfigMap{}
	if err := writer.Get(ctx, &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: "met-0000", Namespace: ns}}, cm); err != nil {
		t.Fatal(err)
	}
	before := value("kates_accumulator_events_total", with("type", "update"))
	for i := range 2 {
		cm.Data = map[string]string{"v": fmt.Sprint(i)}
		if err := writer.Update(ctx, cm, cm); err != nil {
			t.Fatal(err)
		}
	}
	holdsWithin(t, 30*time.Second, func() string {
		return fmt.Sprintf("update events %v, want %v", value("kates_accumulator_events_total", with("type", "update")), before+2)
	}, func() bool { return value("kates_accumulator_events_total", with("type", "update")) == before+2 })
	if got := value("kates_accumulator_coalesced_events_total", q); got < 1 {
		t.Errorf("coalesced %v after two updates of one object between Updates, want at least 1", got)
	}

	// An Update is timed.
	count := value("kates_accumulator_update_duration_seconds", updates)
	if _, err := acc.Update(ctx, &snap); err != nil {
		t.Fatal(err)
	}
	if got := value("kates_accumulator_update_duration_seconds", updates); got != count+1 {
		t.Errorf("Update histogram count %v after one Update, want %v", got, count+1)
	}

	// A delete leaves the store.
	if err := writer.Delete(ctx, cm, nil); err != nil {
		t.Fatal(err)
	}
	holdsWithin(t, 30*time.Second, func() string {
		return fmt.Sprintf("objects %v and deletes %v, want 7 and 1", value("kates_accumulator_objects", q), value("kates_accumulator_events_total", with("type", "delete")))
	}, func() bool {
		return value("kates_accumulator_objects", q) == 7 && value("kates_accumulator_events_total", with("type", "delete")) == 1
	})

	// When the Watch ends, its objects leave the gauge; the counters stay.
	cancel()
	holdsWithin(t, 30*time.Second, func() string {
		return fmt.Sprintf("objects %v after the Watch ended, want 0", value("kates_accumulator_objects", q))
	}, func() bool { return value("kates_accumulator_objects", q) == 0 })
	if got := value("kates_accumulator_events_total", with("type", "add")); got != 3 {
		t.Errorf("adds %v after the Watch ended, want 3 still", got)
	}
}

// writeCounts returns kates_client_writes_total as "verb/result" → count.
func writeCounts(t *testing.T, g prometheus.Gatherer) map[string]float64 {
	t.Helper()
	families, err := g.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, f := range families {
		if f.GetName() != "kates_client_writes_total" {
			continue
		}
		for _, m := range f.GetMetric() {
			l := map[string]string{}
			for _, lp := range m.GetLabel() {
				l[lp.GetName()] = lp.GetValue()
			}
			out[l["verb"]+"/"+l["result"]] = m.GetCounter().GetValue()
		}
	}
	return out
}

func TestMetricsCountWritesByVerbAndResult(t *testing.T) {
	c, ns, reg := registered(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cm := &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: "w", Namespace: ns}, Data: map[string]string{"k": "1"}}
	if err := c.Create(ctx, cm, cm); err != nil {
		t.Fatal(err)
	}
	if err := c.Create(ctx, cm, nil); !apierrors.IsAlreadyExists(err) {
		t.Fatalf("second Create: got %v, want AlreadyExists", err)
	}
	stale := cm.DeepCopy()
	cm.Data["k"] = "2"
	if err := c.Update(ctx, cm, cm); err != nil {
		t.Fatal(err)
	}
	stale.Data["k"] = "3"
	if err := c.Update(ctx, stale, nil); !apierrors.IsConflict(err) {
		t.Fatalf("stale Update: got %v, want Conflict", err)
	}
	if err := c.Patch(ctx, cm, kates.MergePatchType, []byte(`{"data":{"k":"4"}}`), nil); err != nil {
		t.Fatal(err)
	}
	applied := &kates.ConfigMap{TypeMeta: kates.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: kates.ObjectMeta{Name: "a", Namespace: ns}, Data: map[string]string{"k": "1"}}
	if err := c.Apply(ctx, applied, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Apply(ctx, applied, nil, kates.DryRun()); err != nil { // not a write: not counted
		t.Fatal(err)
	}
	// A status no controller writes to meanwhile: the test namespace's.
	nsObj := &kates.Namespace{}
	if err := c.Get(ctx, &kates.Namespace{ObjectMeta: kates.ObjectMeta{Name: ns}}, nsObj); err != nil {
		t.Fatal(err)
	}
	if err := c.UpdateStatus(ctx, nsObj, nil); err != nil {
		t.Fatal(err)
	}
	upserted := &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: "w"}, Data: map[string]string{"k": "5"}}
	if err := c.Upsert(ctx, upserted, upserted, nil); err != nil { // create (exists), then update
		t.Fatal(err)
	}
	if err := c.Delete(ctx, cm, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Delete(ctx, cm, nil); !apierrors.IsNotFound(err) {
		t.Fatalf("second Delete: got %v, want NotFound", err)
	}
	// An invalid object: the API server refuses it.
	bad := &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: "Not_A_Name", Namespace: ns}}
	if err := c.Create(ctx, bad, nil); !apierrors.IsInvalid(err) {
		t.Fatalf("Create of an invalid name: got %v, want Invalid", err)
	}
	// A client-side failure before any request is not a write.
	if err := c.Update(ctx, &kates.ConfigMap{}, nil); err == nil {
		t.Fatal("Update of an object without a name: no error")
	}

	want := map[string]float64{
		"create/success":        1,
		"create/already_exists": 2, // the second Create, Upsert's attempt
		"create/invalid":        1,
		"update/success":        2, // Update, Upsert's update
		"update/conflict":       1,
		"patch/success":         1,
		"apply/success":         1,
		"update_status/success": 1,
		"delete/success":        1,
		"delete/not_found":      1,
	}
	if diff := cmp.Diff(want, writeCounts(t, reg)); diff != "" {
		t.Errorf("writes mismatch (-want +got):\n%s", diff)
	}

	// Another identity, refused.
	eve, err := kates.NewClientFromRESTConfig(cluster.RESTConfigAs("metrics-eve-"+ns), ns)
	if err != nil {
		t.Fatal(err)
	}
	evereg := prometheus.NewRegistry()
	if err := metrics.Register(eve, evereg); err != nil {
		t.Fatal(err)
	}
	if err := eve.Create(ctx, &kates.Secret{ObjectMeta: kates.ObjectMeta{Name: "s"}}, nil); !apierrors.IsForbidden(err) {
		t.Fatalf("Create as eve: got %v, want Forbidden", err)
	}
	if diff := cmp.Diff(map[string]float64{"create/forbidden": 1}, writeCounts(t, evereg)); diff != "" {
		t.Errorf("eve's writes mismatch (-want +got):\n%s", diff)
	}
}

func TestMetricsCoherenceRecords(t *testing.T) {
	c, ns, reg := registered(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	records := func() float64 { return metricValue(t, reg, "kates_client_coherence_records", nil) }
	// No Accumulator watches ConfigMaps: nothing to record.
	if err := c.Create(ctx, &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: "before"}}, nil); err != nil {
		t.Fatal(err)
	}
	if got := records(); got != 0 {
		t.Fatalf("records %v with no Accumulator, want 0", got)
	}
	acc, err := c.Watch(ctx, kates.Query{Name: "ConfigMaps", Kind: "cm", Namespace: ns})
	if err != nil {
		t.Fatal(err)
	}
	var snap struct{ ConfigMaps map[string]*kates.ConfigMap }
	nextSnapshot(t, ctx, acc, &snap)
	for i := range 3 {
		if err := c.Create(ctx, &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: fmt.Sprint("after-", i)}}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if got := records(); got != 3 {
		t.Fatalf("records %v after 3 writes an Accumulator watches, want 3", got)
	}
	// Records go once the watch has delivered what they hold (pruned as Updates read them).
	holdsWithin(t, 30*time.Second, func() string { return fmt.Sprintf("records %v, want 0", records()) }, func() bool {
		if _, err := acc.Update(ctx, &snap); err != nil {
			t.Fatal(err)
		}
		return records() == 0
	})
}

func TestMetricsListWatchErrorsAndRelists(t *testing.T) {
	admin, ns := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	user := "metrics-lister-" + ns
	// The user may list ConfigMaps but not watch them: each list bootstraps or relists the
	// query, each watch fails; and may not read Secrets at all.
	role := &rbacv1.Role{ObjectMeta: kates.ObjectMeta{Name: "cm-lister", Namespace: ns},
		Rules: []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: []string{"list"}}}}
	binding := &rbacv1.RoleBinding{ObjectMeta: kates.ObjectMeta{Name: "lister", Namespace: ns},
		RoleRef:  rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "Role", Name: "cm-lister"},
		Subjects: []rbacv1.Subject{{Kind: "User", Name: user, APIGroup: "rbac.authorization.k8s.io"}}}
	if err := admin.Create(ctx, role, nil); err != nil {
		t.Fatal(err)
	}
	if err := admin.Create(ctx, binding, nil); err != nil {
		t.Fatal(err)
	}
	c, err := kates.NewClientFromRESTConfig(cluster.RESTConfigAs(user), ns)
	if err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewRegistry()
	if err := metrics.Register(c, reg); err != nil {
		t.Fatal(err)
	}
	// RBAC reaches the authorizer through an informer: allow a moment.
	for c.List(ctx, kates.Query{Kind: "cm", Namespace: ns}, &[]*kates.ConfigMap{}) != nil {
		time.Sleep(50 * time.Millisecond)
	}
	if _, err := c.Watch(ctx, kates.Query{Name: "ConfigMaps", Kind: "cm", Namespace: ns},
		kates.Query{Name: "Secrets", Kind: "secrets", Namespace: ns}); err != nil {
		t.Fatal(err)
	}
	cms := map[string]string{"query": "ConfigMaps"}
	secrets := map[string]string{"query": "Secrets"}
	value := func(name string, labels map[string]string) float64 { return metricValue(t, reg, name, labels) }
	holdsWithin(t, 30*time.Second, func() string {
		return fmt.Sprintf("ConfigMaps: errors %v, relists %v; Secrets: errors %v; want > 0, > 0, > 0",
			value("kates_accumulator_list_watch_errors_total", cms), value("kates_accumulator_relists_total", cms),
			value("kates_accumulator_list_watch_errors_total", secrets))
	}, func() bool {
		return value("kates_accumulator_list_watch_errors_total", cms) > 0 && value("kates_accumulator_relists_total", cms) > 0 &&
			value("kates_accumulator_list_watch_errors_total", secrets) > 0
	})
	if got := value("kates_accumulator_bootstrap_duration_seconds", cms); got <= 0 {
		t.Errorf("ConfigMaps bootstrap %v, want > 0: its lists work", got)
	}
	if got := value("kates_accumulator_bootstrap_duration_seconds", secrets); got != 0 {
		t.Errorf("Secrets bootstrap %v, want 0: never listed", got)
	}
	if got, want := value("kates_accumulator_events_total", map[string]string{"query": "ConfigMaps", "type": "replace"}),
		value("kates_accumulator_relists_total", cms)+1; got < want {
		t.Errorf("ConfigMaps: %v replace events, want at least relists+1 = %v", got, want)
	}
}

func TestMetricsWaitObjects(t *testing.T) {
	c, _, reg := registered(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	waiting := func() float64 { return metricValue(t, reg, "kates_wait_objects", nil) }
	if err := c.Create(ctx, &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: "here"}}, nil); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		done <- c.Wait(ctx, []any{
			kates.ObjectRef{Kind: "ConfigMap", Name: "here"},
			kates.ObjectRef{Kind: "ConfigMap", Name: "later"},
		}, kates.WaitOptions{})
	}()
	// One of the two is Current already: one object waited for.
	holdsWithin(t, 30*time.Second, func() string { return fmt.Sprintf("objects waiting %v, want 1", waiting()) },
		func() bool { return waiting() == 1 })
	if err := c.Create(ctx, &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: "later"}}, nil); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := waiting(); got != 0 {
		t.Errorf("objects waiting %v after the Wait returned, want 0", got)
	}

	// A Wait that ends with its context gives its objects back too.
	wctx, wcancel := context.WithCancel(ctx)
	go func() {
		done <- c.Wait(wctx, []any{kates.ObjectRef{Kind: "ConfigMap", Name: "never"}}, kates.WaitOptions{})
	}()
	holdsWithin(t, 30*time.Second, func() string { return fmt.Sprintf("objects waiting %v, want 1", waiting()) },
		func() bool { return waiting() == 1 })
	wcancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled Wait: got %v, want context.Canceled", err)
	}
	if got := waiting(); got != 0 {
		t.Errorf("objects waiting %v after the cancelled Wait returned, want 0", got)
	}
	// Wait's own Accumulators stay out of the accumulator metrics.
	if _, n := metricSeries(t, reg, "kates_accumulator_events_total", nil); n != 0 {
		t.Errorf("%d accumulator event series after Waits alone, want 0", n)
	}
}

func TestRegisterErrors(t *testing.T) {
	newC := func() *kates.Client {
		t.Helper()
		c, err := kates.NewClientFromRESTConfig(cluster.RESTConfig(), "default")
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	a, b := newC(), newC()
	reg := prometheus.NewRegistry()
	if err := metrics.Register(a, reg); err != nil {
		t.Fatal(err)
	}
	if err := metrics.Register(a, reg); err == nil {
		t.Error("Register twice on one registry: no error")
	}
	if err := metrics.Register(a, prometheus.NewRegistry()); err == nil {
		t.Error("Register of one Client on a second registry: no error")
	}
	err := metrics.Register(b, reg)
	if !errors.As(err, new(prometheus.AlreadyRegisteredError)) || !strings.Contains(err.Error(), "WrapRegistererWith") {
		t.Errorf("a second Client on the registry: got %v, want an AlreadyRegisteredError that says what to do", err)
	}
	// Its failure registered nothing, so it can still register elsewhere.
	if err := metrics.Register(b, prometheus.NewRegistry()); err != nil {
		t.Errorf("second Client on a registry of its own: %v", err)
	}
	// Clients that each register with a label of their own share a registry.
	shared := prometheus.NewRegistry()
	for _, name := range []string{"c", "d"} {
		if err := metrics.Register(newC(), prometheus.WrapRegistererWith(prometheus.Labels{"client": name}, shared)); err != nil {
			t.Errorf("Client %s, wrapped with its label: %v", name, err)
		}
	}
	if err := metrics.Register(newC(), nil); err == nil {
		t.Error("Register(nil): no error")
	}

	// A registry that holds one kates metric of someone else's: all or nothing.
	taken := prometheus.NewRegistry()
	other := prometheus.NewCounter(prometheus.CounterOpts{Name: "kates_client_writes_total", Help: "someone else's"})
	taken.MustRegister(other)
	if err := metrics.Register(newC(), taken); err == nil {
		t.Fatal("Register on a registry holding kates_client_writes_total: no error")
	}
	families, err := taken.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range families {
		names = append(names, f.GetName())
	}
	if diff := cmp.Diff([]string{"kates_client_writes_total"}, names); diff != "" {
		t.Errorf("a failed Register left collectors behind (-want +got):\n%s", diff)
	}
}

func TestMetricsWatchLeavesNoGoroutine(t *testing.T) {
	c, ns, reg := registered(t)
	ctx := context.Background()
	createConfigMaps(t, c, ns, "leak", 20)
	// Warm the connection up: its goroutines belong to the client, not to a Watch.
	if err := c.List(ctx, kates.Query{Kind: "cm", Namespace: ns}, &[]*kates.ConfigMap{}); err != nil {
		t.Fatal(err)
	}
	ignore := goleak.IgnoreCurrent()
	wctx, cancel := context.WithCancel(ctx)
	acc, err := c.Watch(wctx, kates.Query{Name: "ConfigMaps", Kind: "cm", Namespace: ns, LabelSelector: "set=leak"})
	if err != nil {
		t.Fatal(err)
	}
	var snap struct{ ConfigMaps []*kates.ConfigMap }
	nextSnapshot(t, wctx, acc, &snap)
	if v, n := metricSeries(t, reg, "kates_accumulator_objects", nil); v != 20 || n != 1 {
		t.Fatalf("objects %v in %d series, want 20 in 1", v, n)
	}
	cancel()
	for range acc.Changed() {
	}
	goleak.VerifyNone(t, ignore)
	holdsWithin(t, 10*time.Second, func() string { return "objects gauge not back to 0" },
		func() bool { return metricValue(t, reg, "kates_accumulator_objects", nil) == 0 })
}
