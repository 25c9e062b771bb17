package kstatus

import (
	"strings"
	"time"
)

// readyOutranked reads what outranks a Ready condition True (rule 5), in one pass over the
// conditions and one walk of status: Ready is often set by a controller whose own
// reconcile succeeded, whatever became of the work it started, so other things the object
// publishes for the latest generation say more.
//
//   - A change under way: a condition …InProgress True (UpgradeInProgress), or Progressing
//     True with a reason that does not say it is done, or any condition of work under way
//     True that turned so after Ready did (WorkloadRollPending, UpdatingVersion, Canceling:
//     work begun since the object was ready); a state naming a change under way
//     (Updating); the parts the object runs short of their replicas. InProgress.
//   - A failure: a condition True named for an error or a limit reached (Failed,
//     ReconcileError, InstallFailure, RetryLimitExceeded) with a reason that is not
//     transient (korifi's CFTask: Ready True for the reconcile, Failed True for the task's
//     exit code; Hive's SyncSetFailed beside a running cluster), unless Ready turned True
//     after it did (Kube-OVN's Error, which its controller never clears: a Ready True
//     since then says the retry succeeded); a state that says the object failed
//     (KubeVela's workflowFailed). Failed.
//   - A run not finished: on a kind that finishes (runFacts.finishes), a run under way (a
//     Running or Started condition True, a running state) with no outcome (a Succeeded,
//     Complete or Finished condition True, a terminal success in a state, a completion
//     time). Forklift's and MTC's migrations set Ready True ("The migration is ready.")
//     when the migration may run, and report its end by Succeeded. So does a kind whose
//     definition says it finishes (KindInfo.Finishes) with no outcome at all: its Ready
//     says the run was set up. InProgress.
//   - A state lost since: a condition named for a state reached, False for the latest
//     generation, that turned False after Ready turned True (lostSinceReady). InProgress,
//     or Failed when its reason says a person must act.
//
// found is false when nothing outranks Ready: the object is Current.
func readyOutranked(f *fields, ready condition, apiVersion string, m, status map[string]any, conds []any, gen int64, hasGen bool, opts *Options, tr *trace) (v verdict, found bool) {
	run := judgeRunConditions(f, conds, gen, hasGen, tr)
	if f.err != nil {
		return verdict{}, false
	}
	if run.progressing.status != "" {
		return run.progressing, true
	}
	if rt, _ := ready.raw["lastTransitionTime"].(string); run.busy.status != "" && before(rt, run.busySince) {
		// Work that began after Ready turned True (valkey-operator's WorkloadRollPending
		// True, three days after Ready): Ready's True is the older news.
		v := run.busy
		v.message += ", though Ready is True"
		return v, true
	}
	// A failure the conditions record: an error condition True not older than Ready, or an
	// outcome not reached because it failed, as its reason says (Dana's
	// image-builder-operator: BuildSucceeded False, BuildRunFailed, beside the Ready True of
	// a reconcile that went well: the run's end is known, and it is a failure).
	if run.failure.status == FailedStatus && (!run.errorTrue || !before(run.failureSince, ready.raw["lastTransitionTime"])) {
		run.failure.message += ", though Ready is True"
		return run.failure, true
	}
	if msg, _ := ready.raw["message"].(string); msg != "" && startsTransientSentence(msg) {
		// Ready True whose message says, in a sentence of its own, that it waits
		// (Kuberik's Rollout: "Release deployed successfully. Waiting for health checks
		// to become healthy before starting bake"): the controller is not done.
		return verdict{status: InProgressStatus, reason: ready.reasonOr("Ready"),
			message: msg + " (Ready is True)", by: "infer:conditions"}, true
	}
	st := scanStates(m, status, f.kind, nil, tr)
	moving := "" // the spec field asking for the state st's value is on its way to
	if st.class == phaseProgressing {
		moving = movingToAsked(m, st.value)
	}
	switch {
	case st.class == phaseFailed:
		return st.v, true
	case st.class == phaseProgressing && waitsForPerson(st.value):
		// A state that waits for a person (howl-cloud's RedisCluster: phase WaitingForUser,
		// its supervised update held until someone approves it) beside the Ready True of
		// what still serves: only a person ends the wait, as PAUSED.md has it.
		return personWait(st.v), true
	case st.class == phaseProgressing && changeUnderWay(st.value):
		// A state naming a change under way (GreptimeDB's clusterPhase Updating)
		// outranks a Ready True that the operator does not reset while it changes what
		// is already running.
		st.v.message += ", though Ready is True"
		return st.v, true
	case moving != "":
		// A state on its way to the one the spec asks for by name (laf's Application:
		// spec.state Stopped, status.state Stopping, beside the Ready True of before the
		// stop): the change the spec asks for is under way.
		asked := specAt(m, moving)
		if tr != nil {
			tr.note(moving, asked)
		}
		v := st.verdict(nil)
		v.message += ", and " + moving + " asks for " + valueText(asked) + ", though Ready is True"
		return v, true
	case (st.class == phaseProgressing || st.class == phaseRunning) && namesOperation(st.path):
		// So does an operation under way on the object (etcd-druid's lastOperation
		// Processing beside a Ready True for the members that still serve).
		v := st.verdict(nil)
		v.message += ", though Ready is True"
		return v, true
	}
	// So does a reason of Ready True that names a beginning under way (kubebb's Repository:
	// Ready True, Creating, "prepare to launch watcher"; KeiaiLab's Valkey: Ready True,
	// Initializing, beside phase Initializing): the controller marks the object ready to
	// be worked on, and says the work has only begun. Not where a state says the object
	// got there since (Kubernaut's Verifying left beside overallPhase Completed).
	if r := ready.reasonOr(""); r != "" && st.class != phaseDone && st.class != phaseUp && firstWordIn(r, busyWords) {
		if tr != nil {
			tr.note(condPath("", "Ready"), "True ("+r+")")
		}
		msg := "Ready is True, but its reason is " + r
		if text, _ := ready.raw["message"].(string); text != "" {
			msg += ": " + text
		}
		return verdict{status: InProgressStatus, reason: r, message: msg, by: "infer:conditions"}, true
	}
	// So do the counts of the parts it runs short of their replicas
	// (datanode.readyReplicas 2 of 3 during a rolling upgrade). Not the object's own
	// counts: operators leave readyReplicas out or count replicas of their own beside a
	// Ready True that is right.
	if cv, short := st.parts.verdict(tr); short {
		cv.message += ", though Ready is True"
		return cv, true
	}
	// And the replicas of the kind's scale subresource short of those asked for
	// (Kroxylicious' KafkaProxy: status.replicas, "pods that have reported ready", 1 of 3
	// after a scale-up, beside the Ready True it writes on every successful reconcile). The
	// definition names that count as the one to hold against spec, so it is not a count of
	// the operator's own that may mean something else.
	if v, short := scaleVerdict(opts.kindInfo(apiVersion, f.kind), m, tr); short {
		v.message += ", though Ready is True"
		return v, true
	}
	// And a flag of status that says work is in progress (deployInProgress true beside a
	// Ready True set when the deployment was handed on): the news, as a condition
	// …InProgress True is.
	if k := st.parts.busyFlag; k != "" {
		if tr != nil {
			tr.note("status."+k, true)
		}
		return verdict{status: InProgressStatus, reason: strings.ToUpper(k[:1]) + k[1:],
			message: "status." + k + " is true, though Ready is True", by: "infer:counts"}, true
	}
	// And status.ready false, the object's own flag, beside a Ready condition its controller
	// sets on every pass whatever became of the work (Prefect's work pool with no worker
	// ready yet): not ready is the news.
	if st.parts.readyFalse {
		if tr != nil {
			tr.note("status.ready", false)
		}
		return verdict{status: InProgressStatus, reason: "NotReady",
			message: "status.ready is false, though Ready is True", by: "infer:counts"}, true
	}
	// And a fraction short in a field named for readiness ("ready": "1/3"): the object's own
	// count, but one that says in so many words how many of how many are ready, where a
	// controller sets Ready once some are (ShardingSphere's "Some pods are ready").
	if k := st.parts.readyKey; k != "" {
		if tr != nil {
			tr.note("status."+k, status[k])
		}
		return verdict{status: InProgressStatus, reason: "LessReady",
			message: "status." + k + " is " + status[k].(string) + ", though Ready is True", by: "infer:counts"}, true
	}
	if run.succeeded || run.done.status != "" || run.failure.status != "" || st.class == phaseDone {
		return verdict{}, false // an outcome: the run, if it is one, has ended
	}
	rf := newRunFacts(f, apiVersion, m, status, conds, opts, tr)
	// A condition named for the readiness of the object's own kind (SeedImageReady on a
	// SeedImage), or its outcome Unknown (BuildSucceeded on Dana's ImageBuild while the
	// build runs), says more than a Ready that reports the resources it created: True is the
	// object's own state reached (for a kind that finishes, its outcome); not True, its
	// work not done, or, for a kind that finishes, a failure named in its reason (a build
	// failed) is the run's.
	if run.own != nil {
		t := run.ownType
		c := f.condFrom(run.own, t)
		if f.err != nil {
			return verdict{}, false
		}
		if c.isTrue() {
			return verdict{}, false
		}
		v := notTrue(c, t)
		if v.status == InProgressStatus && c.isFalse() && namesFailureWord(c.reason) && rf.finishes() != "" {
			v = verdict{status: FailedStatus, reason: c.reason, message: c.text(t + " condition is False")}
		}
		v.by = "infer:conditions"
		v.message += ", though Ready is True"
		return v, true
	}
	// And a state reached that the object has lost, or not reached, since Ready turned
	// True: a condition of such a type False for the latest generation, turned so after
	// Ready did (ClickHouse's Healthy False, ReplicasNotReady, four minutes after a Ready
	// True its controller sets while some replicas serve). Ready's True is the older news.
	// Not on an object stopped, paused or asleep (its state, a condition such as Sleep
	// True, or the condition's reason says so): what a stop leaves unavailable is what was
	// asked for.
	if run.lostFalse != nil && run.suspended.status == "" && st.class != phaseSuspended && !stopWord(st.value) && !stoppedPhase(status) {
		if v, ok := lostSinceReady(f, ready, run); ok {
			return v, true
		}
	}
	under := run.running || run.started || st.class == phaseRunning
	if !under {
		if info := rf.kindInfo(); info == nil || !info.Finishes {
			return verdict{}, false // nothing under way, and no definition says the kind finishes
		}
	}
	// A completion time or flag is the run's end, unless a state says the run has a step
	// still to go (nagare-media's Workflow: endTime written when its Tasks ended, phase
	// AwaitingCompletion for a grace period before Succeeded).
	if k, _ := completedAt(status); (k != "" || completedFlag(status) != "") && st.class != phaseProgressing {
		return verdict{}, false
	}
	why := rf.finishes()
	if why == "" {
		return verdict{}, false // a service running, as it is meant to
	}
	what := "no condition or state says the run has ended"
	switch {
	case run.running || run.started:
		what = "conditions[" + run.runType + "] is True"
	case st.class == phaseRunning || st.class == phaseProgressing:
		what = st.path + " is " + st.value
	}
	return verdict{status: InProgressStatus, reason: "NotFinished",
		message: "Ready is True, but " + what + " and no outcome yet (the kind finishes: " + why + ")", by: "infer:finishes"}, true
}

