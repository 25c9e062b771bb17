package kstatus

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
)

// runConditions is what the conditions of runs and failures at the top of status say
// (rule 6a): the condition types of condClasses, each True for the latest generation.
type runConditions struct {
	failure   verdict // the first failure-named condition True: Failed (InProgress for a transient reason)
	done      verdict // the first outcome True (Complete, Completed, Finished, Succeeded): Current
	busy      verdict // the first condition of work under way True (Restarting, Pending, ...)
	suspended verdict // Suspended or Paused True, before the spec is read (6e)
	busyType  string  // the type of busy
	notMet    verdict // the first condition named for a state reached that is not True (HeadPodReady False)
	running   bool    // Running True
	started   bool    // Created, Scheduled, Submitted, Admitted or Started True
	runType   string  // the type that set running or started, for messages
	// lostFalse is the condition named for a state reached (Healthy, a past participle,
	// an outcome) False, not stale and not for a stop or a pause, that turned so last, and
	// lostType its type: readyOutranked weighs it against Ready's time (lostSinceReady).
	lostFalse map[string]any
	lostType  string
	// progressing is the first condition True whose type says a change is under way
	// (…InProgress, or Progressing with a reason that does not say it is done), which
	// outranks a Ready True (readyOutranked).
	progressing verdict
	// errorTrue reports that failure is Failed from a condition True named for an error
	// (Failed, ReconcileError, InstallFailure: namesErrorType) or for a limit reached
	// (RetryLimitExceeded): one that outranks a Ready True.
	errorTrue    bool
	failureSince string // the lastTransitionTime of the condition that set errorTrue, as written
	succeeded    bool   // Succeeded True (judgeConditions reads it; noted here for readyOutranked)
	// busySince is the lastTransitionTime of the condition that set busy, as written: a
	// state reached after it (reachedSince) says the work is done, where the controller
	// never clears the condition of the work (llmaz's Progressing).
	busySince string
	// befell is the first condition named for what befell the object True with a reason
	// that is not terminal (Shipper's Blocked, RolloutsBlocked): InProgress where nothing
	// else in status decides (6h).
	befell verdict
	// own is the condition named for the readiness of the object's own kind, or its
	// outcome Unknown (SeedImageReady on a SeedImage: ownReadiness; BuildSucceeded Unknown
	// on an ImageBuild: ownOutcome), ownType its type.
	own     map[string]any
	ownType string
}

// judgeRunConditions reads, in one pass over conds, the condition types of condClasses:
// batch and ML operators' Created, Running, Restarting, Succeeded and Failed, and the
// abnormal-true types that name a failure. The normal-true types judgeConditions reads,
// and Ready, Stalled and Reconciling, are left to their rules.
func judgeRunConditions(f *fields, conds []any, gen int64, hasGen bool, tr *trace) runConditions {
	var rc runConditions
	for _, e := range conds {
		m, ok := e.(map[string]any)
		if !ok {
			continue
		}
		t, _ := m["type"].(string)
		if t == "" || t == "Ready" {
			continue // read by rule 5
		}
		// (An outcome of its own is the run's end not known yet only while Unknown, as
		// Knative's Succeeded Unknown is: False is read as a failure when its reason says
		// so, else as a run not finished; True as the run ended.)
		if rc.own == nil && (ownReadiness(t, f.kind) || ownOutcome(t, f.kind) && m["status"] == "Unknown") {
			rc.own, rc.ownType = m, t
		}
		if rc.failure.status == "" && m["reason"] == "Error" && m["status"] == "False" {
			// An error reported on a condition of any type, as wrangler's SetError writes
			// it (Rancher's operators: status False, reason Error, message the error):
			// Failed when the message says a person must fix the spec. Any other error is
			// retried: never Current, unless what the condition's type says decides.
			if v, ok := reasonError(f, m, t, gen, hasGen); ok && v.status == FailedStatus {
				rc.failure = v
				continue
			} else if ok && rc.notMet.status == "" {
				rc.notMet = v
			}
			if f.err != nil {
				return rc
			}
		}
		if t == "" || isInferOrReady(t) || t == "Stalled" || t == "Reconciling" {
			if t == "Succeeded" && m["status"] == "True" {
				rc.succeeded = true
			}
			continue // read by rules 3, 5 and judgeConditions
		}
		class := classifyCondition(t)
		if (class == condParticiple || class == condOther) && ownOutcome(t, f.kind) {
			// The outcome of the object itself (UpgradeCompleted on an ImageBasedUpgrade,
			// Kaito's WorkspaceSucceeded, Pulp's BackupComplete on a PulpBackup): read as
			// Completed or Succeeded is.
			class = condDone
		}
		if class == condOther && m["status"] == "True" && rc.busy.status == "" {
			if msg, _ := m["message"].(string); msg != "" && startsTransientSentence(msg) {
				// Unless its message says, in a clause of its own, that it waits
				// (Naiserator's SynchronizationState True: "Deployment has been
				// processed; waiting for completion..."): work under way.
				c := f.condFrom(m, t)
				if f.err != nil {
					return rc
				}
				rc.busyType, rc.busy = t, busyTrue(c, t)
				rc.busySince, _ = m["lastTransitionTime"].(string)
				continue
			}
		}
		if class == condOther && (m["status"] == "True" || !saysWhy(m)) {
			continue // a type inference does not read says something only when not True
		}
		c := f.condFrom(m, t)
		if f.err != nil {
			return rc
		}
		if c.status == "Unknown" && isNumber(c.message) {
			// A count carried in a condition (Cilium's IPsAvailable, Unknown, "253"): a
			// gauge, not a state.
			continue
		}
		if tr != nil {
			tr.note(condPath("", t), c.status+reasonSuffix(c))
		}
		if _, stale := staleCondition(f, c, t, gen, hasGen, tr); stale || f.err != nil {
			continue
		}
		if !c.isTrue() {
			if at := condTime(m); at != "" && (c.status == "False" || c.status == "Unknown" && waitsFor(c.reason)) &&
				(class == condPositive || class == condParticiple || class == condDone || class == condValidity) &&
				(rc.lostFalse == nil || before(condTime(rc.lostFalse), at)) &&
				!stopWord(c.reason) && !pauseWord(c.reason) {
				rc.lostFalse, rc.lostType = m, t
			}
			switch {
			case (class == condDone || class == condParticiple || class == condPositive) && c.status == "False" &&
				rc.failure.status == "" && failedReason(c.reason) && !messageWaits(c.message):
				// A state or an outcome not reached because it failed, as its reason says in
				// one word (lifecycle-agent's PrepCompleted False, reason Failed; KubeDB's
				// VerticalScaling False, Failed): the controller recorded a failure, not work
				// under way. Not a message that says the failure is retried.
				rc.failure = verdict{status: FailedStatus, reason: c.reason,
					message: t + " condition is False" + textSuffix(c), by: "infer:conditions"}
			case class == condDone && c.status == "False" && rc.failure.status == "":
				// A run's outcome not reached, with a reason that names an error a person
				// must fix (vm-operator's Complete False, Fatal: "publish attempts limit has
				// been reached"): the run failed. Any other reason is a run not done yet.
				if v := notTrue(c, t); v.status == FailedStatus {
					rc.failure = v
					rc.failure.by = "infer:conditions"
				} else if namesFailureWord(c.reason) && classifyReason(c.reason) != reasonTransient && !messageWaits(c.message) {
					// Or a reason that names the run's failure (Substratus' Model: Complete
					// False, JobFailed): the outcome is known, and it is a failure.
					rc.failure = verdict{status: FailedStatus, reason: c.reason,
						message: t + " condition is False" + textSuffix(c), by: "infer:conditions"}
				}
			case class == condBusy && c.status == "False" && rc.failure.status == "" &&
				reasonNamesFailure(c.reason) && classifyReason(c.reason) != reasonTransient && !messageWaits(c.message):
				// Work that was under way and is no longer, with a reason that names its
				// failure or an error a person must fix (NVIDIA's NicDevice:
				// FirmwareUpdateInProgress False, FirmwareUpdateFailed; ConfigUpdateInProgress
				// False, IncorrectSpec): the work ended, and how it ended is known, as for a
				// run's Complete False, JobFailed above.
				rc.failure = verdict{status: FailedStatus, reason: c.reason,
					message: t + " condition is False" + textSuffix(c), by: "infer:conditions"}
			case (class == condOther || class == condRunning || class == condStarted) && (c.status == "False" || c.status == "Unknown"):
				// A type inference does not read, or a run's (Running False), False or
				// Unknown with a reason that says why (Kyma's Running Unknown,
				// DeploymentWaiting): one that names an error a person must fix is Failed,
				// one that waits (WaitingForBuild) or names a failure being retried
				// (AttemptToRedeployFailed) is work not done, never Current.
				v := notTrue(c, t)
				switch {
				case v.status == FailedStatus:
					if rc.notMet.status != FailedStatus {
						rc.notMet = v
						rc.notMet.by = "infer:conditions"
					}
				case rc.notMet.status == "" && (waitsFor(c.reason) || namesFailureWord(c.reason) || saysNotFound(c.reason) || class == condStarted && messageWaits(c.message)):
					rc.notMet = v
					rc.notMet.by = "infer:conditions"
				}
			case class == condFailure && c.status == "Unknown" && c.message != "" && rc.failure.status == "" && namesErrorType(t):
				// An error reported with status Unknown (Aiven's Error condition): the
				// controller says what went wrong, not whether it will clear. Never Current;
				// Failed when the error is one retrying the same spec does not clear (an
				// API's client error, 4xx, or a reason or message terminal as in 6a), else
				// InProgress.
				rc.failure = reportedError(c, t, " condition is Unknown: ")
			case class == condFailure && c.status == "False" && rc.failure.status == "" &&
				(failureText(c.message) || (namesFailureWord(c.reason) || c.reason != "" && !succeededReason(c.reason)) && classifyMessage(c.message) == reasonTerminal):
				// A condition named for an error, False, whose message names one
				// (Bitwarden's FailedSync False, ReconciliationFailed: "Invalid ... cannot
				// both be enabled"), or whose reason names an error and message one a person
				// must fix (Databend's Tenant: Error False, TenantMetaError, "Invalid meta
				// configuration"): the controller records the error with the status the
				// other way round. Others write such a condition False with a message of
				// success ("Provision ... succeeded."), or none. Never Current; Failed when
				// the error is one retrying does not clear, as for Unknown above.
				rc.failure = reportedError(c, t, " condition is False, but reports an error: ")
			case class == condValidity && c.status == "False" && rc.notMet.status != FailedStatus:
				// The controller found the spec invalid: a person must change it, unless the
				// reason or message says the check waits on something.
				rc.notMet = verdict{status: FailedStatus, reason: c.reasonOr("Invalid"),
					message: t + " condition is False" + textSuffix(c), by: "infer:conditions"}
				if classifyReason(c.reason) == reasonTransient || startsTransient(c.message) {
					rc.notMet.status = InProgressStatus
				}
			case (class == condPositive || class == condValidity || class == condParticiple && c.status == "Unknown") && rc.notMet.status == "":
				rc.notMet = notTrue(c, t)
				rc.notMet.by = "infer:conditions"
			case class == condParticiple && c.status == "False" && rc.notMet.status != FailedStatus:
				// False of another participle (TeleportResourceOwned) is as often the other
				// of two states as a state not reached: only a reason or message that names
				// an error a person must fix makes it news. It is a state not reached yet
				// when its reason names the work under way (MilvusUpdated False,
				// MilvusComponentsUpdating; Intel's Updated False, InProgress), or a failure
				// (vm-import-operator's MappingRulesVerified False,
				// MappingRulesVerificationFailed: not the other of two states, a check that
				// failed), or something it needs missing (Rancher Octopus' DeviceLink:
				// AdaptorExisted False, NotFound), or when it is the object's only condition,
				// which then is the object's summary. Or when its reason says what it waits for
				// runs (Cybozu's nyamber: PodJobCompleted False, Running, while its bootstrap
				// jobs run), unless it names a stop (a server's Stopped False, Running, is the
				// other of two states).
				v := notTrue(c, t)
				v.by = "infer:conditions"
				if v.status == FailedStatus || rc.notMet.status == "" &&
					(len(conds) == 1 || reasonInProgress(c.reason) || changeUnderWay(c.reason) || waitsFor(c.reason) || namesFailureWord(c.reason) || saysNotFound(c.reason) ||
						phaseClassOf(c.reason) == phaseRunning && !stopWord(t)) {
					rc.notMet = v
				}
			}
			continue
		}
		switch class {
		case condFailure:
			if rc.failure.status != "" {
				continue
			}
			// A type that names a limit reached or a refusal (RetryLimitExceeded) is not
			// softened by a transient reason: it says the retrying is over.
			if classifyReason(t) != reasonTerminal && (classifyReason(c.reason) == reasonTransient || startsTransient(c.message) ||
				classifyReason(c.reason) == reasonUnclear && (saysInProgress(c.message) || t != "Failed" && t != "Failure" && serverError(c.message))) {
				// The last: a server's error (HTTP 5xx, "internal server error") on a
				// condition of a state (Perses' Degraded while its backend answers 500),
				// which the controller retries; not a run's Failed, which is its outcome.
				rc.failure = verdict{status: InProgressStatus, reason: c.reasonOr(t),
					message: c.text(t + " condition is True"), by: "infer:conditions"}
				continue
			}
			rc.failure = verdict{status: FailedStatus, reason: c.reasonOr(t),
				message: t + " condition is True" + textSuffix(c), by: "infer:conditions"}
			rc.errorTrue = namesErrorType(t) || classifyReason(t) == reasonTerminal
			if rc.errorTrue {
				rc.failureSince, _ = m["lastTransitionTime"].(string)
			}
		case condDone:
			if rc.done.status != "" {
				continue
			}
			if reasonNamesFailure(c.reason) {
				rc.failure = verdict{status: FailedStatus, reason: c.reason,
					message: t + " condition is True" + textSuffix(c), by: "infer:conditions"}
				continue
			}
			rc.done = verdict{status: CurrentStatus, message: t + " condition is True" + textSuffix(c), by: "infer:outcome"}
		case condBusy:
			// Kubernetes' own Progressing stays True once the work is done, saying so in
			// its reason (NewReplicaSetAvailable).
			if reasonSaysDone(c.reason) {
				continue
			}
			// The latest work begun, when several are True (laf's Instance keeps
			// DeploymentAndServiceCreating True from its start when DeploymentAndServiceStopping
			// turns True, after Ready): the one begun last is what goes on now.
			if ltt, _ := m["lastTransitionTime"].(string); rc.busy.status == "" || before(rc.busySince, ltt) {
				rc.busyType, rc.busy = t, busyTrue(c, t)
				rc.busySince = ltt
			}
			if rc.progressing.status == "" && (t == "Progressing" || hasWordSuffix(t, "InProgress")) {
				rc.progressing = verdict{status: InProgressStatus, reason: c.reasonOr(t),
					message: t + " condition is True" + textSuffix(c), by: "infer:run"}
			}
		case condRunning:
			rc.running, rc.runType = true, t
		case condStarted:
			if !rc.running {
				rc.runType = t
			}
			rc.started = true
		case condBefell:
			// Something that befell the object (RolloutBlocked, Throttled, Locked) says
			// what stops it, not whether it clears: Failed only when its reason names
			// what a person must fix (Quay's RolloutBlocked, ConfigInvalid).
			if rc.failure.status == "" && classifyReason(c.reason) == reasonTerminal {
				rc.failure = verdict{status: FailedStatus, reason: c.reason,
					message: t + " condition is True" + textSuffix(c), by: "infer:conditions"}
			} else if rc.befell.status == "" {
				// Any other reason leaves it to the rest of status; where nothing else
				// decides, it is still news (6h).
				rc.befell = verdict{status: InProgressStatus, reason: c.reasonOr(t),
					message: t + " condition is True" + textSuffix(c), by: "infer:conditions"}
			}
		case condPositive:
			// True says the state is reached, unless its reason says a change to it is
			// under way (Kyma's GatewayHealthy True, RolloutInProgress: healthy, and rolling
			// out the latest spec).
			if rc.busy.status == "" && reasonInProgress(c.reason) {
				rc.busyType, rc.busy = t, busyTrue(c, t)
			}
		case condParticiple, condValidity:
			// Handled above: only True reaches here, which says nothing to wait for.
		case condSuspended:
			if rc.suspended.status == "" {
				rc.suspended = verdict{status: FailedStatus, reason: "Suspended",
					message: t + " condition is True" + textSuffix(c), by: "infer:conditions"}
			}
		}
	}
	if rc.failure.status == FailedStatus && rc.busy.status != "" && namesRecovery(rc.busyType) {
		// A failure the controller is undoing (Pravega's Error True, UpgradeFailed, beside
		// RollbackInProgress True): the rollback or recovery under way is the news, and it
		// ends by itself.
		rc.failure = verdict{status: InProgressStatus, reason: rc.busy.reason,
			message: rc.busy.message + ", after " + rc.failure.message, by: rc.busy.by}
	}
	if rc.failure.status != "" {
		rc.done = verdict{} // a failure and an outcome together: the failure is the news
	}
	if rc.busy.status != "" && rc.busySince != "" && reachedSince(conds, rc.busySince, rc.busyType) {
		// The work's condition predates the state reached: left behind, not work now.
		rc.busy, rc.progressing = verdict{}, verdict{}
	}
	return rc
}

// reportedError is the verdict of an error that condition c, of type t, reports whatever its
// status (Aiven's Error Unknown, Bitwarden's FailedSync False): Failed when the error is one
// retrying the same spec does not clear (an API's client error, or a reason or message
// terminal as in 6a), else InProgress. Its message is t, how, and c's message.
func reportedError(c condition, t, how string) verdict {
	v := verdict{status: InProgressStatus, reason: c.reasonOr(t), message: t + how + c.message, by: "infer:conditions"}
	if clientError(c.message) || classifyReason(c.reason) == reasonTerminal ||
		classifyReason(c.reason) != reasonTransient && classifyMessage(c.message) == reasonTerminal {
		v.status = FailedStatus
	}
	return v
}

// namesRecovery reports a condition type of work under way that undoes or recovers from a
// failure: a rollback (RollbackInProgress, RollingBack), a recovery, a remediation, a
// retry, a revert or a restore.
func namesRecovery(t string) bool {
	it := wordIter{s: t}
	rolling := false
	for w, ok := it.next(); ok; w, ok = it.next() {
		switch string(w) {
		case "rollback", "recovering", "recovery", "remediating", "remediation", "retrying",
			"retry", "reverting", "restoring":
			return true
		case "back":
			if rolling {
				return true
			}
		}
		rolling = string(w) == "rolling"
	}
	return false
}

// failedReason reports a reason that is the word of a failure alone: Failed, Failure.
func failedReason(r string) bool {
	return r == "Failed" || r == "Failure"
}

// busyTrue is the verdict of a condition c, of type t, True and saying work is under way.
func busyTrue(c condition, t string) verdict {
	return verdict{status: InProgressStatus, reason: c.reasonOr(t),
		message: t + " condition is True" + textSuffix(c), by: "infer:run"}
}

// reachedSince reports a condition named for a state reached (Ready, Available, a type
// whose last word says so, or the end of the activity busyType names: endOf), True, whose
// lastTransitionTime is after since. Read only when
// a condition of work under way was found, which is rare.
func reachedSince(conds []any, since, busyType string) bool {
	for _, e := range conds {
		m, _ := e.(map[string]any)
		t, _ := m["type"].(string)
		if m["status"] != "True" || t == "" || t == "Stalled" || t == "Reconciling" {
			continue
		}
		if !isInferOrReady(t) && classifyCondition(t) != condPositive && !endOf(busyType, t) {
			continue
		}
		if r, _ := m["reason"].(string); reasonInProgress(r) {
			continue
		}
		if at, _ := m["lastTransitionTime"].(string); before(since, at) {
			return true
		}
	}
	return false
}

// endOf reports whether the condition type t names the end of the activity busyType names:
// the same name with the activity's -ing turned -ed (laf's DeploymentAndServiceStopping,
// then DeploymentAndServiceStopped; ClusterUpgrading and ClusterUpgraded).
func endOf(busyType, t string) bool {
	stem, ok := strings.CutSuffix(busyType, "ing")
	if !ok || len(stem) < 4 || !strings.HasPrefix(t, stem) {
		return false
	}
	rest := t[len(stem):]
	return rest == "ed" || rest == "d" || len(rest) == 3 && rest[1:] == "ed" && rest[0] == stem[len(stem)-1]
}

// reasonError judges a condition m of type t, False with reason Error, as wrangler's
// SetError writes an error on a condition of any type: Failed when its message says a
// person must fix something (an invalid value, a field not specified or not configured, an
// API's client error), InProgress for any other error, which the controller retries. ok is
// false when it has no message, or is stale.
func reasonError(f *fields, m map[string]any, t string, gen int64, hasGen bool) (v verdict, ok bool) {
	c := f.condFrom(m, t)
	if f.err != nil || c.message == "" {
		return verdict{}, false
	}
	if _, stale := staleCondition(f, c, t, gen, hasGen, nil); stale || f.err != nil {
		return verdict{}, false
	}
	v = verdict{status: InProgressStatus, reason: "Error", message: t + " condition reports an error: " + c.message, by: "infer:conditions"}
	if classifyMessage(c.message) == reasonTerminal || clientError(c.message) || namesMissingSetting(c.message) {
		v.status = FailedStatus
	}
	return v, true
}

