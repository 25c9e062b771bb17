package accumulator_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"

	"github.com/kates-dev/kates/accumulator"
)

func TestNew(t *testing.T) {
	tests := []struct {
		name    string
		queries []accumulator.QuerySpec
		wantErr string
	}{
		{name: "ok", queries: []accumulator.QuerySpec{cmQuery("A", ""), cmQuery("B", "ns")}},
		{name: "no queries", wantErr: "no queries"},
		{name: "empty name", queries: []accumulator.QuerySpec{cmQuery("", "")}, wantErr: "query 0 has no name"},
		{name: "unexported name", queries: []accumulator.QuerySpec{cmQuery("configMaps", "")}, wantErr: `"configMaps" is not an exported Go identifier`},
		{name: "not an identifier", queries: []accumulator.QuerySpec{cmQuery("Config Maps", "")}, wantErr: "not an exported Go identifier"},
		{name: "duplicate", queries: []accumulator.QuerySpec{cmQuery("A", ""), cmQuery("A", "ns")}, wantErr: `two queries named "A"`},
		{name: "no kind", queries: []accumulator.QuerySpec{{Name: "A", GVK: schema.GroupVersionKind{Version: "v1"}}}, wantErr: "needs a version and a kind"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			acc, err := accumulator.New(tt.queries, accumulator.Options{})
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("New() error = %v", err)
				}
				acc.Stop()
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("New() error = %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

type cmSnapshot struct {
	ConfigMaps []*corev1.ConfigMap
}

func TestBootstrapPagedListIsOneReplace(t *testing.T) {
	ctx := context.Background()
	acc := mustNew(t, accumulator.Options{}, cmQuery("ConfigMaps", ""))
	st := acc.Store("ConfigMaps")

	// Adds before the first Replace (as a watch without a list would deliver) neither
	// notify nor bootstrap.
	must(t, st.Add(newCM("a", "early", "5")))
	must(t, st.Update(newCM("a", "early", "6")))
	if signalled(acc) {
		t.Fatal("Changed signalled before the first Replace")
	}
	snap := cmSnapshot{ConfigMaps: []*corev1.ConfigMap{{}}}
	before := snap.ConfigMaps
	ok, err := acc.Update(ctx, &snap)
	if ok || err != nil {
		t.Fatalf("Update before bootstrap = (%v, %v), want (false, nil)", ok, err)
	}
	if len(snap.ConfigMaps) != 1 || snap.ConfigMaps[0] != before[0] {
		t.Fatal("Update before bootstrap touched the target")
	}

	// The reflector gathers every page of a paged list and calls Replace once.
	var page []*unstructured.Unstructured
	for i := range 250 {
		page = append(page, newCM("a", fmt.Sprintf("cm-%03d", i), fmt.Sprint(100+i)))
	}
	replace(t, acc, "ConfigMaps", "400", page...)
	if !signalled(acc) {
		t.Fatal("Changed not signalled after the first Replace")
	}
	ok, deltas := update(t, acc, &snap)
	if !ok {
		t.Fatal("first Update after bootstrap returned false")
	}
	if len(snap.ConfigMaps) != 250 || len(deltas) != 250 {
		t.Fatalf("got %d objects, %d deltas; want 250 of each (the early Add is not in the list)", len(snap.ConfigMaps), len(deltas))
	}
	for _, d := range deltas {
		if d.DeltaType != accumulator.ObjectAdd {
			t.Fatalf("first fill delta %+v, want adds only", d)
		}
	}
}

func TestBootstrapWaitsForEveryQuery(t *testing.T) {
	ctx := context.Background()
	acc := mustNew(t, accumulator.Options{},
		cmQuery("A", "a"), cmQuery("B", "b"),
		accumulator.QuerySpec{Name: "Namespaces", GVK: namespaceGVK})
	type snapshot struct {
		A, B       []*corev1.ConfigMap
		Namespaces map[string]*corev1.Namespace
	}
	var snap snapshot

	replace(t, acc, "A", "10", newCM("a", "x", "9"))
	replace(t, acc, "B", "10")
	must(t, acc.Store("B").Add(newCM("b", "y", "11")))
	if signalled(acc) {
		t.Fatal("Changed signalled with one query not bootstrapped")
	}
	select {
	case <-acc.Bootstrapped():
		t.Fatal("Bootstrapped closed with one query not bootstrapped")
	default:
	}
	if ok, err := acc.Update(ctx, &snap); ok || err != nil || snap.A != nil {
		t.Fatalf("Update before bootstrap = (%v, %v), A=%v", ok, err, snap.A)
	}

	ns := &unstructured.Unstructured{}
	ns.SetAPIVersion("v1")
	ns.SetKind("Namespace")
	ns.SetName("a")
	ns.SetResourceVersion("3")
	replace(t, acc, "Namespaces", "12", ns)
	select {
	case <-acc.Bootstrapped():
	default:
		t.Fatal("Bootstrapped not closed once every query bootstrapped")
	}
	if !signalled(acc) {
		t.Fatal("Changed not signalled once every query bootstrapped (Bootstrapped must leave it)")
	}
	if ok, _ := update(t, acc, &snap); !ok {
		t.Fatal("first Update returned false")
	}
	want := []string{"a/x@9", "b/y@11", "a@3"}
	got := append(append(describe(t, snap.A), describe(t, snap.B)...), describe(t, snap.Namespaces)...)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("snapshot mismatch (-want +got):\n%s", diff)
	}
}

func TestCoalescing(t *testing.T) {
	acc := mustNew(t, accumulator.Options{}, cmQuery("ConfigMaps", ""))
	replace(t, acc, "ConfigMaps", "1")
	var snap cmSnapshot
	signalled(acc)
	update(t, acc, &snap)

	st := acc.Store("ConfigMaps")
	for i := range 1000 {
		name := fmt.Sprintf("cm-%d", i%10)
		rv := fmt.Sprint(2 + i)
		if i%7 == 3 {
			must(t, st.Delete(newCM("a", name, rv)))
			continue
		}
		must(t, st.Update(newCM("a", name, rv)))
	}
	if n := len(acc.Changed()); n != 1 {
		t.Fatalf("Changed holds %d signals after 1000 events, want 1", n)
	}
	signalled(acc)
	ok, _ := update(t, acc, &snap)
	if !ok {
		t.Fatal("Update returned false")
	}
	// The final state: the last event per name.
	last := map[string]string{}
	for i := range 1000 {
		name := fmt.Sprintf("a/cm-%d", i%10)
		if i%7 == 3 {
			delete(last, name)
		} else {
			last[name] = fmt.Sprintf("%s@%d", name, 2+i)
		}
	}
	var want []string
	for _, v := range last {
		want = append(want, v)
	}
	sortNsName(want)
	if diff := cmp.Diff(want, describe(t, snap.ConfigMaps)); diff != "" {
		t.Errorf("final state mismatch (-want +got):\n%s", diff)
	}
	if ok, _ := update(t, acc, &snap); ok {
		t.Error("second Update without changes returned true")
	}
}

// TestSlowConsumer runs producers and a slow consumer concurrently (run it with -race): the
// consumer never blocks a producer, and its last Update sees the final state.
func TestSlowConsumer(t *testing.T) {
	ctx := context.Background()
	acc := mustNew(t, accumulator.Options{}, cmQuery("A", ""), cmQuery("B", ""))
	replace(t, acc, "A", "1")
	replace(t, acc, "B", "1")
	type snapshot struct {
		A []*corev1.ConfigMap
		B map[string]*unstructured.Unstructured
	}
	const events = 2000
	var wg sync.WaitGroup
	for _, q := range []string{"A", "B"} {
		wg.Go(func() {
			st := acc.Store(q)
			for i := range events {
				u := newCM("ns", fmt.Sprintf("cm-%d", i%50), fmt.Sprint(2+i), "i", fmt.Sprint(i))
				if err := st.Update(u); err != nil {
					t.Error(err)
					return
				}
				if i%100 == 99 {
					if err := st.Delete(cache.DeletedFinalStateUnknown{Key: "ns/cm-0"}); err != nil {
						t.Error(err)
						return
					}
				}
			}
		})
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()

	var snap snapshot
	updates := 0
	for running := true; running; {
		select {
		case <-done:
			running = false
		case <-acc.Changed():
			if _, err := acc.Update(ctx, &snap); err != nil {
				t.Fatal(err)
			}
			updates++
			time.Sleep(time.Millisecond) // a slow reconcile
		}
	}
	if _, err := acc.Update(ctx, &snap); err != nil {
		t.Fatal(err)
	}
	// cm-0 was deleted last.
	if len(snap.A) != 49 || len(snap.B) != 49 || snap.B["ns/cm-0"] != nil {
		t.Fatalf("got %d and %d objects, want 49 each, without cm-0", len(snap.A), len(snap.B))
	}
	for _, cm := range snap.A {
		var i int
		fmt.Sscan(cm.Data["i"], &i)
		if i < events-50 {
			t.Errorf("%s holds event %d, want one of the last 50", cm.Name, i)
		}
	}
	t.Logf("%d events per query, %d Updates", events, updates)
}

func TestSetError(t *testing.T) {
	ctx := context.Background()
	acc := mustNew(t, accumulator.Options{}, cmQuery("A", ""), cmQuery("B", ""))
	type snapshot struct{ A, B []*corev1.ConfigMap }
	var snap snapshot

	forbidden := apierrors.NewForbidden(schema.GroupResource{Resource: "configmaps"}, "", errors.New("no"))
	acc.SetError("A", forbidden)
	if !signalled(acc) {
		t.Fatal("SetError before bootstrap did not signal")
	}
	_, err := acc.Update(ctx, &snap)
	if !apierrors.IsForbidden(err) || !strings.Contains(err.Error(), `query "A"`) {
		t.Fatalf("Update error = %v, want a Forbidden error naming query A", err)
	}

	replace(t, acc, "A", "1", newCM("a", "x", "1"))
	replace(t, acc, "B", "1")
	signalled(acc)
	acc.SetError("B", errors.New("connection refused"))
	_, err = acc.Update(ctx, &snap)
	if !apierrors.IsForbidden(err) || !strings.Contains(err.Error(), "connection refused") {
		t.Fatalf("Update error = %v, want both errors", err)
	}
	if snap.A != nil {
		t.Fatal("Update with a recorded error touched the target")
	}

	acc.SetError("A", nil)
	if !signalled(acc) {
		t.Fatal("clearing an error after bootstrap did not signal")
	}
	acc.SetError("B", nil)
	if ok, _ := update(t, acc, &snap); !ok || len(snap.A) != 1 {
		t.Fatalf("Update after clearing errors: ok=%v A=%v", ok, snap.A)
	}
}

func TestStop(t *testing.T) {
	acc, err := accumulator.New([]accumulator.QuerySpec{cmQuery("ConfigMaps", "")}, accumulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	replace(t, acc, "ConfigMaps", "1")
	acc.Stop()
	acc.Stop()
	// The bootstrap signal may still be buffered; then the channel is closed.
	for range acc.Changed() {
	}
	var snap cmSnapshot
	if _, err := acc.Update(context.Background(), &snap); !errors.Is(err, accumulator.ErrStopped) {
		t.Fatalf("Update after Stop = %v, want ErrStopped", err)
	}
	// Stores keep working and never panic on the closed channel.
	must(t, acc.Store("ConfigMaps").Add(newCM("a", "x", "2")))
	acc.SetError("ConfigMaps", errors.New("late"))
}

func TestUpdateContext(t *testing.T) {
	acc := mustNew(t, accumulator.Options{}, cmQuery("ConfigMaps", ""))
	replace(t, acc, "ConfigMaps", "1", newCM("a", "x", "1"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var snap cmSnapshot
	if _, err := acc.Update(ctx, &snap); !errors.Is(err, context.Canceled) {
		t.Fatalf("Update(canceled ctx) = %v, want context.Canceled", err)
	}
	if snap.ConfigMaps != nil {
		t.Fatal("Update with a canceled context touched the target")
	}
	// The change is still pending.
	if ok, _ := update(t, acc, &snap); !ok || len(snap.ConfigMaps) != 1 {
		t.Fatalf("Update after a canceled one: ok=%v, %d objects", ok, len(snap.ConfigMaps))
	}
}

// TestUpdateContextWhileBlocked checks that an Update waiting for another one gives up when
// its context ends.
func TestUpdateContextWhileBlocked(t *testing.T) {
	release := make(chan struct{})
	entered := make(chan struct{})
	acc := mustNew(t, accumulator.Options{}, cmQuery("ConfigMaps", ""))
	replace(t, acc, "ConfigMaps", "1", newCM("a", "x", "1"))
	go func() {
		var snap cmSnapshot
		_, _ = acc.FilteredUpdate(context.Background(), &snap, nil, func(*unstructured.Unstructured) bool {
			close(entered)
			<-release
			return true
		})
	}()
	<-entered
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	var snap cmSnapshot
	if _, err := acc.Update(ctx, &snap); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("blocked Update = %v, want context.DeadlineExceeded", err)
	}
	close(release)
}

func TestResourceVersion(t *testing.T) {
	acc := mustNew(t, accumulator.Options{}, cmQuery("ConfigMaps", ""))
	st := acc.Store("ConfigMaps")
	steps := []struct {
		name string
		do   func() error
		want string
	}{
		{"initial", func() error { return nil }, ""},
		{"replace", func() error { return st.Replace([]any{newCM("a", "x", "5")}, "10") }, "10"},
		{"add", func() error { return st.Add(newCM("a", "y", "11")) }, "11"},
		{"bookmark", func() error { return st.Bookmark("15") }, "15"},
		{"older bookmark", func() error { return st.Bookmark("12") }, "15"},
		{"update", func() error { return st.Update(newCM("a", "y", "16")) }, "16"},
		{"delete", func() error { return st.Delete(newCM("a", "y", "17")) }, "17"},
		{"deleted final state unknown", func() error {
			return st.Delete(cache.DeletedFinalStateUnknown{Key: "a/x", Obj: newCM("a", "x", "5")})
		}, "17"},
		{"resource version updater", func() error { st.UpdateResourceVersion("20"); return nil }, "20"},
		{"relist at an older version", func() error { return st.Replace(nil, "18") }, "18"},
	}
	for _, s := range steps {
		must(t, s.do())
		if got := acc.ResourceVersion("ConfigMaps"); got != s.want {
			t.Errorf("after %s: ResourceVersion = %q, want %q", s.name, got, s.want)
		}
	}
	if got := acc.ResourceVersion("Nope"); got != "" {
		t.Errorf("ResourceVersion(unknown) = %q", got)
	}
}

func TestStoreRejectsOtherTypes(t *testing.T) {
	acc := mustNew(t, accumulator.Options{}, cmQuery("ConfigMaps", ""))
	st := acc.Store("ConfigMaps")
	for name, err := range map[string]error{
		"add":     st.Add(&corev1.Secret{}),
		"update":  st.Update("x"),
		"delete":  st.Delete(nil),
		"replace": st.Replace([]any{&corev1.Secret{}}, "1"),
	} {
		if err == nil || !strings.Contains(err.Error(), "want *unstructured.Unstructured") {
			t.Errorf("%s: error = %v", name, err)
		}
	}
	if acc.Store("Nope") != nil {
		t.Error("Store(unknown) is not nil")
	}
}

// TestSameVersionIsNoChange checks that an event carrying the version the store already holds
// (a relist of unchanged objects, say) changes nothing and wakes no one.
func TestSameVersionIsNoChange(t *testing.T) {
	acc := mustNew(t, accumulator.Options{}, cmQuery("ConfigMaps", ""))
	replace(t, acc, "ConfigMaps", "10", newCM("a", "x", "5"), newCM("a", "y", "6"))
	var snap cmSnapshot
	signalled(acc)
	update(t, acc, &snap)
	first := snap.ConfigMaps

	must(t, acc.Store("ConfigMaps").Update(newCM("a", "x", "5")))
	replace(t, acc, "ConfigMaps", "11", newCM("a", "x", "5"), newCM("a", "y", "6"))
	if signalled(acc) {
		t.Error("unchanged versions signalled Changed")
	}
	if ok, ds := update(t, acc, &snap); ok || ds != nil {
		t.Errorf("Update = %v, %v; want false, no deltas", ok, deltaStrings(ds))
	}
	if &snap.ConfigMaps[0] != &first[0] {
		t.Error("unchanged view handed out a new slice")
	}
}

func TestTransform(t *testing.T) {
	var calls int
	var mu sync.Mutex
	strip := func(u *unstructured.Unstructured) {
		mu.Lock()
		calls++
		mu.Unlock()
		u.SetManagedFields(nil)
		unstructured.RemoveNestedField(u.Object, "data", "secret")
	}
	ov := &fakeOverlay{}
	acc := mustNew(t, accumulator.Options{Transform: strip, Overlay: ov}, cmQuery("ConfigMaps", ""))
	replace(t, acc, "ConfigMaps", "10", newCM("a", "x", "5", "secret", "s", "plain", "p"))
	written := newCM("a", "y", "20", "secret", "s")
	ov.set(configMapGVK, accumulator.Write{Namespace: "a", Name: "y", Object: written, ResourceVersion: "20"})

	var snap struct {
		ConfigMaps map[string]*unstructured.Unstructured
	}
	update(t, acc, &snap)
	for key, u := range snap.ConfigMaps {
		if _, found, _ := unstructured.NestedString(u.Object, "data", "secret"); found {
			t.Errorf("%s: Transform not applied", key)
		}
	}
	if _, found, _ := unstructured.NestedString(written.Object, "data", "secret"); !found {
		t.Error("Transform modified the overlay's own object")
	}
	update(t, acc, &snap)
	if calls != 2 {
		t.Errorf("Transform called %d times, want 2 (once per stored object, once per write record)", calls)
	}
}

// TestUpdateBigChangeSetsSideBySide: queries with big change sets (a bootstrap) are prepared
// side by side; the view is the same as one prepared query by query, and a canceled Update
// leaves every query's changes pending.
func TestUpdateBigChangeSetsSideBySide(t *testing.T) {
	type twoSnapshot struct {
		A []*corev1.ConfigMap
		B map[string]*corev1.ConfigMap
	}
	const n = 1500 // over the threshold (512) in both queries
	fill := func(acc *accumulator.Accumulator) {
		for _, q := range []string{"A", "B"} {
			objs := make([]*unstructured.Unstructured, n)
			for i := range objs {
				objs[i] = newCM(strings.ToLower(q)+"-ns", fmt.Sprintf("cm-%05d", n-i), "1")
			}
			replace(t, acc, q, "1", objs...)
		}
	}
	acc := mustNew(t, accumulator.Options{}, cmQuery("A", ""), cmQuery("B", ""))
	fill(acc)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var snap twoSnapshot
	if _, err := acc.Update(ctx, &snap); !errors.Is(err, context.Canceled) {
		t.Fatalf("Update(canceled ctx) = %v, want context.Canceled", err)
	}
	if snap.A != nil || snap.B != nil {
		t.Fatal("a canceled Update touched the target")
	}

	ok, deltas := update(t, acc, &snap)
	if !ok || len(snap.A) != n || len(snap.B) != n || len(deltas) != 2*n {
		t.Fatalf("after a canceled Update: ok=%v, %d and %d objects, %d deltas; want %d each, %d deltas", ok, len(snap.A), len(snap.B), len(deltas), n, 2*n)
	}
	if !slices.IsSortedFunc(snap.A, func(x, y *corev1.ConfigMap) int { return strings.Compare(x.Name, y.Name) }) {
		t.Error("slice field not sorted")
	}

	// The same through a predicate, which keeps Updates query by query.
	seq := mustNew(t, accumulator.Options{}, cmQuery("A", ""), cmQuery("B", ""))
	fill(seq)
	var want twoSnapshot
	if _, err := seq.FilteredUpdate(context.Background(), &want, nil, func(*unstructured.Unstructured) bool { return true }); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, snap); diff != "" {
		t.Errorf("side by side differs from query by query (-want +got):\n%s", diff)
	}
}
