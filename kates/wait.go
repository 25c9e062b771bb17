package kates

import (
	"context"
	"errors"
	"fmt"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/kates-dev/kates/kstatus"
	"github.com/kates-dev/kates/kstatus/related"
)

// ObjectRef names Kubernetes objects without holding them, for Wait, Status and WatchStatus: one
// object by kind and name, or, with no Name, every object of a kind that a selector matches.
type ObjectRef struct {
	// Kind is the kind or resource in any form kubectl accepts ("deploy", "Deployment",
	// "deployments.apps", a CRD's short name; see Client.Mapping). With APIVersion set it must
	// be the Kind itself ("Deployment").
	Kind string
	// APIVersion ("apps/v1") pins the group and version. Optional.
	APIVersion string
	// Namespace is the namespace of a namespaced object; "" means the Client's namespace. It
	// is ignored for cluster-scoped kinds.
	Namespace string
	// Name names one object. "" selects every object of Kind in Namespace (or in every
	// namespace, with AllNamespaces) that matches LabelSelector; the set follows the cluster
	// as objects come and go.
	Name string
	// LabelSelector restricts a selection ("app=web,tier!=db"). It is ignored with a Name.
	LabelSelector string
	// FieldSelector restricts a selection by fields the API server can select on, in its
	// syntax ("status.phase=Running", "spec.nodeName=n1"); the server says which fields a kind
	// offers. It is ignored with a Name.
	FieldSelector string
	// AllNamespaces makes a selection span every namespace. It is ignored with a Name.
	AllNamespaces bool
	// UID names one incarnation of a named object. Waiting for deletion ends when no object of
	// that name has this UID, so an object deleted and created again counts as deleted.
	// Waiting for Current ignores it. Optional.
	UID UID
}

// String names the reference for messages: "Deployment web/api", "deploy (app=web) in web".
func (r ObjectRef) String() string {
	kind := r.Kind
	if r.Name != "" {
		return kind + " " + objectKey(r.Namespace, r.Name)
	}
	if sel := strings.Trim(r.LabelSelector+","+r.FieldSelector, ","); sel != "" {
		kind += " (" + sel + ")"
	}
	switch {
	case r.AllNamespaces:
		return kind + " in every namespace"
	case r.Namespace != "":
		return kind + " in " + r.Namespace
	}
	return kind
}

// ObjectStatus is the computed status of one object, as Wait, Status and WatchStatus report
// it; see package kstatus/related, which computes it.
type ObjectStatus = related.ObjectStatus

// WaitOptions changes what Wait waits for. The zero value waits for Current, fails fast and
// explains through related objects.
type WaitOptions struct {
	// For is the status every object must reach: kstatus.CurrentStatus (the default), or
	// kstatus.NotFoundStatus to wait until the objects are deleted, finalizers and all.
	For kstatus.Status
	// NoFailFast keeps waiting when an object is Failed, until it becomes Current or ctx ends.
	// By default Wait returns at once when one is: a Failed object rarely recovers without a
	// change from someone (see kstatus.FailedStatus). It has no effect when waiting for deletion.
	NoFailFast bool
	// Progress, if not nil, is called with the status of every object, in the order Wait was
	// given them (a selection's objects in its place, by namespace and name), once the first
	// complete view arrives and then each time any status or message changes. The changes are
	// those between Wait's views, which coalesce bursts of events (see Accumulator): a state
	// that comes and goes between two views, such as the InProgress of a Deployment created
	// and made available in one burst, may never be reported. It is called from Wait's
	// goroutine, so it must return promptly; the slice is the callee's to keep.
	Progress func([]ObjectStatus)
	// Condition, if set, is what every object must have instead of being Current: the status
	// condition "Type" with status True, or "Type=Status" ("Ready=False"), as kubectl wait
	// --for=condition=... takes it, type and status matched without regard to case. A condition
	// that carries an observedGeneration counts only once that is the object's generation, so a
	// condition left over from before a change does not end the wait. A Failed object still ends
	// it at once unless NoFailFast. Not with For NotFound.
	Condition string
	// JSONPath, if set, is what every object must have instead of being Current, as kubectl
	// wait --for=jsonpath=... takes it: "{.status.phase}=Running" waits until the expression
	// gives exactly that value, "{.status.loadBalancer.ingress}" (no value) until it gives any
	// value at all. The braces may be left out (".status.phase=Running"). A value is compared
	// as text with the one scalar the expression selects; a list or an object never matches a
	// value. A Failed object that does not match ends the wait at once unless NoFailFast. Not
	// with For NotFound, nor with Condition.
	JSONPath string
	// Exists waits only until every object exists, whatever its status, as kubectl wait
	// --for=create does. Not with For NotFound, Condition or JSONPath.
	Exists bool
	// SkipLoadBalancers does not wait for a Service of type LoadBalancer to get an address: it
	// is Current once everything else about it is. Clusters without a load-balancer controller
	// (kind, minikube, most CI clusters) never assign one, so without this a wait on such a
	// Service lasts until its timeout.
	SkipLoadBalancers bool
	// SkipRelated judges each object by itself alone, without watching the Pods, ReplicaSets
	// and EndpointSlices of the objects' namespaces: cheaper on a large namespace, but with less
	// to say about what blocks a workload, and without failing fast on Pods that cannot start.
	SkipRelated bool
	// StatusRules are the status rules that judge custom resources. Default: kstatus' built-in
	// library.
	StatusRules
}