// serverError reports a message that quotes a server's error, which a retry clears: HTTP
// 500, 502, 503 or 504 by name ("internal server error", "bad gateway", "service
// unavailable", "gateway timeout") or by code after "status code", "StatusCode:" or
// "Error " (googleapi's "Error 503:"); or the server's refusal for now of too many
// requests, HTTP 429 by code or by name ("too many requests", "rateLimitExceeded", "rate
// limit exceeded": gcp-project-operator's Error condition quoting Google's 429).
func serverError(msg string) bool {
	if msg == "" {
		return false
	}
	l := strings.ToLower(msg)
	for _, p := range [...]string{"internal server error", "bad gateway", "service unavailable", "gateway timeout",
		"too many requests", "ratelimitexceeded", "rate limit exceeded"} {
		if strings.Contains(l, p) {
			return true
		}
	}
	for _, p := range [...]string{"status code ", "status code: ", "statuscode: ", "statuscode ", "error "} {
		for rest := l; ; {
			i := strings.Index(rest, p)
			if i < 0 {
				break
			}
			rest = rest[i+len(p):]
			if len(rest) >= 3 && isDigit(rest[0]) && isDigit(rest[1]) && isDigit(rest[2]) && (len(rest) == 3 || !isDigit(rest[3])) &&
				(rest[0] == '5' || rest[:3] == "429") {
				return true
			}
		}
	}
	return false
}

// namesMissingSetting reports a message that says a setting is missing ("backup location
// not specified ... and not configured"): a person must provide it.
func namesMissingSetting(msg string) bool {
	return strings.Contains(msg, "not specified") || strings.Contains(msg, "not configured") || strings.Contains(msg, "not set")
}

// verdict is what the run conditions decide before the spec (6e) and the kind (6f) are
// read: a failure, then work under way, then Running, which is where a service is meant
// to be (Current) but not a run.
func (rc *runConditions) verdict(rf *runFacts) verdict {
	switch {
	case rc.failure.status != "":
		return rc.failure
	case rc.notMet.status == FailedStatus:
		return rc.notMet
	case rc.busy.status != "":
		return rc.busy
	case rc.notMet.status != "":
		return rc.notMet
	case rc.running:
		return rf.running("conditions["+rc.runType+"]", "True", "infer:run")
	}
	return verdict{}
}

// textSuffix is ": " and the condition's message, or its reason, when it has either.
func textSuffix(c condition) string {
	switch {
	case c.message != "":
		return ": " + c.message
	case c.reason != "":
		return ": " + c.reason
	}
	return ""
}

// reasonNamesFailure reports a reason that names a failure (namesFailureWord: JobFailed) or
// an error a person must fix (a terminal reason: InvalidConfiguration).
func reasonNamesFailure(r string) bool {
	return r != "" && (namesFailureWord(r) || classifyReason(r) == reasonTerminal)
}

// namesFailureWord reports whether a reason is a compound naming a failure ("JobFailed",
// "BackoffLimitExceeded" is terminal by classifyReason).
func namesFailureWord(reason string) bool {
	var buf [40]byte
	w, ok := normalize(reason, buf[:])
	return ok && w != "" && namesFailure(w)
}

// runFacts is what 6e and 6f read of an object beyond its conditions and states.
type runFacts struct {
	m, status  map[string]any
	conds      []any
	apiVersion string
	kind       string
	kinds      func(apiVersion, kind string) *KindInfo // Options.Kinds: a copy, so that the Options do not escape
	tr         *trace
	why        string // finishes, once computed
	whyKnown   bool
	info       *KindInfo // kindInfo, once asked
	infoAsked  bool
	// phasesFinish and phasesKnown are info.finishes(), once computed: it reads every
	// phase the definition lists, and more than one step asks.
	phasesFinish, phasesKnown, phasesAsked bool
}

// newRunFacts is the runFacts of the object m of f's kind, with the kinds opts knows.
func newRunFacts(f *fields, apiVersion string, m, status map[string]any, conds []any, opts *Options, tr *trace) runFacts {
	rf := runFacts{m: m, status: status, conds: conds, apiVersion: apiVersion, kind: f.kind, tr: tr}
	if opts != nil {
		rf.kinds = opts.Kinds
	}
	return rf
}

// running judges a running state (a phase Running, a Running condition True) by whether
// the kind finishes: for a run it is not done (InProgress); for a service it is where it
// is meant to be (Current). path is the field, as "phase" or "conditions[Running]".
func (rf *runFacts) running(path, value, by string) verdict {
	info := rf.kindInfo()
	finishes, known := rf.phasesEnd()
	if rf.tr != nil {
		if known {
			rf.tr.note("(definition) status.phase values", strings.Join(info.PhaseValues, ", "))
		}
	}
	// Each message is built in one concatenation, or not at all for phase Running: this
	// is a common answer.
	switch {
	case finishes:
		return verdict{status: InProgressStatus, reason: "Running",
			message: runningMessage(path, value, runFinishes), by: by}
	case known && !info.Finishes:
		return verdict{status: CurrentStatus,
			message: runningMessage(path, value, runServes), by: by}
	}
	if why := rf.finishes(); why != "" {
		return verdict{status: InProgressStatus, reason: "Running",
			message: path + " is " + value + " (the kind finishes: " + why + ")", by: by}
	}
	if namesBuild(path) {
		return verdict{status: InProgressStatus, reason: "Running",
			message: path + " is " + value + " (a build under way)", by: by}
	}
	if at, d := rf.durationAsked(); d != "" {
		// Running for as long as the spec says (spec.duration "10m", a Go duration): a
		// chaos experiment (Chaos Mesh's PodChaos), an analysis (Argo's Experiment), a
		// load test (ChaosMeta's LoadTest) ends when it is up.
		return verdict{status: InProgressStatus, reason: "Running",
			message: path + " is " + value + " (" + at + " asks for a run of " + d + ")", by: by}
	}
	if msg := rf.runningConditionMessage(); path == "conditions[Running]" && saysReconciling(msg) {
		// A Running condition that says what runs is a reconcile (the Ansible operator
		// SDK's Running True, "Running reconciliation", while the playbook runs; reason
		// Successful and "Awaiting next reconciliation" once it has run): the controller's
		// work on the object is under way.
		return verdict{status: InProgressStatus, reason: "Reconciling",
			message: path + " is " + value + ": " + msg, by: by}
	}
	if rf.startedTrue() {
		// A Started condition True beside a running state and no Ready: a run begun and
		// not ended (Porter's Installation as its agent Job runs). Beside a Ready True
		// (DevWorkspace's Started and Ready), rule 5 decides and this is not read.
		return verdict{status: InProgressStatus, reason: "Running",
			message: runningMessage(path, value, runStarted), by: by}
	}
	return verdict{status: CurrentStatus, message: runningMessage(path, value, runUnknown), by: by}
}

// The endings of running's messages, and those messages for status.phase Running, built
// once.
const (
	runFinishes = iota
	runServes
	runStarted
	runUnknown
)

var (
	runningEndings = [...]string{
		runFinishes: " (the kind's phases include a terminal success)",
		runServes:   " (the kind's phases have no terminal success)",
		runStarted:  " (a run started and not ended: Started condition is True)",
		runUnknown:  " (taken as running until stopped: the kind's phases are not known)",
	}
	phaseRunningMessages = func() (ms [len(runningEndings)]string) {
		for i, e := range runningEndings {
			ms[i] = "phase is Running" + e
		}
		return ms
	}()
)

// runningMessage returns path + " is " + value and the ending numbered end.
func runningMessage(path, value string, end int) string {
	if path == "phase" && value == "Running" {
		return phaseRunningMessages[end]
	}
	return path + " is " + value + runningEndings[end]
}

// runningConditionMessage is the message of the Running condition, or "".
func (rf *runFacts) runningConditionMessage() string {
	for _, e := range rf.conds {
		if c, _ := e.(map[string]any); c["type"] == "Running" {
			msg, _ := c["message"].(string)
			return msg
		}
	}
	return ""
}

// saysReconciling reports a message that says a reconciliation is running now ("Running
// reconciliation", "reconciling"), not one that waits for the next ("Awaiting next
// reconciliation").
func saysReconciling(msg string) bool {
	running, reconcile, waits := false, false, false
	it := wordIter{s: msg}
	for w, ok := it.next(); ok; w, ok = it.next() {
		switch string(w) {
		case "running":
			running = true
		case "reconciliation":
			reconcile = true
		case "reconciling":
			running, reconcile = true, true
		case "awaiting", "waiting", "next":
			waits = true
		}
	}
	return running && reconcile && !waits
}

// startedTrue reports a condition Started that is True.
func (rf *runFacts) startedTrue() bool {
	for _, e := range rf.conds {
		if c, _ := e.(map[string]any); c["type"] == "Started" && c["status"] == "True" {
			return true
		}
	}
	return false
}

// namesBuild reports a state field named for a build (Fission's Package buildstatus,
// buildState, buildPhase): a build always ends, so one running is under way whatever the
// kind is. Other operations a field may name (a job, a sync, a task) can run until stopped.
func namesBuild(path string) bool {
	name := path[strings.LastIndexByte(path, '.')+1:]
	if len(name) <= len("build") || !strings.EqualFold(name[:len("build")], "build") {
		return false
	}
	switch strings.ToLower(name[len("build"):]) {
	case "status", "state", "phase":
		return true
	}
	return false
}

// completionFields are status fields that record when a run ended: a kind that has one
// finishes (Jobs' completionTime, and the names batch and ML operators use for it).
var completionFields = [...]string{"completionTime", "completedAt", "completionTimestamp",
	"finishedAt", "finishTime", "finishedTime", "endTime", "endedAt", "terminationTime",
	"timeCompleted", "timeFinished", "timeEnded"}

// startFields are the status fields that record when a run started (Antrea's Traceflow,
// Shipwright's BuildRun, k8up's Backup: startTime). Of 33 kinds in the fixtures that
// write one, 32 are runs; the other starts and stops as its spec asks (startAsked).
var startFields = [...]string{"startTime", "startedAt", "startTimestamp", "startedTime", "timeStarted"}

// startAsked reports a spec that starts and stops the object by a boolean (DevWorkspace's
// spec.started, spec.running, spec.stopped, spec.active): a service that records when
// it was started, not a run.
func startAsked(spec map[string]any) bool {
	for _, k := range [...]string{"started", "running", "stopped", "active"} {
		if _, ok := spec[k].(bool); ok {
			return true
		}
	}
	return false
}

// servesNamed reports a kind named for something that serves until removed, whose start
// recorded is not a run's: its last word, or the kind alone, is Service, Server, Cluster,
// Deployment, Instance, Gateway or Database (Sedna's JointInferenceService, which records
// its startTime).
func servesNamed(kind string) bool {
	noun := kindNoun(kind)
	if noun == "" {
		noun = kind
	}
	switch noun {
	case "Service", "Server", "Cluster", "Deployment", "Instance", "Gateway", "Database":
		return true
	}
	return false
}

// completionFlags are status booleans that say whether a run has ended (Kubestone's
// benchmarks: running true, completed false): a kind that has one finishes, and true is a
// run that ended.
var completionFlags = [...]string{"completed", "complete", "finished", "done"}

// outcomeFlags are status booleans that say how a run ended (etcd-operator's EtcdBackup
// and EtcdRestore: succeeded true, or false beside the Reason it failed for): a kind that
// has one finishes.
var outcomeFlags = [...]string{"succeeded", "success", "successful"}

// outcomeFlag returns the status boolean of outcomeFlags the object has, and its value; ""
// when it has none.
func outcomeFlag(status map[string]any) (key string, value bool) {
	for _, k := range outcomeFlags {
		if b, ok := status[k].(bool); ok {
			return k, b
		}
	}
	return "", false
}

// failureTextOf returns the first text status gives for a failure: status.reason (or
// Reason, as etcd-operator's Go field without a JSON name writes it), message, error or
// errorMessage, and its key; "" when there is none.
func failureTextOf(status map[string]any) (key, text string) {
	for _, k := range [...]string{"reason", "Reason", "message", "error", "errorMessage"} {
		if s, ok := status[k].(string); ok && s != "" {
			return k, s
		}
	}
	return "", ""
}

// completedFlag returns the status boolean that says the run has ended (completed,
// complete, finished or done true, or a stage's: runnerCompleted), or "": every such flag
// the object has must be true (a stage not ended, reportCompleted false beside
// runnerCompleted true, is a run not ended), and the first by name is returned. A stage the
// run has not reached has no flag yet, and one a spec leaves out (a report not asked for)
// never will, so the flags a definition declares are not waited for one by one.
func completedFlag(status map[string]any) string {
	first := ""
	for k, v := range status {
		b, ok := v.(bool)
		if !ok || !completionFlag(k) {
			continue
		}
		if !b {
			return ""
		}
		if first == "" || k < first {
			first = k
		}
	}
	return first
}

// completionFlag reports a status boolean named for a run or a stage of it ended: completed,
// complete, finished or done, or a name ending in one of them as a word (runnerCompleted,
// reportCompleted), not a last or previous one, nor a stage of setting up (setupStage).
func completionFlag(k string) bool {
	if indexOf(completionFlags[:], k) >= 0 {
		return true
	}
	if notNow(k) {
		return false
	}
	for _, w := range [...]string{"Completed", "Complete", "Finished", "Done"} {
		if len(k) > len(w) && strings.HasSuffix(k, w) {
			return !setupStage(k[:len(k)-len(w)])
		}
	}
	return false
}

// setupStage reports a stem that names setting the object up (bootstrap, init, setup,
// install, provisioning) or housekeeping (…GC, …Cleanup, …Prune): a stage done once
// beside what a service does, so its end (howl-cloud's RedisCluster,
// status.bootstrapCompleted) is no run's end.
func setupStage(stem string) bool {
	switch strings.ToLower(stem) {
	case "bootstrap", "bootstrapping", "init", "initial", "initialization", "initialisation",
		"setup", "install", "installation", "provision", "provisioning":
		return true
	}
	// Or housekeeping, by its last word (a Cloudflare operator's legacyCompanionGCDone: the
	// garbage collection of records an older version left): done once, no run's end.
	it := wordIter{s: stem}
	switch string(it.last()) {
	case "gc", "cleanup", "prune", "pruning":
		return true
	}
	return false
}

// runSpecFields are spec fields only a run has: a Job's limits, the run policy of
// Kubeflow-style jobs, and a field that asks for the run to be cancelled (korifi's CFTask
// and MTC's MigMigration spec.canceled, Forklift's Migration spec.cancel, Velero's
// DataUpload and DataDownload spec.cancel): only something that runs to an end can be
// cancelled.
var runSpecFields = [...]string{"backoffLimit", "ttlSecondsAfterFinished", "activeDeadlineSeconds", "runPolicy",
	"cancel", "canceled", "cancelled"}

// podField reports a run's field that is also a Pod's (activeDeadlineSeconds) in a spec
// that has replicas: a service that copies Pod fields into its spec (Oracle's Coherence:
// spec.activeDeadlineSeconds beside spec.replicas), not a run. specOrProps is the spec, or
// the properties of its schema.
func podField(k string, specOrProps map[string]any) bool {
	if k != "activeDeadlineSeconds" {
		return false
	}
	_, replicas := specOrProps["replicas"]
	return replicas
}

// finishes says why the object's kind is one whose runs end, or "" when nothing says so:
// its definition (KindInfo.Finishes, or a phase enum with a terminal success), a
// completion time or a run's spec fields in the object, an outcome condition type present
// whatever its status (one of its own: ownOutcome), or a kind named for a run (…Job, …Run).
func (rf *runFacts) finishes() string {
	if !rf.whyKnown {
		rf.why, rf.whyKnown = rf.finishesWhy(), true
		if rf.tr != nil && rf.why != "" {
			rf.tr.note("(kind) finishes", rf.why)
		}
	}
	return rf.why
}

func (rf *runFacts) finishesWhy() string {
	why := rf.finishesBy()
	if why == "" {
		return ""
	}
	spec, _ := rf.m["spec"].(map[string]any)
	if cronAsked(spec, 0) {
		// The object asks for runs on a schedule: it is a schedule, as a CronJob is,
		// whatever its kind's other objects are (JuiceFS' WarmUp, once or on a cron).
		return ""
	}
	if k, _ := specStateField(rf.m, func(w, s string) bool { return phaseClassOf(w) == phaseRunning || pauseWord(s) }); k != "" {
		// The spec asks by name for the state the run is to be in (FoundationDB's
		// continuous backup: spec.backupState Running, Paused or Stopped): the object
		// runs until its spec asks otherwise, whatever its kind's name says.
		return ""
	}
	for _, e := range rf.conds {
		// A controller that reports each reconcile's outcome (kapp-controller's
		// ReconcileSucceeded) reconciles the object for as long as it exists: its spec's
		// cancel field cancels reconciling, not a run.
		c, _ := e.(map[string]any)
		if t, _ := c["type"].(string); len(t) > len("Reconcile") && strings.HasPrefix(t, "Reconcile") && classifyCondition(t) == condPositive {
			return ""
		}
	}
	return why
}

// durationAsked returns spec.duration when it is a Go duration ("30s", "10m") of a kind
// whose duration is how long it runs, not how long what it issues stays valid
// (validityNoun); "" otherwise.
func (rf *runFacts) durationAsked() (path, d string) {
	if validityNoun(kindNoun(rf.kind)) {
		return "", ""
	}
	spec, _ := rf.m["spec"].(map[string]any)
	if d, _ := spec["duration"].(string); d != "" {
		if _, err := time.ParseDuration(d); err == nil {
			return "spec.duration", d
		}
		return "", ""
	}
	// One object down, in the object that says what the run does (ChaosMeta's
	// Experiment: spec.experiment.duration "10m"), not in one that issues something
	// valid for a time (spec.certificate.duration): the first by name.
	for k, v := range spec {
		obj, _ := v.(map[string]any)
		x, _ := obj["duration"].(string)
		if x == "" || validityNoun(strings.ToUpper(k[:1])+k[1:]) || path != "" && "spec."+k+".duration" > path {
			continue
		}
		if _, err := time.ParseDuration(x); err == nil {
			path, d = "spec."+k+".duration", x
		}
	}
	return path, d
}

// validityNoun reports a kind noun (kindNoun) of an object whose spec.duration is how long
// what it issues stays valid, not how long it runs: a certificate, a token, a lease.
func validityNoun(noun string) bool {
	switch noun {
	case "Certificate", "Cert", "Token", "Lease", "Credential", "Credentials", "Secret", "Key", "Issuer", "Grant":
		return true
	}
	return false
}

// finishesBy is why the kind or the object is one that finishes, before the object's own
// exceptions (finishesWhy); "" if nothing says so.
func (rf *runFacts) finishesBy() string {
	spec, _ := rf.m["spec"].(map[string]any)
	info := rf.kindInfo()
	if info != nil && info.Finishes {
		return info.FinishesBy
	}
	if f, _ := rf.phasesEnd(); f {
		return "its phases include a terminal success"
	}
	for _, k := range completionFields {
		if _, ok := rf.status[k]; ok {
			return "status has " + k
		}
	}
	for _, k := range startFields {
		if _, ok := rf.status[k].(string); ok && !startAsked(spec) && !servesNamed(rf.kind) {
			return "status has " + k
		}
	}
	flag := ""
	for k, v := range rf.status {
		if _, ok := v.(bool); ok && completionFlag(k) && (flag == "" || k < flag) {
			flag = k
		}
	}
	if flag != "" {
		return "status has " + flag
	}
	if k, _ := outcomeFlag(rf.status); k != "" {
		return "status has " + k
	}
	for _, k := range runSpecFields {
		if _, ok := spec[k]; ok && !podField(k, spec) {
			return "spec has " + k
		}
	}
	for _, e := range rf.conds {
		c, _ := e.(map[string]any)
		t, _ := c["type"].(string)
		if classifyCondition(t) == condDone || t == "Failed" && c["status"] != "False" || ownOutcome(t, rf.kind) {
			return "it has a " + t + " condition"
		}
	}
	if runKindName(rf.kind, spec) {
		return "a kind named for a run (" + rf.kind + ")"
	}
	if definitionNoun(rf.kind) && !schedulesRuns(rf.kind, spec) {
		// Build, Task or Test names a run's definition as often as a run; but a
		// definition publishes no run begun, so one whose own conditions say a run began
		// or was set up (eirini's Task: Initialized, then Started, True) is the run.
		begun := "" // the last such condition True: the furthest step
		for _, e := range rf.conds {
			c, _ := e.(map[string]any)
			t, _ := c["type"].(string)
			if c["status"] == "True" && (classifyCondition(t) == condStarted || classifyCondition(t) == condRunning || t == "Initialized") {
				begun = t
			}
		}
		if begun != "" {
			return "a kind named for a run (" + rf.kind + ") whose " + begun + " is True"
		}
		// Or whose phase or state is a run going on (datarestor's Task, state Running;
		// Lagoon's LagoonTask, phase Running).
		for _, k := range [...]string{"phase", "state"} {
			if v, _ := rf.status[k].(string); v != "" && phaseClassOf(v) == phaseRunning {
				return "a kind named for a run (" + rf.kind + ") whose " + k + " is " + v
			}
		}
	}
	return ""
}

// definitionNoun reports a kind whose last word is Build, Task or Test: a run's definition
// as often as a run (Tekton's Task, a template of TaskRuns).
func definitionNoun(kind string) bool {
	return strings.HasSuffix(kind, "Build") || strings.HasSuffix(kind, "Task") || strings.HasSuffix(kind, "Test")
}

// ownOutcome reports a condition type that names the outcome of the object itself: the
// kind, or its last word, followed by Succeeded, Completed, Complete or Finished (Kaito's
// WorkspaceSucceeded on a Workspace). Such a condition, whatever its status, says the
// object is a run that ends. Not an outcome of something else (BackupCompleted on a
// database cluster), which says only that the thing it names ends.
func ownOutcome(t, kind string) bool {
	for _, own := range [2]string{kind, kindNoun(kind)} {
		if own == "" || len(t) <= len(own) || !strings.HasPrefix(t, own) {
			continue
		}
		switch t[len(own):] {
		case "Succeeded", "Completed", "Complete", "Finished":
			return true
		}
	}
	return false
}

