package kates

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kates-dev/kates/kstatus"
)

// Status from related objects. kstatus judges each object alone, so a Deployment stuck at
// "Available: 0/3" says nothing of why. Here a workload that is not Current is explained by the
// Pods it controls (through a Deployment's ReplicaSets), and a Pod that will not start without
// someone's help makes it Failed, so a wait stops at once instead of at its timeout.

// blockingReasons are the Pod reasons (see kstatus' Pod rule) that make the workload owning the
// Pod Failed: the container cannot start without a change to the Pod or what it references, or
// the scheduler has found no node for longer than kstatus.ScheduleWindow. A Pod that failed
// (a Job's, say) is not among them: its controller replaces it, and judges for itself.
var blockingReasons = map[string]bool{
	"CrashLoopBackOff":           true,
	"ImagePullBackOff":           true,
	"ErrImagePull":               true,
	"InvalidImageName":           true,
	"CreateContainerConfigError": true,
	"Unschedulable":              true,
}

const (
	revisionAnnotation = "deployment.kubernetes.io/revision"
	revisionHashLabel  = "controller-revision-hash"
	serviceNameLabel   = "kubernetes.io/service-name"
	notObservedReason  = "LatestGenerationNotObserved"
	podNotScheduled    = "PodNotScheduled"
	scheduledCondition = "PodScheduled"
)

// relatedIndex holds the related objects of one evaluation: Pods and ReplicaSets by their
// controller's UID, every Pod by namespace (a Service selects by label, not owner), and
// EndpointSlices by "namespace/service".
type relatedIndex struct {
	pods        map[types.UID][]Entry[*unstructured.Unstructured]
	podsByNS    map[string][]Entry[*unstructured.Unstructured]
	replicaSets map[types.UID][]Entry[*unstructured.Unstructured]
	slices      map[string][]Entry[*unstructured.Unstructured]
	seen        map[types.UID]bool
}

func newRelatedIndex() *relatedIndex {
	return &relatedIndex{
		pods:        map[types.UID][]Entry[*unstructured.Unstructured]{},
		podsByNS:    map[string][]Entry[*unstructured.Unstructured]{},
		replicaSets: map[types.UID][]Entry[*unstructured.Unstructured]{},
		slices:      map[string][]Entry[*unstructured.Unstructured]{},
		seen:        map[types.UID]bool{},
	}
}

// add indexes e, a related object of kind ("Pod", "ReplicaSet" or "EndpointSlice"). An object
// added twice (two queries that overlap) counts once.
func (x *relatedIndex) add(kind string, e Entry[*unstructured.Unstructured]) {
	u := e.Object
	if uid := u.GetUID(); uid != "" {
		if x.seen[uid] {
			return
		}
		x.seen[uid] = true
	}
	switch kind {
	case "EndpointSlice":
		if svc := u.GetLabels()[serviceNameLabel]; svc != "" {
			k := objectKey(u.GetNamespace(), svc)
			x.slices[k] = append(x.slices[k], e)
		}
	case "Pod", "ReplicaSet":
		if kind == "Pod" {
			x.podsByNS[u.GetNamespace()] = append(x.podsByNS[u.GetNamespace()], e)
		}
		owner := controllerUID(u)
		if owner == "" {
			return
		}
		if kind == "Pod" {
			x.pods[owner] = append(x.pods[owner], e)
		} else {
			x.replicaSets[owner] = append(x.replicaSets[owner], e)
		}
	}
}

// controllerUID is the UID of u's controller owner, or "".
func controllerUID(u *unstructured.Unstructured) types.UID {
	for _, ref := range u.GetOwnerReferences() {
		if ref.Controller != nil && *ref.Controller {
			return ref.UID
		}
	}
	return ""
}

// judgeObject computes e's status at now, explained by x's related objects when x is not nil.
// recheck is when the judgement will change without an event; zero if never.
func judgeObject(e Entry[*unstructured.Unstructured], x *relatedIndex, now time.Time) (ObjectStatus, time.Time) {
	u := e.Object
	gvk := u.GroupVersionKind()
	res, recheck := resultAt(e, now)
	st := ObjectStatus{
		Group:     gvk.Group,
		Kind:      gvk.Kind,
		Namespace: u.GetNamespace(),
		Name:      u.GetName(),
		Status:    res.Status,
		Reason:    reasonOf(&res),
		Message:   res.Message,
		Created:   u.GetCreationTimestamp().Time,
	}
	if x == nil {
		return st, recheck
	}
	switch gvk.GroupKind() {
	case schema.GroupKind{Kind: "Service"}:
		explainService(&st, u, x)
		return st, recheck
	}
	// A workload that is done, going away, or whose controller has not seen its latest spec
	// yet (its Pods may be of the version being replaced) is not explained by its Pods.
	if st.Status == kstatus.CurrentStatus || st.Status == kstatus.TerminatingStatus || st.Reason == notObservedReason {
		return st, recheck
	}
	pods, rsNote := workloadPods(u, x)
	at := explainPods(&st, pods, now)
	if rsNote != nil && len(st.Related) == 0 {
		st.Related = append(st.Related, *rsNote)
		st.Message += "; " + strings.ToLower(rsNote.Kind) + " " + rsNote.Name + ": " + rsNote.Message
	}
	return st, earliest(recheck, at)
}

