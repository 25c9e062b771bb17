package kates

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kates-dev/kates/kstatus"
	"github.com/kates-dev/kates/kstatus/related"
)

// The tracker behind Wait, Status and WatchStatus: it resolves references into rows, watches
// them with one Accumulator (plus one per kind that becomes served later), and judges every
// row at each change. Nothing here polls: the only timer is for a Pod whose unschedulable
// window (kstatus.ScheduleWindow) runs out without any event.

// trackOptions says what track watches and how it judges.
type trackOptions struct {
	// waitKinds makes track wait for kinds that are not served yet (see Client.WaitFor);
	// otherwise their objects are NotFound.
	waitKinds bool
	// related watches Pods, ReplicaSets and EndpointSlices to explain workloads and Services.
	related bool
	// deletion judges a named object whose UID differs from its reference's as NotFound.
	deletion bool
	// goal, if not nil, judges objects by what WaitOptions asks for (a status condition, a
	// JSONPath value, existence) rather than by their being Current.
	goal objectGoal
	// skipLoadBalancers judges a LoadBalancer Service without an address as if it needed none.
	skipLoadBalancers bool
	// confirm, if not nil, says whether results would end the tracking; when they would and
	// a Service among them was judged Current through its related objects, that verdict is
	// checked against Pods and EndpointSlices read afresh (see tracker.confirm) before judge
	// is told.
	confirm func(results []ObjectStatus) bool
	// rules are the status rules objects are judged with (see statusrules.go).
	rules judge
	// explain fills ObjectStatus.Rule, the rule that judged each object.
	explain bool
	// detail fills ObjectStatus.Explanation too.
	detail bool
}

// confirmRetry is how soon a verdict the fresh reads refuted is looked at again if no event
// comes first.
const confirmRetry = time.Second

// judgedService is a Service that evaluate judged Current through its related objects.
type judgedService struct {
	index int // in the results
	entry Entry[*unstructured.Unstructured]
}

// judgeFunc is told the results of every complete evaluation, and whether they differ from
// the previous call's; it returns true, or an error, to stop tracking.
type judgeFunc func(results []ObjectStatus, changed bool) (done bool, err error)

// snapshotField is the type of every field of a tracker part's snapshot struct: maps are updated
// in place by Accumulator.Update, so a change costs what changed.
type snapshotField = map[string]Entry[*unstructured.Unstructured]

var snapshotFieldType = reflect.TypeFor[snapshotField]()

// trackRow is one reference, resolved.
type trackRow struct {
	ref ObjectRef
	// kindArg is how the reference names its kind to Mapping and WaitFor.
	kindArg string
	// unserved is set while the kind is not served; mapping is nil then.
	unserved bool
	mapping  *meta.RESTMapping
	// namespace is the resolved namespace: "" for cluster-scoped kinds and all-namespace
	// selections.
	namespace string
	selector  labels.Selector // for selections
	part      *trackPart
	query     int // index of the query in part that holds the row's objects
}

func (r *trackRow) selection() bool { return r.ref.Name == "" }

func (r *trackRow) gvk() schema.GroupVersionKind { return r.mapping.GroupVersionKind }

// queryKey identifies one query of a part; equal keys share a query.
type queryKey struct {
	gvk                            schema.GroupVersionKind
	namespace, name, sel, fieldSel string
	resource                       string // the kind as Query.Kind names it
}

// relKey names a related query: kind and namespace ("" for every namespace).
type relKey struct{ kind, namespace string }

// trackPart is one Accumulator with its snapshot.
type trackPart struct {
	acc   *Accumulator
	snap  reflect.Value // pointer to the snapshot struct
	ready bool          // the first complete view has been taken
	// late marks a part added for kinds served after track started. Its rows are judged
	// "not observed yet" until it is ready, rather than holding up every other row: the API
	// server may take a second to list a kind it has just started serving.
	late    bool
	related map[relKey]int
}

func (p *trackPart) field(i int) snapshotField {
	m, _ := p.snap.Elem().Field(i).Interface().(snapshotField)
	return m
}

