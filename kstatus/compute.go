package kstatus

import (
	"errors"
	"fmt"
	"maps"
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Compute returns the reconcile status of u, read from u alone: it never talks to a
// cluster, so u must be the whole object, status included. The rules, in the order they
// are tried, are listed in the package documentation.
//
// Compute never returns a nil Result. When a field it needs cannot be interpreted (an
// observedGeneration of "two", a list where a count belongs) the Result is Unknown, its
// Message names the field, and the error is a *FieldError (see IsMalformed); callers that
// only display or wait on the status may ignore the error.
//
// Compute does not modify u and is safe to call concurrently on the same object.
func Compute(u *unstructured.Unstructured) (*Result, error) {
	return compute(u, time.Time{}, false)
}

// ComputeAt is Compute with the clock stopped at now. Only rules that measure how long a
// state has lasted read the clock (a Pod is reported unschedulable once it has been so for
// ScheduleWindow); tests and tools that replay recorded objects use ComputeAt to get the
// answer they would have got then. A zero now means time.Now.
func ComputeAt(u *unstructured.Unstructured, now time.Time) (*Result, error) {
	return compute(u, now, false)
}

var errNilObject = errors.New("kstatus: nil object")

// compute implements Compute. ownRules makes it ignore Reconciling and Stalled on kinds
// that have a rule of their own: Augment sets it, see there.
func compute(u *unstructured.Unstructured, now time.Time, ownRules bool) (*Result, error) {
	if u == nil {
		return &Result{Status: UnknownStatus, Message: errNilObject.Error()}, errNilObject
	}
	v := evaluate(u.Object, now, ownRules, nil)
	return v.result()
}

// verdict is what a rule decides. It is returned by value and turned into a Result once,
// so the common Current answer costs a single allocation.
type verdict struct {
	status  Status
	reason  string // CamelCase, for the Reconciling or Stalled condition
	message string
	err     *FieldError
	by      string // the rule that decided, for Explain; "" is rule 6
}

func current(message string) verdict {
	return verdict{status: CurrentStatus, message: message}
}

func inProgress(reason, message string) verdict {
	return verdict{status: InProgressStatus, reason: reason, message: message}
}

func failed(reason, message string) verdict {
	return verdict{status: FailedStatus, reason: reason, message: message}
}

func malformed(err *FieldError) verdict {
	return verdict{status: UnknownStatus, message: err.Error(), err: err}
}

// result builds the Result for v. For InProgress and Failed the Result and the backing
// array of its one Condition share an allocation.
func (v verdict) result() (*Result, error) {
	var t ConditionType
	switch v.status {
	case InProgressStatus:
		t = ConditionReconciling
	case FailedStatus:
		t = ConditionStalled
	default:
		r := &Result{Status: v.status, Message: v.message}
		if v.err != nil {
			return r, v.err
		}
		return r, nil
	}
	b := &struct {
		r Result
		c [1]Condition
	}{}
	b.c[0] = Condition{Type: t, Status: corev1.ConditionTrue, Reason: v.reason, Message: v.message}
	b.r = Result{Status: v.status, Message: v.message, Conditions: b.c[:]}
	return &b.r, nil
}

// object holds what every rule reads, looked up once by evaluate. Rules take it by value:
// they are called through the table, and a pointer would make it escape to the heap.
type object struct {
	kind   string
	meta   map[string]any
	spec   map[string]any
	status map[string]any
	conds  []any // status.conditions
	now    time.Time
}

// fields returns a reader whose errors name o's kind.
func (o object) fields() fields {
	return fields{kind: o.kind}
}

// clock returns the time the rules measure against.
func (o object) clock() time.Time {
	if o.now.IsZero() {
		return time.Now()
	}
	return o.now
}

// A rule computes the status of one kind. It runs only when rules 1–3 decided nothing,
// and must decide: a kind with a rule never falls through to the Ready condition.
type rule func(o object) verdict

// groupKind keys the rule table. A struct of two strings hashes without allocating, unlike
// a "group/kind" string built per call.
type groupKind struct{ group, kind string }

// rules is the per-kind table. Each API group's file adds its rows in an init function,
// so adding a kind is adding a row next to its rule.
var rules = map[groupKind]rule{}

// register adds rows to the table for the kind in each of groups.
func register(kind string, r rule, groups ...string) {
	for _, g := range groups {
		rules[groupKind{g, kind}] = r
	}
}

// group returns the API group of apiVersion: "apps" for "apps/v1", "" for "v1".
func group(apiVersion string) string {
	if i := strings.IndexByte(apiVersion, '/'); i >= 0 {
		return apiVersion[:i]
	}
	return ""
}

// evaluate applies the rules to the decoded object m, with the status rules opts asks for
// (nil: the library alone).
func evaluate(m map[string]any, now time.Time, ownRules bool, opts *Options) verdict {
	v := evaluateRules(m, now, ownRules, opts)
	if v.err != nil && v.by == "" {
		v.by = "malformed"
	}
	return v
}

func evaluateRules(m map[string]any, now time.Time, ownRules bool, opts *Options) verdict {
	var f fields
	apiVersion := f.str(m, "apiVersion", "apiVersion")
	f.kind = f.str(m, "kind", "kind")
	meta := f.obj(m, "metadata", "metadata")
	var status map[string]any
	if s, ok := m["status"].(string); ok && wordValue(s) && phaseClassOf(s) != phaseUnknown {
		// A status that is a state word itself (OpenEBS zfs-localpv's ZFSBackup: status
		// Init, Done or Failed, a string its CRD declares): read as status.status is.
		// Any other string stays malformed.
		status = map[string]any{"status": s}
	} else {
		status = f.obj(m, "status", "status")
	}
	if f.err != nil {
		return malformed(f.err)
	}

	// Rule 1: deletion trumps everything; an object being deleted is not reconciling
	// towards its spec any more.
	if dt, ok := meta["deletionTimestamp"]; ok && dt != nil && dt != "" {
		v := terminating(meta)
		v.by = "deletion"
		return v
	}

	// Rule 2: a controller that has not seen the latest generation has not acted on it,
	// whatever the rest of status says. Objects without observedGeneration skip this.
	g := group(apiVersion)
	cr := lookupRule(opts, g, apiVersion, f.kind)
	r := rules[groupKind{g, f.kind}]
	gen, hasGen := f.intOK(meta, "generation", "metadata.generation")
	var obs int64
	var hasObs bool
	if s, ok := status["observedGeneration"].(string); !hasGen || (ok && cr != nil && !generationString(s, gen)) {
		// Without a generation there is nothing to compare observedGeneration with, so it
		// is not read: whatever it holds cannot decide. A kind with a status rule may keep
		// a hash here (Argo Rollouts before 1.0 did): it cannot be compared with
		// generation, and the rule is written for the kind, so it decides rather than the
		// object being Unknown.
	} else {
		obs, hasObs = f.intOK(status, "observedGeneration", "status.observedGeneration")
		if hasObs && obs == 0 && gen > 0 && len(status) > 1 && cr == nil && r == nil {
			// 0 is no generation: the API server starts them at 1. Beside a status the
			// controller wrote (Microcks' operator, in Java, serializes an int it never
			// sets), it says the controller does not track generations, not that it has
			// not seen this one: not read, as if absent.
			hasObs = false
		}
	}
	tr := opts.tracer()
	var conds []any
	if held, ok := status["conditions"].(map[string]any); ok && cr == nil && r == nil {
		// A kind no rule names whose schema keeps its conditions in an object (Tortoise's
		// status.conditions.tortoiseConditions): the server validated it against that
		// schema, so it is the operator's shape, not a malformed list. Its lists of
		// conditions are read as the conditions.
		conds = heldConditions(held, "conditions")
		if tr != nil {
			tr.note("status.conditions", fmt.Sprintf("an object; %d conditions read from it", len(conds)))
		}
	} else if _, listed := status["conditions"]; !listed && cr == nil && r == nil {
		// Nor is a status whose conditions are kept elsewhere: in status.condition, or
		// per part (status.functionConditions).
		conds = partConditions(status)
		if tr != nil && len(conds) > 0 {
			tr.note("status.conditions", fmt.Sprintf("absent; %d conditions read from status.condition and objects of parts' conditions", len(conds)))
		}
	} else {
		conds = f.list(status, "conditions", "status.conditions")
	}
	if f.err != nil {
		return malformed(f.err)
	}
	if cr == nil && r == nil {
		// A kind no rule names: the server validated its conditions against the operator's
		// schema, so they are in the operator's shape. A status in lower case (Flotta's
		// EdgeDeviceSignedRequest: "true", "false") reads one way only; an entry of the
		// operator's own type whose status is none of the three (Shopware's Store: a step
		// log, {type: setup, status: Ready}) is no condition, and is not read. Ready,
		// Stalled and Reconciling, which the generic rules read, stay malformed then
		// (condFrom).
		conds = unaskedLeftOut(canonicalStatuses(conds))
	}
	if tr != nil && hasGen && hasObs {
		tr.note("metadata.generation", gen)
		tr.note("status.observedGeneration", obs)
	}
	// The status rule applies unless a built-in kind rule (4) keeps the kind.
	useRule := cr != nil && (r == nil || cr.src.Override)
	if hasGen && hasObs && gen != obs {
		// A kind whose rule knows its paused state decides a paused object itself: its
		// controller will not observe the new generation until a person resumes it.
		if useRule {
			paused, pv := cr.isPaused(m, apiVersion, f.kind, meta, status)
			if pv.status != "" {
				return pv
			}
			if paused {
				tr.note("paused", true)
				if v, decided := cr.apply(m, apiVersion, f.kind, meta, status); decided {
					return v
				}
			}
		}
		// Unless the controller has written, since the spec changed, that it failed on it:
		// kinds without a rule only (see rejected.go).
		if r == nil && !useRule && obs < gen {
			if v, rejected := rejectedSpec(m, meta, status, conds, gen, obs, now, opts); rejected {
				return v
			}
			// Or that it has reached a pause the spec asks for: status repeats the spec's
			// field (the local-storage-operator's status.managementState Unmanaged), and a
			// controller standing aside will not observe the generation that asked.
			if v, reached := pauseReported(m, status, conds, gen, tr); reached {
				return v
			}
		}
		v := inProgress("LatestGenerationNotObserved",
			fmt.Sprintf("%s generation is %d, but latest observed generation is %d", kindOr(f.kind), gen, obs)+lastReported(status, conds))
		v.by = "generation"
		return v
	}

	// Status rules (CEL) come after the built-in kind rules, unless one says it overrides
	// the built-in one, and before the generic condition rules: a kind someone wrote a rule
	// for is one whose conditions do not say enough.
	if useRule {
		if v, decided := cr.apply(m, apiVersion, f.kind, meta, status); decided {
			if v.status == CurrentStatus {
				// A rule's Current is not trusted over a Ready condition written for an
				// older generation: the controller has not reported on the spec it has now,
				// as rule 5 holds for kinds without a rule. Rules read Ready for many kinds
				// without comparing its generation; this keeps them from ending a wait early.
				var rf fields
				if ready := rf.cond(conds, "Ready"); rf.err == nil && ready.found {
					if sv, stale := staleCondition(&rf, ready, "Ready", gen, hasGen, tr); stale && rf.err == nil {
						sv.by = v.by
						return sv
					}
				}
			}
			return v
		}
	}

	// Rule 3: the standard abnormal-true conditions, from a controller that follows the
	// convention. Stalled wins over Reconciling: a controller that claims both has given up
	// on something, and a caller waiting on it should hear so.
	// The three standard conditions are found in one pass over the list; each is read
	// (and a malformed one reported) only where its rule comes.
	std := findStandard(conds)
	if !(ownRules && r != nil) {
		stalled := f.condAt(std.stalled, string(ConditionStalled))
		reconciling := f.condAt(std.reconciling, string(ConditionReconciling))
		if f.err != nil {
			return malformed(f.err)
		}
		if tr != nil {
			for _, c := range [...]condition{stalled, reconciling} {
				if c.found {
					tr.note("status.conditions["+condType(c)+"]", c.status+reasonSuffix(c))
				}
			}
		}
		if stalled.isTrue() {
			v, stale := staleCondition(&f, stalled, string(ConditionStalled), gen, hasGen, tr)
			if f.err != nil {
				return malformed(f.err)
			}
			if !stale {
				v = failed(stalled.reasonOr("Stalled"), stalled.text("Stalled condition is True"))
			}
			v.by = "conditions"
			return v
		}
		if reconciling.isTrue() {
			v := inProgress(reconciling.reasonOr("Reconciling"), reconciling.text("Reconciling condition is True"))
			v.by = "conditions"
			return v
		}
	}

	// Rule 4: the kind's own rule. spec is checked only here: other kinds never read it,
	// and an odd spec should not make them Unknown.
	if r != nil {
		spec := f.obj(m, "spec", "spec")
		if f.err != nil {
			return malformed(f.err)
		}
		v := r(object{kind: f.kind, meta: meta, spec: spec, status: status, conds: conds, now: now})
		if v.by == "" {
			v.by = byKindRule // Explain adds the kind; a concatenation here would allocate
		}
		return v
	}

	// Rule 5: Ready, the condition most controllers publish although it is normal-true.
	ready := f.condAt(std.ready, string(ConditionReady))
	if f.err != nil {
		return malformed(f.err)
	}
	if ready.found {
		if tr != nil {
			tr.note("status.conditions[Ready]", ready.status+reasonSuffix(ready))
		}
		v, stale := staleCondition(&f, ready, string(ConditionReady), gen, hasGen, tr)
		if f.err != nil {
			return malformed(f.err)
		}
		switch {
		case stale:
			// A Ready the controller stopped updating once it stopped the object as the
			// spec asks (KubeDB's halted database: Ready for the generation before,
			// phase Halted, status.observedGeneration the latest): the stop, reached, is
			// where the object is meant to be.
			if hasObs && obs == gen {
				if iv := infer(&f, apiVersion, m, status, conds, gen, hasGen, opts, tr); f.err != nil {
					return malformed(f.err)
				} else if iv.status == CurrentStatus && (iv.by == "infer:asked" || iv.by == "infer:suspended") {
					return iv
				} else if iv.status == FailedStatus && r == nil && cr == nil {
					// So is a failure the rest of status reports for this generation, on a
					// kind no rule names (gpu-ninja's dex-operator: Ready True for the
					// generation before, left as it was, and Failed True for this one, the
					// Ingress refused): Ready no longer speaks for the object.
					return iv
				}
			}
		case ready.isTrue():
			v = current("Resource is Ready")
			// What outranks it: a change under way, a failure, a run not finished.
			if ov, over := readyOutranked(&f, ready, apiVersion, m, status, conds, gen, hasGen, opts, tr); f.err != nil {
				return malformed(f.err)
			} else if over {
				return ov
			}
		default:
			// Ready not True is InProgress unless the rest of the object says more: a
			// failure (a run that failed, an error reported, a state Failed), a run that
			// finished, or a suspension the spec asks for, reached (rule 6).
			iv := infer(&f, apiVersion, m, status, conds, gen, hasGen, opts, tr)
			if f.err != nil {
				return malformed(f.err)
			}
			if bySeverity(iv) && summarizedMilder(ready) {
				// Another condition False with severity Error, where Ready, which Cluster
				// API's convention makes the summary of the others, gives a milder
				// severity: the controller judged the error one it retries (CAPO's
				// RouterReady Error beside Ready Warning for a 503 from the cloud). Ready
				// decides, below.
				iv = verdict{}
			}
			if iv.status == FailedStatus || iv.status == CurrentStatus && (iv.by == "infer:outcome" || iv.by == "infer:succeeded" || iv.by == "infer:suspended") {
				return iv
			} else if iv.status == CurrentStatus && iv.by == "infer:asked" && readyReportsOnlyState(ready) {
				// A state the spec asks for, reached, that the operator reports as not
				// Ready (a profile disabled as asked: Ready False, Unavailable).
				return iv
			}
			if ready.status == "Unknown" && !anyFalse(conds) {
				// Ready left Unknown by a pause the spec asks for (ClusterLogForwarder's
				// "Updates are ignored when the managementState is Unmanaged"): the
				// controller stands aside as asked, and Unknown is no work it will do.
				if p := pauseAsked(m); p != "" {
					if tr != nil {
						tr.note(p, true)
					}
					return verdict{status: CurrentStatus, message: ready.text(readyFallback(ready.status)) + " (" + p + " asks the controller to stand aside)", by: "infer:suspended"}
				}
			}
			if pauseWord(ready.reason) {
				p := pauseAsked(m)
				if p == "" {
					p = suspensionAsked(m)
				}
				switch {
				case p != "" && !otherNotTrueBut(conds, ready.reason):
					// Ready not True only because the object is paused, as the spec asks
					// (plumber-cd's argocd-autoscaler: ReplicaSetScaler spec.paused, Ready
					// False, Paused, "Scaling actions are paused"), and no other condition
					// says work is left: the controller reports the pause it was asked for,
					// reached.
					if tr != nil {
						tr.note(p, true)
					}
					return verdict{status: CurrentStatus, message: ready.text(readyFallback(ready.status)) + " (paused, as " + p + " asks)", by: "infer:suspended"}
				case p == "":
					// Ready not True because the object is paused, which nothing in the spec
					// asks for (KubeSphere DevOps' PipelineRun: Ready Unknown, PAUSED, while
					// its Jenkins run waits for a person's input): as a state Paused the spec
					// did not ask for, only a person resumes it (PAUSED.md).
					return verdict{status: FailedStatus, reason: "Paused",
						message: ready.text(readyFallback(ready.status)) + " (paused, and the spec does not ask for it: only a person resumes it)", by: "ready"}
				}
			}
			v = notTrue(ready, "Ready")
			if v.status == InProgressStatus && ready.isFalse() && failedReason(ready.reason) && iv.status != InProgressStatus &&
				!messageWaits(ready.message) && !unreachable(ready.message) &&
				!otherNotTrue(conds) {
				// Ready False with the word of a failure alone for its reason, a message
				// that waits for nothing, and no other condition behind it (Skyscanner's
				// kms-issuer: Ready False, Failed, "Not a valid key: "): the attempt failed
				// and nothing says it is retried. Not when other conditions are not True:
				// then Ready is their summary (OpenShift's zero-trust workload identity
				// manager writes Ready False, Failed, for a StatefulSet not ready yet), and
				// they decide.
				v = verdict{status: FailedStatus, reason: ready.reason, message: ready.text(readyFallback(ready.status))}
			}
			if v.status == InProgressStatus {
				v.reason = ready.reasonOr("NotReady")
				v.message = ready.text(readyFallback(ready.status))
			}
		}
		v.by = "ready"
		return v
	}

	// Rule 6: judged from what the object publishes; see the package documentation.
	v := infer(&f, apiVersion, m, status, conds, gen, hasGen, opts, tr)
	if v.status == CurrentStatus {
		// A kopf operator's handler not finished (or failed for good) says more than a
		// status that reads as done: kopf keeps the record only until every handler of
		// the change has finished (kopf.go). (Not read beside InProgress: a handler failed
		// for good is seen there only while another still runs, and the walk of the
		// annotations is not free.)
		if kv, found := kopfHandling(meta, status, tr); found {
			return kv
		}
	}
	return v
}

// lastReported is what the conditions last said went wrong, for the message of a generation
// not observed yet: a condition True named for a failure (Error, …Failed), else Ready False,
// with its message, as "; last reported: Error True (ValidationError): …". It may be about
// the generation before; the message says so by what it is appended to, and a person
// waiting learns what the controller last objected to; without such a condition, an error
// field of status (errorMessage, error, failureMessage: the Java Operator SDK's glue
// operator writes errorMessage and leaves observedGeneration behind). "" when nothing did.
func lastReported(status map[string]any, conds []any) string {
	var pick map[string]any
	for _, e := range conds {
		c, _ := e.(map[string]any)
		t, _ := c["type"].(string)
		msg, _ := c["message"].(string)
		if msg == "" {
			continue
		}
		if c["status"] == "True" && classifyCondition(t) == condFailure {
			pick = c
			break
		}
		if pick == nil && t == "Ready" && c["status"] == "False" {
			pick = c
		}
	}
	if pick == nil {
		for _, k := range [...]string{"failureMessage", "errorMessage", "error", "errors", "problems", "failureReason", "errorReason"} {
			if text := errorText(status[k]); text != "" {
				return "; last reported: status." + k + ": " + text
			}
		}
		return ""
	}
	t, _ := pick["type"].(string)
	st, _ := pick["status"].(string)
	what := t + " " + st
	if r, _ := pick["reason"].(string); r != "" {
		what += " (" + r + ")"
	}
	msg, _ := pick["message"].(string)
	return "; last reported: " + what + ": " + msg
}

// otherNotTrue reports a condition other than Ready that is not True and whose reason is
// not the word of a failure alone (failedReason): one that says what Ready sums up.
func otherNotTrue(conds []any) bool {
	return otherNotTrueBut(conds, "")
}

// otherNotTrueBut is otherNotTrue, not counting conditions not True for the reason same:
// Stellar-K8s' StellarNode, suspended as asked, has Available False for Ready's reason,
// NodeSuspended, which says the same pause and no other work.
func otherNotTrueBut(conds []any, same string) bool {
	for _, e := range conds {
		c, _ := e.(map[string]any)
		t, _ := c["type"].(string)
		r, _ := c["reason"].(string)
		if t != "Ready" && c["status"] != "True" && !failedReason(r) && (same == "" || r != same) {
			return true
		}
	}
	return false
}

// condType is the type of a condition found by fields.cond.
func condType(c condition) string {
	t, _ := c.raw["type"].(string)
	return t
}

// readyReportsOnlyState reports a Ready condition not True that says nothing beyond the
// state it stands for: not a failure by 6a's reading (severity Error, a terminal reason or
// message), and not work under way (a transient reason, or a message that starts with a
// transient word).
func readyReportsOnlyState(ready condition) bool {
	return notTrue(ready, "Ready").status != FailedStatus && classifyReason(ready.reason) != reasonTransient &&
		!messageWaits(ready.message)
}

// readyFallback is the message for a Ready condition with neither message nor reason.
// Its status is False or Unknown: any other value was reported malformed.
func readyFallback(status string) string {
	return "Ready condition is " + status
}

func kindOr(kind string) string {
	if kind == "" {
		return "Object"
	}
	return kind
}

// terminating reports an object being deleted, naming the finalizers it waits for: they
// are what a person stuck on a deletion needs to look at.
func terminating(meta map[string]any) verdict {
	var names []string
	fins, _ := meta["finalizers"].([]any)
	for _, v := range fins {
		if s, ok := v.(string); ok && s != "" {
			names = append(names, s)
		}
	}
	if len(names) == 0 {
		return verdict{status: TerminatingStatus, message: "Deletion in progress"}
	}
	return verdict{status: TerminatingStatus, message: "Deletion waiting for finalizers: " + strings.Join(names, ", ")}
}

// byKindRule marks a verdict of a built-in kind rule.
const byKindRule = "kind:"

// lookupRule returns the status rule for the kind: the caller's first, then the library's.
func lookupRule(opts *Options, g, apiVersion, kind string) *compiledRule {
	user, lib := opts.ruleSets()
	if r := user.lookup(g, apiVersion, kind); r != nil {
		return r
	}
	return lib.lookup(g, apiVersion, kind)
}

// isInteger reports whether s is a whole number in decimal, as a numeric-string
// observedGeneration is.
// generationString reports whether a string observedGeneration can be a generation: an
// integer no greater than the object's generation. Argo Rollouts before 1.0 kept a pod
// template hash there, and a hash can be all digits ("8575574967"); a controller never
// observes a generation the object has not reached, so a larger number is such a hash.
func generationString(s string, gen int64) bool {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	return err == nil && n <= gen
}

func isInteger(s string) bool {
	_, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	return err == nil
}

// canonicalStatuses returns conds with each condition status "true", "false" or
// "unknown" in lower case, or a boolean, written as True, False or Unknown, and without the
// entries of a type other than Ready, Stalled and Reconciling whose status is none of the
// three (absent, "", "Ready", "Error"); conds itself when there is nothing to change (the
// common case costs one pass and no copy). Conditions changed are copies: the object is
// not edited.
func canonicalStatuses(conds []any) []any {
	var out []any
	changed := false
	for i, e := range conds {
		c, _ := e.(map[string]any)
		st, _ := c["status"].(string)
		if b, ok := c["status"].(bool); ok {
			// A boolean, as Netcracker's operators write it ({type: Failed, status:
			// true}): it reads one way only, as "true" does. Not on the types the generic
			// rules read, where it stays malformed.
			if t, _ := c["type"].(string); !standardType(t) {
				st = strconv.FormatBool(b)
			}
		}
		var canon string
		switch st {
		case "True", "False", "Unknown":
			if changed {
				out = append(out, e)
			}
			continue
		case "true":
			canon = "True"
		case "false":
			canon = "False"
		case "unknown":
			canon = "Unknown"
		default:
			if t, _ := c["type"].(string); c == nil || standardType(t) {
				if changed {
					out = append(out, e) // malformed where it is read (condFrom)
				}
				continue
			}
			if !changed {
				out, changed = append(make([]any, 0, len(conds)), conds[:i]...), true
			}
			continue // not a condition: left out
		}
		if !changed {
			out, changed = append(make([]any, 0, len(conds)), conds[:i]...), true
		}
		cp := maps.Clone(c)
		cp["status"] = canon
		out = append(out, cp)
	}
	if !changed {
		return conds
	}
	return out
}

// standardType reports a condition type the generic rules read (Ready, Stalled,
// Reconciling), whose status stays strict: only True, False or Unknown.
func standardType(t string) bool {
	return t == string(ConditionReady) || t == string(ConditionStalled) || t == string(ConditionReconciling)
}

// unaskedLeftOut returns conds without the conditions other than Ready that are False
// because nobody asked for what they report: a reason NotRequested, NotConfigured or
// NotEnabled (Intel's sriov-fec-operator: Configured False, NotRequested, on a node asked
// to configure nothing; Sealos' Devbox: StartupConfigMapSynced False, NotConfigured, when
// no startup ConfigMap is set up). Such a condition is the resting state of a feature not
// used, not a state to reach. conds itself when there is none.
func unaskedLeftOut(conds []any) []any {
	var out []any
	for i, e := range conds {
		c, _ := e.(map[string]any)
		if c["status"] != "False" || c["type"] == "Ready" {
			if out != nil {
				out = append(out, e)
			}
			continue
		}
		switch c["reason"] {
		case "NotRequested", "NotConfigured", "NotEnabled":
			if out == nil {
				out = append(make([]any, 0, len(conds)-1), conds[:i]...)
			}
		default:
			if out != nil {
				out = append(out, e)
			}
		}
	}
	if out == nil {
		return conds
	}
	return out
}