// resultAt is e's kstatus at now. The accumulator computed it when the object arrived; a Pod
// that was within its unschedulable window then is judged again, since the window may have run
// out without any event. recheck is when the window of such a Pod runs out.
func resultAt(e Entry[*unstructured.Unstructured], now time.Time) (kstatus.Result, time.Time) {
	res := e.Status
	if reasonOf(&res) != podNotScheduled {
		return res, time.Time{}
	}
	if r, _ := kstatus.ComputeAt(e.Object, now); r != nil {
		res = *r
	}
	if reasonOf(&res) != podNotScheduled {
		return res, time.Time{}
	}
	return res, unschedulableSince(e.Object).Add(kstatus.ScheduleWindow)
}

// unschedulableSince is when the scheduler first said the Pod cannot be placed, as kstatus
// measures it: the PodScheduled condition's lastTransitionTime, else the creation time.
func unschedulableSince(u *unstructured.Unstructured) time.Time {
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, c := range conds {
		cm, _ := c.(map[string]any)
		if cm["type"] != scheduledCondition {
			continue
		}
		if s, _ := cm["lastTransitionTime"].(string); s != "" {
			if t, err := time.Parse(time.RFC3339, s); err == nil {
				return t
			}
		}
	}
	return u.GetCreationTimestamp().Time
}

func reasonOf(r *kstatus.Result) string {
	if len(r.Conditions) > 0 {
		return r.Conditions[0].Reason
	}
	return ""
}

// workloadPods returns the Pods that tell why workload u is not done: for a Deployment, those
// of its ReplicaSets of the latest revision (old ones are being scaled away); for a StatefulSet,
// those of its update revision when there are some; for the others every Pod it controls. For a
// Deployment it also returns a failing ReplicaSet of that revision, if any.
func workloadPods(u *unstructured.Unstructured, x *relatedIndex) ([]Entry[*unstructured.Unstructured], *ObjectStatus) {
	uid := u.GetUID()
	switch u.GroupVersionKind().GroupKind() {
	case schema.GroupKind{Group: "apps", Kind: "Deployment"}:
		all := x.replicaSets[uid]
		rev := u.GetAnnotations()[revisionAnnotation]
		var latest []Entry[*unstructured.Unstructured]
		for _, rs := range all {
			if rev != "" && rs.Object.GetAnnotations()[revisionAnnotation] == rev {
				latest = append(latest, rs)
			}
		}
		if len(latest) == 0 {
			latest = all
		}
		var pods []Entry[*unstructured.Unstructured]
		var note *ObjectStatus
		for _, rs := range latest {
			pods = append(pods, x.pods[rs.Object.GetUID()]...)
			if rs.Status.Status == kstatus.FailedStatus && note == nil {
				s, _ := judgeObject(rs, nil, time.Time{})
				note = &s
			}
		}
		return pods, note
	case schema.GroupKind{Group: "apps", Kind: "StatefulSet"}:
		pods := x.pods[uid]
		rev, _, _ := unstructured.NestedString(u.Object, "status", "updateRevision")
		if rev == "" {
			return pods, nil
		}
		var updated []Entry[*unstructured.Unstructured]
		for _, p := range pods {
			if p.Object.GetLabels()[revisionHashLabel] == rev {
				updated = append(updated, p)
			}
		}
		if len(updated) == 0 {
			return pods, nil
		}
		return updated, nil
	}
	return x.pods[uid], nil
}

// explainPods names in st the Pod that best explains why its workload is not done, and makes
// the workload Failed if that Pod is blocked. It returns when a Pod's unschedulable window runs
// out, if one is within it.
func explainPods(st *ObjectStatus, pods []Entry[*unstructured.Unstructured], now time.Time) time.Time {
	type judged struct {
		status ObjectStatus
		rank   int
	}
	var (
		recheck time.Time
		cands   []judged
	)
	for _, p := range pods {
		if p.Object.GetDeletionTimestamp() != nil {
			continue // terminating, as old Pods do in a rollout: not a blocker
		}
		s, at := judgeObject(p, nil, now)
		recheck = earliest(recheck, at)
		if s.Status == kstatus.CurrentStatus {
			continue
		}
		rank := 2
		switch {
		case s.Status == kstatus.FailedStatus && blockingReasons[s.Reason]:
			rank = 0
		case s.Reason == podNotScheduled:
			rank = 1
		}
		cands = append(cands, judged{s, rank})
	}
	if len(cands) == 0 {
		return recheck
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].rank != cands[j].rank {
			return cands[i].rank < cands[j].rank
		}
		return cands[i].status.Name < cands[j].status.Name
	})
	first := cands[0].status
	alike := 0
	for _, c := range cands[1:] {
		if c.status.Reason == first.Reason {
			alike++
		}
	}
	phrase := podPhrase(&first)
	if alike > 0 {
		phrase += fmt.Sprintf(" (and %d more %s)", alike, plural(alike, "pod", "pods"))
	}
	st.Message += "; " + phrase
	st.Related = append(st.Related, first)
	if cands[0].rank == 0 && st.Status != kstatus.FailedStatus {
		st.Status = kstatus.FailedStatus
		st.Reason = first.Reason
	}
	return recheck
}