// Related kinds.
var (
	podGVK           = schema.GroupVersionKind{Version: "v1", Kind: "Pod"}
	replicaSetGVK    = schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "ReplicaSet"}
	endpointSliceGVK = schema.GroupVersionKind{Group: "discovery.k8s.io", Version: "v1", Kind: "EndpointSlice"}
	relatedResource  = map[string]string{related.KindPod: "pods", related.KindReplicaSet: "replicasets.v1.apps", related.KindEndpointSlice: "endpointslices.v1.discovery.k8s.io"}
	relatedGVK       = map[string]schema.GroupVersionKind{related.KindPod: podGVK, related.KindReplicaSet: replicaSetGVK, related.KindEndpointSlice: endpointSliceGVK}
)

var serviceGK = schema.GroupKind{Kind: "Service"}

// tracker holds one track call's state.
type tracker struct {
	c     *Client
	opts  trackOptions
	rows  []*trackRow
	parts []*trackPart
	// wake receives a value when any part's Accumulator may have changed.
	wake chan struct{}
	// kindDone receives the end of each wait for a kind that was not served yet.
	kindDone chan kindResult
	wg       sync.WaitGroup
}

// track resolves refs, watches them and calls judge after each complete evaluation until it
// says done or fails, or ctx ends (then it returns ctx's error). It returns only once every
// goroutine it started has ended. Its steps: resolve the references (start), then loop:
// judge the current view (judgeView), and wait for a change, a recheck time or a kind the
// API server has begun to serve (kindServed).
func (c *Client) track(ctx context.Context, refs []ObjectRef, opts trackOptions, judge judgeFunc) error {
	ctx, cancel := context.WithCancel(ctx)
	opts.rules.kinds = c.knownKind
	t := &tracker{c: c, opts: opts, wake: make(chan struct{}, 1), kindDone: make(chan kindResult)}
	defer func() {
		cancel()
		t.wg.Wait()
	}()
	if err := t.start(ctx, refs); err != nil {
		return err
	}
	v := &verdicts{}
	defer v.stopTimer()
	evaluate := len(t.parts) == 0 // nothing to bootstrap: judge at once
	for {
		if evaluate {
			if done, err := t.judgeView(ctx, v, judge); done || err != nil {
				return err
			}
		}
		evaluate = true
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.wake:
		case <-v.timerC:
			v.timer, v.timerC = nil, nil
		case kr := <-t.kindDone:
			if err := t.kindServed(ctx, kr); err != nil {
				return err
			}
		}
	}
}

// kindResult is what waiting for an unserved kind ended with.
type kindResult struct {
	kindArg string
	err     error
}

// verdicts is what track's loop keeps between evaluations: the last results judged, and
// the timer for the earliest time a verdict may change with no event (a Pod's
// unschedulable window ending, say).
type verdicts struct {
	last   []ObjectStatus
	judged bool
	timer  *time.Timer
	timerC <-chan time.Time
}

func (v *verdicts) stopTimer() {
	if v.timer != nil {
		v.timer.Stop()
		v.timer, v.timerC = nil, nil
	}
}

// start resolves every reference into a row, watches the rows whose kinds are served in one
// part, and, when opts.waitKinds, starts waiting for each kind not served yet (kindServed
// adds their part when it is).
func (t *tracker) start(ctx context.Context, refs []ObjectRef) error {
	pendingKinds := map[string]bool{}
	var served []*trackRow
	for _, ref := range refs {
		row, err := t.c.resolveRow(ref)
		if err != nil {
			return err
		}
		t.rows = append(t.rows, row)
		if !row.unserved {
			served = append(served, row)
			continue
		}
		if t.opts.waitKinds && !pendingKinds[row.kindArg] {
			pendingKinds[row.kindArg] = true
			t.wg.Add(1)
			go func() {
				defer t.wg.Done()
				err := t.c.WaitFor(ctx, row.kindArg)
				select {
				case t.kindDone <- kindResult{row.kindArg, err}:
				case <-ctx.Done():
				}
			}()
		}
	}
	return t.addPart(ctx, served, false)
}