// ErrWaitFailed is what a WaitError wraps when an object became Failed:
// errors.Is(err, kates.ErrWaitFailed).
var ErrWaitFailed = errors.New("an object failed")

// WaitError is the error Wait returns when objects did not all reach the status waited for:
// one failed (Err is ErrWaitFailed), or ctx ended (Err is ctx's error, so
// errors.Is(err, context.DeadlineExceeded) says the wait timed out).
type WaitError struct {
	// For is the status waited for.
	For kstatus.Status
	// Condition is WaitOptions.Condition; when set, an object is done when it has the
	// condition, which its status then says (Current).
	Condition string
	// JSONPath is WaitOptions.JSONPath; when set, an object is done when the expression gives
	// the value waited for, which its status then says (Current).
	JSONPath string
	// Results holds the last status of every object, in the order given to Wait.
	Results []ObjectStatus
	// Err is ErrWaitFailed or the context's error.
	Err error
}

// Unfinished returns the results that are not at the status waited for.
func (e *WaitError) Unfinished() []ObjectStatus {
	var out []ObjectStatus
	for _, r := range e.Results {
		if r.Status != e.For {
			out = append(out, r)
		}
	}
	return out
}

// Failed returns the results whose status is Failed.
func (e *WaitError) Failed() []ObjectStatus {
	var out []ObjectStatus
	for _, r := range e.Results {
		if r.Status == kstatus.FailedStatus {
			out = append(out, r)
		}
	}
	return out
}

// Error lists every unfinished object (or, after a failure, every failed one) with its
// status and message, one per line after the first.
func (e *WaitError) Error() string {
	list := e.Unfinished()
	what := fmt.Sprintf("%d of %d objects not %s", len(list), len(e.Results), e.For)
	switch {
	case e.Condition != "":
		what = fmt.Sprintf("%d of %d objects without condition %s", len(list), len(e.Results), e.Condition)
	case e.JSONPath != "":
		what = fmt.Sprintf("%d of %d objects without jsonpath %s", len(list), len(e.Results), e.JSONPath)
	}
	if errors.Is(e.Err, ErrWaitFailed) {
		list = e.Failed()
		what = fmt.Sprintf("%d of %d objects failed", len(list), len(e.Results))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "kates: wait: %s (%v)", what, e.Err)
	for _, r := range list {
		b.WriteString("\n  ")
		b.WriteString(r.String())
	}
	return b.String()
}

// Unwrap returns Err.
func (e *WaitError) Unwrap() error { return e.Err }

// IsWaitFailed reports whether err, or an error it wraps, says an object waited for failed.
func IsWaitFailed(err error) bool { return errors.Is(err, ErrWaitFailed) }