// outcomeReason returns the first condition True whose reason names the object's own
// outcome, as ownOutcome reads a type (Cybozu's fin: StoredToNode True, BackupCompleted,
// on a FinBackup), or nil.
func outcomeReason(conds []any, kind string) map[string]any {
	for _, e := range conds {
		c, _ := e.(map[string]any)
		if r, _ := c["reason"].(string); c["status"] == "True" && ownOutcome(r, kind) {
			return c
		}
	}
	return nil
}

// runNouns are the last words of kinds named for a run: a job, a run, an execution, a
// backup, a restore, a batch or a training each ends (…Job, TaskRun, TestExecution,
// SGBackup, VeleroRestore, Infinispan's Batch of commands, odahu-flow's ModelTraining).
var runNouns = [...]string{"Job", "Run", "Execution", "Backup", "Restore", "Batch", "Snapshot", "Dump", "Training"}

// operationNouns are the last words of kinds named for an operation that finishes: a
// migration moves something once and is over (Forklift's and vJailbreak's Migration, MTC's
// MigMigration, HwameiStor's LocalVolumeMigrate), and so does an operation on something
// (OceanBase's OBTenantOperation, Crossplane's Operation). A kind that is this word alone
// is one too. Not the words of what is moved or how (MigrationPolicy, MigrationPlan end in
// another word), nor Build, Task or Test, which name definitions of runs as often as runs.
var operationNouns = [...]string{"Migration", "Migrate", "Operation"}

// runKindName reports whether kind is named for a run (runNouns) or an operation that
// finishes (operationNouns), and is not a schedule of runs: no word Cron or Schedule
// (CronJob, ScheduledBackup, BackupSchedule) and no spec.schedule.
func runKindName(kind string, spec map[string]any) bool {
	endsIn := func(noun string) bool { return strings.HasSuffix(kind, noun) }
	named := slices.ContainsFunc(runNouns[:], endsIn) || slices.ContainsFunc(operationNouns[:], endsIn)
	return named && !schedulesRuns(kind, spec)
}

// asksRunSettings reports a spec that sets what only a run has (runSpecFields: a backoff
// limit, a time to live after it finishes, a deadline; not a Pod's field in a spec with
// replicas), of a kind that does not schedule runs.
func asksRunSettings(kind string, spec map[string]any) bool {
	for _, k := range runSpecFields {
		if _, ok := spec[k]; ok && !podField(k, spec) {
			return !schedulesRuns(kind, spec)
		}
	}
	return false
}

// schedulesRuns reports a kind that schedules runs: the word Cron or Schedule in its name
// (CronJob, ScheduledBackup, BackupSchedule), or a schedule in spec.
func schedulesRuns(kind string, spec map[string]any) bool {
	if strings.Contains(kind, "Cron") || strings.Contains(kind, "Schedule") {
		return true
	}
	_, scheduled := spec["schedule"]
	return scheduled
}

// suspensionAsked returns the spec field that asks for the object to be suspended or
// paused (spec.suspend, spec.suspended, spec.paused or spec.pause true, or
// spec.runPolicy.suspend true, as Kubeflow-style jobs have it), or put to sleep
// (spec.sleep true: Uffizzi's preview clusters; spec.hibernate), or "".
func suspensionAsked(m map[string]any) string {
	spec, _ := m["spec"].(map[string]any)
	if p := askedIn(m, spec, "suspend", "pause", "sleep", "hibernate"); p != "" {
		return p
	}
	// Or a spec field that names the state or the mode to run in, asking for a
	// suspension by name (Kubernetes SIGs' agent-sandbox: spec.operatingMode Suspended).
	for _, k := range [...]string{"state", "mode", "operatingMode", "runMode", "desiredState"} {
		s, _ := spec[k].(string)
		switch strings.ToLower(s) {
		case "suspended", "suspend", "paused", "pause", "hibernated", "hibernate", "sleeping", "sleep":
			return "spec." + k
		}
	}
	// Or the object turned off as a whole (Demeter's Backend and Workspace: spec.enabled
	// false, runningStatus paused): its controller scales it to nothing until it is
	// enabled again.
	if b, ok := spec["enabled"].(bool); ok && !b {
		return "spec.enabled"
	}
	return ""
}

// pauseAsked is suspensionAsked for pauses alone (spec.paused, spec.pause): a paused
// object's controller stops acting on it, where a suspended run is one its controller
// stops (and reports stopped).
func pauseAsked(m map[string]any) string {
	spec, _ := m["spec"].(map[string]any)
	if p := askedIn(m, spec, "pause"); p != "" {
		return p
	}
	// OpenShift's operator convention (openshift/api OperatorSpec, copied by its operators'
	// CRs: ClusterLogForwarder, Console, IngressController...): managementState Unmanaged
	// asks the operator to stand aside and leave the object as it is.
	if s, _ := spec["managementState"].(string); strings.EqualFold(s, "Unmanaged") {
		return "spec.managementState"
	}
	return ""
}

// pauseReported reports a pause the spec asks for (pauseAsked) that status repeats: the
// same field at the same place in status with the same value (spec.managementState
// Unmanaged and status.managementState Unmanaged; spec.paused and status.paused true). The
// controller wrote, after the spec asked, that it stands aside. Or a condition written for
// generation gen, the latest, whose reason says paused (ia-eknorr's stoker-operator: Ready
// False, Paused, "Reconciliation paused", for the generation that set spec.paused, where
// status.observedGeneration stays at the one before): the controller saw the spec that asks,
// and reports the pause reached.
func pauseReported(m, status map[string]any, conds []any, gen int64, tr *trace) (verdict, bool) {
	p := pauseAsked(m)
	path, ok := strings.CutPrefix(p, "spec.")
	if !ok {
		return verdict{}, false
	}
	for _, e := range conds {
		c, _ := e.(map[string]any)
		r, _ := c["reason"].(string)
		// (Not a reason that denies it, NotPaused.)
		if og, ok := toInt(c["observedGeneration"]); ok && og == gen && pauseWord(r) && !(len(r) >= 3 && strings.EqualFold(r[:3], "not")) {
			t, _ := c["type"].(string)
			if tr != nil {
				tr.note(condPath("", t), c["status"])
			}
			return verdict{status: CurrentStatus, reason: r, message: p + " is " + valueText(specAt(m, p)) +
				", and conditions[" + t + "] reports " + r + " for generation " + strconv.FormatInt(gen, 10) + ": the controller stands aside as asked", by: "infer:suspended"}, true
		}
	}
	spec, _ := m["spec"].(map[string]any)
	asked, held := spec, status
	keys := strings.Split(path, ".")
	for _, k := range keys[:len(keys)-1] {
		asked, _ = asked[k].(map[string]any)
		held, _ = held[k].(map[string]any)
	}
	last := keys[len(keys)-1]
	want, got := asked[last], held[last]
	same := false
	switch w := want.(type) {
	case string:
		g, _ := got.(string)
		same = g != "" && strings.EqualFold(g, w)
	case bool:
		g, isBool := got.(bool)
		same = isBool && g == w
	}
	if !same {
		return verdict{}, false
	}
	if tr != nil {
		tr.note("status."+path, got)
	}
	return verdict{status: CurrentStatus, message: p + " is " + valueText(want) + ", and status." + path + " reports it: the controller stands aside as asked", by: "infer:suspended"}, true
}

// valueText is a string or a boolean as a message shows it.
func valueText(v any) string {
	if b, ok := v.(bool); ok {
		return strconv.FormatBool(b)
	}
	s, _ := v.(string)
	return s
}

// askedIn returns the field of spec (m's), among those whose name starts with one of
// prefixes (spec.suspend, spec.paused, spec.suspendAction), or with one after "is"
// (spec.isPaused), that is true or an object with
// a field true (TiDB's suspendAction.suspendStatefulSet), or spec.runPolicy.suspend true;
// "" when none is. Fields are tried in name order, so the answer is stable.
func askedIn(m, spec map[string]any, prefixes ...string) string {
	found, down := "", ""
	for k, v := range spec {
		if obj, ok := v.(map[string]any); ok {
			// One object down, in the same walk: see askedDown.
			if at := askedDown(k, obj, prefixes); at != "" && (down == "" || at < down) {
				down = at
			}
		}
		if found != "" && k > found {
			continue
		}
		match := false
		name := k
		if len(name) > 3 && name[0] == 'i' && name[1] == 's' && name[2] >= 'A' && name[2] <= 'Z' {
			// A boolean named as a question (Glooscap's spec.isPaused) asks the same.
			name = name[2:]
		}
		for _, p := range prefixes {
			// The first letter first: most of a spec's fields start with neither s nor p.
			match = match || len(name) >= len(p) && name[0]|('a'-'A') == p[0] && strings.EqualFold(name[:len(p)], p)
		}
		if match && isTrueish(v) {
			found = k
		}
	}
	if found != "" {
		return "spec." + found
	}
	if prefixes[0] == "suspend" { // (a pause is not asked in runPolicy)
		if rp, _ := spec["runPolicy"].(map[string]any); rp != nil {
			if b, _ := rp["suspend"].(bool); b {
				return "spec.runPolicy.suspend"
			}
		}
	}
	if down != "" {
		return down
	}
	return pauseAnnotation(m)
}

// askedDown returns, as spec.<k>.<field>, a boolean true in obj (spec.<k>) named for what
// prefixes ask, by its start or as its last word (Stackable's
// clusterOperation.reconciliationPaused); "" if none is. Fields in name order, so the
// answer is stable.
func askedDown(k string, obj map[string]any, prefixes []string) string {
	found := ""
	for k2, v2 := range obj {
		if o2, ok := v2.(map[string]any); ok && len(o2) <= 4 && !strings.Contains(k, ".") {
			// And one object further, in a small object (Stackable's Superset:
			// spec.clusterConfig.clusterOperation.reconciliationPaused).
			if at := askedDown(k+"."+k2, o2, prefixes); at != "" && (found == "" || at < "spec."+k+"."+found) {
				found = strings.TrimPrefix(at, "spec."+k+".")
			}
			continue
		}
		if b, _ := v2.(bool); !b || found != "" && k2 > found {
			continue
		}
		for _, p := range prefixes {
			// pause → reconciliationPaused; suspend → syncSuspended, or suspend itself
			// (VMware CNSI's InspectionPolicy: spec.strategy.suspend).
			if len(k2) >= len(p) && (strings.EqualFold(k2[:len(p)], p) || containsWord(k2, p)) {
				found = k2
			}
		}
	}
	if found == "" {
		return ""
	}
	return "spec." + k + "." + found
}

// containsWord reports whether name has word (in lower case) as a word of its own after its
// first letter, capitalised as camelCase writes it (reconciliationPaused has "paused").
func containsWord(name, word string) bool {
	first := word[0] - ('a' - 'A')
	for i := 1; i+len(word) <= len(name); i++ {
		if name[i] == first && name[i+1:i+len(word)] == word[1:] {
			return true
		}
	}
	return false
}

// pauseAnnotation returns the annotation, or else the label, that asks for the object to be
// paused, as metadata.annotations[key] or metadata.labels[key], or "": one "true" whose
// name (the part after the prefix's "/") starts with pause (Chaos Mesh's
// experiment.chaos-mesh.org/pause, Strimzi's strimzi.io/pause-reconciliation, Crossplane's
// crossplane.io/paused, Cluster API's cluster.x-k8s.io/paused, the label
// solace.com/pauseReconcile). Operators that pause so ask for it there as others do in
// spec.paused.
func pauseAnnotation(m map[string]any) string {
	md, _ := m["metadata"].(map[string]any)
	for _, field := range [...]string{"annotations", "labels"} {
		// A label too (Solace's solace.com/pauseReconcile): some operators select what
		// to skip by label.
		kv, _ := md[field].(map[string]any)
		found := ""
		for k, v := range kv {
			name := k[strings.LastIndexByte(k, '/')+1:]
			if len(name) < len("pause") || !strings.EqualFold(name[:len("pause")], "pause") {
				continue
			}
			if s, _ := v.(string); strings.EqualFold(s, "true") && (found == "" || k < found) {
				found = k
			}
		}
		if found != "" {
			return "metadata." + field + "[" + found + "]"
		}
	}
	return ""
}

// isTrueish reports a true bool, or an object one of whose fields is true.
func isTrueish(v any) bool {
	switch v := v.(type) {
	case bool:
		return v
	case []any:
		// Requests for it, by whoever asks (NodeHealthCheck's spec.pauseRequests): any one
		// asks for it.
		return len(v) > 0
	case map[string]any:
		for _, x := range v {
			if b, _ := x.(bool); b {
				return true
			}
		}
	}
	return false
}

// stateScan is what the phase and state fields of status say (rule 6c).
type stateScan struct {
	v            verdict   // the worst of them
	class        phaseKind // the class of the value that gave v
	unknown      string    // a value no vocabulary knows, as `path "value"`, for the message
	unknownValue string
	path         string // the field of v, for 6e and 6f
	value        string
	parts        partShort // the counts of the parts it runs, read in the same walk
	// activeAt and activeValue are a state of work going on (Running, or in progress) found
	// beside the worst state: a suspension asked and reached in one part while another still
	// runs is a suspension under way (6e).
	activeAt    stateField
	activeValue string
	// fromEntry reports that v is read from an entry of a list of status (a part's state
	// among the parts listed so far), not of the object itself.
	fromEntry bool
}

// activeText is the state of work going on beside the worst, as `path is value`; "" if none.
func (sc *stateScan) activeText() string {
	if sc.activeValue == "" {
		return ""
	}
	return sc.activeAt.path() + " is " + sc.activeValue
}

// notNow reports a field named for a state wanted, or one that was (desiredState,
// lastRunStatus, latestMoverStatus): not the state now.
func notNow(name string) bool {
	if name == "" {
		return false
	}
	// The first letter picks the candidates: this runs on every field of status inference
	// walks, most of which start with none of them.
	var cands [2]string
	switch name[0] | ('a' - 'A') {
	case 'd':
		cands[0] = "desired"
	case 't':
		cands[0] = "target"
	case 'r':
		cands[0] = "requested"
	case 'e':
		cands[0] = "expected"
	case 'p':
		cands[0] = "previous"
	case 'l':
		cands[0], cands[1] = "latest", "last"
	case 'o':
		cands[0] = "old"
	default:
		return false
	}
	for _, p := range cands {
		if p != "" && len(name) > len(p) && strings.EqualFold(name[:len(p)], p) {
			return true
		}
	}
	return false
}

// namesOperation reports a state field's path (as stateField.path gives it) one of whose
// objects above the field is named for an operation or a task (operationContext,
// currentOperation, tasks[2]): a state there is that of work that ends.
func namesOperation(path string) bool {
	dot := strings.LastIndexByte(path, '.')
	if dot < 0 {
		return false // a field of status itself: the object's own state
	}
	above := strings.ToLower(path[:dot])
	return strings.Contains(above, "operation") || strings.Contains(above, "task")
}

// lastOperation reports a record of the last operation of the controller on the object
// itself: last or latest followed by Operation, Transaction or Sync (etcd-druid's
// lastOperation, Tyk's latestTransaction): unlike a record of a past run of something else
// (lastBackup), its state is the object's while it lasts (Processing) and its outcome, or
// its error, the object's after.
func lastOperation(name string) bool {
	var rest string
	switch {
	case strings.HasPrefix(name, "latest"):
		rest = name[len("latest"):]
	case strings.HasPrefix(name, "last"):
		rest = name[len("last"):]
	default:
		return false
	}
	return rest == "Operation" || rest == "Transaction" || rest == "Sync"
}

// settingsWords end the names of status objects that copy settings rather than report a
// state (OceanBase's operationContext.failureRule: failureStatus failed is the status to
// take on failure, not a failure).
var settingsWords = [...]string{"Rule", "Rules", "Policy", "Policies", "Strategy", "Config",
	"Configuration", "Settings", "Template", "Spec", "Options"}

// isSettings reports an object of status named for settings (settingsWords, as the whole
// name in lower case or as its last word): its string fields are not states.
func isSettings(name string) bool {
	if name == "" {
		return false
	}
	switch name[len(name)-1] {
	case 'e', 's', 'y', 'g', 'n', 'c':
	default:
		return false // a cheap test first: every word of settingsWords ends in one of these
	}
	for _, w := range settingsWords {
		if len(name) > len(w) && strings.HasSuffix(name, w) ||
			len(name) == len(w) && name[0] == w[0]+('a'-'A') && name[1:] == w[1:] {
			return true
		}
	}
	return false
}

// kindNoun returns the last word of a CamelCase kind (TestExecution → Execution, SGBackup
// → Backup), or "" when it is shorter than three letters.
func kindNoun(kind string) string {
	for i := len(kind) - 2; i >= 0; i-- {
		if isUpper(kind[i]) && isLower(kind[i+1]) {
			if len(kind)-i < 3 {
				return ""
			}
			return kind[i:]
		}
	}
	return ""
}

// ownRecord reports whether a status field named for a run past (latestExecution,
// lastRun) names the kind's own noun (own, from kindNoun): on a TestExecution,
// latestExecution is the execution the object is, not one before it.
func ownRecord(name, own string) bool {
	if own == "" || len(name) <= len(own) || !strings.EqualFold(name[len(name)-len(own):], own) {
		return false
	}
	p := name[:len(name)-len(own)]
	return strings.EqualFold(p, "latest") || strings.EqualFold(p, "last")
}

// isStateField reports whether a status field's name says it holds a phase or a state:
// phase, state, status, health or robustness, or a name ending in one of them (jobStatus,
// provisioningState, lifecycleState, operationalStatus), or result; never one notNow names.
func isStateField(name string) bool {
	if name == "" {
		return false
	}
	if len(name) < 4 {
		return false // no word below is shorter
	}
	// A cheap test first, on the last two letters (lower case): every word below ends in
	// one of these pairs, and most of the names this is asked about (every field inference
	// walks) end in none of them.
	end := name[len(name)-1] | ('a' - 'A')
	if end == 'y' && len(name) > len("Summary") && strings.HasSuffix(name, "Summary") {
		// The summary of a state (Apache's Spark operator: currentState.currentStateSummary
		// RunningHealthy): the state, as the name before Summary says.
		return isStateField(name[:len(name)-len("Summary")])
	}
	switch name[len(name)-2] | ('a' - 'A') {
	case 's', 't', 'g', 'u', 'l', 'c':
	default:
		return false
	}
	switch end {
	case 'e', 's', 'h', 't':
	default:
		return false
	}
	if end == 't' {
		if name == "result" || strings.HasSuffix(name, "Result") && !notNow(name) {
			return true // a run's result: Succeeded, Failed (CSI-Addons' ReclaimSpaceJob)
		}
		if name == "verdict" || strings.HasSuffix(name, "Verdict") && !notNow(name) {
			return true // a run's verdict: Pass, Fail, Awaited (a test's, an experiment's)
		}
		return false // no other word below ends in t
	}
	// Only the words that end as name does: most names end in none of them.
	var words []string
	switch end {
	case 'e':
		words = stateWordsE[:]
	case 's':
		words = stateWordsS[:]
	default:
		words = stateWordsH[:]
	}
	for _, w := range words {
		if len(name) < len(w) {
			continue
		}
		tail := name[len(name)-len(w):]
		if len(name) == len(w) {
			if strings.EqualFold(tail, w) && w != "progress" {
				return true
			}
			continue
		}
		// A suffix starts a word: "jobStatus", "PostgresClusterStatus", "engine_state",
		// "cassandraOperatorProgress"; or ends a name in lower case alone ("buildstatus").
		c := tail[0]
		if c == w[0]-('a'-'A') && tail[1:] == w[1:] || (name[len(name)-len(w)-1] == '_' && tail == w) ||
			tail == w && len(name) > len(w)+2 && every(name, isLower) {
			return !notNow(name)
		}
	}
	return false
}

// stateWordsE, stateWordsS and stateWordsH are the words isStateField reads a name for, by
// their last letter.
var (
	stateWordsE = [...]string{"phase", "state", "stage"}
	stateWordsS = [...]string{"status", "robustness", "progress"}
	stateWordsH = [...]string{"health"}
)

// partShort reads the replica counts of the parts an object runs, kept one object down in
// status (a ThanosQuery's querierStatus, a control plane's components), as scanStates'
// walk meets them: a part whose readyReplicas or availableReplicas is short of its own
// replicas is InProgress. Objects of more than maxFields fields are inventories and are not
// read; of several short parts, the first by name is kept.
type partShort struct {
	key, path  string
	have, want int64
	// readyKey is a field at the top of status named for readiness whose fraction is
	// short ("ready": "1/3"), the first by name, met in the same walk; fractionKey, the
	// first by name of the other fields whose fraction is short (progress "1/3",
	// statusReplicas "1/3"); readyFalse, that status.ready is false.
	readyKey                 string
	fractionKey, fractionVal string
	readyFalse               bool
	// busyFlag is the first (by name) boolean at the top of status named for work in
	// progress (busyFlag) that is true.
	busyFlag string
}

// seeFraction takes in the string field k of status, of value v.
func (p *partShort) seeFraction(k, v string) {
	if strings.IndexByte(v, '/') <= 0 {
		return
	}
	if k == "ready" || strings.Contains(k, "Ready") {
		if p.readyKey == "" || k < p.readyKey {
			if have, want, ok := fraction(v); ok && have < want {
				p.readyKey = k
			}
		}
		return
	}
	p.seeOtherFraction(k, k, v)
}

// seeOtherFraction takes in a string field not named for readiness, at path, named k.
func (p *partShort) seeOtherFraction(path, k, v string) {
	if (p.fractionKey == "" || path < p.fractionKey) && !countsSetbacks(k) {
		if have, want, ok := fraction(v); ok && have < want {
			p.fractionKey, p.fractionVal = path, v
		}
	}
}

