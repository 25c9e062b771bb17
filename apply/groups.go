package apply

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// The annotations of kates' own groups. See the package documentation, "Ordered groups".
const (
	// GroupAnnotation names the group an object belongs to: "db".
	GroupAnnotation = "kates.dev/group"
	// DependsOnAnnotation names, separated by commas, the groups that must be ready before
	// the object's group is applied: "db, queue". It needs a GroupAnnotation beside it.
	DependsOnAnnotation = "kates.dev/depends-on"
)

// The annotations of the other tools' conventions that Run reads.
const (
	helmGroupAnnotation     = "helm.sh/resource-group"
	helmDependsOnAnnotation = "helm.sh/depends-on/resource-groups" // a JSON list
	argoWaveAnnotation      = "argocd.argoproj.io/sync-wave"
	argoHookAnnotation      = "argocd.argoproj.io/hook"
	kappGroupAnnotation     = "kapp.k14s.io/change-group" // also change-group.<anything>
	kappRuleAnnotation      = "kapp.k14s.io/change-rule"  // also change-rule.<anything>
)

// Convention is a way of declaring groups that Run reads.
type Convention string

const (
	// ConventionKates is GroupAnnotation and DependsOnAnnotation.
	ConventionKates Convention = "kates"
	// ConventionHelm is Helm's HIP-0025: helm.sh/resource-group and
	// helm.sh/depends-on/resource-groups (a JSON list of group names).
	ConventionHelm Convention = "helm"
	// ConventionArgoCD is Argo CD's sync waves (argocd.argoproj.io/sync-wave, an integer,
	// 0 when absent) and sync phases (argocd.argoproj.io/hook: PreSync, Sync, PostSync).
	ConventionArgoCD Convention = "argocd"
	// ConventionKapp is kapp's change groups (kapp.k14s.io/change-group) and the change rules
	// (kapp.k14s.io/change-rule) "upsert after upserting G" and "upsert before upserting G".
	ConventionKapp Convention = "kapp"
	// ConventionCaller is a group that Options.GroupOf gave.
	ConventionCaller Convention = "caller"
)

// Conventions are the conventions Run reads by default, in the order an object's
// annotations are read.
var Conventions = []Convention{ConventionKates, ConventionHelm, ConventionArgoCD, ConventionKapp}

// Group is one step of a batch: its objects are applied together and, with Options.Wait,
// waited for before the next group is applied.
type Group struct {
	// Name is the group's name: as annotated ("db"), "wave N" for an Argo CD sync wave
	// ("PreSync wave N", "PostSync wave N" in those phases), "Kind/name" for an object that
	// has kapp change rules and no change group, and "" for the objects that no annotation
	// groups (all of them, in a batch without groups).
	Name string
	// From is the convention that declared the group; "" for the group "".
	From Convention
	// DependsOn are the groups that must be ready before this one, as declared; the group ""
	// depends on every other group, an Argo CD wave on the wave before it.
	DependsOn []string
	// Objects are the indexes in Result.Objects of the group's objects, in the order they
	// are applied.
	Objects []int
}

// String is the name, or "(ungrouped)" for the group "".
func (g Group) String() string {
	if g.Name == "" {
		return "(ungrouped)"
	}
	return g.Name
}

// claim is what one object's annotations (or Options.GroupOf) say of its group.
type claim struct {
	from   Convention
	name   string
	deps   []string // groups that must be ready before this object's group
	before []string // groups that must wait for this object's group (kapp "upsert before")
	// phase and wave order Argo CD's groups: phase 0 PreSync, 1 Sync, 2 PostSync.
	phase, wave int
	what        string // the annotation and value, for messages
}

var argoPhases = map[string]int{"PreSync": 0, "Sync": 1, "PostSync": 2}