// judgeView evaluates every row once every part has its first complete view, confirms a
// verdict that rests on Services with consistent reads, hands the results to judge, and
// sets v's timer for the next recheck. done is judge's answer.
func (t *tracker) judgeView(ctx context.Context, v *verdicts, judge judgeFunc) (done bool, err error) {
	ready, err := t.update(ctx)
	if err != nil || !ready {
		return false, err
	}
	results, recheck, services := t.evaluate(time.Now())
	changed := !v.judged || !sameResults(v.last, results)
	if t.opts.confirm != nil && len(services) > 0 && t.opts.confirm(results) {
		// The verdict that would end the wait rests on Services judged through watches
		// that lag one another: confirm it on consistent reads first.
		confirmed, ok, err := t.confirm(ctx, results, services)
		if err != nil {
			return false, err
		}
		if !ok {
			results = confirmed
			changed = !sameResults(v.last, results)
			// The watches will deliver what the reads saw; the recheck is a safety net,
			// not how the wait normally moves on.
			recheck = related.Earliest(recheck, time.Now().Add(confirmRetry))
		}
	}
	v.judged, v.last = true, results
	if done, err := judge(results, changed); done || err != nil {
		return done, err
	}
	v.stopTimer()
	if !recheck.IsZero() {
		v.timer = time.NewTimer(time.Until(recheck) + 10*time.Millisecond)
		v.timerC = v.timer.C
	}
	return false, nil
}

// kindServed adds a part for the rows of a kind the API server now serves, or returns the
// error waiting for it ended with.
func (t *tracker) kindServed(ctx context.Context, kr kindResult) error {
	if kr.err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return kr.err
	}
	var rows []*trackRow
	for _, row := range t.rows {
		if row.unserved && row.kindArg == kr.kindArg {
			m, err := t.c.refMapping(row.ref)
			if err != nil {
				return err
			}
			row.resolved(m, t.c.namespace)
			rows = append(rows, row)
		}
	}
	return t.addPart(ctx, rows, true)
}

// resolveRow resolves a reference's kind (an unserved kind is not an error) and selector.
func (c *Client) resolveRow(ref ObjectRef) (*trackRow, error) {
	row := &trackRow{ref: ref, kindArg: ref.Kind}
	if ref.APIVersion != "" {
		gv, err := schema.ParseGroupVersion(ref.APIVersion)
		if err != nil {
			return nil, fmt.Errorf("kates: %s: %w", ref, err)
		}
		row.kindArg = ref.Kind + "." + gv.Version + "." + gv.Group
	}
	if ref.Name == "" {
		sel, err := labels.Parse(ref.LabelSelector)
		if err != nil {
			return nil, fmt.Errorf("kates: %s: invalid label selector: %w", ref, err)
		}
		row.selector = sel
	}
	m, err := c.refMapping(ref)
	switch {
	case IsUnknownKind(err):
		row.unserved = true
		row.namespace = ref.Namespace
		if ref.Name != "" && row.namespace == "" {
			row.namespace = c.namespace
		}
	case err != nil:
		return nil, err
	default:
		row.resolved(m, c.namespace)
	}
	return row, nil
}

// refMapping resolves a reference's kind.
func (c *Client) refMapping(ref ObjectRef) (*meta.RESTMapping, error) {
	if ref.APIVersion == "" {
		return c.Mapping(ref.Kind)
	}
	gv, err := schema.ParseGroupVersion(ref.APIVersion)
	if err != nil {
		return nil, fmt.Errorf("kates: %s: %w", ref, err)
	}
	m, err := c.MappingFor(gv.WithKind(ref.Kind))
	if err != nil && !IsUnknownKind(err) {
		err = fmt.Errorf("kates: %s: %w", ref, err)
	}
	return m, err
}

// resolved records the row's mapping and its namespace.
func (r *trackRow) resolved(m *meta.RESTMapping, defaultNamespace string) {
	r.unserved = false
	r.mapping = m
	switch {
	case m.Scope.Name() != meta.RESTScopeNameNamespace:
		r.namespace = ""
	case r.selection() && r.ref.AllNamespaces:
		r.namespace = ""
	case r.ref.Namespace != "":
		r.namespace = r.ref.Namespace
	default:
		r.namespace = defaultNamespace
	}
}