// lostSinceReady reads the condition named for a state reached (Healthy, Synced, a type
// whose last word is a past participle: ClusterSizeAligned, ReplicaStartupSucceeded) that
// turned False last, as judgeRunConditions found it (not stale, not for a stop or a pause):
// if that was after Ready turned True, InProgress, or Failed when its reason names an error
// a person must fix (notTrue).
func lostSinceReady(f *fields, ready condition, run runConditions) (verdict, bool) {
	if run.lostFalse == nil {
		return verdict{}, false
	}
	if !before(condTime(ready.raw), condTime(run.lostFalse)) {
		return verdict{}, false
	}
	c := f.condFrom(run.lostFalse, run.lostType)
	if f.err != nil {
		return verdict{}, false
	}
	v := notTrue(c, run.lostType)
	v.by = "infer:conditions"
	v.message += ", since Ready turned True"
	return v, true
}

// condTime is when condition m last changed: its lastTransitionTime, or else its
// lastUpdateTime (wrangler's conditions, which Rancher's kinds write, carry only that).
func condTime(m map[string]any) string {
	if at, _ := m["lastTransitionTime"].(string); at != "" {
		return at
	}
	at, _ := m["lastUpdateTime"].(string)
	return at
}

// stoppedPhase reports a status.phase or status.state that says the object is stopped,
// paused or suspended (KubeBlocks' Cluster phase Stopped).
func stoppedPhase(status map[string]any) bool {
	for _, k := range [...]string{"phase", "state"} {
		if s, _ := status[k].(string); s != "" && (stopWord(s) || pauseWord(s)) {
			return true
		}
	}
	return false
}