// claims reads u's group annotations of each convention in conventions. More than one claim
// is an object in two groups, which the caller refuses.
func claims(u *unstructured.Unstructured, conventions []Convention) ([]claim, []string) {
	ann := u.GetAnnotations()
	var out []claim
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	for _, conv := range conventions {
		switch conv {
		case ConventionKates:
			name, ok := ann[GroupAnnotation]
			deps := splitList(ann[DependsOnAnnotation])
			switch {
			case ok && strings.TrimSpace(name) == "":
				bad("annotation %s is empty", GroupAnnotation)
			case ok:
				out = append(out, claim{from: conv, name: strings.TrimSpace(name), deps: deps, what: fmt.Sprintf("%s %q", GroupAnnotation, name)})
			case len(deps) > 0:
				bad("annotation %s without %s: only a group can depend on groups", DependsOnAnnotation, GroupAnnotation)
			}
		case ConventionHelm:
			name, ok := ann[helmGroupAnnotation]
			raw, hasDeps := ann[helmDependsOnAnnotation]
			var deps []string
			if hasDeps {
				if err := json.Unmarshal([]byte(raw), &deps); err != nil {
					bad("annotation %s: %q: want a JSON list of group names, as [\"db\"]", helmDependsOnAnnotation, raw)
				}
			}
			switch {
			case ok && strings.TrimSpace(name) == "":
				bad("annotation %s is empty", helmGroupAnnotation)
			case ok:
				out = append(out, claim{from: conv, name: strings.TrimSpace(name), deps: deps, what: fmt.Sprintf("%s %q", helmGroupAnnotation, name)})
			case hasDeps:
				bad("annotation %s without %s: only a group can depend on groups", helmDependsOnAnnotation, helmGroupAnnotation)
			}
		case ConventionArgoCD:
			wave, hasWave := ann[argoWaveAnnotation]
			hook, hasHook := ann[argoHookAnnotation]
			if !hasWave && !hasHook {
				continue
			}
			c := claim{from: conv, phase: argoPhases["Sync"]}
			var what []string
			if hasWave {
				n, err := strconv.Atoi(strings.TrimSpace(wave))
				if err != nil {
					bad("annotation %s: %q: want an integer", argoWaveAnnotation, wave)
				}
				c.wave = n
				what = append(what, fmt.Sprintf("%s %q", argoWaveAnnotation, wave))
			}
			if hasHook {
				phase, ok := argoPhases[strings.TrimSpace(hook)]
				if !ok {
					bad("annotation %s: %q: kates orders the hooks PreSync, Sync and PostSync as groups, and cannot honour others (SyncFail, PostDelete, Skip) or several", argoHookAnnotation, hook)
				}
				c.phase = phase
				what = append(what, fmt.Sprintf("%s %q", argoHookAnnotation, hook))
			}
			c.name = argoGroupName(c.phase, c.wave)
			c.what = strings.Join(what, " and ")
			out = append(out, c)
		case ConventionKapp:
			c, more := kappClaim(u, ann)
			problems = append(problems, more...)
			if c != nil {
				out = append(out, *c)
			}
		}
	}
	return out, problems
}

func argoGroupName(phase, wave int) string {
	name := "wave " + strconv.Itoa(wave)
	switch phase {
	case 0:
		name = "PreSync " + name
	case 2:
		name = "PostSync " + name
	}
	return name
}

// kappClaim reads kapp's change groups and change rules. Of the rules, only those about
// upserts map onto groups; kates does not order deletions (it prunes last), so a rule about
// one is refused.
func kappClaim(u *unstructured.Unstructured, ann map[string]string) (*claim, []string) {
	var names, rules []string
	for k, v := range ann {
		switch {
		case k == kappGroupAnnotation || strings.HasPrefix(k, kappGroupAnnotation+"."):
			names = append(names, kappPlaceholders(u, strings.TrimSpace(v)))
		case k == kappRuleAnnotation || strings.HasPrefix(k, kappRuleAnnotation+"."):
			rules = append(rules, v)
		}
	}
	if len(names) == 0 && len(rules) == 0 {
		return nil, nil
	}
	slices.Sort(names)
	names = slices.Compact(names)
	slices.Sort(rules)
	var problems []string
	c := &claim{from: ConventionKapp}
	for _, r := range rules {
		f := strings.Fields(r)
		if len(f) != 4 || f[0] != "upsert" || f[2] != "upserting" || (f[1] != "after" && f[1] != "before") {
			problems = append(problems, fmt.Sprintf("annotation %s: %q: kates honours \"upsert after upserting GROUP\" and \"upsert before upserting GROUP\" only (it does not order deletions: it prunes last)", kappRuleAnnotation, r))
			continue
		}
		target := kappPlaceholders(u, f[3])
		if f[1] == "after" {
			c.deps = append(c.deps, target)
		} else {
			c.before = append(c.before, target)
		}
	}
	switch len(names) {
	case 0:
		// Rules and no group: a group of its own, as kapp orders the one object.
		c.name = u.GetKind() + "/" + u.GetName()
		c.what = fmt.Sprintf("%s without %s", kappRuleAnnotation, kappGroupAnnotation)
	case 1:
		c.name = names[0]
		c.what = fmt.Sprintf("%s %q", kappGroupAnnotation, names[0])
	default:
		problems = append(problems, fmt.Sprintf("in %d kapp change groups (%s): kates applies an object in one group", len(names), strings.Join(names, ", ")))
		return nil, problems
	}
	return c, problems
}