// Wait returns nil once every object reaches the status opts.For names (Current by default).
// objects holds typed objects, *Unstructured, Unstructured or map[string]any (only kind,
// namespace, name and UID are read), and ObjectRef or *ObjectRef values; a manifest just
// applied can be passed as it is. An object that does not exist is NotFound: a wait for
// Current waits for it to be created, a wait for deletion is done with it.
//
// Wait is driven by watches, not polling: it builds one Accumulator with a query per kind and
// namespace (narrowed to metadata.name when the kind has one object there), plus, unless
// opts.SkipRelated, one per related kind (Pods, ReplicaSets, EndpointSlices) and namespace, and
// judges the objects again at each change, so it returns within milliseconds of the last object
// getting there. A selection (an ObjectRef without a Name) stands for the objects it matches at
// each moment; one that matches none holds up nothing. Each object's status is its kstatus (see package kstatus), with one addition: a
// Deployment, StatefulSet, DaemonSet, ReplicaSet or Job that is not Current is explained by
// the Pods (and, for a Deployment, the ReplicaSets) it controls, found through owner references
// in the same watches: "Replicas: 0/3; pod web-7c9-x2: Unschedulable: 0/2 nodes are
// available". A Pod of the workload's latest version whose container is crash looping or cannot
// pull its image, or that has been unschedulable for kstatus.ScheduleWindow, makes the workload
// Failed; a Pod being deleted (as old ones are in a rollout) never does. A Service with a
// selector reports its ready endpoints from its EndpointSlices, and is Current only once they
// are exactly the ready, non-terminating Pods it selects (see package kstatus/related): not
// while a new Pod is not yet an endpoint, nor while a deleted, terminating or no longer
// selected Pod still is one. Since the watches of Pods and EndpointSlices lag one another,
// Wait confirms a Service's verdict on fresh reads of both before it returns on it.
//
// When a Failed object is seen, Wait returns at once with a *WaitError wrapping ErrWaitFailed,
// unless opts.NoFailFast. When ctx ends first, it returns a *WaitError wrapping ctx's error
// that lists each unfinished object with its status and message: give ctx a deadline. Other
// errors (a kind the identity may not watch) are returned as they are.
//
// Kinds the server does not serve yet, such as those of a CustomResourceDefinition created in
// the same batch, are waited for as WaitFor does, and their objects are judged once served;
// meanwhile they are NotFound. When waiting for deletion an unserved kind has no objects.
func (c *Client) Wait(ctx context.Context, objects []any, opts WaitOptions) error {
	if opts.For == "" {
		opts.For = kstatus.CurrentStatus
	}
	goal, err := opts.goal()
	if err != nil {
		return err
	}
	deletion := opts.For == kstatus.NotFoundStatus
	refs, err := refsOf(objects)
	if err != nil {
		return err
	}
	tally := c.waitTally(len(refs)) // nothing reached yet; nil without metrics
	defer tally.set(0)
	var last []ObjectStatus
	err = c.track(ctx, refs, trackOptions{
		waitKinds:         !deletion,
		related:           !deletion && !opts.SkipRelated,
		deletion:          deletion,
		goal:              goal,
		skipLoadBalancers: opts.SkipLoadBalancers,
		rules:             judge{StatusRules: opts.StatusRules},
		confirm: func(results []ObjectStatus) bool {
			return !deletion && aggregate(results, opts.For) == opts.For
		},
	}, func(results []ObjectStatus, changed bool) (bool, error) {
		last = results
		tally.set(unfinished(results, opts.For))
		if changed && opts.Progress != nil {
			opts.Progress(cloneStatuses(results))
		}
		switch agg := aggregate(results, opts.For); {
		case agg == opts.For:
			return true, nil
		case !deletion && !opts.NoFailFast && agg == kstatus.FailedStatus:
			return true, &WaitError{For: opts.For, Condition: opts.Condition, JSONPath: opts.JSONPath, Results: cloneStatuses(results), Err: ErrWaitFailed}
		}
		return false, nil
	})
	if ctxErr := ctx.Err(); ctxErr != nil && errors.Is(err, ctxErr) {
		if last == nil {
			// Ended before the first complete view: still say which objects were not
			// reached, rather than "0 of 0".
			last = c.notObserved(refs)
		}
		return &WaitError{For: opts.For, Condition: opts.Condition, JSONPath: opts.JSONPath, Results: cloneStatuses(last), Err: ctxErr}
	}
	return err
}

// notObserved is the status of each of refs when a wait ends before its first complete view:
// Unknown, since nothing was seen of them yet.
func (c *Client) notObserved(refs []ObjectRef) []ObjectStatus {
	out := make([]ObjectStatus, len(refs))
	for i, ref := range refs {
		st := ObjectStatus{Kind: ref.Kind, Namespace: ref.Namespace, Name: ref.Name, Status: kstatus.UnknownStatus,
			Reason: "NotObserved", Message: "Not observed yet: the wait ended before the first complete view of its kind"}
		// Named as the tracker would have named it: its kind resolved, its namespace defaulted.
		if row, err := c.resolveRow(ref); err == nil && !row.unserved {
			st.Group, st.Kind, st.Namespace = row.gvk().Group, row.gvk().Kind, row.namespace
		}
		out[i] = st
	}
	return out
}

// aggregate is kstatus.Aggregate of the results' statuses.
func aggregate(results []ObjectStatus, desired kstatus.Status) kstatus.Status {
	statuses := make([]kstatus.Status, len(results))
	for i, r := range results {
		statuses[i] = r.Status
	}
	return kstatus.Aggregate(statuses, desired)
}