// podPhrase says what a Pod's status is in words that follow its name:
// "pod web-7c9-x2: Unschedulable: 0/2 nodes are available", "pod web-7c9-x2 is Pending: ...".
func podPhrase(p *ObjectStatus) string {
	msg := p.Message
	if p.Reason == "Unschedulable" || p.Reason == podNotScheduled {
		if _, rest, ok := strings.Cut(msg, ": "); ok {
			msg = rest
		}
		return "pod " + p.Name + ": Unschedulable: " + msg
	}
	if rest, ok := strings.CutPrefix(msg, "Pod "); ok {
		return "pod " + p.Name + " " + rest
	}
	return "pod " + p.Name + ": " + msg
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// explainService adds a Service's ready endpoints to its message when it selects Pods or is a
// load balancer: whether anything answers behind it is what its user wants to know next.
// Dual-stack Services have a slice per address family; the family with the most endpoints
// counts.
//
// A Service that kstatus calls Current is InProgress while a Pod it selects is ready but not yet
// a ready endpoint: the EndpointSlice controller lags the Pods by a moment, and a wait that
// returned then would send its caller's first request to a Service that cannot reach the Pod.
func explainService(st *ObjectStatus, u *unstructured.Unstructured, x *relatedIndex) {
	typ, _, _ := unstructured.NestedString(u.Object, "spec", "type")
	sel, _, _ := unstructured.NestedStringMap(u.Object, "spec", "selector")
	if typ == "ExternalName" || (len(sel) == 0 && typ != "LoadBalancer") {
		return
	}
	type count struct{ ready, total int }
	byFamily := map[string]*count{}
	readyPods := map[string]bool{} // names of Pods that are a ready endpoint in some slice
	for _, s := range x.slices[objectKey(u.GetNamespace(), u.GetName())] {
		family, _, _ := unstructured.NestedString(s.Object.Object, "addressType")
		c := byFamily[family]
		if c == nil {
			c = &count{}
			byFamily[family] = c
		}
		eps, _, _ := unstructured.NestedSlice(s.Object.Object, "endpoints")
		for _, ep := range eps {
			em, _ := ep.(map[string]any)
			c.total++
			// The API: a nil ready condition means ready.
			if ready, ok, _ := unstructured.NestedBool(em, "conditions", "ready"); !ok || ready {
				c.ready++
				if kind, _, _ := unstructured.NestedString(em, "targetRef", "kind"); kind == "Pod" {
					name, _, _ := unstructured.NestedString(em, "targetRef", "name")
					readyPods[name] = true
				}
			}
		}
	}
	best := count{}
	for _, c := range byFamily {
		if c.total > best.total {
			best = *c
		}
	}
	st.Message += fmt.Sprintf("; endpoints: %d/%d ready", best.ready, best.total)
	if st.Status != kstatus.CurrentStatus || len(sel) == 0 {
		return
	}
	var missing []string
	selector := labels.SelectorFromSet(sel)
	for _, p := range x.podsByNS[u.GetNamespace()] {
		if podServesTraffic(p.Object) && selector.Matches(labels.Set(p.Object.GetLabels())) && !readyPods[p.Object.GetName()] {
			missing = append(missing, p.Object.GetName())
		}
	}
	if len(missing) == 0 {
		return
	}
	sort.Strings(missing)
	st.Status = kstatus.InProgressStatus
	st.Reason = "EndpointsNotReady"
	st.Message = fmt.Sprintf("Endpoints: %d/%d ready; pod %s is ready but not an endpoint yet", best.ready, best.total, missing[0])
	if len(missing) > 1 {
		st.Message += fmt.Sprintf(" (and %d more %s)", len(missing)-1, plural(len(missing)-1, "pod", "pods"))
	}
}

// podServesTraffic reports whether the EndpointSlice controller will list Pod u as a ready
// endpoint of a Service that selects it: it has an IP, is not going away or finished, and is
// Ready.
func podServesTraffic(u *unstructured.Unstructured) bool {
	if u.GetDeletionTimestamp() != nil {
		return false
	}
	if ip, _, _ := unstructured.NestedString(u.Object, "status", "podIP"); ip == "" {
		return false
	}
	if phase, _, _ := unstructured.NestedString(u.Object, "status", "phase"); phase == "Succeeded" || phase == "Failed" {
		return false
	}
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, c := range conds {
		if cm, _ := c.(map[string]any); cm["type"] == "Ready" {
			return cm["status"] == "True"
		}
	}
	return false
}