// countsSetbacks reports a field named for things that went wrong or were tried again
// (failedJobs, restarts, retries, errors, attempts): a fraction of them short of its
// whole ("retries": "2/5") is not work still to do.
func countsSetbacks(k string) bool {
	k = strings.ToLower(k)
	for _, w := range [...]string{"fail", "error", "restart", "retr", "attempt", "backoff", "crash", "unhealthy", "unavailable", "unready", "lost", "evict", "skip", "reject", "warn", "denied"} {
		if strings.Contains(k, w) {
			return true
		}
	}
	return false
}

// consider reads part k of status, an object of at most maxFields fields.
func (p *partShort) consider(k string, m map[string]any) {
	if notNow(k) || p.key != "" && k > p.key {
		return
	}
	// A fraction one object down (OpenTelemetry's and CloudWatch's scale.statusReplicas
	// "1/3") is read as one at the top of status is.
	for c, v := range m {
		if s, ok := v.(string); ok && strings.IndexByte(s, '/') > 0 {
			p.seeOtherFraction(k+"."+c, c, s)
		}
	}
	replicas, ok := toInt(m["replicas"])
	if !ok {
		if c, have, want, short := pairShort(m); short {
			p.key, p.path, p.have, p.want = k, k+"."+c, have, want
		}
		return
	}
	for _, c := range [...]string{"readyReplicas", "availableReplicas"} {
		if n, ok := toInt(m[c]); ok && n < replicas {
			p.key, p.path, p.have, p.want = k, k+"."+c, n, replicas
			return
		}
	}
}

// considerEntry reads entry i of the list k of status as a part: its plain counts (total,
// all or desired against ready or available), not replicas, which an entry may hold for
// the object it names.
func (p *partShort) considerEntry(k string, i int, m map[string]any) {
	if p.key != "" || isHistory(k) || notNow(k) {
		return
	}
	if c, have, want, short := pairShort(m); short {
		p.key, p.path, p.have, p.want = k, k+"["+strconv.Itoa(i)+"]."+c, have, want
	}
}

// desiredCount returns the rest of a count's name that says how many are wanted
// (desiredNumber → "Number", expectedNodes → "Nodes"), or "".
func desiredCount(k string) string {
	for _, p := range [...]string{"desired", "expected"} {
		if len(k) > len(p)+1 && k[:len(p)] == p && isUpper(k[len(p)]) {
			return k[len(p):]
		}
	}
	return ""
}

// pairShort reads counts of m named as a pair, one of how many are wanted and one of how
// many are ready, available or current of the same things (KMM's moduleLoader.desiredNumber
// and availableNumber, desiredNodes and readyNodes, Mercari's spanner-autoscaler's
// desiredProcessingUnits and currentProcessingUnits): short is true when the second is
// below the first, c naming it. Of several pairs, the first by name decides.
func pairShort(m map[string]any) (c string, have, want int64, short bool) {
	if capacityPool(m) {
		return "", 0, 0, false
	}
	for k, v := range m {
		// rest is the name of the things counted, as the count of a part of them goes on
		// (desiredNumber → Number, availableNumber), and words the first words of those
		// counts.
		rest, words := desiredCount(k), wantedWords[:]
		switch {
		case barePlural(k):
			// A count named plainly for the things (backends), which pairs with the
			// count of those that reached a state (registeredBackends: TKEStack's
			// lb-controlling-framework's BackendGroup).
			// (k is lower case a to z: its first letter upper case is a byte's
			// arithmetic, no allocation for each such field, a count or not.)
			rest, words = string(k[0]-('a'-'A'))+k[1:], pluralDoneWords[:]
		case rest == "" && !plainTotal(k):
			// A count of all of something (machineCount), which pairs with the counts of
			// those ready, available and updated (readyMachineCount, updatedMachineCount:
			// OpenShift's MachineConfigPool).
			if rest = totalCount(k); rest == "" {
				continue // plain desired, all or total pairs with plain ready or available
			}
			words = totalWords[:]
		}
		// (Only now: toInt parses a string, and most fields are named for no count.)
		w, ok := toInt(v)
		if !ok {
			continue
		}
		for _, p := range words {
			name := p + rest
			// (A current count above the one wanted is not read: desired… is as often a
			// minimum, as KubeVirt's MachineDisruptionBudget's desiredHealthy is.)
			if n, ok := toInt(m[name]); ok && n < w && (!short || name < c) && !(p == "updated" && canaryHeld(m, n)) {
				c, have, want, short = name, n, w, true
			}
		}
	}
	return c, have, want, short
}

// wantedWords are the first words of the counts that pair with a count of how many are
// wanted (desired…, expected…, or plain desired, all or total), and totalWords those that
// pair with a count of all of something (<noun>Count, target…, total…).
var (
	wantedWords = [...]string{"available", "ready", "current"}
	totalWords  = [...]string{"available", "ready", "updated"}
)

// capacityPool reports counts of a pool of capacity: a count of those used (used,
// allocated, inUse, assigned) beside the others makes available the free part of a total
// (Alibaba's hybridnet Subnet: total 241, used 17, available 224), not those ready of those
// wanted.
func capacityPool(m map[string]any) bool {
	for _, k := range [...]string{"used", "allocated", "inUse", "assigned"} {
		if _, ok := toInt(m[k]); ok {
			return true
		}
	}
	return false
}

// pluralDoneWords are the first words of a count of things joined to the object, paired
// with the plain count of the things (barePlural): registeredBackends of backends. Every
// one of them is meant to be joined. Not ready or available: a plain count may hold things
// kept scaled down by design (Zalando's StackSet: stacks 2, readyStacks 1, the old stack
// without traffic).
var pluralDoneWords = [...]string{"registered", "synced", "bound", "attached", "connected", "joined", "provisioned"}

// barePlural reports a field named for things alone, one word in lower case in the plural
// (backends, nodes, members), not replicas, which replicasShort reads, nor a word that only
// ends in s (status).
func barePlural(k string) bool {
	if len(k) < 4 || k[len(k)-1] != 's' || k[len(k)-2] == 's' || k[len(k)-2] == 'u' || k == "replicas" {
		return false
	}
	for i := 0; i < len(k); i++ {
		if k[i] < 'a' || k[i] > 'z' {
			return false
		}
	}
	return true
}

// flagMessageTerminal reports a status.message beside a flag false that names an error a
// person must fix (obeleh's db-operator: connection_available false, "Failed reading
// users: pq: permission denied for view pg_user"): the flag will not turn by itself.
func flagMessageTerminal(status map[string]any) bool {
	// (Not messageWaits: a terminal message is not a transient one, so only its first
	// word is left to ask.)
	msg := statusMessage(status)
	return msg != "" && classifyMessage(msg) == reasonTerminal && !startsTransient(msg)
}

// summaryTrue reports a boolean of status that sums up the object's state, true: ready,
// reconciled or inSync (Wind River's deployment manager: reconciled and inSync true beside
// configurationUpdated false, a flag of a change to apply, not of a state). A flag of a
// state not reached beside it is weighed in that summary.
func summaryTrue(status map[string]any) bool {
	return status["ready"] == true || status["reconciled"] == true || status["inSync"] == true
}

// canaryHeld reports a count of m named canary… (canaryNodes) that updated, a count of
// those updated, has reached: a canary the spec holds the update to, as a partition holds
// a StatefulSet's (Katalyst's AdminQoSConfiguration at 20%: 10 of 50 nodes, all 10
// updated).
func canaryHeld(m map[string]any, updated int64) bool {
	for k, v := range m {
		if len(k) > len("canary") && strings.HasPrefix(k, "canary") {
			if n, ok := toInt(v); ok && updated >= n {
				return true
			}
		}
	}
	return false
}

// totalCount returns, for a count of all of something named <noun>Count (machineCount),
// the name as the counts of a part of them continue it (MachineCount, as in
// readyMachineCount); "" for other names.
func totalCount(k string) string {
	if isUpper(k[0]) || !(len(k) > len("Count") && strings.HasSuffix(k, "Count") ||
		len(k) > len("target") && strings.HasPrefix(k, "target") && isUpper(k[len("target")]) ||
		len(k) > len("total") && strings.HasPrefix(k, "total") && isUpper(k[len("total")])) {
		// (Or a count named for what is targeted or all of it: Katalyst's targetNodes,
		// which updatedTargetNodes counts a part of.)
		return ""
	}
	for _, p := range [...]string{"ready", "available", "updated", "unavailable", "degraded", "desired", "expected", "current"} {
		if strings.HasPrefix(k, p) {
			return ""
		}
	}
	return strings.ToUpper(k[:1]) + k[1:]
}

// plainTotal reports a count named plainly for how many are wanted or exist: desired
// (SkyWalking's OAPServerConfig), all or total (KubeAI's replicas.all), which pairs with a
// plain ready or available count of the same object.
func plainTotal(k string) bool {
	return k == "desired" || k == "all" || k == "total"
}

// verdict is InProgress naming the short part, when there is one.
func (p *partShort) verdict(tr *trace) (verdict, bool) {
	if p.key == "" {
		return verdict{}, false
	}
	if tr != nil {
		tr.note("status."+p.path, p.have)
	}
	return verdict{status: InProgressStatus, reason: "PartNotReady",
		message: p.path + ": " + strconv.FormatInt(p.have, 10) + "/" + strconv.FormatInt(p.want, 10), by: "infer:counts"}, true
}

// isNumber reports whether s is a whole number: digits alone.
func isNumber(s string) bool { return s != "" && every(s, isDigit) }

// every reports whether is holds of every byte of s (vocab.go's isLower, isDigit).
func every(s string, is func(byte) bool) bool {
	for i := 0; i < len(s); i++ {
		if !is(s[i]) {
			return false
		}
	}
	return true
}

// scanStates reads every string field of status whose name says it holds a state
// (isStateField), and the same fields one object down (status.provisioning.state,
// status.applicationState.state, status.lastOperation.state, status.pd.phase), sorting
// each value by phaseClassOf. The worst value gives the verdict; the suspended and
// running classes are left for 6e and 6f.
//
// A stop the spec asks for (stopAsked: spec.engineState stop) makes a state that says the
// object stopped (Stopped, Aborted, Cancelled, Halted: stopWord) where it is meant to be:
// it is read as a steady state.
func scanStates(m, status map[string]any, kind string, facts *countFacts, tr *trace) stateScan {
	var sc stateScan
	var best, unknown, done stateField
	var doneValue string
	own := kindNoun(kind)
	stop, stopKnown := "", false
	asked := "" // the spec field that asks for best's state (a stop, a state by name), if any
	// up and upValue are the first state reached (by path), and busy reports a state of work
	// under way other than a first step done (Created): a first step done beside a state
	// reached in another field (Mayastor's cr_state Created, pool_status Online) is a step
	// the object has gone past.
	var up stateField
	var upValue string
	busy := false
	// Facts of the kind that few values need (schedulesRuns, runKindName), each asked at
	// most once per scan: -1 until asked, then 0 or 1.
	schedules, runKind, runSpec := int8(-1), int8(-1), int8(-1)
	kindFact := func(cache *int8, fact func(kind string, spec map[string]any) bool) bool {
		if *cache < 0 {
			spec, _ := m["spec"].(map[string]any)
			*cache = 0
			if fact(kind, spec) {
				*cache = 1
			}
		}
		return *cache == 1
	}
	eachStateField(status, own, &sc.parts, facts, func(at stateField, value string) {
		k := phaseClassOf(value)
		if k == phaseUp && isWord(value, "active") && (kindFact(&runKind, runKindName) || kindFact(&runSpec, asksRunSettings)) {
			// Active, on a kind named for a run (RadonDB's Backup, state Active while its
			// Job runs) or on an object whose spec sets what only a run has (CITA-Cloud's
			// Switchover: spec.ttlSecondsAfterFinished), is what a Job calls its running
			// pods: the run goes on.
			k = phaseRunning
		}
		if k == phaseProgressing && isWord(value, "created") && (recordNoun(own) ||
			at.k2 == "" && at.i < 0 && createdItself(statusMessage(status), own) && !kindFact(&runKind, runKindName)) {
			// Created, on a kind that stands for a record made in another system (a
			// Proxmox VirtualMachineSnapshot, an OpensearchUser), or with a message that
			// says the object itself was made (azure-apim-operator's APIMProduct: phase
			// Created, "Product created successfully"; not a part of it, EdgeNet's Tenant:
			// Created, "Core namespace created successfully", on its way to Established;
			// nor on a kind named for a run, whose creation is its start): making it is
			// all the object asks, so it is the state reached, not a first step of a
			// workload.
			k = phaseUp
		}
		if k == phaseProgressing && at.i >= 0 && queuedRun(value) {
			// A run a schedule has queued (CronHPA's jobs Submitted) is no work of the
			// schedule's: it is where a schedule is meant to be.
			if kindFact(&schedules, schedulesRuns) {
				k = phaseUp
			}
		}
		stopped := ""
		if k == phaseUnknown || k == phaseSuspended || k == phaseUp {
			// A state the spec asks for by name, reached (spec.state Disabled and
			// status.status Disabled): where the object is meant to be.
			if p := stateAsked(m, value); p != "" {
				k, stopped = phaseUp, p
			}
		}
		if k == phaseUnknown && at.k2 == "" && at.i < 0 && at.j < 0 && !stopWord(value) {
			// A state no vocabulary knows, while the spec asks for another by name
			// (Bottlerocket's update operator: status.current_state
			// StagedAndPerformedUpdate, spec.state RebootedIntoUpdate, the next step the
			// controller set): the object is on its way to the state asked.
			if p, want := stateAskedOther(m, value); p != "" {
				k, stopped = phaseProgressing, p+" asks for "+want
			}
		}
		if k == phaseFailed && endsRecovering(value) {
			// A failure the state itself says is being undone (ErrorReset,
			// FailedRetrying): the recovery under way is the news, as for a failure
			// condition beside a rollback. Not one that ends in the failure
			// (RollbackFailed, UploadFailedAfterRetry): the recovery is what failed.
			k = phaseProgressing
		}
		if (k == phaseUnknown || k == phaseFailed) && stopWord(value) {
			if !stopKnown {
				stop, stopKnown = stopAsked(m), true
			}
			switch {
			case stop != "":
				k, stopped = phaseUp, stop
			case k == phaseUnknown && at.i < 0 && at.j < 0 && cancelWord(value):
				// An outcome of a stop the spec did not ask for (a run canceled from
				// outside): the work will not be done, and nothing will resume it. Not
				// Stopped or Halted, which a spec may ask for in ways not read here (a
				// part's own stop field), and not in an entry of a list, which may be a
				// history of runs.
				k = phaseFailed
			}
		}
		if k == phaseDone && at.k2 == "" && (done.k == "" || at.before(done)) {
			done, doneValue = at, value
		}
		if k == phaseProgressing && !(at.k2 == "" && at.k3 == "" && at.i < 0 && (at.k == "phase" || at.k == "state" || at.k == "status" || namesResult(at.k))) && strings.EqualFold(value, "unknown") {
			// Unknown is a Pod's phase when its node is lost; in a health or a nested
			// state it is often what a component at rest reports (a detached volume's
			// robustness), so it does not decide there.
			k = phaseUnknown
		}
		if k == phaseUnknown {
			if unknown.k == "" || at.before(unknown) {
				unknown, sc.unknownValue = at, value
			}
			return
		}
		if (k == phaseRunning || k == phaseProgressing) && (sc.activeValue == "" || at.before(sc.activeAt)) {
			sc.activeAt, sc.activeValue = at, value
		}
		switch {
		case k == phaseUp && (up.k == "" || at.before(up)):
			up, upValue = at, value
		case k == phaseProgressing && !firstStep(value):
			busy = true
		}
		// Status is a map: ties go to the field named first by before, so the message
		// does not depend on the map's order.
		if r, cur := phaseRank(k), phaseRank(sc.class); sc.class == phaseUnknown || r > cur || r == cur && at.before(best) {
			sc.class, best, sc.value, asked = k, at, value, stopped
		}
	})
	if sc.class == phaseProgressing && !busy && up.k != "" {
		sc.class, best, sc.value, asked = phaseUp, up, upValue, ""
	}
	if done.k != "" && (sc.class == phaseRunning || sc.class == phaseUp) && best.k2 != "" {
		// A run's outcome at the top of status decides over what its parts report below
		// it (an OpsRequest Succeed whose database component is Running).
		sc.class, best, sc.value, asked = phaseDone, done, doneValue, ""
	}
	if unknown.k != "" {
		sc.unknown = "status." + unknown.path() + " " + strconv.Quote(sc.unknownValue)
	}
	if sc.class != phaseUnknown {
		sc.path = best.path()
		sc.fromEntry = best.i >= 0 || best.j >= 0
	}
	if tr != nil {
		noteStates(status, own, tr)
		if stop != "" {
			tr.note(stop, m["spec"].(map[string]any)[stop[len("spec."):]])
		}
	}
	// A state in progress whose reason says a person must act (NGINX's Warning, reason
	// Rejected) is a failure.
	if sc.class == phaseProgressing {
		if r, _ := status["reason"].(string); classifyReason(r) == reasonTerminal {
			sc.class = phaseFailed
		} else if msg := statusMessage(status); msg != "" && classifyMessage(msg) == reasonTerminal {
			// So is one whose message says so in the narrower words of messages (EnMasse's
			// Address, phase Pending: "Address 'orders' already exists with resource name
			// 'myspace.orders'").
			sc.class = phaseFailed
		}
	}
	// A failed state the controller says it will try again: a retry scheduled after the
	// attempt ended (Velero's vSphere plugin's UploadError with nextRetryTimestamp), or a
	// message that says it will be redone ("will get refreshed during next refresh cycle"):
	// work under way, not an end.
	var retry string
	if sc.class == phaseFailed && !sc.fromEntry {
		if retry = retryScheduled(status); retry != "" || willRedo(status) || classifyReason(stateReason(status, best)) == reasonTransient ||
			best.i < 0 && best.k2 == "" && (startsTransient(statusMessage(status)) || waitsOnly(statusMessage(status))) ||
			best.i < 0 && best.k2 == "" && messageSuffix(status) == "" && unreachableInConditions(status) {
			// The last two: the reason the controller gives beside the state names work
			// that ends by itself (Pixie's vizierPhase Unhealthy, vizierReason
			// ControlPlanePodsPending), or its message starts by saying it waits
			// (wireguard-operator's peer, status error: "Waiting for vpn to be ready") or
			// names what it waits for (rustcloak's KeycloakRealm, status Error: "Parent
			// Not Ready").
			// Or, the state saying nothing more, a condition explains it as a server
			// that could not be reached, which a retry clears (Gravitee's
			// processingStatus Failed, Accepted False: "dial tcp …: connection refused").
			sc.class = phaseProgressing
		}
	}
	if sc.class == phaseUnknown || sc.class == phaseRunning {
		return sc // Running is judged with the kind (stateScan.verdict)
	}
	what := sc.path + " is " + sc.value
	switch sc.class {
	case phaseDone:
		sc.v = verdict{status: CurrentStatus, message: what, by: "infer:outcome"}
	case phaseUp:
		by := "infer:phase"
		if asked != "" {
			what += asks(m, asked)
			by = "infer:asked"
		}
		sc.v = verdict{status: CurrentStatus, message: what, by: by}
	case phaseProgressing:
		if asked != "" {
			what += ", and " + asked
		} else if endsRecovering(sc.value) && phaseClassOf(sc.value) == phaseFailed {
			what += ", recovering from a failure"
		}
		sc.v = verdict{status: InProgressStatus, reason: sc.value, message: what + stateMessage(status, sc.path), by: "infer:phase"}
		if retry != "" {
			sc.v.message += " (status." + retry + " schedules a retry)"
		}
	case phaseFailed:
		sc.v = verdict{status: FailedStatus, reason: sc.value, message: what + stateMessage(status, sc.path), by: "infer:phase"}
	case phaseSuspended:
		sc.v = verdict{status: FailedStatus, reason: "Suspended", message: what, by: "infer:phase"}
	}
	return sc
}

// stateMessage is the message that goes with the state at path, as messageSuffix writes it:
// status' own, else, for a state one object down (apply.state), that object's message
// (KubeVela terraform-controller's apply.message).
func stateMessage(status map[string]any, path string) string {
	if s := messageSuffix(status); s != "" {
		return s
	}
	obj, _, down := strings.Cut(path, ".")
	if !down || strings.IndexByte(obj, '[') >= 0 {
		return ""
	}
	m, _ := status[obj].(map[string]any)
	if s, _ := m["message"].(string); s != "" {
		return ": " + s
	}
	return ""
}

// unreachableInConditions reports a condition of status not True whose message says a
// server could not be reached (unreachable), and none whose reason or message names an
// error a person must fix.
func unreachableInConditions(status map[string]any) bool {
	list, _ := status["conditions"].([]any)
	found := false
	for _, e := range list {
		c, _ := e.(map[string]any)
		if c["status"] == "True" {
			continue
		}
		msg, _ := c["message"].(string)
		reason, _ := c["reason"].(string)
		if classifyReason(reason) == reasonTerminal || classifyMessage(msg) == reasonTerminal {
			return false
		}
		found = found || unreachable(msg)
	}
	return found
}

// unreachable reports a message that says a server could not be reached: the connection
// refused or reset, no route to the host, a name that did not resolve, "unreachable"; not
// one that quotes the server's answer, a client error (clientError).
func unreachable(msg string) bool {
	if clientError(msg) {
		// The server answered, with a client error (edp-nexus-operator's "failed to connect
		// to nexus api: could not get user 'user': HTTP 401"): reached, and refused.
		return false
	}
	// (In any case: Java's "Connection refused", as Kiwigrid's keycloak-controller quotes
	// it, and Go's "connection refused" are the same news.)
	lower := strings.ToLower(msg)
	for _, s := range [...]string{"connection refused", "connection reset", "no route to host", "no such host"} {
		if strings.Contains(lower, s) {
			return true
		}
	}
	// Or says in words that it could not connect (vSphere CSI's CNS operator: "Unable to
	// connect to VC for volume registration"), or that the server is unreachable (Nephio's
	// Token: "gitea server unreachable"; the kernel's "network is unreachable").
	if strings.Contains(lower, "unreachable") {
		return true
	}
	if i := strings.Index(lower, " to connect"); i > 0 {
		for _, w := range [...]string{"unable", "failed", "fails"} {
			if strings.HasSuffix(lower[:i], w) {
				return true
			}
		}
	}
	return false
}

