package related

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kates-dev/kates/kstatus"
)

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
	// ServiceNameLabel is the label by which an EndpointSlice names its Service.
	ServiceNameLabel   = "kubernetes.io/service-name"
	notObservedReason  = "LatestGenerationNotObserved"
	podNotScheduled    = "PodNotScheduled"
	scheduledCondition = "PodScheduled"
)

// The kinds an Index holds.
const (
	KindPod           = "Pod"
	KindReplicaSet    = "ReplicaSet"
	KindEndpointSlice = "EndpointSlice"
)

// Entry is one object with the kstatus computed for it, as an Accumulator holds it
// (accumulator.Entry[*unstructured.Unstructured] converts to it).
type Entry struct {
	Object *unstructured.Unstructured
	// Status is the object's kstatus; Judge reads it rather than computing it again.
	Status kstatus.Result
}

// ObjectStatus is the computed status of one object, as Judge, and kates' Wait, Status and
// WatchStatus report it.
type ObjectStatus struct {
	// Group and Kind are the object's API group ("" for the core group) and kind.
	Group string `json:"group,omitempty"`
	Kind  string `json:"kind"`
	// Namespace is "" for a cluster-scoped object.
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
	// Status is the object's kstatus, made Failed when a Pod it controls cannot start, or
	// InProgress when a Service does not reach exactly its ready Pods yet; NotFound when the
	// object does not exist.
	Status kstatus.Status `json:"status"`
	// Reason is a CamelCase word for programs ("LessAvailable", "Unschedulable"); it may be
	// empty. Match on Status and Reason, never on Message.
	Reason string `json:"reason,omitempty"`
	// Message says, for a person, why the object has this status, naming what blocks it.
	// Do not depend on its wording.
	Message string `json:"message"`
	// Created is the object's creation time; zero when it was not found.
	Created time.Time `json:"created,omitzero"`
	// Related holds the statuses of the objects the Message names: the Pod that blocks a
	// Deployment, a ReplicaSet that cannot create Pods.
	Related []ObjectStatus `json:"related,omitempty"`
	// Rule names the kstatus rule that judged the object (see kstatus.Explain): "kind:Pod",
	// "ready", "cel:flux/Kustomization", ... Only Client.Status and WatchStatus fill it.
	Rule string `json:"rule,omitempty"`
	// Explanation says how the object was judged: the rule, its expressions, the fields it
	// read and their values (see kstatus.ExplainDetail). Only Client.Status and WatchStatus
	// fill it, when asked to (StatusOptions.Explain).
	Explanation *kstatus.Explanation `json:"explanation,omitempty"`
}

// String is "Deployment web/api: InProgress: Available: 1/3".
func (s ObjectStatus) String() string {
	out := s.Kind + " " + objectKey(s.Namespace, s.Name) + ": " + string(s.Status)
	if s.Message != "" {
		out += ": " + s.Message
	}
	return out
}

// Same reports whether s and o say the same thing about the same object; Related is left out,
// since the Message already names what it holds.
func (s *ObjectStatus) Same(o *ObjectStatus) bool {
	return s.Group == o.Group && s.Kind == o.Kind && s.Namespace == o.Namespace && s.Name == o.Name &&
		s.Status == o.Status && s.Reason == o.Reason && s.Message == o.Message && s.Created.Equal(o.Created)
}

// objectKey is "namespace/name", or "name" when namespace is "".
func objectKey(namespace, name string) string {
	if namespace == "" {
		return name
	}
	return namespace + "/" + name
}

// Kinds lists the kinds (KindPod, KindReplicaSet, KindEndpointSlice) whose objects in the same
// namespace Judge reads to explain an object of group kind gk; nil if none.
func Kinds(gk schema.GroupKind) []string {
	switch gk {
	case schema.GroupKind{Group: "apps", Kind: "Deployment"}:
		return []string{KindReplicaSet, KindPod}
	case schema.GroupKind{Group: "apps", Kind: "StatefulSet"}, schema.GroupKind{Group: "apps", Kind: "DaemonSet"},
		schema.GroupKind{Group: "apps", Kind: "ReplicaSet"}, schema.GroupKind{Group: "batch", Kind: "Job"},
		schema.GroupKind{Kind: "ReplicationController"}:
		return []string{KindPod}
	case serviceGK:
		// Pods too: the ready endpoints must be exactly the ready Pods the Service selects.
		return []string{KindEndpointSlice, KindPod}
	}
	return nil
}