// kappPlaceholders fills kapp's placeholders in a change group's name.
func kappPlaceholders(u *unstructured.Unstructured, s string) string {
	if !strings.Contains(s, "{") {
		return s
	}
	gvk := u.GroupVersionKind()
	crdGroup, _, _ := unstructured.NestedString(u.Object, "spec", "group")
	crdKind, _, _ := unstructured.NestedString(u.Object, "spec", "names", "kind")
	return strings.NewReplacer("{api-group}", gvk.Group, "{kind}", gvk.Kind, "{name}", u.GetName(),
		"{namespace}", u.GetNamespace(), "{crd-group}", crdGroup, "{crd-kind}", crdKind).Replace(s)
}

// splitList splits "a, b,c" into its non-empty names.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// planGroup is a group as planned: its Group and its items.
type planGroup struct {
	Group
	items []*item
	first int // the smallest source index of its items: independent groups go in this order
	phase int // Argo CD's phase and wave, which order the waves
	wave  int
}

// plan puts the batch's items into groups and orders the groups, or says every problem
// that stops it: an object in two groups, a batch both in Argo CD waves and in named groups,
// a dependency on a group that does not exist, a cycle, a custom resource or a namespaced
// object in a group before its CustomResourceDefinition's or its Namespace's. It reads
// it.claim, set by the checks; items are in the newBatch order (CRDs, Namespaces, the rest).
func (b *batch) plan() ([]*planGroup, []Problem) {
	var problems []Problem
	add := func(it *item, format string, args ...any) {
		problems = append(problems, Problem{Source: it.source, Object: it.describe(), Message: fmt.Sprintf(format, args...)})
	}
	var argo, named *item // the first object in a wave, and in a named group
	for _, it := range b.items {
		switch {
		case it.claim == nil:
		case it.claim.from == ConventionArgoCD:
			argo = cmpFirst(argo, it)
		default:
			named = cmpFirst(named, it)
		}
	}
	if argo != nil && named != nil {
		add(named, "%s, while %s (%s) is in an Argo CD sync wave (%s): waves and named groups do not order one another, so a batch uses one or the other (choose with Options.Conventions, or kates apply --groups)",
			named.claim.what, argo.describe(), argo.source, argo.claim.what)
		return nil, problems
	}

	byName := map[string]*planGroup{}
	var groups []*planGroup
	groupOf := func(name string, from Convention, it *item) *planGroup {
		g, ok := byName[name]
		if !ok {
			g = &planGroup{Group: Group{Name: name, From: from}, first: it.source.Index}
			byName[name] = g
			groups = append(groups, g)
		}
		g.first = min(g.first, it.source.Index)
		return g
	}
	var early []*item // ungrouped CRDs and Namespaces: they go with the first group
	for _, it := range b.items {
		c := it.claim
		switch {
		case c == nil && (isCRD(it.gvk) || isNamespace(it.gvk)):
			early = append(early, it)
			continue
		case c == nil && argo != nil:
			// Argo CD: an object without a wave is in wave 0 of the Sync phase.
			c = &claim{from: ConventionArgoCD, name: argoGroupName(1, 0), phase: 1}
		case c == nil:
			c = &claim{}
		}
		g := groupOf(c.name, c.from, it)
		g.phase, g.wave = c.phase, c.wave
		g.items = append(g.items, it)
		it.group = c.name
	}
	// Dependencies: declared ones, kapp's "before" ones turned round, unknown ones refused.
	for _, it := range b.items {
		c := it.claim
		if c == nil {
			continue
		}
		g := byName[c.name]
		for _, d := range c.deps {
			if _, ok := byName[d]; !ok {
				add(it, "%s depends on group %q, which no object of the batch is in", c.what, d)
				continue
			}
			if !slices.Contains(g.DependsOn, d) && d != c.name {
				g.DependsOn = append(g.DependsOn, d)
			}
		}
		for _, d := range c.before {
			other, ok := byName[d]
			if !ok {
				add(it, "%s must come before group %q, which no object of the batch is in", c.what, d)
				continue
			}
			if !slices.Contains(other.DependsOn, c.name) && d != c.name {
				other.DependsOn = append(other.DependsOn, c.name)
			}
		}
	}
	if argo != nil {
		// Waves in order of phase, then wave; each waits for the one before.
		slices.SortStableFunc(groups, func(x, y *planGroup) int {
			if x.phase != y.phase {
				return x.phase - y.phase
			}
			return x.wave - y.wave
		})
		for i := 1; i < len(groups); i++ {
			groups[i].DependsOn = []string{groups[i-1].Name}
		}
	} else if ungrouped, ok := byName[""]; ok {
		// As Helm does: the objects no annotation groups come after every group.
		for _, g := range groups {
			if g.Name != "" {
				ungrouped.DependsOn = append(ungrouped.DependsOn, g.Name)
			}
		}
	}
	// A cycle is looked for even when dependencies were refused (they were left out), so
	// that every problem is listed at once.
	ordered, cycle := orderGroups(groups)
	if cycle != nil {
		it := byName[cycle[0]].items[0]
		add(it, "dependency cycle between groups: %s", strings.Join(cycle, " → "))
	}
	if len(problems) > 0 {
		return nil, problems
	}
	if len(early) > 0 {
		if len(ordered) == 0 {
			ordered = []*planGroup{{first: early[0].source.Index}}
		}
		ordered[0].items = append(early, ordered[0].items...)
		for _, it := range early {
			it.group = ordered[0].Name
		}
	}
	problems = append(problems, b.checkPrerequisites(ordered)...)
	return ordered, problems
}

