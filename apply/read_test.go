package apply_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/client-go/rest"

	"github.com/kates-dev/kates/apply"
	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/testenv/katestest"
)

// requestCounter counts a client's requests for ConfigMaps: LISTs, GETs and PATCHes (applies).
type requestCounter struct {
	mu     sync.Mutex
	counts map[string]int
}

func (rc *requestCounter) wrap(next http.RoundTripper) http.RoundTripper {
	return roundTripperFunc(func(req *http.Request) (*http.Response, error) {
		path := req.URL.Path
		if i := strings.Index(path, "/configmaps"); i >= 0 {
			verb := req.Method
			if verb == http.MethodGet && strings.HasSuffix(path, "/configmaps") {
				verb = "LIST"
			}
			rc.mu.Lock()
			rc.counts[verb]++
			rc.mu.Unlock()
		}
		return next.RoundTrip(req)
	})
}

// take returns the counts so far and starts again from zero.
func (rc *requestCounter) take() map[string]int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	out := rc.counts
	rc.counts = map[string]int{}
	return out
}

type roundTripperFunc func(*http.Request) (*http.Response, error)

func (f roundTripperFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// countingClient returns a client of cfg in ns that counts its requests for ConfigMaps.
func countingClient(t *testing.T, cfg *rest.Config, ns string) (*kates.Client, *requestCounter) {
	t.Helper()
	rc := &requestCounter{counts: map[string]int{}}
	cfg = rest.CopyConfig(cfg)
	cfg.Wrap(rc.wrap)
	c, err := kates.NewClientFromRESTConfig(cfg, ns)
	if err != nil {
		t.Fatal(err)
	}
	return c, rc
}

func configMaps(prefix string, n int, value string) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = configMap(fmt.Sprintf("%s-%d", prefix, i), value)
	}
	return out
}

// TestRunReadsAKindWithOneList: a batch of several objects of a kind in a namespace is read
// with one LIST instead of a GET each, and every verdict (Applied, Unchanged, in a dry run
// too) is the one the GETs give: the same steps in another namespace, with the LIST turned
// off, give the same actions.
func TestRunReadsAKindWithOneList(t *testing.T) {
	ctx := timeout(t)
	// cm-0 to cm-3 as they were, cm-4 and cm-5 changed, cm-6 new.
	changed := append(configMaps("cm", 4, "1"), configMaps("cm", 7, "2")[4:]...)
	steps := []struct {
		name    string
		objects []any
		dryRun  bool
	}{
		{"new", configMaps("cm", 6, "1"), false},
		{"again", configMaps("cm", 6, "1"), false},
		{"again, dry run", configMaps("cm", 6, "1"), true},
		{"two changed and one new, dry run", changed, true},
		{"two changed and one new", changed, false},
		{"again", changed, false},
	}
	run := func(t *testing.T, wantList bool) [][]string {
		_, ns := newClient(t)
		c, requests := countingClient(t, cluster.RESTConfig(), ns)
		var got [][]string
		for _, st := range steps {
			res, err := apply.Run(ctx, c, st.objects, apply.Options{NoValidate: true, DryRun: st.dryRun})
			if err != nil {
				t.Fatalf("%s: %v", st.name, err)
			}
			got = append(got, actions(res))
			want := map[string]int{"PATCH": len(st.objects), "GET": len(st.objects)}
			if wantList {
				want = map[string]int{"PATCH": len(st.objects), "LIST": 1}
			}
			if diff := cmp.Diff(want, requests.take()); diff != "" {
				t.Errorf("%s: requests for ConfigMaps (-want +got):\n%s", st.name, diff)
			}
		}
		return got
	}
	var listed, read [][]string
	t.Run("one LIST", func(t *testing.T) { listed = run(t, true) })
	t.Run("a GET each", func(t *testing.T) {
		defer apply.SetListReads(1000, 10)()
		read = run(t, false)
	})
	if diff := cmp.Diff(read, listed); diff != "" {
		t.Errorf("actions with one LIST differ from those with a GET each (-GETs +LIST):\n%s", diff)
	}
	want := []string{"ConfigMap cm-0 unchanged", "ConfigMap cm-1 unchanged", "ConfigMap cm-2 unchanged", "ConfigMap cm-3 unchanged",
		"ConfigMap cm-4 applied", "ConfigMap cm-5 applied", "ConfigMap cm-6 applied"}
	if len(listed) == len(steps) {
		if diff := cmp.Diff(want, listed[4]); diff != "" {
			t.Errorf("%s (-want +got):\n%s", steps[4].name, diff)
		}
	}
}