// resourceArg names a mapping's kind for Query.Kind without ambiguity: "pods",
// "deployments.v1.apps".
func resourceArg(m *meta.RESTMapping) string {
	if m.Resource.Group == "" {
		return m.Resource.Resource
	}
	return m.Resource.Resource + "." + m.Resource.Version + "." + m.Resource.Group
}

// addPart watches rows with one new Accumulator (see planPart).
func (t *tracker) addPart(ctx context.Context, rows []*trackRow, late bool) error {
	if len(rows) == 0 {
		return nil
	}
	p, queries := planPart(rows, t.opts.related)
	p.late = late
	wo := t.opts.rules.watchOptions()
	wo.unobserved = true // query names made up here would only clutter the metrics
	wo.specTimes = true  // a spec the controller rejected is Failed, not a change unseen
	acc, err := t.c.WatchWith(ctx, wo, queries...)
	if err != nil {
		return err
	}
	p.acc = acc
	t.parts = append(t.parts, p)
	t.wg.Add(1)
	go func() {
		defer t.wg.Done()
		// Changed is closed once ctx ended and every watch of acc returned.
		for range acc.Changed() {
			select {
			case t.wake <- struct{}{}:
			default:
			}
		}
	}()
	return nil
}

// planPart plans the queries of one Accumulator for rows, and points each row at the query that
// holds its objects: with related, a query per related kind and namespace; a query per
// selection; and for named rows a query per kind and namespace, narrowed to metadata.name when
// it names a single object and no other query already covers that kind and namespace. So a
// batch costs one watch per kind per namespace, not one per object.
func planPart(rows []*trackRow, withRelated bool) (*trackPart, []Query) {
	p := &trackPart{related: map[relKey]int{}}
	var keys []queryKey
	index := map[queryKey]int{}
	add := func(k queryKey) int {
		if i, ok := index[k]; ok {
			return i
		}
		index[k] = len(keys)
		keys = append(keys, k)
		return len(keys) - 1
	}
	if withRelated {
		for _, row := range rows {
			for _, kind := range related.Kinds(row.gvk().GroupKind()) {
				rk := relKey{kind, row.namespace}
				if _, ok := p.related[rk]; !ok {
					p.related[rk] = add(queryKey{gvk: relatedGVK[kind], namespace: row.namespace, resource: relatedResource[kind]})
				}
			}
		}
	}
	type group struct {
		gvk       schema.GroupVersionKind
		namespace string
	}
	named := map[group][]string{}
	resource := map[group]string{}
	var order []group
	for _, row := range rows {
		if row.selection() {
			row.query = add(queryKey{gvk: row.gvk(), namespace: row.namespace, sel: row.selector.String(),
				fieldSel: row.ref.FieldSelector, resource: resourceArg(row.mapping)})
			continue
		}
		g := group{row.gvk(), row.namespace}
		if _, ok := named[g]; !ok {
			order = append(order, g)
			resource[g] = resourceArg(row.mapping)
		}
		if !slices.Contains(named[g], row.ref.Name) {
			named[g] = append(named[g], row.ref.Name)
		}
	}
	groupQuery := map[group]int{}
	for _, g := range order {
		wide := queryKey{gvk: g.gvk, namespace: g.namespace, resource: resource[g]}
		i, ok := index[wide]
		switch {
		case ok:
		case len(named[g]) > 1:
			i = add(wide)
		default:
			k := wide
			k.name = named[g][0]
			i = add(k)
		}
		groupQuery[g] = i
	}
	for _, row := range rows {
		if !row.selection() {
			row.query = groupQuery[group{row.gvk(), row.namespace}]
		}
		row.part = p
	}

	queries := make([]Query, len(keys))
	fields := make([]reflect.StructField, len(keys))
	for i, k := range keys {
		name := queryName(i, k.gvk.Kind)
		q := Query{Name: name, Kind: k.resource, Namespace: k.namespace, LabelSelector: k.sel, FieldSelector: k.fieldSel}
		if k.name != "" {
			q.FieldSelector = "metadata.name=" + k.name
		}
		queries[i] = q
		fields[i] = reflect.StructField{Name: name, Type: snapshotFieldType}
	}
	p.snap = reflect.New(reflect.StructOf(fields))
	return p, queries
}