// saysInProgress reports a message that says, in words, that the work is in progress
// ("reconciliation is in progress"): not any transient word, which may be part of a name
// (ProvisioningRequest).
func saysInProgress(msg string) bool {
	it := wordIter{s: msg}
	in := false
	for w, ok := it.next(); ok; w, ok = it.next() {
		if in && string(w) == "progress" {
			return true
		}
		in = string(w) == "in"
	}
	return false
}

// namesResult reports a field of status named for a result (result, configResult): its
// Unknown is a result not yet given, as a phase's is, not a part at rest.
func namesResult(k string) bool {
	return k == "result" || strings.HasSuffix(k, "Result")
}

// firstStep reports a state that names a first step done (Initialized, Created,
// ResourcesCreated): set up, the work it stands for not yet, unless another state says it.
func firstStep(value string) bool {
	var b [40]byte
	w, _ := normalize(value, b[:])
	return w == "initialized" || w == "created" || w == "resourcescreated"
}

// isWord reports a state that is word, normalized (isWord("ACTIVE", "active")).
func isWord(value, word string) bool {
	var b [40]byte
	w, _ := normalize(value, b[:])
	return w == word
}

// recordNouns are the last words of kinds that stand for a record made in another system:
// a user, a token, a snapshot, a bucket. Such an object is done once the record exists;
// kinds of workloads (clusters, jobs, dataflows) go on from Created to run.
var recordNouns = map[string]bool{
	"User": true, "Users": true, "Token": true, "Snapshot": true, "Key": true, "Account": true,
	"Role": true, "Grant": true, "Bucket": true, "Topic": true, "Schema": true,
	"Credential": true, "Credentials": true, "Permission": true, "Record": true,
	"Entry": true, "Tag": true, "Team": true, "Member": true,
	"Webhook": true, "Alias": true, "Password": true,
	// A volume or a disk made in a storage system (the Azure Disk CSI driver v2's AzVolume,
	// state Created once the cloud disk exists).
	"Volume": true, "Disk": true,
	// A repository or a branch made in a forge or an artifact store (Project Syn's GitRepo,
	// EDP's CodebaseBranch and NexusRepository: phase or status created once it exists),
	// and a database made in a database server (easymile's PostgresqlDatabase, phase
	// Created): the record is all the object asks for.
	"Repository": true, "Repo": true, "Branch": true, "Database": true,
}

// recordNoun reports a kind noun (kindNoun) of recordNouns.
func recordNoun(noun string) bool { return recordNouns[noun] }

// queuedRun reports a state of a run queued and not begun (Submitted, Scheduled, Queued,
// Pending, Created): for a schedule, a run it has queued.
func queuedRun(value string) bool {
	var b [40]byte
	switch w, _ := normalize(value, b[:]); w {
	case "submitted", "scheduled", "queued", "pending", "created":
		return true
	}
	return false
}

// stateReason is the reason status gives beside the state field at: the field named as
// the state's with Reason for its last word (vizierPhase, vizierReason), else status.reason.
func stateReason(status map[string]any, at stateField) string {
	if at.k2 == "" && at.i < 0 {
		for _, w := range [...]string{"Phase", "State", "Status"} {
			if p, ok := strings.CutSuffix(at.k, w); ok && p != "" {
				if r, _ := status[p+"Reason"].(string); r != "" {
					return r
				}
			}
		}
	}
	r, _ := status["reason"].(string)
	return r
}

// statusMessage returns status.message, or the first of status.messages (EnMasse writes a
// list), or "".
func statusMessage(status map[string]any) string {
	if s, _ := status["message"].(string); s != "" {
		return s
	}
	if l, _ := status["messages"].([]any); len(l) > 0 {
		s, _ := l[0].(string)
		return s
	}
	// detail, where an operator writes its message (eks-anywhere-packages' Package).
	s, _ := status["detail"].(string)
	return s
}

// retryScheduled returns the field of status that schedules the next try (a name starting
// with nextRetry, or retryAt), when it is later than the end of the attempt status records
// (a completion field), or there is none; "" otherwise. Times are RFC 3339, as written.
func retryScheduled(status map[string]any) string {
	field, at := "", ""
	for k, v := range status {
		s, _ := v.(string)
		if s != "" && (strings.HasPrefix(k, "nextRetry") || k == "retryAt") && (field == "" || k < field) {
			field, at = k, s
		}
	}
	if field == "" {
		return ""
	}
	if k, end := completedAt(status); k != "" && !before(end, at) {
		return "" // the last try ended after the retry time: no retry is left (FailedAfterRetry)
	}
	return field
}

// willRedo reports a status.message that says the controller will do the work again by
// itself: "will" followed, within two words, by retry, retried, refresh, refreshed,
// resume, resumed, requeue or requeued ("will get refreshed during next refresh cycle").
func willRedo(status map[string]any) bool {
	msg, _ := status["message"].(string)
	it := wordIter{s: msg}
	since := -1 // words since "will"
	for w, ok := it.next(); ok; w, ok = it.next() {
		switch string(w) {
		case "will":
			since = 0
			continue
		case "retry", "retried", "refresh", "refreshed", "resume", "resumed", "requeue", "requeued":
			if since >= 0 && since <= 2 {
				return true
			}
		}
		if since >= 0 {
			since++
		}
	}
	return false
}

// stopWord reports a state that says the object was stopped: one of its words is Stopped,
// Aborted, Cancelled, Canceled, Halted or Terminated ("Forcefully Aborted").
func stopWord(value string) bool {
	it := wordIter{s: value}
	for w, ok := it.next(); ok; w, ok = it.next() {
		if stoppedWord(string(w)) {
			return true
		}
	}
	return false
}

// stoppedWord reports a word (lower case) that says something was stopped: stopped,
// aborted, cancelled, canceled, halted or terminated.
func stoppedWord(w string) bool {
	switch w {
	case "stopped", "aborted", "cancelled", "canceled", "halted", "terminated":
		return true
	}
	return false
}

// offState reports a state of being turned off (Disabled, Stopped, Offline, Inactive,
// Deactivated, Shutdown), which no vocabulary class holds: off by itself says nothing
// good or bad, only whether the spec asked for it does.
func offState(value string) bool {
	var vb [40]byte
	v, ok := normalize(value, vb[:])
	if !ok {
		return false
	}
	switch v {
	case "disabled", "stopped", "offline", "off", "inactive", "deactivated", "shutdown", "shutoff", "poweredoff":
		return true
	}
	return false
}

// stateAsked returns the spec field that asks for the state value by name, or "": a
// string field of spec named state, or whose name ends in State (desiredState, powerState),
// whose value is value's, compared as phaseClassOf compares words (Disabled and DISABLED).
// A state in motion (Disabling) or one that names a failure or work under way is never
// asked for. Fields are tried in name order, so the answer is stable.
func stateAsked(m map[string]any, value string) string {
	var vb [40]byte
	v, ok := normalize(value, vb[:])
	if !ok || len(v) < 3 || strings.HasSuffix(v, "ing") {
		return ""
	}
	if k, _ := specStateField(m, func(w, _ string) bool { return w == v }); k != "" {
		return "spec." + k
	}
	return ""
}

// movingToAsked returns the spec field (spec.state, or one ending in State) that asks for
// the state value is on its way to: value is that state's activity, the same stem with
// -ing (Stopping to Stopped, Starting to Started, Hibernating to Hibernated); "" if none.
func movingToAsked(m map[string]any, value string) string {
	var vb [40]byte
	v, ok := normalize(value, vb[:])
	if !ok || len(v) < 7 || !strings.HasSuffix(v, "ing") {
		return ""
	}
	stem := v[:len(v)-3] // stopp, start, hibernat
	k, _ := specStateField(m, func(w, _ string) bool {
		return w != v && len(stem) >= 4 && strings.HasPrefix(w, stem) && len(w)-len(stem) <= 3
	})
	if k == "" {
		return ""
	}
	return "spec." + k
}

// specAt is the value of the spec field at path ("spec.state"), one level down.
// asks is ", as <path> asks", for a message that says the spec asked for what status
// reports: with false where the field asks by being false (spec.enabled false).
func asks(m map[string]any, path string) string {
	if b, ok := specAt(m, path).(bool); ok && !b {
		return ", as " + path + " false asks"
	}
	return ", as " + path + " asks"
}

func specAt(m map[string]any, path string) any {
	spec, _ := m["spec"].(map[string]any)
	return spec[strings.TrimPrefix(path, "spec.")]
}

// specStateField returns the first, by name, string field of spec named state or ending in
// State whose value match accepts (given it normalized, and as written), and that value;
// "" when none does.
func specStateField(m map[string]any, match func(normalized, value string) bool) (string, string) {
	spec, _ := m["spec"].(map[string]any)
	found, value := "", ""
	for k, x := range spec {
		s, ok := x.(string)
		if !ok || found != "" && k > found || !(strings.EqualFold(k, "state") || len(k) > 5 && strings.HasSuffix(k, "State")) {
			continue
		}
		var sb [40]byte
		if w, ok := normalize(s, sb[:]); ok && match(w, s) {
			found, value = k, s
		}
	}
	return found, value
}

// endsRecovering reports a state whose last word says a failure is being undone: ErrorReset,
// FailedRetrying, ErrorRecovering.
func endsRecovering(value string) bool {
	it := wordIter{s: value}
	switch string(it.last()) {
	case "reset", "resetting", "retrying", "recovering", "reverting", "restoring", "remediating":
		return true
	}
	return false
}

// stateAskedOther returns the spec field that asks for a state by name (spec.state, or a
// field ending in State) and the state it asks for, when that is not value: the object has
// not reached the state its spec asks for. "" when the spec asks for none.
func stateAskedOther(m map[string]any, value string) (string, string) {
	var vb [40]byte
	v, ok := normalize(value, vb[:])
	if !ok || len(v) < 3 {
		return "", ""
	}
	k, want := specStateField(m, func(w, s string) bool { return len(w) >= 3 && w != v && !stopWord(s) })
	if k == "" {
		return "", ""
	}
	return "spec." + k, want
}

// cancelWord reports a state that is the outcome of a stop: one of its words is Cancelled,
// Canceled or Terminated (Aborted is a failure word of its own).
func cancelWord(value string) bool {
	it := wordIter{s: value}
	for w, ok := it.next(); ok; w, ok = it.next() {
		switch string(w) {
		case "cancelled", "canceled":
			// Not terminated: a run that has ended, whatever its outcome (Databricks'
			// life_cycle_state TERMINATED beside result_state SUCCESS, a container's state).
			return true
		}
	}
	return false
}

// stopBool reports a boolean field k of spec whose value b says to stop (stop, stopped,
// halt, halted or shutdown true) or not to run (started, running or active false).
func stopBool(k string, b bool) bool {
	switch k {
	case "stop", "stopped", "halt", "halted", "shutdown":
		return b
	case "started", "running", "active":
		return !b
	}
	return false
}

// stopAsked returns the spec field that asks for the object to be stopped, or "": a string
// field named state or action, or whose name ends in State or Action (engineState,
// desiredState, runAction), whose value is Stop, Stopped, Abort, Aborted, Cancel, Cancelled,
// Canceled, Halt or Halted; or a boolean that says to stop (spec.stop, spec.stopped,
// spec.halt, spec.halted or spec.shutdown true: KubeDB's halted) or not to run (spec.started, spec.running or spec.active
// false: DevWorkspace's started), or spec.replicas 0.
// Fields are tried in name order, so the answer is stable.
func stopAsked(m map[string]any) string {
	spec, _ := m["spec"].(map[string]any)
	found := ""
	for k, v := range spec {
		if found != "" && k > found {
			continue
		}
		if b, ok := v.(bool); ok {
			if stopBool(k, b) {
				found = k
			}
			continue
		}
		if k == "replicas" {
			// No replicas asked for (bemade's OdooInstance: spec.replicas 0, phase
			// Stopped): a stop, as a Deployment scaled to zero is.
			if n, ok := toInt(v); ok && n == 0 {
				found = k
			}
			continue
		}
		s, ok := v.(string)
		if !ok {
			continue
		}
		if !(strings.EqualFold(k, "state") || strings.EqualFold(k, "action") ||
			strings.HasSuffix(k, "State") || strings.HasSuffix(k, "Action")) {
			continue
		}
		var buf [16]byte
		switch w, _ := normalize(s, buf[:]); w {
		case "stop", "stopped", "abort", "aborted", "cancel", "cancelled", "canceled", "halt", "halted":
			found = k
		}
	}
	if found == "" {
		return ""
	}
	return "spec." + found
}

// stateField names a state field of status: status.<k>, status.<k>.<k2>,
// status.<k>[i].<k2>, status.<k>.<k2>[j].<k3> or status.<k>[i].<k2>[j].<k3> (i, j >= 0
// when the field above is a list).
type stateField struct {
	k, k2, k3 string
	i, j      int
}

// path is the field's path under status.
func (f stateField) path() string {
	p := f.k
	if f.i >= 0 {
		p += "[" + strconv.Itoa(f.i) + "]"
	}
	if f.k2 != "" {
		p += "." + f.k2
	}
	if f.j >= 0 {
		p += "[" + strconv.Itoa(f.j) + "]"
	}
	if f.k3 != "" {
		p += "." + f.k3
	}
	return p
}

// before orders state fields for ties: status.phase, then status.state, then
// status.health, then the others by depth and name.
func (f stateField) before(g stateField) bool {
	rank := func(f stateField) int {
		switch {
		case f.k3 != "":
			return 5
		case f.k2 != "":
			return 4
		case f.k == "phase":
			return 0
		case f.k == "state":
			return 1
		case f.k == "health":
			return 2
		}
		return 3
	}
	if ra, rb := rank(f), rank(g); ra != rb {
		return ra < rb
	}
	switch {
	case f.k != g.k:
		return f.k < g.k
	case f.i != g.i:
		return f.i < g.i
	case f.k2 != g.k2:
		return f.k2 < g.k2
	case f.j != g.j:
		return f.j < g.j
	}
	return f.k3 < g.k3
}

// entryStates are the names of state fields read in the entries of a list: only the plain
// ones, as entries carry other fields ending in Status.
var entryStates = [...]string{"status", "state", "phase", "health", "verdict"}

// maxEntries bounds the entries of a list read for states: a long list is inventory, not
// state, and its first entries say enough.
const maxEntries = 32

// maxFields bounds the objects of status read for states: one with more fields is a map of
// members or stores by name, whose walk would cost as much as the object's decode.
const maxFields = 64

// wordValue reports a value a state field may hold: not empty, and not a number, a
// duration or a time, which a field named …State may hold too (DataWorkflowServices'
// elapsedTimeLastState "29.880323s").
func wordValue(v string) bool {
	return v != "" && (v[0] < '0' || v[0] > '9')
}

// eachStateField calls fn with every string field of status whose name says it holds a
// state (isStateField), the same fields one object down, and the plain state fields
// (entryStates) of the entries of lists, at the top of status (featureSummaries[].status),
// in an object (workflow.steps[].phase) or in an entry (actions[].phases[].state), the
// first maxEntries of each. Conditions are not states, and a field named for a state
// wanted or past (notNow) is not read.
//
// A field named for the last run (latestExecution, lastRun) is past for most kinds, but
// for a kind named for that noun (a TestExecution's latestExecution) it is the object's own
// run, and is read: own is the kind's last word (kindNoun).
func eachStateField(status map[string]any, own string, parts *partShort, facts *countFacts, fn func(at stateField, value string)) {
	// entries reads the entries of list, found at "at" (whose j or i the loop sets).
	// from is the index in the whole list of list's first entry.
	entries := func(list []any, from int, at stateField, nested bool) {
		for n, e := range list {
			em, _ := e.(map[string]any)
			if nested {
				at.j = from + n
			} else {
				at.i = from + n
				if parts != nil && at.k != "conditions" && len(em) <= maxFields {
					// An entry's own counts, as a part's (PDOK's podSummary: the pods of
					// each generation, total 2, ready 1).
					parts.considerEntry(at.k, from+n, em)
				}
			}
			for _, name := range entryStates {
				if s, ok := em[name].(string); ok && s != "" {
					if nested {
						at.k3 = name
					} else {
						at.k2 = name
					}
					fn(at, s)
				}
			}
			if !nested {
				// One list further down: an entry's own list (actions[].phases[]). And an
				// entry's own state fields named for what they hold (KMM's
				// modules[].verificationStatus), besides the plain names read above.
				var named [2]string
				nn := 0
				for k2, v2 := range em {
					if s, ok := v2.(string); ok {
						if nn < len(named) && wordValue(s) && indexOf(entryStates[:], k2) < 0 && isStateField(k2) {
							named[nn] = k2
							nn++
						}
						continue
					}
					if l2, ok := v2.([]any); ok && k2 != "conditions" && !notNow(k2) {
						for x, e2 := range l2 {
							em2, _ := e2.(map[string]any)
							for _, name := range entryStates {
								if s, ok := em2[name].(string); ok && s != "" {
									fn(stateField{k: at.k, i: from + n, k2: k2, j: x, k3: name}, s)
								}
							}
							if x == maxEntries-1 {
								break
							}
						}
					}
				}
				if nn == 2 && named[1] < named[0] {
					named[0], named[1] = named[1], named[0] // in name order, whatever the map's
				}
				for _, name := range named[:nn] {
					at.k2 = name
					fn(at, em[name].(string))
				}
			}
			if n == maxEntries-1 {
				break
			}
		}
	}
	for k, v := range status {
		if facts != nil {
			facts.see(k, v)
		}
		switch v := v.(type) {
		case string:
			// And a state kept as one word in status.condition (Stackable's AirflowDB:
			// Ready, Failed); deeper, a field named condition names a condition's type
			// (Function Mesh's condition.condition MeshReady), and at the top an object
			// there is a condition (partConditions).
			if wordValue(v) && (isStateField(k) || k == "condition") {
				fn(stateField{k: k, i: -1, j: -1}, v)
			}
			if parts != nil {
				parts.seeFraction(k, v)
			}
		case bool:
			if parts != nil && !v && k == "ready" {
				parts.readyFalse = true
			}
			if parts != nil && v && busyFlag(k) && (parts.busyFlag == "" || k < parts.busyFlag) {
				parts.busyFlag = k
			}
		case map[string]any:
			if k == "conditions" || notNow(k) && !ownRecord(k, own) && !lastOperation(k) || len(v) > maxFields || isSettings(k) || isHistory(k) ||
				v["type"] != nil && conditionShaped(v) {
				// A large object is inventory (members by name), not a state; a history
				// (Apache's Spark operator: stateTransitionHistory, by index) is of states
				// past; a condition under a name of its own (status.create, kopf-style) is
				// read as a condition (partConditions), its status True or False no state.
				continue
			}
			if len(v) == 0 && facts != nil && (facts.emptyPart == "" || k < facts.emptyPart) {
				facts.emptyPart = k
			}
			counted := false // a replicas count, for parts (its lookups cost more than this test)
			for k2, v2 := range v {
				if facts != nil {
					facts.seeDown(k, k2, v2)
				}
				switch v2 := v2.(type) {
				default: // a number, as toInt reads it
					counted = counted || k2 == "replicas" || desiredCount(k2) != "" || plainTotal(k2)
				case string:
					if wordValue(v2) && (isStateField(k2) || k2 == "type" && k == "condition" && v["status"] == nil) {
						// (A status.condition of a type and no status holds a state in its
						// type: CassKop's backups and restores, condition.type COMPLETED.)
						fn(stateField{k: k, k2: k2, i: -1, j: -1}, v2)
					}
				case []any:
					if k2 != "conditions" && !notNow(k2) && !isHistory(k2) {
						if attempts(k2) && len(v2) > 1 {
							// Tries in order: the last one's state is the object's.
							entries(v2[len(v2)-1:], len(v2)-1, stateField{k: k, k2: k2, i: -1}, true)
							continue
						}
						entries(v2, 0, stateField{k: k, k2: k2, i: -1}, true)
					}
				case map[string]any:
					// Two objects down: a resource's own state among several the object
					// manages (kubernetesResources.version.status).
					if k2 == "conditions" || notNow(k2) || len(v2) > maxFields || isSettings(k2) || isHistory(k2) {
						continue
					}
					for k3, v3 := range v2 {
						if s, ok := v3.(string); ok && wordValue(s) && isStateField(k3) {
							fn(stateField{k: k, k2: k2, k3: k3, i: -1, j: -1}, s)
						}
					}
				}
			}
			if counted && parts != nil {
				parts.consider(k, v)
			}
		case []any:
			if attempts(k) && len(v) > 1 {
				// Tries in order (Konflux's managedPipelineAttempts: the first Failed,
				// OOMKilled, the retry with more memory Progressing): the last one's
				// state is the object's; the others are what became of tries before it.
				last := len(v) - 1
				entries(v[last:], last, stateField{k: k, j: -1}, false)
				continue
			}
			if k != "conditions" && !isHistory(k) || k == "conditions" && stateEntries(v) {
				entries(v, 0, stateField{k: k, j: -1}, false)
			}
		}
	}
}