// Status returns the status of every object once, judged as Wait judges them, related objects
// included; objects takes the forms Wait takes. An object that does not exist, or whose kind is
// not served, is NotFound.
func (c *Client) Status(ctx context.Context, objects []any) ([]ObjectStatus, error) {
	return c.StatusWith(ctx, objects, StatusOptions{})
}

// StatusWith is Status with options: status rules, the library turned off. Each result
// names the rule that judged it (ObjectStatus.Rule).
func (c *Client) StatusWith(ctx context.Context, objects []any, opts StatusOptions) ([]ObjectStatus, error) {
	refs, err := refsOf(objects)
	if err != nil {
		return nil, err
	}
	var out []ObjectStatus
	always := func([]ObjectStatus) bool { return true }
	err = c.track(ctx, refs, trackOptions{related: true, confirm: always, explain: true, detail: opts.Explain,
		rules: judge{StatusRules: opts.StatusRules}}, func(results []ObjectStatus, _ bool) (bool, error) {
		out = results
		return true, nil
	})
	return out, err
}

// WatchStatus calls fn with the status of every object, judged as Wait judges them, once the
// first complete view arrives and then at each change, until ctx ends; then it returns nil.
// objects takes the forms Wait takes; selections (ObjectRef without a Name) follow the objects
// as they come and go. fn is called from WatchStatus' goroutine; the slice is fn's to keep. It
// returns early only on an error that watching cannot recover from, such as Forbidden.
func (c *Client) WatchStatus(ctx context.Context, objects []any, fn func([]ObjectStatus)) error {
	return c.WatchStatusWith(ctx, objects, StatusOptions{}, fn)
}

// WatchStatusWith is WatchStatus with options; each result names the rule that judged it.
func (c *Client) WatchStatusWith(ctx context.Context, objects []any, opts StatusOptions, fn func([]ObjectStatus)) error {
	refs, err := refsOf(objects)
	if err != nil {
		return err
	}
	err = c.track(ctx, refs, trackOptions{waitKinds: true, related: true, explain: true, detail: opts.Explain,
		rules: judge{StatusRules: opts.StatusRules}}, func(results []ObjectStatus, changed bool) (bool, error) {
		if changed {
			fn(cloneStatuses(results))
		}
		return false, nil
	})
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return nil
	}
	return err
}

func cloneStatuses(in []ObjectStatus) []ObjectStatus {
	out := make([]ObjectStatus, len(in))
	copy(out, in)
	return out
}

// refsOf turns Wait's arguments into references, checking them before anything is watched.
func refsOf(objects []any) ([]ObjectRef, error) {
	refs := make([]ObjectRef, 0, len(objects))
	for i, o := range objects {
		var r ObjectRef
		switch v := o.(type) {
		case ObjectRef:
			r = v
		case *ObjectRef:
			if v == nil {
				return nil, fmt.Errorf("kates: object %d is a nil *ObjectRef", i)
			}
			r = *v
		default:
			u, err := toUnstructured(o)
			if err != nil {
				return nil, fmt.Errorf("kates: object %d: %w", i, err)
			}
			r = refOfUnstructured(u)
		}
		if r.Kind == "" {
			return nil, fmt.Errorf("kates: object %d (%s) has no kind", i, r.Name)
		}
		if r.Name == "" {
			if _, err := labels.Parse(r.LabelSelector); err != nil {
				return nil, fmt.Errorf("kates: %s: invalid label selector: %w", r, err)
			}
			if _, err := fields.ParseSelector(r.FieldSelector); err != nil {
				return nil, fmt.Errorf("kates: %s: invalid field selector: %w", r, err)
			}
		}
		refs = append(refs, r)
	}
	return refs, nil
}

func refOfUnstructured(u *unstructured.Unstructured) ObjectRef {
	return ObjectRef{
		Kind:       u.GetKind(),
		APIVersion: u.GetAPIVersion(),
		Namespace:  u.GetNamespace(),
		Name:       u.GetName(),
		UID:        u.GetUID(),
	}
}

// Validate reports whether Wait can take o: For is Current, NotFound or empty; Condition, if
// set, is TYPE or TYPE=STATUS; JSONPath, if set, parses; and at most one of Condition,
// JSONPath and Exists is set, none of them with NotFound. Wait checks it itself; a command
// line can call it to reject a bad flag before connecting to anything.
func (o WaitOptions) Validate() error {
	_, err := o.goal()
	return err
}

// objectGoal judges an object by what the caller waits for instead of its being Current.
type objectGoal interface {
	// judge turns st, the status of u judged as always, into whether u has what is waited
	// for: Current if it does.
	judge(st ObjectStatus, u *unstructured.Unstructured) ObjectStatus
}

