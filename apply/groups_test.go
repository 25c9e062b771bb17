package apply

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/kates-dev/kates/kates"
)

// planOf plans the batch of manifests as Run's checks do, less the cluster: each object's
// namespace is its own. It returns each group as "name: Kind/name, ..." in order, or the
// problems.
func planOf(t *testing.T, manifests string, opts Options) ([]string, []string) {
	t.Helper()
	objs, err := kates.ParseUnstructuredManifests(manifests)
	require.NoError(t, err)
	b, err := newBatch(nil, toAny(objs))
	require.NoError(t, err)
	var problems []string
	for _, it := range b.items {
		it.namespace = it.obj.GetNamespace()
		for _, p := range it.readClaim(opts) {
			problems = append(problems, it.describe()+": "+p)
		}
	}
	groups, more := b.plan()
	for _, p := range more {
		problems = append(problems, p.Object+": "+p.Message)
	}
	if problems != nil {
		return nil, problems
	}
	b.order(groups)
	var out []string
	for _, g := range groups {
		var names []string
		for _, i := range g.Objects {
			names = append(names, b.items[i].gvk.Kind+"/"+b.items[i].obj.GetName())
		}
		out = append(out, g.Group.String()+": "+strings.Join(names, ", "))
	}
	return out, nil
}

// obj is a manifest of one object with annotations ("key: value" lines, indented by the caller).
func obj(kind, name string, annotations ...string) string {
	apiVersion := "v1"
	switch kind {
	case "Deployment", "StatefulSet":
		apiVersion = "apps/v1"
	case "Job":
		apiVersion = "batch/v1"
	case "CustomResourceDefinition":
		apiVersion = "apiextensions.k8s.io/v1"
	}
	s := "---\napiVersion: " + apiVersion + "\nkind: " + kind + "\nmetadata:\n  name: " + name + "\n"
	if kind != "Namespace" && kind != "CustomResourceDefinition" {
		s += "  namespace: ns\n"
	}
	if len(annotations) > 0 {
		s += "  annotations:\n"
		for _, a := range annotations {
			s += "    " + a + "\n"
		}
	}
	return s
}