// pauseWord reports a reason that says the object is paused or suspended
// (ReconcilePaused, SyncSuspended).
func pauseWord(reason string) bool {
	it := wordIter{s: reason}
	for w, ok := it.next(); ok; w, ok = it.next() {
		switch string(w) {
		case "paused", "suspended", "pause", "suspend":
			return true
		}
	}
	return false
}

// before reports whether the time a, as a condition's lastTransitionTime is written, is
// before b; false when either is missing or not RFC 3339, so that a condition without a
// time is never taken for history.
func before(a string, b any) bool {
	bs, _ := b.(string)
	if a == "" || bs == "" {
		return false
	}
	ta, errA := time.Parse(time.RFC3339, a)
	tb, errB := time.Parse(time.RFC3339, bs)
	return errA == nil && errB == nil && ta.Before(tb)
}

// ownReadiness reports whether the condition type t names the readiness of the object's
// own kind: the kind, or its last word, followed by Ready or Available (SeedImageReady on a
// SeedImage).
func ownReadiness(t, kind string) bool {
	var rest string
	switch {
	case strings.HasSuffix(t, "Ready"):
		rest = t[:len(t)-len("Ready")]
	case strings.HasSuffix(t, "Available"):
		rest = t[:len(t)-len("Available")]
	default:
		return false
	}
	return rest != "" && (rest == kind || rest == kindNoun(kind))
}