// cmpFirst returns whichever of a and b comes first in the batch as given.
func cmpFirst(a, b *item) *item {
	if a == nil || b.source.Index < a.source.Index {
		return b
	}
	return a
}

func isNamespace(gvk schema.GroupVersionKind) bool { return gvk.Group == "" && gvk.Kind == "Namespace" }

// orderGroups sorts groups so that each comes after the groups it depends on; among groups
// free to go, the one whose first object comes first in the batch goes first, so a plan reads
// in the order of the files. It returns a cycle (its group names, the first repeated at the
// end) when there is one.
func orderGroups(groups []*planGroup) ([]*planGroup, []string) {
	byName := map[string]*planGroup{}
	waiting := map[string]int{} // how many of its dependencies are not placed yet
	dependents := map[string][]string{}
	for _, g := range groups {
		byName[g.Name] = g
		waiting[g.Name] = len(g.DependsOn)
		for _, d := range g.DependsOn {
			dependents[d] = append(dependents[d], g.Name)
		}
	}
	var ready, out []*planGroup
	for _, g := range groups {
		if waiting[g.Name] == 0 {
			ready = append(ready, g)
		}
	}
	for len(ready) > 0 {
		next := 0
		for i, g := range ready {
			if g.first < ready[next].first {
				next = i
			}
		}
		g := ready[next]
		ready = slices.Delete(ready, next, next+1)
		out = append(out, g)
		for _, d := range dependents[g.Name] {
			if waiting[d]--; waiting[d] == 0 {
				ready = append(ready, byName[d])
			}
		}
	}
	if len(out) == len(groups) {
		return out, nil
	}
	// Every group left waits on another group left: walk dependencies until one repeats.
	var start *planGroup
	for _, g := range groups {
		if waiting[g.Name] > 0 && (start == nil || g.first < start.first) {
			start = g
		}
	}
	seen := map[string]int{}
	var path []string
	for g := start; ; {
		if at, ok := seen[g.Name]; ok {
			return nil, append(path[at:], g.Name)
		}
		seen[g.Name] = len(path)
		path = append(path, g.Name)
		for _, d := range g.DependsOn {
			if waiting[d] > 0 {
				g = byName[d]
				break
			}
		}
	}
}