// queryName makes a snapshot field name: an exported identifier unique within the part.
func queryName(i int, kind string) string {
	var b strings.Builder
	b.WriteString("Q")
	b.WriteString(strconv.Itoa(i))
	for _, r := range kind {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// update takes the latest view of every part, and reports whether every part but the late ones
// has had its first complete view.
func (t *tracker) update(ctx context.Context) (bool, error) {
	ready := true
	for _, p := range t.parts {
		ok, err := p.acc.Update(ctx, p.snap.Interface())
		if err != nil {
			if ctx.Err() != nil {
				return false, ctx.Err()
			}
			return false, fmt.Errorf("kates: watch: %w", err)
		}
		if ok {
			p.ready = true
		}
		ready = ready && (p.ready || p.late)
	}
	return ready, nil
}

// evaluate judges every row at now. recheck is when a judgement made now will change without
// any event (a Pod's unschedulable window running out); zero if never. services lists the
// results that are Services judged Current through their related objects: a verdict across
// kinds, which confirm checks before a wait ends on it.
func (t *tracker) evaluate(now time.Time) (out []ObjectStatus, recheck time.Time, services []judgedService) {
	rel := map[*trackPart]*related.Index{}
	relFor := func(p *trackPart) *related.Index {
		if x, ok := rel[p]; ok {
			return x
		}
		x := p.relatedIndex()
		rel[p] = x
		return x
	}
	judgeEntry := func(row *trackRow, e Entry[*unstructured.Unstructured]) ObjectStatus {
		// The index costs a pass over the namespace's related objects: build it only for an
		// object it can explain (a Current workload has nothing to explain; a Service always
		// counts its endpoints).
		var x *related.Index
		gk := row.gvk().GroupKind()
		if t.opts.related && len(related.Kinds(gk)) > 0 && (e.Status.Status != kstatus.CurrentStatus || gk == serviceGK) {
			x = relFor(row.part)
		}
		if t.opts.skipLoadBalancers && gk == serviceGK && e.Status.Status == kstatus.InProgressStatus && pendingLoadBalancer(e.Object) {
			e.Status = kstatus.Result{Status: kstatus.CurrentStatus, Message: "Service is ready (its load-balancer address is not waited for)"}
		}
		st, at := related.Judge(related.Entry(e), x, now)
		recheck = related.Earliest(recheck, at)
		if t.opts.detail {
			st.Explanation = t.opts.rules.explain(e.Object)
			st.Rule = st.Explanation.Rule
		} else if t.opts.explain {
			st.Rule = t.opts.rules.judgedBy(e.Object)
		}
		if t.opts.goal != nil {
			st = t.opts.goal.judge(st, e.Object)
		} else if x != nil && gk == serviceGK && st.Status == kstatus.CurrentStatus {
			services = append(services, judgedService{index: len(out), entry: e})
		}
		return st
	}
	for _, row := range t.rows {
		if row.unserved {
			out = append(out, t.unservedStatus(row))
			continue
		}
		if !row.part.ready {
			out = append(out, ObjectStatus{Group: row.gvk().Group, Kind: row.gvk().Kind, Namespace: row.namespace, Name: row.ref.Name,
				Status: kstatus.UnknownStatus, Reason: "NotObserved", Message: "Not observed yet: listing " + row.mapping.Resource.Resource})
			continue
		}
		objs := row.part.field(row.query)
		if !row.selection() {
			e, ok := objs[objectKey(row.namespace, row.ref.Name)]
			if ok && t.opts.deletion && row.ref.UID != "" && e.Object.GetUID() != row.ref.UID {
				ok = false // another object of that name: the one waited for is gone
			}
			if !ok {
				out = append(out, notFound(row.gvk(), row.namespace, row.ref.Name, "Not found"))
				continue
			}
			out = append(out, judgeEntry(row, e))
			continue
		}
		keys := make([]string, 0, len(objs))
		for k, e := range objs {
			if row.namespace != "" && e.Object.GetNamespace() != row.namespace {
				continue
			}
			if !row.selector.Empty() && !row.selector.Matches(labels.Set(e.Object.GetLabels())) {
				continue
			}
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			out = append(out, judgeEntry(row, objs[k]))
		}
	}
	return out, recheck, services
}

// unservedStatus is the status of a row whose kind is not served: NotFound, since no object of
// the kind can exist.
func (t *tracker) unservedStatus(row *trackRow) ObjectStatus {
	gv, _ := schema.ParseGroupVersion(row.ref.APIVersion)
	msg := fmt.Sprintf("Kind %s is not served", row.kindArg)
	if t.opts.waitKinds {
		msg = fmt.Sprintf("Waiting for kind %s to be served", row.kindArg)
	}
	return notFound(gv.WithKind(row.ref.Kind), row.namespace, row.ref.Name, msg)
}

func notFound(gvk schema.GroupVersionKind, namespace, name, msg string) ObjectStatus {
	return ObjectStatus{Group: gvk.Group, Kind: gvk.Kind, Namespace: namespace, Name: name,
		Status: kstatus.NotFoundStatus, Reason: "NotFound", Message: msg}
}

// relatedIndex indexes the part's related queries.
func (p *trackPart) relatedIndex() *related.Index {
	x := related.NewIndex()
	for rk, i := range p.related {
		for _, e := range p.field(i) {
			x.Add(rk.kind, related.Entry(e))
		}
	}
	return x
}

func sameResults(a, b []ObjectStatus) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].Same(&b[i]) {
			return false
		}
	}
	return true
}