// startsTransientSentence reports a message of which a sentence or a clause after a
// semicolon starts with a transient word (startsTransient): "Release deployed
// successfully. Waiting for health checks", "processed; waiting for completion...". Not
// a wait for the next run ("Awaiting next reconciliation"), which is where a reconciled
// object rests.
func startsTransientSentence(msg string) bool {
	for {
		// The end of this sentence or clause: ". " or "; ", whichever comes first.
		end := strings.Index(msg, ". ")
		if j := strings.Index(msg, "; "); j >= 0 && (end < 0 || j < end) {
			end = j
		}
		clause := msg
		if end >= 0 {
			clause = msg[:end]
		}
		if startsTransient(clause) && !containsWordFold(clause, "next") {
			return true
		}
		if end < 0 {
			return false
		}
		msg = msg[end+2:]
	}
}

// containsWordFold reports whether text has word (lower case) as one of its words.
func containsWordFold(text, word string) bool {
	it := wordIter{s: text}
	for w, ok := it.next(); ok; w, ok = it.next() {
		if string(w) == word {
			return true
		}
	}
	return false
}

// personWait is v, a state that waits for a person (waitsForPerson), as Failed: a wait only
// a person can end (PAUSED.md).
func personWait(v verdict) verdict {
	v.status = FailedStatus
	if v.reason == "" {
		v.reason = "WaitingForPerson"
	}
	v.message += ": only a person can end this wait"
	return v
}