// TestRunReadsEachWhenItMayNotList: an identity that may get, create and patch ConfigMaps but
// not list them applies a batch as well: the LIST is Forbidden, and each object is read with a
// GET, with no error.
func TestRunReadsEachWhenItMayNotList(t *testing.T) {
	ctx := timeout(t)
	admin, ns := newClient(t)
	role := &rbacv1.Role{ObjectMeta: kates.ObjectMeta{Name: "no-list"}, Rules: []rbacv1.PolicyRule{
		{APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: []string{"get", "create", "patch"}}}}
	binding := &rbacv1.RoleBinding{ObjectMeta: kates.ObjectMeta{Name: "no-list"},
		RoleRef:  rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "Role", Name: "no-list"},
		Subjects: []rbacv1.Subject{{APIGroup: "rbac.authorization.k8s.io", Kind: "User", Name: "kates-no-list"}}}
	for _, o := range []kates.Object{role, binding} {
		if err := admin.Create(ctx, o, nil); err != nil {
			t.Fatal(err)
		}
	}
	c, requests := countingClient(t, cluster.RESTConfigAs("kates-no-list"), ns)
	for _, want := range []apply.Action{apply.Applied, apply.Unchanged} {
		res, err := apply.Run(ctx, c, configMaps("cm", 5, "1"), apply.Options{NoValidate: true})
		if err != nil {
			t.Fatalf("Run as an identity that may not list: %v", err)
		}
		for _, o := range res.Objects {
			if o.Action != want {
				t.Errorf("%s: %s, want %s", o.Name, o.Action, want)
			}
		}
		if diff := cmp.Diff(map[string]int{"LIST": 1, "GET": 5, "PATCH": 5}, requests.take()); diff != "" {
			t.Errorf("requests for ConfigMaps (-want +got):\n%s", diff)
		}
	}
}

// TestRunDoesNotListALargeNamespaceWhole: in a namespace with many more ConfigMaps than the
// batch has, the LIST stops after 10 per object of the batch; the batch's objects it did not
// reach are read with a GET each, and still found Unchanged.
func TestRunDoesNotListALargeNamespaceWhole(t *testing.T) {
	ctx := timeout(t)
	admin, ns := newClient(t)
	katestest.CreateConfigMaps(t, admin, ns, "bulk", 60) // bulk-0000 ... bulk-0059
	c, requests := countingClient(t, cluster.RESTConfig(), ns)
	for _, tc := range []struct {
		prefix string
		want   map[string]int
	}{
		// "aa-" sorts before every bulk ConfigMap: the first page of 40 holds the batch's 4.
		{"aa", map[string]int{"LIST": 1, "PATCH": 4}},
		// "zz-" sorts after them all: the page of 40 ends with bulk ones, and each of the
		// batch's is read with a GET.
		{"zz", map[string]int{"LIST": 1, "GET": 4, "PATCH": 4}},
	} {
		if _, err := apply.Run(ctx, admin, configMaps(tc.prefix, 4, "1"), apply.Options{NoValidate: true}); err != nil {
			t.Fatal(err)
		}
		res, err := apply.Run(ctx, c, configMaps(tc.prefix, 4, "1"), apply.Options{NoValidate: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range res.Objects {
			if o.Action != apply.Unchanged {
				t.Errorf("%s: %s, want unchanged", o.Name, o.Action)
			}
		}
		if diff := cmp.Diff(tc.want, requests.take()); diff != "" {
			t.Errorf("%s: requests for ConfigMaps (-want +got):\n%s", tc.prefix, diff)
		}
	}
}