func TestPlanOrdersGroups(t *testing.T) {
	for _, tt := range []struct {
		name      string
		manifests string
		opts      Options
		want      []string
	}{{
		name:      "no groups: one group, CRDs and Namespaces first",
		manifests: obj("ConfigMap", "a") + obj("Namespace", "ns") + obj("ConfigMap", "b"),
		want:      []string{"(ungrouped): Namespace/ns, ConfigMap/a, ConfigMap/b"},
	}, {
		name: "kates groups by dependency, not file order; ungrouped last; Namespace with the first",
		manifests: obj("Deployment", "web", "kates.dev/group: app", "kates.dev/depends-on: seed") +
			obj("ConfigMap", "loose") +
			obj("Job", "seed", "kates.dev/group: seed", "kates.dev/depends-on: db") +
			obj("StatefulSet", "db", "kates.dev/group: db") +
			obj("Namespace", "ns"),
		want: []string{"db: Namespace/ns, StatefulSet/db", "seed: Job/seed", "app: Deployment/web", "(ungrouped): ConfigMap/loose"},
	}, {
		name: "independent groups in the order of their first objects",
		manifests: obj("ConfigMap", "b", "kates.dev/group: b") + obj("ConfigMap", "a", "kates.dev/group: a") +
			obj("ConfigMap", "c", "kates.dev/group: c", "kates.dev/depends-on: a, b"),
		want: []string{"b: ConfigMap/b", "a: ConfigMap/a", "c: ConfigMap/c"},
	}, {
		name: "Argo CD waves, negative first, no annotation is wave 0, hooks in their phases",
		manifests: obj("Deployment", "web", "argocd.argoproj.io/sync-wave: \"2\"") +
			obj("Job", "after", "argocd.argoproj.io/hook: PostSync") +
			obj("ConfigMap", "plain") +
			obj("Job", "before", "argocd.argoproj.io/hook: PreSync", "argocd.argoproj.io/sync-wave: \"5\"") +
			obj("StatefulSet", "db", "argocd.argoproj.io/sync-wave: \"-1\""),
		want: []string{"PreSync wave 5: Job/before", "wave -1: StatefulSet/db", "wave 0: ConfigMap/plain", "wave 2: Deployment/web", "PostSync wave 0: Job/after"},
	}, {
		name: "Helm HIP-0025",
		manifests: obj("Deployment", "web", "helm.sh/resource-group: app", `helm.sh/depends-on/resource-groups: '["database", "queue"]'`) +
			obj("StatefulSet", "db", "helm.sh/resource-group: database") +
			obj("StatefulSet", "q", "helm.sh/resource-group: queue"),
		want: []string{"database: StatefulSet/db", "queue: StatefulSet/q", "app: Deployment/web"},
	}, {
		name: "kapp change groups and rules, before and after, placeholders, a rule alone",
		manifests: obj("Deployment", "web", "kapp.k14s.io/change-group: apps.co/app", "kapp.k14s.io/change-rule: upsert after upserting apps.co/db") +
			obj("Job", "migrate", "kapp.k14s.io/change-rule.0: upsert after upserting apps.co/db", "kapp.k14s.io/change-rule.1: upsert before upserting apps.co/app") +
			obj("StatefulSet", "db", "kapp.k14s.io/change-group: apps.co/{name}"),
		want: []string{"apps.co/db: StatefulSet/db", "Job/migrate: Job/migrate", "apps.co/app: Deployment/web"},
	}, {
		name:      "Conventions leave one out: the object is in the other's group",
		manifests: obj("ConfigMap", "a", "kates.dev/group: g", "argocd.argoproj.io/sync-wave: \"1\"") + obj("ConfigMap", "b", "kates.dev/group: first"),
		opts:      Options{Conventions: []Convention{ConventionKates}},
		want:      []string{"g: ConfigMap/a", "first: ConfigMap/b"},
	}, {
		name:      "IgnoreGroups",
		manifests: obj("ConfigMap", "a", "kates.dev/group: a", "kates.dev/depends-on: b") + obj("ConfigMap", "b", "kates.dev/group: b"),
		opts:      Options{IgnoreGroups: true},
		want:      []string{"(ungrouped): ConfigMap/a, ConfigMap/b"},
	}} {
		t.Run(tt.name, func(t *testing.T) {
			got, problems := planOf(t, tt.manifests, tt.opts)
			require.Empty(t, problems)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("plan mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPlanRefuses: every problem is found, each naming its object.
func TestPlanRefuses(t *testing.T) {
	for _, tt := range []struct {
		name      string
		manifests string
		want      []string // a part of each problem, in order
	}{{
		name: "a cycle, named in order",
		manifests: obj("ConfigMap", "a", "kates.dev/group: a", "kates.dev/depends-on: c") +
			obj("ConfigMap", "b", "kates.dev/group: b", "kates.dev/depends-on: a") +
			obj("ConfigMap", "c", "kates.dev/group: c", "kates.dev/depends-on: b"),
		want: []string{"ConfigMap a: dependency cycle between groups: a → c → b → a"},
	}, {
		name:      "unknown groups, each",
		manifests: obj("ConfigMap", "a", "kates.dev/group: a", "kates.dev/depends-on: nope, b") + obj("ConfigMap", "b", "helm.sh/resource-group: b", `helm.sh/depends-on/resource-groups: '["gone"]'`),
		want:      []string{`ConfigMap a: kates.dev/group "a" depends on group "nope"`, `ConfigMap b: helm.sh/resource-group "b" depends on group "gone"`},
	}, {
		name:      "an object in two groups",
		manifests: obj("ConfigMap", "a", "kates.dev/group: a", "helm.sh/resource-group: b"),
		want:      []string{`ConfigMap a: in two groups, by kates.dev/group "a" and by helm.sh/resource-group "b"`},
	}, {
		name:      "two kapp change groups",
		manifests: obj("ConfigMap", "a", "kapp.k14s.io/change-group: x", "kapp.k14s.io/change-group.more: yy"),
		want:      []string{"ConfigMap a: in 2 kapp change groups (x, yy)"},
	}, {
		name:      "waves and named groups in one batch",
		manifests: obj("ConfigMap", "a", "argocd.argoproj.io/sync-wave: \"1\"") + obj("ConfigMap", "b", "kates.dev/group: b"),
		want:      []string{"ConfigMap b: kates.dev/group \"b\", while ConfigMap a (document 1) is in an Argo CD sync wave"},
	}, {
		name: "values that cannot be honoured",
		manifests: obj("ConfigMap", "a", "argocd.argoproj.io/sync-wave: soon") +
			obj("ConfigMap", "b", "argocd.argoproj.io/hook: SyncFail") +
			obj("ConfigMap", "c", "kapp.k14s.io/change-rule: delete before deleting x") +
			obj("ConfigMap", "d", "kates.dev/depends-on: a") +
			obj("ConfigMap", "e", "helm.sh/resource-group: e", "helm.sh/depends-on/resource-groups: a, b"),
		want: []string{`ConfigMap a: annotation argocd.argoproj.io/sync-wave: "soon": want an integer`,
			`ConfigMap b: annotation argocd.argoproj.io/hook: "SyncFail"`,
			`ConfigMap c: annotation kapp.k14s.io/change-rule: "delete before deleting x"`,
			`ConfigMap d: annotation kates.dev/depends-on without kates.dev/group`,
			`ConfigMap e: annotation helm.sh/depends-on/resource-groups: "a, b": want a JSON list`},
	}, {
		name: "a custom resource before its CRD, an object before its Namespace",
		manifests: obj("CustomResourceDefinition", "gizmos.example.com", "kates.dev/group: late", "kates.dev/depends-on: early") +
			"spec: {group: example.com, names: {kind: Gizmo, plural: gizmos}, scope: Namespaced}\n" +
			"---\napiVersion: example.com/v1\nkind: Gizmo\nmetadata: {name: g, namespace: ns, annotations: {kates.dev/group: early}}\n" +
			obj("Namespace", "ns", "kates.dev/group: late"),
		want: []string{"Gizmo g: in group early, before group late that holds the CustomResourceDefinition of its kind",
			"Gizmo g: in group early, before group late that holds its Namespace ns"},
	}} {
		t.Run(tt.name, func(t *testing.T) {
			_, problems := planOf(t, tt.manifests, Options{})
			require.Len(t, problems, len(tt.want), "problems: %q", problems)
			for i, want := range tt.want {
				require.Contains(t, problems[i], want)
			}
		})
	}
}

func TestHelmReadinessExpressions(t *testing.T) {
	status := map[string]any{"succeeded": int64(1), "phase": "Ready", "ready": true, "conditions": []any{map[string]any{"type": "Complete", "status": "True"}}}
	for _, tt := range []struct {
		expr string
		want bool
	}{
		{"{.succeeded} >= 1", true},
		{"{.status.succeeded} == 1", true},
		{"{.succeeded} > 1", false},
		{"{.failed} >= 1", false}, // absent: not met
		{`{.phase} == "Ready"`, true},
		{"{.phase} != 'Ready'", false},
		{"{.ready} == true", true},
		{`{.conditions[?(@.type=="Complete")].status} == True`, true},
	} {
		e, err := parseHelmExpr(tt.expr)
		require.NoError(t, err, tt.expr)
		require.Equal(t, tt.want, e.holds(status), tt.expr)
	}
	for _, bad := range []string{".succeeded >= 1", "{.succeeded}", "{.succeeded} ~ 1", "{.phase} > Ready", "{succeeded} == 1"} {
		_, err := parseHelmExpr(bad)
		require.Error(t, err, bad)
	}
}