// stateEntries reports a list of status.conditions whose entries are not conditions but
// parts with a state of their own (Alibaba's CronHPA: status.conditions[] of jobs, {name,
// jobId, schedule, state: Failed, message}): no type, and a field named state.
func stateEntries(list []any) bool {
	if len(list) == 0 {
		return false
	}
	em, _ := list[0].(map[string]any)
	if em == nil || em["type"] != nil {
		return false
	}
	// A state, not a status: entries of {status, lastTransitionTime} with no type are a
	// history of phases (Volcano's Job), not parts.
	_, ok := em["state"].(string)
	return ok
}

// verdict is the states' verdict, a running state judged by whether the kind finishes.
func (sc *stateScan) verdict(rf *runFacts) verdict {
	if sc.class == phaseRunning && namesOperation(sc.path) {
		// The state of an operation or a task the object runs (OceanBase's
		// operationContext.taskStatus): running until it ends, whatever the kind is.
		return verdict{status: InProgressStatus, reason: "Running",
			message: sc.path + " is " + sc.value + " (an operation under way)", by: "infer:phase"}
	}
	if sc.class == phaseRunning {
		return rf.running(sc.path, sc.value, "infer:phase")
	}
	if sc.class == phaseSuspended {
		return verdict{} // 6e reads it against the spec
	}
	return sc.v
}

// phaseRank orders phase classes for a waiter: a failure is the worst news, a suspension
// next (only a person may end it), then work under way, a running state (which may be a
// run not finished), a steady state, and a finished run.
func phaseRank(k phaseKind) int {
	switch k {
	case phaseFailed:
		return 6
	case phaseSuspended:
		return 5
	case phaseProgressing:
		return 4
	case phaseRunning:
		return 3
	case phaseUp:
		return 2
	case phaseDone:
		return 1
	}
	return 0
}

// countFacts is what judgeCounts reads of status' own fields, gathered by see in a walk
// over them: scanStates' walk (eachStateField) feeds it, so status is walked once for both
// (a walk over a map costs more than the tests below do).
type countFacts struct {
	errVals         [len(countErrorKeys)]any
	flagVals        [len(countFlagKeys)]any
	errSet, flagSet uint16
	lists           [8]string // lists of status, but conditions (the first eight met)
	nLists          int
	checkKey        string // a configuration check false (configCheckResult)
	namedErr        string // a field named for an error (reconciliationError)
	pendingKey      string // a list of work pending, not empty (pendingPods)
	busyCount       string // a count of things on their way, above zero (provisioningCount)
	paired          bool   // a count named for how many are wanted (pairShort)
	seen            bool   // see has been called: the facts are status'
	// downErr and downInvalid are one object down (status.validation.validationError,
	// status.validation.valid false), as eachStateField's walk meets them: the object and
	// the field of the first error by path, and the first object whose valid is false.
	downErr     [2]string
	downInvalid string
	// invalidTrue is a boolean of status true that says the spec is invalid (invalid,
	// isInvalid: das-schiff-network-operator's NetworkConfigRevision), valid false's other
	// spelling.
	invalidTrue string
	// genKey and genVal are a field of status that names the generation the controller
	// applied or reconciled (appliedGeneration: Hedgehog's lastAppliedGen, reconciledGeneration)
	// and its value: below metadata.generation, the latest spec is not applied yet.
	genKey string
	genVal int64
	// downNotReady is the first object one down whose ready or loaded is false
	// (status.cache.loaded false, as KubeAI's Model writes it while its cache fills), and
	// that field.
	downNotReady [2]string
	// emptyPart is the first object one down that is empty ({}), and partFlagTrue the first
	// object one down whose ready or available is true, and that field: a part whose flag a
	// Go controller left out, false under omitempty, beside one whose flag is true
	// (idpbuilder's Localbuild: nginx.available true, gitea {} while Gitea installs).
	emptyPart    string
	partFlagTrue [2]string
	// curVersion and wantVersion are the first (by name) string fields of status named for
	// the version running now (currentVersion, current_version, observedKubeVirtVersion)
	// and the one being moved to (targetVersion, target_version, desiredVersion), as
	// {name, what the name says after its first word, value}.
	curVersion, wantVersion [3]string
	// lastFailed is the first (by path) field of status or one object down named for the
	// outcome of the latest attempt (lastOutcomeField) whose value names a failure
	// (lastConversionResult "failed: …"), as {object or field, field or "", value}.
	lastFailed [3]string
	// appliedSpec is the first (by name) object of status that copies the spec the
	// controller last applied (appliedSpecFields).
	appliedSpec string
	// keyed are objects of status whose fields are entries keyed by name, each with
	// conditions of its own (Fybrik's assetStates: {"<asset>": {conditions: [...]}}), the
	// first four met.
	keyed  [4]string
	nKeyed int
	// failures is the first (by path) count of failures above zero, at the top of status or
	// one object down (status.stats.podEntryRenderFailures), and its value.
	failures      string
	failuresCount int64
	// currents are the string fields of status named current… (currentSize,
	// currentVersion), the first four met, for comparison with what spec asks.
	currents  [4]string
	nCurrents int
	// notReached is the first (by name) boolean of status false whose name's last word
	// is a state reached (nginxUpdated, configSynced): that state is not reached yet.
	notReached string
	// replicaCounts is whether status has a count of replicas replicasShort reads
	// (replicas, readyReplicas, availableReplicas, desiredReplicas, updatedReplicas,
	// desiredNumberScheduled, numberReady): without one it skips their lookups.
	replicaCounts bool
	// needs is the first (by path) field named for work the controller has yet to do
	// (needs…: synapse-operator's needsReconcile true, FoundationDB's
	// generations.needsBackupStart 1), at the top of status or one object down.
	needs string
}

// busyFlag reports a boolean of status named for work in progress: a name of two words or
// more ending in InProgress (Intel's Open Edge Platform Deployment: deployInProgress), or
// one whose last word names a change under way (updating, isScaling).
func busyFlag(k string) bool {
	const w = "InProgress"
	if len(k) > len(w) && strings.HasSuffix(k, w) {
		return true
	}
	// Or named by a change under way, its last word (Amadeus' Kafka Connect operator:
	// status.updating true while its Deployment rolls out; isScaling).
	if len(k) < len("syncing") || k[len(k)-1] != 'g' {
		return false // (the cheap test first: most names do not end so)
	}
	it := wordIter{s: k}
	last := it.last()
	return changeWords[string(last)] && hasSuffix(string(last), "ing")
}

// busyWords are states of things on their way: a count named with one (provisioningCount,
// pendingTasks, initializingShards, currentPending) counts work not done.
var busyWords = map[string]bool{
	"pending": true, "provisioning": true, "creating": true, "initializing": true,
	"starting": true, "progressing": true, "installing": true, "deploying": true,
	"scheduling": true, "updating": true, "upgrading": true, "waiting": true, "queued": true,
}

// busyCountName reports a status field named as a count of things on their way: a word of
// busyWords, and no word that makes it a limit, a setting or a duration (maxPending,
// pendingInMs, startingDeadlineSeconds) or a count of setbacks (provisioningFailCount).
func busyCountName(k string) bool {
	if countsSetbacks(k) {
		return false
	}
	busy := false
	it := wordIter{s: k}
	for w, ok := it.next(); ok; w, ok = it.next() {
		switch string(w) {
		case "max", "min", "limit", "threshold", "deadline", "timeout", "window", "interval",
			"period", "seconds", "minutes", "hours", "days", "ms", "time", "delay", "ttl", "age":
			return false
		}
		busy = busy || busyWords[string(w)]
	}
	return busy
}

// seeNeeds takes in a field at path named needs… (needsReconcile): true, or a number
// above zero (the generation that needs it), is work the controller has yet to do.
func (c *countFacts) seeNeeds(path, k string, v any) {
	busy := false
	if b, _ := v.(bool); b {
		busy = busyFlag(k)
	}
	c.seeNeedsAs(path, busy, namedNeeds(k), v)
}

// namedNeeds reports a field named needs… (needsReconcile, needsBackupStart).
func namedNeeds(k string) bool {
	return len(k) > len("needs") && k[0] == 'n' && strings.HasPrefix(k, "needs") && isUpper(k[len("needs")])
}

// seeNeedsAs is seeNeeds with what the field's name says already known: busy (busyFlag)
// and needsTo (named needs…).
func (c *countFacts) seeNeedsAs(path string, busy, needsTo bool, v any) {
	if b, _ := v.(bool); b && busy && (c.needs == "" || path < c.needs) {
		c.needs = path // deployInProgress true: work under way, as the controller says
		return
	}
	if !needsTo {
		return
	}
	set := false
	switch v := v.(type) {
	case bool:
		set = v
	default:
		n, ok := toInt(v)
		set = ok && n > 0
	}
	if set && (c.needs == "" || path < c.needs) {
		c.needs = path
	}
}

// currentOf returns, for a field of status named for the value now (currentSize,
// current_version), the spec field that asks for it (size, version); "" for other fields
// and for states, which 6c reads.
func currentOf(k string) string {
	const p = "current"
	if len(k) < len(p)+2 || k[0] != 'c' || !strings.HasPrefix(k, p) {
		return ""
	}
	rest := k[len(p):]
	if rest[0] == '_' {
		rest = rest[1:]
	} else if !isUpper(rest[0]) {
		return ""
	}
	switch strings.ToLower(rest) {
	case "state", "status", "phase", "replicas", "revision", "generation":
		return ""
	}
	return strings.ToLower(rest[:1]) + rest[1:]
}

// valueReached reports whether have, a value status reports now, is want, the value spec
// asks for: the same string, the same quantity (2Gi and 2048Mi), or the same version but
// for a leading v or the precision asked (spec 16, status 16.2).
func valueReached(have, want string) bool {
	if have == want {
		return true
	}
	if hq, err := resource.ParseQuantity(have); err == nil {
		if wq, err := resource.ParseQuantity(want); err == nil {
			return hq.Cmp(wq) == 0
		}
	}
	h, w := strings.TrimPrefix(have, "v"), strings.TrimPrefix(want, "v")
	return h == w || strings.HasPrefix(h, w+".") || strings.HasPrefix(w, h+".")
}

// failureCount reports a field named for a count of failures (consecutiveFailures,
// reconciliationFailures, podEntryRenderFailures, failures), not a limit on them
// (maxConsecutiveFailures) nor a record of past ones.
func failureCount(k string) bool {
	if k == "failures" || k == "failureCount" {
		return true
	}
	if len(k) > len("failed") && strings.HasPrefix(k, "failed") && isUpper(k[len("failed")]) {
		// Or a count of the parts that failed (Cloud Robotics' AppRollout:
		// failedAssignments; failedNodes, failedResources), not a limit on them
		// (failedJobsHistoryLimit, in a schedule's status as in its spec).
		return !strings.HasSuffix(k, "Limit") && !strings.HasSuffix(k, "Threshold")
	}
	// …Failures, or …FailureCount (EPAM's EDP operators: status.failureCount).
	if !hasWordSuffix(k, "Failures") && !hasWordSuffix(k, "FailureCount") {
		return false
	}
	for _, p := range [...]string{"max", "min", "allowed", "tolerated", "last", "previous", "total"} {
		if strings.HasPrefix(k, p) {
			return false
		}
	}
	return true
}

// seeFailures takes in a count of failures at path, of value v.
func (c *countFacts) seeFailures(path string, v any) {
	if n, ok := toInt(v); ok && n > 0 && (c.failures == "" || path < c.failures) {
		c.failures, c.failuresCount = path, n
	}
}

// versionField classifies a status field named for a version: 1 for the current one
// (current…, observed…), 2 for the one aimed at (target…, desired…), and what its name
// says after that first word, in lower case without underscores ("version",
// "kubevirtversion"); 0 for other fields.
func versionField(k string) (int, string) {
	if len(k) < len("targetVersion") || !strings.EqualFold(k[len(k)-len("version"):], "version") {
		return 0, ""
	}
	var b [40]byte
	n, ok := normalize(k, b[:])
	if !ok {
		return 0, ""
	}
	for _, p := range [...]struct {
		word string
		kind int
	}{{"current", 1}, {"observed", 1}, {"target", 2}, {"desired", 2}} {
		if strings.HasPrefix(n, p.word) && len(n) > len(p.word) {
			return p.kind, n[len(p.word):]
		}
	}
	return 0, ""
}

// seeDown takes in the field k2, of value v, of the object k of status.
func (c *countFacts) seeDown(k, k2 string, v any) {
	if notNow(k) && !lastOperation(k) {
		return // a record of something past, not what is wrong now
	}
	if e, ok := v.(map[string]any); ok && k2 != "conditions" && c.nKeyed < len(c.keyed) && (c.nKeyed == 0 || c.keyed[c.nKeyed-1] != k) {
		if _, ok := e["conditions"].([]any); ok && !isHistory(k) {
			c.keyed[c.nKeyed] = k
			c.nKeyed++
		}
	}
	if failureCount(k2) {
		c.seeFailures(k+"."+k2, v)
	}
	c.seeNeeds(k+"."+k2, k2, v)
	switch v := v.(type) {
	case string:
		if v != "" && len(k2) > len("last") && k2[0] == 'l' && lastOutcomeField(k2) {
			c.seeLastOutcome(k, k2, v)
		}
		if v != "" && (k2 == "error" || k2 == "errorMessage" || errorNamed(k2)) &&
			(c.downErr[0] == "" || k < c.downErr[0] || k == c.downErr[0] && k2 < c.downErr[1]) {
			c.downErr = [2]string{k, k2}
		}
	case []any:
		// A list of the errors of a part of the work (config-sync's sync.errors,
		// source.errors, rendering.errors): as a list of errors at the top.
		if len(v) > 0 && (k2 == "errors" || errorNamed(k2)) && (c.downErr[0] == "" || k < c.downErr[0] || k == c.downErr[0] && k2 < c.downErr[1]) {
			c.downErr = [2]string{k, k2}
		}
	case bool:
		if !v && k2 == "valid" && (c.downInvalid == "" || k < c.downInvalid) {
			c.downInvalid = k
		}
		if !v && (k2 == "ready" || k2 == "loaded") && (c.downNotReady[0] == "" || k < c.downNotReady[0]) {
			c.downNotReady = [2]string{k, k2}
		}
		if v && (k2 == "ready" || k2 == "available") && (c.partFlagTrue[0] == "" || k < c.partFlagTrue[0]) {
			c.partFlagTrue = [2]string{k, k2}
		}
	}
}

// errorNamed reports a field named for an error of what the controller does now
// (reconciliationError, validationError, validationErrors), not a last or previous one, or
// for the error's text (errorStatus, errorDetail).
func errorNamed(k string) bool {
	if rest, ok := strings.CutPrefix(k, "error"); ok {
		// The error's text under a name that says what of it is kept (route-monitor-
		// operator's errorStatus, errorDetail): the error itself.
		switch rest {
		case "Status", "Detail", "Details", "Text", "Description", "Info", "String":
			return true
		}
	}
	return (hasWordSuffix(k, "Error") || hasWordSuffix(k, "Errors")) && !strings.HasPrefix(k, "last") &&
		!strings.HasPrefix(k, "previous")
}

// statusKey is what the name of a field of status says, for countFacts.see: each test
// there reads the name alone, so the answers are kept per name (statusKeyCache), and a
// field met in every object of a kind is classified once.
type statusKey struct {
	versionRest            string // versionField's rest
	version                int8   // versionField's kind
	errIdx, flagIdx        int8   // indexOf countErrorKeys, countFlagKeys
	current, paired        bool   // currentOf(k) != ""; a count named for how many are wanted
	replicaCount           bool   // a count replicasShort reads
	checkResult            bool   // …CheckResult
	errorNamed, failures   bool   // errorNamed(k); failureCount(k)
	reached, busy, needsTo bool   // reachedFlag(k); busyFlag(k); needs… (seeNeeds)
	pending                bool   // pending…, a list of work pending
	busyCount              bool   // busyCountName(k): a count of things on their way
	invalid                bool   // invalid or isInvalid
	appliedGen             bool   // appliedGeneration(k): the generation the controller applied
	lastOutcome            bool   // lastOutcomeField(k): the outcome of the latest attempt
	appliedSpec            bool   // one of appliedSpecFields: a copy of the spec last applied
}

var statusKeyCache wordCache[statusKey]

// classifyStatusKey is statusKeyCache's classification of k.
func classifyStatusKey(k string) statusKey {
	kind, rest := versionField(k)
	c := statusKey{
		version: int8(kind), versionRest: rest,
		errIdx: int8(indexOf(countErrorKeys[:], k)), flagIdx: int8(indexOf(countFlagKeys[:], k)),
		current:     currentOf(k) != "",
		paired:      desiredCount(k) != "" || plainTotal(k) || totalCount(k) != "" || barePlural(k),
		checkResult: strings.HasSuffix(k, "CheckResult"),
		errorNamed:  errorNamed(k), failures: failureCount(k), reached: reachedFlag(k), busy: busyFlag(k),
		needsTo:   namedNeeds(k),
		pending:   len(k) > len("pending") && strings.HasPrefix(k, "pending") && isUpper(k[len("pending")]),
		busyCount: busyCountName(k),
		invalid:   k == "invalid" || k == "isInvalid", appliedGen: appliedGeneration(k),
		lastOutcome: lastOutcomeField(k), appliedSpec: indexOf(appliedSpecFields[:], k) >= 0,
	}
	switch k {
	case "replicas", "readyReplicas", "availableReplicas", "desiredReplicas", "updatedReplicas",
		"desiredNumberScheduled", "numberReady":
		c.replicaCount = true
	}
	return c
}

// seeLastOutcome takes in a field named for the outcome of the latest attempt
// (lastOutcomeField) of value v: status.k, or status.k.k2 when k2 is not empty. It keeps
// the first by path of those whose value names a failure.
func (c *countFacts) seeLastOutcome(k, k2, v string) {
	if phaseClassOf(v) != phaseFailed {
		return
	}
	if c.lastFailed[0] != "" && (k > c.lastFailed[0] || k == c.lastFailed[0] && k2 >= c.lastFailed[1]) {
		return
	}
	c.lastFailed = [3]string{k, k2, v}
}

// see takes in the field k of status, whose value is v.
func (c *countFacts) see(k string, v any) {
	c.seen = true
	kc := statusKeyCache.get(k, classifyStatusKey)
	switch v := v.(type) {
	case []any:
		if k != "conditions" && c.nLists < len(c.lists) {
			c.lists[c.nLists] = k
			c.nLists++
		}
		if len(v) > 0 && kc.pending && (c.pendingKey == "" || k < c.pendingKey) {
			c.pendingKey = k
		}
	}
	if kc.busyCount && (c.busyCount == "" || k < c.busyCount) {
		if n, ok := toInt(v); ok && n > 0 {
			c.busyCount = k
		}
	}
	if kc.appliedSpec && (c.appliedSpec == "" || k < c.appliedSpec) {
		if _, ok := v.(map[string]any); ok {
			c.appliedSpec = k
		}
	}
	if sv, ok := v.(string); ok && sv != "" {
		if kc.lastOutcome {
			c.seeLastOutcome(k, "", sv)
		}
		if c.nCurrents < len(c.currents) && kc.current {
			c.currents[c.nCurrents] = k
			c.nCurrents++
		}
		if kc.version != 0 {
			at := &c.curVersion
			if kc.version == 2 {
				at = &c.wantVersion
			}
			if at[0] == "" || k < at[0] {
				*at = [3]string{k, kc.versionRest, sv}
			}
		}
	}
	if kc.paired && !c.paired {
		// (A count only: a list named as a plural, conditions, pairs with nothing, and
		// pairShort's walk of status is not free.)
		_, c.paired = toInt(v)
	}
	c.replicaCounts = c.replicaCounts || kc.replicaCount
	if kc.invalid && v == true {
		c.invalidTrue = k
	}
	if kc.appliedGen && (c.genKey == "" || k < c.genKey) {
		if n, ok := toInt(v); ok {
			c.genKey, c.genVal = k, n
		}
	}
	if i := kc.errIdx; i >= 0 {
		c.errVals[i], c.errSet = v, c.errSet|1<<i
	} else if i := kc.flagIdx; i >= 0 {
		c.flagVals[i], c.flagSet = v, c.flagSet|1<<i
	} else if b, ok := v.(bool); ok && !b && kc.checkResult && (c.checkKey == "" || k < c.checkKey) {
		c.checkKey = k
	} else if kc.errorNamed && (c.namedErr == "" || k < c.namedErr) {
		c.namedErr = k
	} else if kc.failures {
		c.seeFailures(k, v)
	} else if b, ok := v.(bool); ok && !b && (c.notReached == "" || k < c.notReached) && kc.reached {
		c.notReached = k
	} else {
		c.seeNeedsAs(k, kc.busy, kc.needsTo, v)
	}
}

// reachedWords are the last words of a boolean of status that says a state is reached:
// the words of condition types of states reached, and updated.
var reachedWords = map[string]bool{"ready": true, "available": true, "provisioned": true, "healthy": true,
	"synced": true, "reconciled": true, "initialized": true, "established": true, "bound": true,
	"configured": true, "deployed": true, "installed": true, "applied": true, "programmed": true,
	"mounted": true, "attached": true, "registered": true, "connected": true, "updated": true,
	"accepted": true,
	// Steps of setting something up that the controller reports done one by one
	// (Glasskube's MinioBucket: bucketCreated, userCreated, policyLinked; SPIRE's
	// ClusterStaticEntry: rendered), and a check's own verdict (Kuberhealthy's ok).
	"created": true, "linked": true, "rendered": true, "ok": true,
	// Credentials accepted (InfluxData's influxdb-operator: authenticated false while the
	// server refuses the token).
	"authenticated": true, "authorized": true}

// reachedFlag reports a boolean of status named for a state reached by its last word
// (rpaas-operator's nginxUpdated, configSynced), not one judgeCounts reads by its whole
// name (countFlagKeys).
func reachedFlag(k string) bool {
	if indexOf(countFlagKeys[:], k) >= 0 {
		return false
	}
	it := wordIter{s: k}
	return reachedWords[string(it.last())]
}