// confirm judges services again, each on its namespace's Pods and then its EndpointSlices read
// afresh, and returns results with their new verdicts and whether every one is still Current.
//
// Why: each kind's watch is complete, but the watches lag one another. The Deployment watch can
// show 5/5 available while the Pod watch still shows two of those Pods unready and the slices
// list three; judged on that view, every ready Pod is an endpoint and the Service looks done.
// Reads taken now, Pods first and then the slices (the effect of the Pods), are each a
// consistent read at least as new as everything the watches have shown, and the slices at
// least as new as the Pods: a verdict that holds on them is not early. One that does not is
// left to the watches, which will deliver what the reads saw.
func (t *tracker) confirm(ctx context.Context, results []ObjectStatus, services []judgedService) ([]ObjectStatus, bool, error) {
	byNamespace := map[string][]judgedService{}
	var namespaces []string
	for _, s := range services {
		ns := s.entry.Object.GetNamespace()
		if _, ok := byNamespace[ns]; !ok {
			namespaces = append(namespaces, ns)
		}
		byNamespace[ns] = append(byNamespace[ns], s)
	}
	out := cloneStatuses(results)
	ok := true
	for _, ns := range namespaces {
		x := related.NewIndex()
		for _, kind := range []string{related.KindPod, related.KindEndpointSlice} {
			q := Query{Kind: relatedResource[kind], Namespace: ns}
			if kind == related.KindEndpointSlice {
				q.LabelSelector = related.ServiceNameLabel
			}
			var objs []*unstructured.Unstructured
			if err := t.c.List(ctx, q, &objs); err != nil {
				return nil, false, fmt.Errorf("kates: confirm the Services of namespace %s: %w", ns, err)
			}
			for _, o := range objs {
				x.Add(kind, related.Entry{Object: o})
			}
		}
		for _, s := range byNamespace[ns] {
			st, _ := related.Judge(related.Entry(s.entry), x, time.Now())
			// The same rule judged it (a refuted verdict is shown, so keep saying which);
			// only the reads are newer.
			st.Rule = results[s.index].Rule
			out[s.index] = st
			ok = ok && st.Status == kstatus.CurrentStatus
		}
	}
	return out, ok, nil
}