// checkPrerequisites refuses a custom resource in a group before its CustomResourceDefinition's,
// and a namespaced object in a group before its Namespace's: it would be applied before its
// kind is served or its namespace exists.
func (b *batch) checkPrerequisites(groups []*planGroup) []Problem {
	crdAt, nsAt := map[schema.GroupKind]int{}, map[string]int{}
	for gi, g := range groups {
		for _, it := range g.items {
			switch {
			case isCRD(it.gvk):
				group, _, _ := unstructured.NestedString(it.obj.Object, "spec", "group")
				kind, _, _ := unstructured.NestedString(it.obj.Object, "spec", "names", "kind")
				crdAt[schema.GroupKind{Group: group, Kind: kind}] = gi
			case isNamespace(it.gvk):
				nsAt[it.obj.GetName()] = gi
			}
		}
	}
	var problems []Problem
	for gi, g := range groups {
		for _, it := range g.items {
			if at, ok := crdAt[it.gvk.GroupKind()]; ok && at > gi {
				problems = append(problems, Problem{Source: it.source, Object: it.describe(), Message: fmt.Sprintf(
					"in group %s, before group %s that holds the CustomResourceDefinition of its kind", g.Group, groups[at].Group)})
			}
			if at, ok := nsAt[it.namespace]; ok && at > gi && it.namespace != "" {
				problems = append(problems, Problem{Source: it.source, Object: it.describe(), Message: fmt.Sprintf(
					"in group %s, before group %s that holds its Namespace %s", g.Group, groups[at].Group, it.namespace)})
			}
		}
	}
	return problems
}

// readClaim sets it.claim from its annotations, or from opts.GroupOf, as opts say.
func (it *item) readClaim(opts Options) []string {
	switch {
	case opts.IgnoreGroups:
		return nil
	case opts.GroupOf != nil:
		name, deps, err := opts.GroupOf(it.obj.DeepCopy())
		if err != nil {
			return []string{err.Error()}
		}
		if name != "" {
			it.claim = &claim{from: ConventionCaller, name: name, deps: deps, what: fmt.Sprintf("group %q", name)}
		} else if len(deps) > 0 {
			return []string{"Options.GroupOf gave dependencies and no group"}
		}
		return nil
	}
	conventions := opts.Conventions
	if conventions == nil {
		conventions = Conventions
	}
	cs, problems := claims(it.obj, conventions)
	if slices.Contains(conventions, ConventionHelm) {
		stripHelmDependsOn(it.obj)
	}
	switch {
	case len(problems) > 0:
		// Refused already: a group planned from what is left would only add problems.
	case len(cs) == 0:
	case len(cs) == 1:
		it.claim = &cs[0]
	default:
		whats := make([]string, len(cs))
		for i, c := range cs {
			whats[i] = c.what
		}
		problems = append(problems, fmt.Sprintf("in two groups, by %s: an object is in one group; keep one convention's annotations, or choose which are read (Options.Conventions, kates apply --groups)", strings.Join(whats, " and by ")))
	}
	return problems
}

// order puts the batch's items in the order of groups, and notes the groups.
func (b *batch) order(groups []*planGroup) {
	b.items = b.items[:0]
	for _, g := range groups {
		g.Objects = g.Objects[:0]
		for _, it := range g.items {
			g.Objects = append(g.Objects, len(b.items))
			b.items = append(b.items, it)
		}
	}
	b.groups = groups
}

// stripHelmDependsOn removes helm.sh/depends-on/resource-groups from the object to be sent:
// with its two slashes it is not a valid annotation key, and the API server refuses an
// object that carries it. It has been read by then.
func stripHelmDependsOn(u *unstructured.Unstructured) {
	ann := u.GetAnnotations()
	if _, ok := ann[helmDependsOnAnnotation]; !ok {
		return
	}
	delete(ann, helmDependsOnAnnotation)
	if len(ann) == 0 {
		ann = nil
	}
	u.SetAnnotations(ann)
}