// versionOnly is the version a field holds, without a leading v or a note after it
// ("2.10.2-3b6f4e1a (latest)", as eks-anywhere-packages writes its targetVersion).
func versionOnly(s string) string {
	if i := strings.IndexByte(s, ' '); i > 0 {
		s = s[:i]
	}
	return strings.TrimPrefix(s, "v")
}

// errorVerdict is the verdict of an error the controller reports in the field key, at path:
// Failed, unless its text starts by saying it waits (COSI's BucketClaim, status.error
// "waiting for Bucket to be provisioned"), which is work not done: InProgress.
func errorVerdict(key, path, msg string) verdict {
	v := verdict{status: FailedStatus, reason: reasonFromField(key), message: path + ": " + msg, by: "infer:errors"}
	if startsTransient(msg) || waitsOnAnother(msg) || unreachable(msg) && classifyMessage(msg) != reasonTerminal {
		// (And an error that says a server could not be reached, which a retry clears,
		// unless it also names something a person must fix.)
		v.status = InProgressStatus
	}
	return v
}

// waitsOnAnother reports an error text that says something is not ready yet, or is in a
// state on its way (aether-powerdns' failureMessage "Zone is not Ready yet", "PowerDNSServer
// authdns is InitializingSchema"; a timestamp before "Waiting osdpl status APPLIED"): a
// wait for another object, which ends by itself. Not a text that also names something a
// person must fix.
func waitsOnAnother(msg string) bool {
	if classifyMessage(msg) == reasonTerminal {
		return false
	}
	it := wordIter{s: msg}
	var prev string
	for w, ok := it.next(); ok; w, ok = it.next() {
		word := string(w)
		switch {
		case word == "yet" && (prev == "ready" || prev == "not"),
			word == "waiting" && prev != "stopped" && prev != "no":
			return true
		case prev == "is" && len(word) > 5 && phaseClassOf(word) == phaseProgressing && hasSuffix(word, "ing") && !lackWords[word]:
			return true
		}
		prev = word
	}
	// "is InitializingSchema": a state named as an activity and what it acts on.
	if i := strings.Index(msg, " is "); i > 0 {
		rest := msg[i+len(" is "):]
		if j := strings.IndexAny(rest, " .,;:"); j > 0 {
			rest = rest[:j]
		}
		if wordCount(rest) > 1 && phaseClassOf(rest) == phaseProgressing {
			return true
		}
	}
	return false
}

// lackWords are -ing words that say something is wrong or absent, not on its way ("Resource
// ID is missing in the spec").
var lackWords = map[string]bool{"missing": true, "failing": true, "lacking": true, "conflicting": true, "crashing": true, "erroring": true}

// judgeOwnCounts is judgeCounts where no walk of status has seen its fields: it walks
// status itself. (Apart, so that the common call does not clear a countFacts it never uses.)
func judgeOwnCounts(m, status map[string]any, parts *partShort, tr *trace) verdict {
	var own countFacts
	for k, v := range status {
		own.see(k, v)
		if s, ok := v.(string); ok {
			parts.seeFraction(k, s) // as eachStateField's walk does
		}
	}
	return judgeCounts(m, status, parts, &own, tr)
}

// judgeCounts reads what operators publish beside conditions and states: counts of ready
// against desired replicas, errors, and readiness flags. Each short count is InProgress,
// an error Failed; a count that is met says nothing (the other steps decide). parts are the
// counts of the parts scanStates read in its walk, and facts what it saw of status' fields
// (nil, or not seen: judgeCounts walks status itself).
func judgeCounts(m, status map[string]any, parts *partShort, facts *countFacts, tr *trace) verdict {
	if len(status) == 0 {
		return verdict{} // (no status: no count, error or flag to read)
	}
	if facts == nil || !facts.seen {
		return judgeOwnCounts(m, status, parts, tr)
	}
	var (
		errVals, flagVals  = &facts.errVals, &facts.flagVals
		errSet, flagSet    = facts.errSet, facts.flagSet
		lists              = facts.lists[:facts.nLists]
		checkKey, namedErr = facts.checkKey, facts.namedErr
	)
	// Errors: Cluster API's failureReason and failureMessage (terminal by its contract),
	// and an error or a list of errors the controller reports now (not a last one).
	for i, k := range &countErrorKeys { // (a pointer: ranging over the array would copy it)
		if errSet&(1<<i) == 0 {
			continue
		}
		msg := errorText(errVals[i])
		if msg == "" {
			continue
		}
		if tr != nil {
			tr.note("status."+k, msg)
		}
		v := errorVerdict(k, "status."+k, msg)
		if milderSeverity(errVals[i]) {
			// An error whose own severity says it may yet clear (HPE DataWorkflowServices'
			// ResourceError: Minor or Major, retried; Fatal "will never succeed").
			v.status = InProgressStatus
		}
		return v
	}
	// A field named for the error of what the controller does (Hydra Maester's
	// reconciliationError, provisioningError): the same, unless it is a last one.
	if namedErr != "" {
		if msg := errorText(status[namedErr]); msg != "" {
			if tr != nil {
				tr.note("status."+namedErr, msg)
			}
			return errorVerdict(namedErr, "status."+namedErr, msg)
		}
	}
	// The same one object down, where an operator groups what it checked
	// (status.validation.validationError).
	if k, k2 := facts.downErr[0], facts.downErr[1]; k != "" {
		obj, _ := status[k].(map[string]any)
		if msg := errorText(obj[k2]); msg != "" {
			if tr != nil {
				tr.note("status."+k+"."+k2, msg)
			}
			return errorVerdict(k2, "status."+k+"."+k2, msg)
		}
	}
	// Errors reported per entry of a list (per pod, per member: Gatekeeper's byPod); the
	// list first by name, so the message does not depend on the map's order.
	var errList, errPath, errMsg, errField string
	for _, k := range lists {
		if errList != "" && k > errList {
			continue
		}
		list := status[k].([]any)
	entries:
		for i, e := range list {
			if i == maxEntries {
				break // as eachStateField: the cost of a status is bounded, not its lists'
			}
			em, _ := e.(map[string]any)
			for _, ek := range [...]string{"errors", "error", "errorMessage", "failureMessage"} {
				if msg := errorText(em[ek]); msg != "" {
					errList, errField, errMsg = k, ek, msg
					errPath = "status." + k + "[" + strconv.Itoa(i) + "]." + ek
					break entries
				}
			}
		}
	}
	if errList != "" {
		if tr != nil {
			tr.note(errPath, errMsg)
		}
		return verdict{status: FailedStatus, reason: reasonFromField(errField), message: errPath + ": " + errMsg, by: "infer:errors"}
	}
	// A count of failures above zero (kapp-controller's consecutiveReconcileFailures,
	// Sveltos' consecutiveFailures, SPIRE's stats.podEntryRenderFailures): the
	// controller counts what it failed at, and resets the count when it succeeds.
	if facts.failures != "" {
		if tr != nil {
			tr.note("status."+facts.failures, facts.failuresCount)
		}
		text := messageSuffix(status)
		if v, _ := status["value"].(string); text == "" && v != "" {
			// EPAM's EDP operators write what became of the last reconcile in
			// status.value: "OK", or the error.
			text = ": " + v
		}
		v := verdict{status: FailedStatus, reason: "Failures",
			message: "status." + facts.failures + " is " + strconv.FormatInt(facts.failuresCount, 10) + text, by: "infer:errors"}
		if t := strings.TrimPrefix(text, ": "); messageWaits(t) && !unreachable(t) {
			// The failure counted is a wait for something else ("parent group … is not
			// ready yet"): the controller tries again. Not a server that keeps refusing
			// the connection, which the count says is no passing fault.
			v.status = InProgressStatus
		}
		return v
	}
	// Flags: ready, readyToUse, active or healthy false is not ready yet; valid false is a
	// spec to fix.
	for i, k := range &countFlagKeys {
		if flagSet&(1<<i) == 0 {
			continue
		}
		b, ok := flagVals[i].(bool)
		if !ok {
			// "False" and "True", as some operators write their flags (Vitess'
			// status.available); never a field with other values.
			switch flagVals[i] {
			case "False", "false":
				b, ok = false, true
			case "True", "true":
				b, ok = true, true
			}
		}
		if !ok || b {
			continue
		}
		if tr != nil {
			tr.note("status."+k, b)
		}
		if k == "valid" {
			return verdict{status: FailedStatus, reason: "Invalid", message: "status.valid is false", by: "infer:counts"}
		}
		// With a status.reason that names an error a person must fix (Shipwright's
		// registered "False", UndefinedParameter), the flag will not turn by itself.
		if r, _ := status["reason"].(string); classifyReason(r) == reasonTerminal {
			return verdict{status: FailedStatus, reason: r, message: "status." + k + " is false" + messageSuffix(status), by: "infer:counts"}
		}
		if flagMessageTerminal(status) {
			return verdict{status: FailedStatus, reason: "NotReady", message: "status." + k + " is false" + messageSuffix(status), by: "infer:counts"}
		}
		return verdict{status: InProgressStatus, reason: "NotReady", message: "status." + k + " is false", by: "infer:counts"}
	}
	// Or true under the other name (isInvalid true): the same.
	if k := facts.invalidTrue; k != "" {
		if tr != nil {
			tr.note("status."+k, true)
		}
		return verdict{status: FailedStatus, reason: "Invalid", message: "status." + k + " is true" + messageSuffix(status), by: "infer:counts"}
	}
	// A validity flag one object down (status.validation.valid false): a spec to fix.
	if k := facts.downInvalid; k != "" {
		if tr != nil {
			tr.note("status."+k+".valid", false)
		}
		return verdict{status: FailedStatus, reason: "Invalid", message: "status." + k + ".valid is false", by: "infer:counts"}
	}
	// A configuration check the controller ran and that failed (configCheckResult false, as
	// the logging operators write it): a spec to fix.
	if checkKey != "" {
		if tr != nil {
			tr.note("status."+checkKey, false)
		}
		return verdict{status: FailedStatus, reason: "CheckFailed", message: "status." + checkKey + " is false" + messageSuffix(status), by: "infer:counts"}
	}
	// A part not ready or loaded yet, one object down (KubeAI's Model: cache.loaded false
	// while the model is copied to its cache): work under way.
	if k, k2 := facts.downNotReady[0], facts.downNotReady[1]; k != "" {
		if tr != nil {
			tr.note("status."+k+"."+k2, false)
		}
		return verdict{status: InProgressStatus, reason: "NotReady", message: "status." + k + "." + k2 + " is false", by: "infer:counts"}
	}
	// A part with nothing written ({}) beside one whose ready or available is true: a Go
	// controller leaves out a false flag under omitempty, so that part is not there yet
	// (idpbuilder's Localbuild: nginx.available true, ArgoCD {} and gitea {} while they
	// install).
	if k, p := facts.emptyPart, facts.partFlagTrue; k != "" && p[0] != "" {
		if tr != nil {
			tr.note("status."+k, map[string]any{})
		}
		return verdict{status: InProgressStatus, reason: "NotReady",
			message: "status." + k + " is empty, where status." + p[0] + "." + p[1] + " is true: not " + p[1] + " yet", by: "infer:counts"}
	}
	// A state named by a boolean of status not reached yet (rpaas-operator's nginxUpdated
	// false while the Nginx it manages is moved to the new revision).
	if k := facts.notReached; k != "" && !summaryTrue(status) {
		if tr != nil {
			tr.note("status."+k, false)
		}
		v := verdict{status: InProgressStatus, reason: "Not" + strings.ToUpper(k[:1]) + k[1:],
			message: "status." + k + " is false" + messageSuffix(status), by: "infer:counts"}
		if flagMessageTerminal(status) {
			v.status = FailedStatus
		}
		return v
	}
	// Work the controller says it has yet to do (synapse-operator's needsReconcile true,
	// set when a bridge is attached; FoundationDB's generations.needsBackupStart).
	if k := facts.needs; k != "" {
		if tr != nil {
			tr.note("status."+k, true)
		}
		last := k[strings.LastIndexByte(k, '.')+1:]
		msg := "status." + k + " says the controller has work left"
		if busyFlag(last) {
			msg = "status." + k + " is true"
		}
		return verdict{status: InProgressStatus, reason: strings.ToUpper(last[:1]) + last[1:],
			message: msg, by: "infer:counts"}
	}
	v, _ := replicasShort(m, status, parts, facts.replicaCounts, facts.paired, facts.pendingKey, tr)
	if k := facts.busyCount; v.status == "" && k != "" {
		// A count of things on their way, above zero (Babylon's WorkshopProvision:
		// provisioningCount 10 while the claims it ordered provision): work not done.
		if tr != nil {
			tr.note("status."+k, status[k])
		}
		n, _ := toInt(status[k])
		v = verdict{status: InProgressStatus, reason: strings.ToUpper(k[:1]) + k[1:],
			message: "status." + k + " is " + strconv.FormatInt(n, 10), by: "infer:counts"}
	}
	if v.status == "" {
		// A version being moved to that is not the one running (Bottlerocket's update
		// operator: current_version 1.19.1, target_version 1.19.2, while the node waits its
		// turn): an upgrade not done.
		cur, want := facts.curVersion, facts.wantVersion
		if cur[0] != "" && want[0] != "" && cur[1] == want[1] &&
			versionOnly(cur[2]) != versionOnly(want[2]) {
			if tr != nil {
				tr.note("status."+cur[0], cur[2])
				tr.note("status."+want[0], want[2])
			}
			v = verdict{status: InProgressStatus, reason: "VersionNotReached",
				message: "status." + cur[0] + " is " + cur[2] + ", status." + want[0] + " is " + want[2], by: "infer:counts"}
		}
	}
	if v.status == "" {
		v = currentNotReached(m, status, facts, tr)
	}
	return v
}

// currentNotReached reads a value status reports now that is not what spec asks for
// (TopoLVM's LogicalVolume: status.currentSize 1Gi, spec.size 2Gi, while the volume is
// expanded): the change is not done, InProgress. The first such field by name; a zero
// verdict when there is none.
func currentNotReached(m, status map[string]any, facts *countFacts, tr *trace) verdict {
	if facts.nCurrents == 0 {
		return verdict{}
	}
	spec, _ := m["spec"].(map[string]any)
	at := ""
	for _, k := range facts.currents[:facts.nCurrents] {
		want, _ := spec[currentOf(k)].(string)
		if want != "" && !valueReached(status[k].(string), want) && (at == "" || k < at) {
			at = k
		}
	}
	if at == "" {
		return verdict{}
	}
	sk := currentOf(at)
	if tr != nil {
		tr.note("status."+at, status[at])
		tr.note("spec."+sk, spec[sk])
	}
	return verdict{status: InProgressStatus, reason: "NotReached",
		message: "status." + at + " is " + status[at].(string) + ", spec." + sk + " asks for " + spec[sk].(string), by: "infer:counts"}
}

// mirrorNotReached reads, where nothing else in status decides, a field status repeats from
// spec with another value (laf's Bucket: spec.policy readwrite, status.policy still private
// while the controller applies one setting per pass): the setting the spec asks for is not
// applied yet, InProgress. Only one-token values, a word or a version, and not names,
// identities or references, whose status form may differ from the spec's by design (a
// digest for a tag). The first such field by name.
func mirrorNotReached(m, status map[string]any, tr *trace) (verdict, bool) {
	spec, _ := m["spec"].(map[string]any)
	if len(spec) == 0 {
		return verdict{}, false
	}
	at := ""
	for k, v := range status {
		have, ok := v.(string)
		if !ok || at != "" && k > at || !settingToken(have) || identityName(k) {
			continue
		}
		want, _ := spec[k].(string)
		if settingToken(want) && !strings.EqualFold(have, want) && !valueReached(have, want) {
			at = k
		}
	}
	if at == "" {
		return verdict{}, false
	}
	if tr != nil {
		tr.note("status."+at, status[at])
		tr.note("spec."+at, spec[at])
	}
	return verdict{status: InProgressStatus, reason: "NotReached",
		message: "status." + at + " is " + status[at].(string) + ", spec." + at + " asks for " + spec[at].(string), by: "infer:counts"}, true
}