var serviceGK = schema.GroupKind{Kind: "Service"}

// Index holds the related objects of one evaluation: Pods and ReplicaSets by their
// controller's UID, every Pod by namespace (a Service selects by label, not owner), and
// EndpointSlices by "namespace/service". An Index is not safe for concurrent Adds.
type Index struct {
	pods        map[types.UID][]Entry
	podsByNS    map[string][]Entry
	replicaSets map[types.UID][]Entry
	slices      map[string][]Entry
	seen        map[types.UID]bool
}

// NewIndex returns an empty Index.
func NewIndex() *Index {
	return &Index{
		pods:        map[types.UID][]Entry{},
		podsByNS:    map[string][]Entry{},
		replicaSets: map[types.UID][]Entry{},
		slices:      map[string][]Entry{},
		seen:        map[types.UID]bool{},
	}
}

// Add indexes e, a related object of kind (KindPod, KindReplicaSet or KindEndpointSlice; other
// kinds are ignored). An object added twice (two queries that overlap) counts once.
func (x *Index) Add(kind string, e Entry) {
	u := e.Object
	if uid := u.GetUID(); uid != "" {
		if x.seen[uid] {
			return
		}
		x.seen[uid] = true
	}
	switch kind {
	case KindEndpointSlice:
		if svc := u.GetLabels()[ServiceNameLabel]; svc != "" {
			k := objectKey(u.GetNamespace(), svc)
			x.slices[k] = append(x.slices[k], e)
		}
	case KindPod, KindReplicaSet:
		if kind == KindPod {
			x.podsByNS[u.GetNamespace()] = append(x.podsByNS[u.GetNamespace()], e)
		}
		owner := controllerUID(u)
		if owner == "" {
			return
		}
		if kind == KindPod {
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

// Judge computes e's status at now, explained by x's related objects when x is not nil (see
// the package documentation). recheck is when the judgement will change without an event (a
// Pod's unschedulable window running out); zero if never.
func Judge(e Entry, x *Index, now time.Time) (ObjectStatus, time.Time) {
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
	return st, Earliest(recheck, at)
}

// resultAt is e's kstatus at now. The accumulator computed it when the object arrived; a Pod
// that was within its unschedulable window then is judged again, since the window may have run
// out without any event. recheck is when the window of such a Pod runs out.
func resultAt(e Entry, now time.Time) (kstatus.Result, time.Time) {
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
func workloadPods(u *unstructured.Unstructured, x *Index) ([]Entry, *ObjectStatus) {
	uid := u.GetUID()
	switch u.GroupVersionKind().GroupKind() {
	case schema.GroupKind{Group: "apps", Kind: "Deployment"}:
		all := x.replicaSets[uid]
		rev := u.GetAnnotations()[revisionAnnotation]
		var latest []Entry
		for _, rs := range all {
			if rev != "" && rs.Object.GetAnnotations()[revisionAnnotation] == rev {
				latest = append(latest, rs)
			}
		}
		if len(latest) == 0 {
			latest = all
		}
		var pods []Entry
		var note *ObjectStatus
		for _, rs := range latest {
			pods = append(pods, x.pods[rs.Object.GetUID()]...)
			if rs.Status.Status == kstatus.FailedStatus && note == nil {
				s, _ := Judge(rs, nil, time.Time{})
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
		var updated []Entry
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
func explainPods(st *ObjectStatus, pods []Entry, now time.Time) time.Time {
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
		s, at := Judge(p, nil, now)
		recheck = Earliest(recheck, at)
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

// Earliest is the earlier of two recheck times, where zero means never.
func Earliest(a, b time.Time) time.Time {
	switch {
	case a.IsZero():
		return b
	case b.IsZero() || a.Before(b):
		return a
	}
	return b
}