// goal checks o and returns what it waits for instead of Current (nil if nothing else).
func (o WaitOptions) goal() (objectGoal, error) {
	switch o.For {
	case "", kstatus.CurrentStatus, kstatus.NotFoundStatus:
	default:
		return nil, fmt.Errorf("kates: wait: cannot wait for %s, only for %s or %s", o.For, kstatus.CurrentStatus, kstatus.NotFoundStatus)
	}
	var set []string
	if o.Condition != "" {
		set = append(set, "a Condition")
	}
	if o.JSONPath != "" {
		set = append(set, "a JSONPath")
	}
	if o.Exists {
		set = append(set, "Exists")
	}
	switch {
	case len(set) == 0:
		return nil, nil
	case len(set) > 1:
		return nil, fmt.Errorf("kates: wait: %s cannot be waited for together", strings.Join(set, " and "))
	case o.For == kstatus.NotFoundStatus:
		return nil, fmt.Errorf("kates: wait: %s cannot be waited for together with %s", set[0], kstatus.NotFoundStatus)
	case o.Condition != "":
		return parseCondition(o.Condition)
	case o.JSONPath != "":
		return parseJSONPathGoal(o.JSONPath)
	}
	return existsGoal{}, nil
}

// existsGoal is WaitOptions.Exists: any object that exists has what is waited for.
type existsGoal struct{}

func (existsGoal) judge(st ObjectStatus, _ *unstructured.Unstructured) ObjectStatus {
	if st.Status != kstatus.NotFoundStatus {
		st.Message = fmt.Sprintf("exists; %s: %s", st.Status, st.Message)
		st.Status, st.Reason = kstatus.CurrentStatus, "Exists"
	}
	return st
}

// conditionGoal is a parsed WaitOptions.Condition.
type conditionGoal struct {
	conditionType, status string
}

func parseCondition(s string) (*conditionGoal, error) {
	t, status, hasStatus := strings.Cut(s, "=")
	t, status = strings.TrimSpace(t), strings.TrimSpace(status)
	if !hasStatus {
		status = "True"
	}
	if t == "" || status == "" || strings.Contains(status, "=") {
		return nil, fmt.Errorf("kates: wait: condition %q: want TYPE or TYPE=STATUS (Ready, Available=True, Ready=False)", s)
	}
	return &conditionGoal{conditionType: t, status: status}, nil
}

// judge turns st, the status of u judged as always, into whether u has the condition: Current
// if it does, whatever u's status (a wait for a Job's Failed condition ends when the Job
// fails). If it does not, Failed (for fail-fast), Terminating and NotFound stay as they are,
// and anything else is InProgress with what u has instead.
func (g *conditionGoal) judge(st ObjectStatus, u *unstructured.Unstructured) ObjectStatus {
	if st.Status == kstatus.NotFoundStatus {
		return st
	}
	var found *metav1.Condition
	if obj, err := kstatus.Unstructured(u); err == nil {
		for _, c := range obj.GetConditions() {
			if strings.EqualFold(c.Type, g.conditionType) {
				found = &c
				break
			}
		}
	}
	met := found != nil && (found.ObservedGeneration == 0 || found.ObservedGeneration == u.GetGeneration()) &&
		strings.EqualFold(string(found.Status), g.status)
	if !met && (st.Status == kstatus.FailedStatus || st.Status == kstatus.TerminatingStatus) {
		return st
	}
	switch {
	case found == nil:
		st.Status, st.Reason = kstatus.InProgressStatus, "ConditionMissing"
		st.Message = fmt.Sprintf("no condition %s yet; %s", g.conditionType, st.Message)
	case found.ObservedGeneration != 0 && found.ObservedGeneration != u.GetGeneration():
		st.Status, st.Reason = kstatus.InProgressStatus, "ConditionStale"
		st.Message = fmt.Sprintf("condition %s is of generation %d, the object's is %d", found.Type, found.ObservedGeneration, u.GetGeneration())
	case met:
		st.Status, st.Reason = kstatus.CurrentStatus, "ConditionMet"
		st.Message = fmt.Sprintf("condition %s is %s", found.Type, found.Status) + conditionDetail(found)
	default:
		st.Status, st.Reason = kstatus.InProgressStatus, "ConditionNotMet"
		st.Message = fmt.Sprintf("condition %s is %s, want %s", found.Type, found.Status, g.status) + conditionDetail(found)
	}
	return st
}

func conditionDetail(c *metav1.Condition) string {
	switch {
	case c.Reason != "" && c.Message != "":
		return ": " + c.Reason + ": " + c.Message
	case c.Reason != "":
		return ": " + c.Reason
	case c.Message != "":
		return ": " + c.Message
	}
	return ""
}