// settingToken reports a value that is one short token: letters, digits, '-', '_' and '.'
// (readwrite, 16.2, Standard_D4s), not a sentence, a path, a URL or an image.
func settingToken(s string) bool {
	if s == "" || len(s) > 40 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// identityName reports a field named for what something is called or where it is (name,
// clusterName, id, uid, hash, ref, host, revision, image), or a version, whose value in
// status is often not the one spec gives (a generated name, a resolved revision, the
// operator's own version: fabric-operator's status.version); currentNotReached reads the
// versions named as such.
func identityName(k string) bool {
	var b [40]byte
	n, ok := normalize(k, b[:])
	if !ok {
		return true
	}
	for _, suffix := range [...]string{"name", "id", "uid", "hash", "ref", "host", "hostname", "revision", "image", "digest", "url", "address", "endpoint", "namespace", "region", "zone", "key", "secret", "token", "generation", "time", "timestamp", "version"} {
		if strings.HasSuffix(n, suffix) {
			return true
		}
	}
	return false
}

// replicasShort reads the counts of replicas an object publishes: of the parts it runs, one
// object down (querierStatus.readyReplicas against querierStatus.replicas), then its own
// readyReplicas or availableReplicas against spec.replicas (else status.replicas),
// counts named as a pair (pairShort: availableNumber against desiredNumber) when paired
// says judgeCounts' pass saw one, numberReady against desiredNumberScheduled, and a
// status.ready of "2/3". The first count short is InProgress; short is false when none is.
// parts.readyKey is a field named for readiness holding a fraction short ("3/6"), and
// pendingKey a list of work pending that is not empty, as the walk over status found them.
func replicasShort(m, status map[string]any, parts *partShort, counts, paired bool, pendingKey string, tr *trace) (v verdict, short bool) {
	// Counts of the parts an object runs, one object down (querierStatus.readyReplicas
	// against querierStatus.replicas): each part short of its own replicas is InProgress.
	if v, short := parts.verdict(tr); short {
		return v, true
	}
	// Counts against the desired number (desiredReplicas: status.desiredReplicas, else
	// spec.replicas), else status.replicas (or the DaemonSet-style desiredNumberScheduled).
	// Only where status has such a count: the lookups of all of them cost more than the
	// walk that noted whether it has one.
	if counts {
		spec, _ := m["spec"].(map[string]any)
		want, ok := desiredReplicas(spec, status)
		if !ok {
			want, ok = toInt(status["replicas"])
		}
		if ok {
			// (updatedReplicas is read below, where a partition or an OnDelete strategy
			// may hold some back by design.)
			for _, k := range [...]string{"readyReplicas", "availableReplicas"} {
				raw, present := status[k]
				have, isInt := toInt(raw)
				if !present {
					if k != "readyReplicas" || want == 0 {
						continue
					}
					// readyReplicas left out is zero ready (omitempty), when another count
					// shows the controller publishes them; but never fewer than are available,
					// which are ready replicas that have stayed so (vLLM production-stack's
					// VLLMRuntime publishes availableReplicas and no readyReplicas).
					avail, hasAny := status["availableReplicas"]
					if !hasAny {
						continue
					}
					have, isInt = toInt(avail)
				}
				if !isInt {
					continue
				}
				if tr != nil {
					tr.note("status."+k, have)
				}
				if have < want && have+otherReplicas(status) < want {
					return verdict{status: InProgressStatus, reason: "Less" + strings.TrimSuffix(strings.ToUpper(k[:1])+k[1:], "Replicas"),
						message: k + ": " + strconv.FormatInt(have, 10) + "/" + strconv.FormatInt(want, 10), by: "infer:counts"}, true
				}
			}
		}
		// A status whose only count is replicas, below those asked for (eirini's LRP:
		// status.replicas 1 after a scale to spec.instances 3, copied from its StatefulSet's
		// ready replicas): the replicas are not all there yet.
		if _, ready := status["readyReplicas"]; !ready {
			if _, avail := status["availableReplicas"]; !avail {
				if have, ok := toInt(status["replicas"]); ok {
					if want, ok := desiredReplicas(spec, status); ok && have < want {
						if tr != nil {
							tr.note("status.replicas", have)
						}
						return verdict{status: InProgressStatus, reason: "LessReplicas",
							message: "replicas: " + strconv.FormatInt(have, 10) + "/" + strconv.FormatInt(want, 10), by: "infer:counts"}, true
					}
				}
			}
		}
		// A Deployment-shaped status (updatedReplicas), read only where there is one:
		_, updated := status["updatedReplicas"]
		if updated {
			// an update not rolled out to every replica yet (Mattermost's updatedReplicas 1 of
			// 2), unless a partition or OnDelete holds replicas back by design;
			if have, want, short := updatedShort(m, status); short {
				if tr != nil {
					tr.note("status.updatedReplicas", have)
				}
				return verdict{status: InProgressStatus, reason: "LessUpdated",
					message: "updatedReplicas: " + strconv.FormatInt(have, 10) + "/" + strconv.FormatInt(want, 10), by: "infer:counts"}, true
			}
		}
		// More replicas than spec asks for, beside a count of those updated or ready (a
		// Deployment's; yawol's LoadBalancer while a new machine set comes up: replicas 4,
		// readyReplicas 2, 2 asked for): old replicas still being removed after a rollout.
		if rr, ready := status["readyReplicas"]; updated || ready {
			desired, okD := desiredReplicas(spec, status)
			total, ok := toInt(status["replicas"])
			if r, isInt := toInt(rr); !updated && isInt && r == total {
				// Every one of them ready, and no count of those updated: not old
				// replicas going but more than spec's number by design (Liquid Metal's
				// MicrovmDeployment: spec.replicas per host, 2 hosts, 4 ready).
				ok = false
			}
			if ok && okD && total > desired {
				if tr != nil {
					tr.note("status.replicas", total)
				}
				return verdict{status: InProgressStatus, reason: "ExtraPods",
					message: "replicas: " + strconv.FormatInt(total, 10) + ", " + strconv.FormatInt(desired, 10) + " asked for: old replicas are still being removed", by: "infer:counts"}, true
			}
		}
	}
	if paired {
		if c, have, want, short := pairShort(status); short {
			if tr != nil {
				tr.note("status."+c, have)
			}
			return verdict{status: InProgressStatus, reason: "PartNotReady",
				message: c + ": " + strconv.FormatInt(have, 10) + "/" + strconv.FormatInt(want, 10), by: "infer:counts"}, true
		}
	}
	if counts {
		if desired, ok := toInt(status["desiredNumberScheduled"]); ok {
			if ready, ok := toInt(status["numberReady"]); ok && ready < desired {
				return verdict{status: InProgressStatus, reason: "LessReady",
					message: "numberReady: " + strconv.FormatInt(ready, 10) + "/" + strconv.FormatInt(desired, 10), by: "infer:counts"}, true
			}
		}
	}

	// "ready: 2/3", as kubectl prints it and some operators publish it, in a field named
	// ready or with Ready in its name (Thundernetes' currentStandingByReadyDesired "3/6").
	if k := parts.readyKey; k != "" {
		return verdict{status: InProgressStatus, reason: "LessReady", message: k + ": " + status[k].(string), by: "infer:counts"}, true
	}
	// A fraction short in any other field of status ("progress": "1/3", "statusReplicas":
	// "1/3", "contractDepsSummary": "1/2"), the have/want column a controller prints for
	// kubectl: what it counts is not all there yet. Fields counting setbacks
	// (countsSetbacks: "retries": "2/5") are not read.
	if k := parts.fractionKey; k != "" {
		return verdict{status: InProgressStatus, reason: "Partial", message: k + ": " + parts.fractionVal, by: "infer:counts"}, true
	}
	// Work listed as pending (NodeMaintenance's pendingPods, the pods still to evict): a
	// list of status named pending… that is not empty.
	if pendingKey != "" {
		return verdict{status: InProgressStatus, reason: "Pending",
			message: "status." + pendingKey + ": " + strconv.Itoa(len(status[pendingKey].([]any))) + " pending", by: "infer:counts"}, true
	}
	return verdict{}, false
}

// desiredReplicas is the number of replicas the object is meant to have:
// status.desiredReplicas, the number its controller decided on, which may differ from
// spec.replicas by design (Zalando's stackset-controller scales a Stack no traffic reaches
// to 0), else spec.replicas.
func desiredReplicas(spec, status map[string]any) (int64, bool) {
	if want, ok := toInt(status["desiredReplicas"]); ok {
		return want, true
	}
	if want, ok := toInt(spec["replicas"]); ok {
		return want, true
	}
	// Asked for under another name, when spec has no replicas (Cloud Foundry's eirini
	// LRP: spec.instances; etcd-operator-style clusters: spec.size).
	if want, ok := toInt(spec["instances"]); ok {
		return want, true
	}
	return toInt(spec["size"])
}

// countErrorKeys are the status fields judgeCounts reads as errors, in their order of
// precedence; countFlagKeys the boolean flags.
var (
	countErrorKeys = [...]string{"failureReason", "failureMessage", "errorMessage", "errorReason", "error", "errors", "problems"}
	countFlagKeys  = [...]string{"ready", "readyToUse", "valid", "available", "registered", "provisioned", "initialized", "active", "healthy"}
)

// indexOf is the index of s in keys, or -1.
func indexOf(keys []string, s string) int {
	for i, k := range keys {
		if k == s {
			return i
		}
	}
	return -1
}

// errorText is the text of an error field: a string, an object's message, or a list's
// entries (strings or objects with a message), joined; "" when there is none.
func errorText(v any) string {
	switch v := v.(type) {
	case string:
		return strings.TrimSpace(v)
	case map[string]any:
		// Its message, else its description with the code it names ("INVALID_SECRET:
		// CLIENT_SECRET property missing").
		if s, _ := v["message"].(string); strings.TrimSpace(s) != "" {
			return strings.TrimSpace(s)
		}
		if s, _ := v["errorMessage"].(string); strings.TrimSpace(s) != "" {
			return strings.TrimSpace(s) // config-sync's errors[].errorMessage
		}
		if s, _ := v["userMessage"].(string); strings.TrimSpace(s) != "" {
			return strings.TrimSpace(s) // HPE DataWorkflowServices' ResourceError
		}
		if s, _ := v["description"].(string); strings.TrimSpace(s) != "" {
			for _, ck := range [...]string{"code", "statusCode", "reason"} {
				if c, _ := v[ck].(string); c != "" {
					return c + ": " + strings.TrimSpace(s)
				}
			}
			return strings.TrimSpace(s)
		}
	case []any:
		var parts []string
		for _, e := range v {
			if s := errorText(e); s != "" {
				parts = append(parts, s)
			}
			if len(parts) == 3 {
				break
			}
		}
		if len(v) > len(parts) && len(parts) > 0 {
			parts = append(parts, "and "+strconv.Itoa(len(v)-len(parts))+" more")
		}
		return strings.Join(parts, "; ")
	}
	return ""
}

// milderSeverity reports an error object whose severity field names one that may yet
// clear: Minor, Major, Warning, Info (HPE DataWorkflowServices' ResourceError; Fatal is
// one that will never succeed).
func milderSeverity(v any) bool {
	m, _ := v.(map[string]any)
	sev, _ := m["severity"].(string)
	switch strings.ToLower(sev) {
	case "minor", "major", "warning", "info":
		return true
	}
	return false
}

// reasonFromField names the Stalled reason for an error field: its own name in CamelCase.
func reasonFromField(k string) string {
	return strings.ToUpper(k[:1]) + k[1:]
}

// fraction parses "have/want".
func fraction(s string) (have, want int64, ok bool) {
	a, b, found := strings.Cut(strings.TrimSpace(s), "/")
	if !found {
		return 0, 0, false
	}
	h, err1 := strconv.ParseInt(strings.TrimSpace(a), 10, 64)
	w, err2 := strconv.ParseInt(strings.TrimSpace(b), 10, 64)
	return h, w, err1 == nil && err2 == nil
}

// nothingToWaitFor is the message of an object whose status says nothing inference reads
// as a reason to wait: it names what was read and what was not understood.
func nothingToWaitFor(status map[string]any, conds []any, unknown string) string {
	var types []string
	for _, e := range conds {
		c, _ := e.(map[string]any)
		if t, _ := c["type"].(string); t != "" && len(types) < 4 {
			types = append(types, t+"="+brief(c["status"]))
		}
	}
	msg := "Nothing in status says there is anything to wait for"
	switch {
	case unknown != "" && len(types) > 0:
		msg += " (not understood: " + unknown + "; conditions " + strings.Join(types, ", ") + ")"
	case unknown != "":
		msg += " (not understood: " + unknown + ")"
	case len(types) > 0:
		msg += " (conditions " + strings.Join(types, ", ") + ")"
	}
	return msg
}

// noteStates records for Explain the state fields scanStates read, in a stable order.
func noteStates(status map[string]any, own string, tr *trace) {
	type read struct {
		at    stateField
		value string
	}
	var reads []read
	eachStateField(status, own, nil, nil, func(at stateField, value string) { reads = append(reads, read{at, value}) })
	sort.Slice(reads, func(i, j int) bool { return reads[i].at.before(reads[j].at) })
	for _, r := range reads {
		tr.note("status."+r.at.path(), r.value)
	}
}

// messageWaits reports a message that says it waits, by its words (classifyMessage) or by
// its first word (startsTransient).
func messageWaits(msg string) bool {
	return classifyMessage(msg) == reasonTransient || startsTransient(msg)
}

// startsTransient reports whether a message starts with a word of transientWords
// ("Waiting for Installation Variant to be set"): a condition that names a failure but
// says it waits is waiting. The first word is taken whole, up to a space or a
// punctuation mark: a message that starts with a name ("ProvisioningRequest is expired")
// does not start with the words that name is made of.
func startsTransient(msg string) bool {
	end := 0
	for end < len(msg) && msg[end] != ' ' && msg[end] != ':' && msg[end] != ',' && msg[end] != '.' {
		end++
	}
	var buf [24]byte
	w, ok := normalize(msg[:end], buf[:])
	return ok && transientWords[w]
}

// isInferOrReady reports whether t is Ready or one of inferConditions, which rules 5 and
// 6a read.
func isInferOrReady(t string) bool {
	if t == "Ready" {
		return true
	}
	for _, x := range inferConditions {
		if t == x {
			return true
		}
	}
	return false
}

// kindInfo is what Options.Kinds says of the object's kind, or nil.
func (rf *runFacts) kindInfo() *KindInfo {
	if !rf.infoAsked && rf.kinds != nil {
		rf.info, rf.infoAsked = rf.kinds(rf.apiVersion, rf.kind), true
	}
	return rf.info
}

// phasesEnd is kindInfo().finishes(), computed once.
func (rf *runFacts) phasesEnd() (finishes, known bool) {
	if !rf.phasesAsked {
		rf.phasesFinish, rf.phasesKnown = rf.kindInfo().finishes()
		rf.phasesAsked = true
	}
	return rf.phasesFinish, rf.phasesKnown
}

// countedReplicas are the counts judgeCounts reads or that count the same replicas again.
var countedReplicas = map[string]bool{"replicas": true, "readyReplicas": true, "availableReplicas": true,
	"updatedReplicas": true, "currentReplicas": true, "desiredReplicas": true, "updatedReadyReplicas": true,
	"unavailableReplicas": true, "updatedAvailableReplicas": true, "fullyLabeledReplicas": true}

// otherReplicas sums the counts of replicas in states of the operator's own that are
// states reached (Agones' allocatedReplicas, reservedReplicas): replicas not ready because
// they are in use are not missing. Not counts of replicas on their way or in trouble
// (metal-stack's progressingReplicas and unhealthyReplicas, notReadyReplicas), nor a target.
func otherReplicas(status map[string]any) int64 {
	var n int64
	for k, v := range status {
		if countedReplicas[k] || len(k) <= len("Replicas") || !strings.HasSuffix(k, "Replicas") ||
			phaseClassOf(k[:len(k)-len("Replicas")]) != phaseUp {
			continue
		}
		if c, ok := toInt(v); ok && c > 0 {
			n += c
		}
	}
	return n
}

// askedState reports a state the spec asks for by name: a spec field true whose name and
// the state's value share their stem (spec.offline and Offline, spec.stopped and Stopped,
// spec.hibernate and Hibernated). Such a state is where the object is meant to be.
func askedState(m map[string]any, value string) string {
	spec, _ := m["spec"].(map[string]any)
	var vb [40]byte
	v, ok := normalize(value, vb[:])
	if !ok || len(v) < 4 || strings.HasSuffix(v, "ing") {
		return "" // a state in motion towards what the spec asks (Suspending) is not there yet
	}
	for k, x := range spec {
		b, isBool := x.(bool)
		if isBool && !b && negates(v, k) {
			return "spec." + k // spec.active false and Inactive, spec.enabled false and Disabled
		}
		if !b {
			continue
		}
		var kb [40]byte
		kn, ok := normalize(k, kb[:])
		if !ok || len(kn) < 4 {
			continue
		}
		stem := kn
		if len(stem) > len(v) {
			stem = stem[:len(v)]
		}
		if len(stem) >= 4 && strings.HasPrefix(v, stem) || strings.HasPrefix(kn, v) {
			return "spec." + k
		}
	}
	// Or an annotation "true" whose name (after its prefix) is the state (kcp's
	// LogicalCluster: core.kcp.io/inactive "true", and phase Inactive).
	meta, _ := m["metadata"].(map[string]any)
	annotations, _ := meta["annotations"].(map[string]any)
	for k, x := range annotations {
		if s, _ := x.(string); s != "true" {
			continue
		}
		name := k[strings.LastIndexByte(k, '/')+1:]
		var kb [40]byte
		if kn, ok := normalize(name, kb[:]); ok && kn == v {
			return "metadata.annotations[" + k + "]"
		}
	}
	// Or a spec field named for a state (spec.state, …State) whose value is the value's
	// last word or its stem (OpenChoreo's ReleaseBinding: spec.state Undeploy, and Ready
	// False, ResourcesUndeployed).
	it := wordIter{s: value}
	last := string(it.last())
	if len(last) < 4 {
		return ""
	}
	k, _ := specStateField(m, func(w, _ string) bool { return len(w) >= 4 && strings.HasPrefix(last, w) })
	if k != "" {
		return "spec." + k
	}
	return ""
}

// negates reports whether the state v (normalized) is what a boolean spec field k false
// asks for: inactive for active, disabled for enabled.
func negates(v, k string) bool {
	switch v {
	case "inactive":
		return k == "active"
	case "disabled":
		return k == "enabled"
	}
	return false
}

// reasonSaysDone reports a Progressing reason that says the progress is over
// (NewReplicaSetAvailable, Complete, Succeeded, Reconciled): Kubernetes' own Progressing
// stays True once a rollout is done.
func reasonSaysDone(r any) bool {
	s, _ := r.(string)
	it := wordIter{s: s}
	for w, ok := it.next(); ok; w, ok = it.next() {
		switch string(w) {
		case "no", "not":
			// Negated (vLLM production-stack's NoReadyPods, NotReady): the state is
			// what is missing.
			return false
		case "available", "complete", "completed", "succeeded", "successful", "success", "done",
			"ready", "reconciled", "finished", "synced", "deployed", "stable", "healthy":
			return true
		}
	}
	return false
}

// completedAt returns the first completion-time field of status that is set, and its value.
func completedAt(status map[string]any) (field, at string) {
	for _, k := range completionFields {
		if s, ok := status[k].(string); ok && s != "" {
			return k, s
		}
	}
	return "", ""
}

// progressingStopped reads a Progressing condition False, for the latest generation, whose
// reason names an error a person must fix (PGUpgradeInvalidForCluster; a Deployment's
// ProgressDeadlineExceeded): Failed. Progressing False with any other reason is often
// progress finished, and says nothing here.
func progressingStopped(f *fields, conds []any, gen int64, hasGen bool) (verdict, bool) {
	c := f.cond(conds, "Progressing")
	if f.err != nil || !c.isFalse() {
		return verdict{}, false
	}
	// Its reason names an error retrying does not clear (ProgressDeadlineExceeded), or,
	// the reason not saying the wait goes on, its message does ("IngressClass already
	// exists and is not owned by this controller").
	if r := classifyReason(c.reason); r != reasonTerminal && (r == reasonTransient || classifyMessage(c.message) != reasonTerminal) {
		return verdict{}, false
	}
	if _, stale := staleCondition(f, c, "Progressing", gen, hasGen, nil); stale || f.err != nil {
		return verdict{}, false
	}
	return verdict{status: FailedStatus, reason: c.reason, message: c.text("Progressing condition is False"), by: "infer:conditions"}, true
}

// saysWhy reports a condition, of a type inference does not otherwise read, that is False or
// Unknown and has a reason: judgeRunConditions reads its reason (the reason is read once more there,
// on the few conditions that pass).
func saysWhy(m map[string]any) bool {
	// Status first: most conditions are True, and one lookup says so.
	if st, _ := m["status"].(string); st != "False" && st != "Unknown" {
		return false
	}
	r, _ := m["reason"].(string)
	return r != ""
}

// waitWords are the words of a reason that says the condition waits for something
// (WaitingForBuild, DependencyNotReady, RetryPending). Not Reconciling or Progressing, which
// some operators write as the reason of every condition whatever its state (Yatai's).
var waitWords = map[string]bool{
	"waiting": true, "wait": true, "awaiting": true, "pending": true, "retrying": true,
	"inprogress": true, "yet": true, "dependency": true, "dependencies": true, "notready": true,
}

// createdItself reports a message that says the object itself was made and that it went
// well: it starts with the kind's noun (own, kindNoun's) and has successfully, succeeded or
// successful as a word ("Product created successfully" on an APIMProduct).
func createdItself(msg, own string) bool {
	if own == "" || len(msg) <= len(own) || !strings.EqualFold(msg[:len(own)], own) || msg[len(own)] != ' ' {
		return false
	}
	it := wordIter{s: msg}
	for w, ok := it.next(); ok; w, ok = it.next() {
		switch string(w) {
		case "successfully", "succeeded", "successful":
			return true
		}
	}
	return false
}

// waitsOnly reports a message that names what it waits for (waitsFor: "Parent Not Ready",
// "instance is not yet ready") and names no failure ("installation failed: timed out
// waiting …", "failed party …, pending party …" say the wait ended badly).
func waitsOnly(msg string) bool {
	if !waitsFor(msg) {
		return false
	}
	it := wordIter{s: msg}
	for w, ok := it.next(); ok; w, ok = it.next() {
		switch string(w) {
		case "failed", "failure", "fail", "fails", "error", "errors", "timeout":
			return false
		}
	}
	return true
}

// waitsFor reports a reason with a word of waitWords, or Not and Ready in two words.
func waitsFor(reason string) bool {
	it := wordIter{s: reason}
	not := false
	for w, ok := it.next(); ok; w, ok = it.next() {
		if waitWords[string(w)] || not && string(w) == "ready" {
			return true
		}
		not = string(w) == "not"
	}
	return false
}

// cronAsked reports a spec that asks for runs on a recurring schedule: a field schedule,
// cron, cronSchedule or cronExpression whose value reads as a cron expression ("0 2 * * *",
// "@daily", "@every 1h"), or an object of those names holding one, at most two objects down
// (spec.policy.cron.schedule), in objects of at most eight fields.
func cronAsked(spec map[string]any, depth int) bool {
	for k, v := range spec {
		switch v := v.(type) {
		case string:
			if cronField(k) && isCron(v) {
				return true
			}
		case map[string]any:
			// Into small objects only: a schedule's own (spec.scan, spec.policy.cron) is a
			// few fields; a pod template or a configuration is not one, and costs a walk.
			if depth < 2 && len(v) <= 8 && cronAsked(v, depth+1) {
				return true
			}
		}
	}
	return false
}

func cronField(k string) bool {
	switch k {
	case "schedule", "cron", "cronSchedule", "cronExpression", "cronSpec":
		return true
	}
	return false
}

// isCron reports a value that reads as a cron expression: five to seven fields of digits
// and * , - / ? L W # (names of months and days too), or a descriptor (@daily, @every 1h).
func isCron(v string) bool {
	v = strings.TrimSpace(v)
	if strings.HasPrefix(v, "@") {
		return len(v) > 1
	}
	fields := strings.Fields(v)
	if len(fields) < 5 || len(fields) > 7 {
		return false
	}
	digits := false
	for _, f := range fields {
		for i := 0; i < len(f); i++ {
			c := f[i]
			switch {
			case isDigit(c) || c == '*':
				digits = true
			case c == ',' || c == '-' || c == '/' || c == '?' || c == '#' || isLetter(c):
			default:
				return false
			}
		}
	}
	return digits
}

// attempts reports a list of status named for tries made in order (attempts,
// managedPipelineAttempts, retries): its last entry is the try that counts.
func attempts(k string) bool {
	return k == "attempts" || k == "retries" || strings.HasSuffix(k, "Attempts") || strings.HasSuffix(k, "Retries")
}

// isHistory reports a list or an object of status named for a record of what was (history,
// runHistory, stateTransitionHistory, commitRecords):
// its entries' states are those of runs past, not of the object (KubeDL's Cron keeps the
// jobs it started there, the last of which may have failed; Sealos' Devbox keeps a record
// per image commit, the latest Pending until the next stop commits it).
func isHistory(k string) bool {
	return k == "history" || strings.HasSuffix(k, "History") || k == "records" || strings.HasSuffix(k, "Records") ||
		k == "events" || strings.HasSuffix(k, "Events")
}

// reasonInProgress reports a reason that says a change is under way in so many words:
// InProgress, or In and Progress (RolloutInProgress, UPDATE_IN_PROGRESS).
func reasonInProgress(reason string) bool {
	if len(reason) < len("InProgress") || !strings.Contains(reason, "rogress") && !strings.Contains(reason, "ROGRESS") {
		return false
	}
	it := wordIter{s: reason}
	in := false
	for w, ok := it.next(); ok; w, ok = it.next() {
		if string(w) == "inprogress" || in && string(w) == "progress" {
			return true
		}
		in = string(w) == "in"
	}
	return false
}

// succeededReason reports a reason that says something went well (InstallSucceeded,
// Success, Completed, NoErrors): a condition named for a failure, False with it, reports none.
func succeededReason(r string) bool {
	it := wordIter{s: r}
	for w, ok := it.next(); ok; w, ok = it.next() {
		switch string(w) {
		case "succeeded", "success", "successful", "completed", "complete", "ok", "no", "none", "healthy", "ready":
			return true
		}
	}
	return false
}

// appliedGeneration reports a field of status named for the generation the controller
// applied, reconciled or otherwise acted on: an optional last, then Applied, Reconciled,
// Observed, Synced, Processed, Handled, Completed, Built or Deployed, then Gen or
// Generation (lastAppliedGen, reconciledGeneration, lastCompletedGeneration). Not
// observedGeneration, which rule 2 reads, nor a generation named for an attempt or a plan.
func appliedGeneration(k string) bool {
	if k == "observedGeneration" {
		return false
	}
	rest := k
	if r, ok := strings.CutPrefix(k, "last"); ok && r != "" && isUpper(r[0]) {
		rest = r
	}
	var stem string
	switch {
	case strings.HasSuffix(rest, "Generation"):
		stem = rest[:len(rest)-len("Generation")]
	case strings.HasSuffix(rest, "Gen"):
		stem = rest[:len(rest)-len("Gen")]
	default:
		return false
	}
	switch strings.ToLower(stem) {
	case "applied", "reconciled", "observed", "synced", "processed", "handled", "completed", "built", "deployed":
		return true
	}
	return false
}
