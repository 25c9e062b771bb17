package kstatus

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// KindInfo is what a kind's definition says about its status, for judging objects of a
// kind no rule is written for (rule 6 in the package documentation). KindInfoFromCRD
// derives it from a CustomResourceDefinition; Options.Kinds hands it to Compute.
type KindInfo struct {
	// HasStatus reports that the kind declares a status: its schema gives status
	// properties (or keeps unknown ones), or it has the status subresource and its schema
	// says nothing of status. A status schema that declares nothing (an empty Status
	// struct) holds nothing, subresource or not. An object of such a kind with no
	// status has not been looked at by its controller yet, and is InProgress. An object of
	// a kind that declares none has nothing to wait for, and is Current.
	HasStatus bool
	// PhaseValues are the values the schema allows for the kind's phase (the enum of
	// status.phase, else status.state, else status.health.status, else status.status, else
	// status.condition as a string: jace-ys' sentry-operator), or nil when the schema
	// lists none. A list that includes a terminal success (Succeeded, Completed, Complete,
	// Done, Finished) marks a kind that finishes, whose Running phase is InProgress.
	PhaseValues []string
	// Finishes reports that the definition describes runs that end, as a Job's: an enum of
	// a phase or state field of status, one or two objects down (not in a record of a
	// past run, unless of the kind's own noun: a TestExecution's latestExecution), lists a
	// terminal success (Succeeded, Completed, Passed, ...), the enum of the
	// conditions' types lists an outcome (Succeeded, Complete, Completed, Finished),
	// status has a completion time (completionTime, finishedAt, endTime, ...) or a boolean
	// named for the end of the run or of a stage of it (completed, runnerCompleted), or spec has
	// a run's limits (backoffLimit, ttlSecondsAfterFinished, activeDeadlineSeconds,
	// runPolicy). An object of such a kind is Current only once its run has ended (rule 6f).
	Finishes bool
	// FinishesBy says what in the definition made Finishes true, for messages.
	FinishesBy string
	// ScaleSpecReplicas and ScaleStatusReplicas are the paths of the kind's scale
	// subresource (specReplicasPath and statusReplicasPath, as ".spec.replicas" and
	// ".status.replicas"), or "" when it has none. The kind's definition says by them that
	// the count at ScaleStatusReplicas is the one to hold against the replicas asked for,
	// as kubectl scale and a HorizontalPodAutoscaler do: fewer is a scale not finished.
	ScaleSpecReplicas, ScaleStatusReplicas string
	// ScaleSelector is the scale subresource's labelSelectorPath (".status.selector"), or
	// "". A controller that writes the selector there keeps the scale's status, so its
	// replicas absent are 0, as the API server's scale subresource reads them (a Go
	// controller's int32 with omitempty drops a 0).
	ScaleSelector string
}

// finishes reports whether k's phase vocabulary has a terminal success; known is false when
// k lists no phases.
func (k *KindInfo) finishes() (finishes, known bool) {
	if k == nil || len(k.PhaseValues) == 0 {
		return false, false
	}
	for _, p := range k.PhaseValues {
		if phaseClassOf(p) == phaseDone {
			return true, true
		}
	}
	return false, true
}

// KindInfoFromCRD reads the KindInfo of version of the kind crd defines (an
// apiextensions.k8s.io/v1 CustomResourceDefinition, as a Get or a watch returns it; a typed
// one converts with runtime.DefaultUnstructuredConverter). An empty version means the
// storage version. ok is false when crd has no such version.
//
// It costs a walk of the version's schema down to status: call it once per CRD change,
// not per object.
func KindInfoFromCRD(crd *unstructured.Unstructured, version string) (info *KindInfo, ok bool) {
	if crd == nil {
		return nil, false
	}
	spec, _ := crd.Object["spec"].(map[string]any)
	versions, _ := spec["versions"].([]any)
	for _, e := range versions {
		v, _ := e.(map[string]any)
		name, _ := v["name"].(string)
		storage, _ := v["storage"].(bool)
		if name != version && (version != "" || !storage) {
			continue
		}
		info = &KindInfo{}
		if sub, _ := v["subresources"].(map[string]any); sub != nil {
			_, info.HasStatus = sub["status"]
			if scale, _ := sub["scale"].(map[string]any); scale != nil {
				info.ScaleSpecReplicas, _ = scale["specReplicasPath"].(string)
				info.ScaleStatusReplicas, _ = scale["statusReplicasPath"].(string)
				info.ScaleSelector, _ = scale["labelSelectorPath"].(string)
			}
		}
		schema, _ := v["schema"].(map[string]any)
		root, _ := schema["openAPIV3Schema"].(map[string]any)
		status := property(root, "status")
		if status != nil {
			// A status schema that declares no field, keeps no unknown ones and is no map
			// (kubebuilder's scaffold, an empty Status struct, beside the status
			// subresource) holds nothing: the server prunes whatever a controller writes, so
			// the kind publishes no status, whatever its subresources.
			props, _ := status["properties"].(map[string]any)
			preserve, _ := status["x-kubernetes-preserve-unknown-fields"].(bool)
			_, mapOf := status["additionalProperties"]
			info.HasStatus = len(props) > 0 || preserve || mapOf
		}
		names, _ := spec["names"].(map[string]any)
		kind, _ := names["kind"].(string)
		info.Finishes, info.FinishesBy = schemaFinishes(status, property(root, "spec"), kindNoun(kind))
		for _, path := range [][]string{{"phase"}, {"state"}, {"health", "status"}, {"status"}, {"condition"}} {
			s := status
			for _, p := range path {
				s = property(s, p)
			}
			if enum, _ := s["enum"].([]any); len(enum) > 0 {
				for _, x := range enum {
					if str, ok := x.(string); ok {
						info.PhaseValues = append(info.PhaseValues, str)
					}
				}
				break
			}
		}
		return info, true
	}
	return nil, false
}

// schemaFinishes reads from the schemas of status and spec whether the kind's objects are
// runs that end (KindInfo.Finishes), and says why. own is the kind's last word (kindNoun):
// a field named for the last run of that noun is the object's own (ownRecord).
func schemaFinishes(status, spec map[string]any, own string) (bool, string) {
	props, _ := status["properties"].(map[string]any)
	for _, k := range completionFields {
		if _, ok := props[k]; ok {
			return true, "its definition has status." + k
		}
	}
	// A boolean named for the end of the run or of a stage of it (completed,
	// runnerCompleted), the first by name.
	flag := ""
	for k, p := range props {
		if pm, _ := p.(map[string]any); pm["type"] == "boolean" && completionFlag(k) && (flag == "" || k < flag) {
			flag = k
		}
	}
	if flag != "" {
		return true, "its definition has status." + flag
	}
	specProps, _ := spec["properties"].(map[string]any)
	for _, k := range runSpecFields {
		if _, ok := specProps[k]; ok && !podField(k, specProps) {
			return true, "its definition has spec." + k
		}
	}
	// The conditions' types, where the schema lists them.
	items, _ := property(status, "conditions")["items"].(map[string]any)
	if enum, _ := property(items, "type")["enum"].([]any); len(enum) > 0 {
		for _, x := range enum {
			if t, _ := x.(string); classifyCondition(t) == condDone {
				return true, "its definition lists a " + t + " condition"
			}
		}
	}
	// Enums of phase and state fields, in status and one and two objects down
	// (latestExecution.executionResult.status on a TestExecution), but not in a record of
	// a state wanted or past (lastBackup.phase), unless it is the object's own run, and
	// not of a field or object named for another operation (namesOtherRun: buildStatus,
	// restore.state): that operation ends, the object need not (LlamaDeployment's
	// buildStatus and Hazelcast's restore.state list Succeeded; their phase Running is
	// where they run).
	var found string
	var walk func(s map[string]any, path string, depth int)
	walk = func(s map[string]any, path string, depth int) {
		ps, _ := s["properties"].(map[string]any)
		for name, p := range ps {
			pm, _ := p.(map[string]any)
			if namesOtherRun(name, own) {
				continue // a build's or a restore's states say it ends, not that the kind does
			}
			if enum, _ := pm["enum"].([]any); len(enum) > 0 && isStateField(name) {
				for _, x := range enum {
					if v, _ := x.(string); phaseClassOf(v) == phaseDone && (found == "" || path+name < found) {
						found = path + name
					}
				}
			}
			if depth > 0 && name != "conditions" && (!notNow(name) || ownRecord(name, own)) {
				walk(pm, path+name+".", depth-1)
			}
		}
	}
	walk(status, "status.", 2)
	if found != "" {
		return true, "its definition lists a terminal success among the values of " + found
	}
	return false, ""
}

// otherRuns are the first words of fields and objects of status named for an operation
// the object runs on the side (a build, a backup, a restore, a migration, an upgrade, a
// snapshot, a sync, an import or an export): their states are that operation's.
var otherRuns = [...]string{"build", "backup", "restore", "migration", "upgrade", "snapshot", "sync", "import", "export"}

// namesOtherRun reports a status field named for an operation (otherRuns) that is not the
// object's own: own is the kind's last word (kindNoun), and a Backup's backup.state is its
// own run's.
func namesOtherRun(name, own string) bool {
	for _, w := range otherRuns {
		if len(name) >= len(w) && strings.EqualFold(name[:len(w)], w) &&
			(len(name) == len(w) || isUpper(name[len(w)]) || name[len(w)] == '_') {
			return !strings.EqualFold(w, own)
		}
	}
	return false
}

// property returns the schema of property name of the object schema s, or nil.
func property(s map[string]any, name string) map[string]any {
	props, _ := s["properties"].(map[string]any)
	p, _ := props[name].(map[string]any)
	return p
}

// phaseKind sorts the phase values inference knows.
type phaseKind uint8

const (
	phaseUnknown     phaseKind = iota // a value inference does not know: it does not decide
	phaseDone                         // terminal success: Current
	phaseUp                           // a steady state of a kind that runs: Current
	phaseRunning                      // Running: Current or InProgress, by the kind's vocabulary
	phaseProgressing                  // InProgress
	phaseFailed                       // Failed
	phaseSuspended                    // Failed, reason Suspended: only a person resumes it
)

// phases maps phase and state values, lowercased and without separators (see normalize),
// to their kind. The vocabularies are those of Pods and Jobs, of Argo CD's health (Healthy,
// Degraded, Progressing, Suspended, Missing), and the words operators use most for the same
// states, health words (OK, warning, green, red, faulted) among them.
var phases = map[string]phaseKind{
	"succeeded": phaseDone, "completed": phaseDone, "complete": phaseDone, "done": phaseDone,
	"finished": phaseDone, "success": phaseDone, "successful": phaseDone, "accomplished": phaseDone,
	"succeed": phaseDone, "executed": phaseDone,
	// A common misspelling that operators publish as their own word (shaowenchen's ops
	// TaskRun and PipelineRun runStatus Successed; TaskSetPhase Successed elsewhere).
	"successed": phaseDone,
	// An operation's outcome, named by its past participle: a restore, a migration, an
	// export or import, a processing run finished.
	"restored": phaseDone, "migrated": phaseDone, "exported": phaseDone, "imported": phaseDone,
	"processed": phaseDone, "finalized": phaseDone, "delivered": phaseDone,
	// A verdict's words (a test's or an experiment's, see isStateField): passed is a run's
	// outcome; awaited is a verdict not given yet.
	"passed": phaseDone, "pass": phaseDone,

	"healthy": phaseUp, "ready": phaseUp, "available": phaseUp, "bound": phaseUp,
	"active": phaseUp, "established": phaseUp, "deployed": phaseUp, "online": phaseUp,
	"ok": phaseUp, "green": phaseUp, "provisioned": phaseUp, "stable": phaseUp,
	"synced": phaseUp, "serving": phaseUp, "operational": phaseUp, "up": phaseUp,
	"externallyprovisioned": phaseUp, "reconciled": phaseUp, "applied": phaseUp,
	"allocated": phaseUp, "reserved": phaseUp, "installed": phaseUp,
	// States reached that operators name by a past participle (Configured, Attached, Issued,
	// InSync, UPDATED), as condition types name them.
	"configured": phaseUp, "attached": phaseUp, "mounted": phaseUp, "issued": phaseUp,
	"valid": phaseUp, "validated": phaseUp, "insync": phaseUp, "verified": phaseUp,
	"converged": phaseUp, "joined": phaseUp, "bootstrapped": phaseUp, "updated": phaseUp,
	"upgraded": phaseUp, "enabled": phaseUp,

	// Doing, as some operators spell Running (Beihang's cloudrun: Pending, Doing, Done,
	// Failed): the same reading, by the kind's vocabulary.
	"running": phaseRunning, "doing": phaseRunning,

	// Init and Initial as phases (spidernet-io's EgressTunnel: Init until its agent reports
	// the parent interface), as a Pod's Init:0/1: set up, not yet doing its work.
	"init": phaseProgressing, "initial": phaseProgressing, "initialising": phaseProgressing,
	"pending": phaseProgressing, "progressing": phaseProgressing, "creating": phaseProgressing,
	"provisioning": phaseProgressing, "initializing": phaseProgressing, "starting": phaseProgressing,
	"updating": phaseProgressing, "upgrading": phaseProgressing, "deploying": phaseProgressing,
	"reconciling": phaseProgressing, "waiting": phaseProgressing, "scaling": phaseProgressing,
	"queued": phaseProgressing, "inprogress": phaseProgressing, "notready": phaseProgressing,
	"unknown": phaseProgressing, "missing": phaseProgressing, "processing": phaseProgressing,
	"submitted": phaseProgressing, "scheduling": phaseProgressing, "restarting": phaseProgressing,
	"registering": phaseProgressing, "inspecting": phaseProgressing, "preparing": phaseProgressing,
	// A request made and not acted on yet (Entando's EntandoApp: phase requested, set by
	// its coordinator before a controller picks the object up).
	"requested": phaseProgressing,
	// Activities that end by themselves: a build, a transfer, a check.
	"building": phaseProgressing, "exporting": phaseProgressing, "importing": phaseProgressing,
	"downloading": phaseProgressing, "uploading": phaseProgressing, "copying": phaseProgressing,
	"cloning": phaseProgressing, "pulling": phaseProgressing, "pushing": phaseProgressing,
	"compiling": phaseProgressing, "packaging": phaseProgressing, "generating": phaseProgressing,
	"loading": phaseProgressing, "applying": phaseProgressing, "validating": phaseProgressing,
	"verifying": phaseProgressing, "realizing": phaseProgressing, "configuring": phaseProgressing,
	"allocating": phaseProgressing, "attaching": phaseProgressing, "detaching": phaseProgressing,
	"expanding": phaseProgressing, "resizing": phaseProgressing, "promoting": phaseProgressing,
	"restoring": phaseProgressing, "backingup": phaseProgressing, "snapshotting": phaseProgressing,
	"bootstrap": phaseProgressing, "bootstrapping": phaseProgressing,
	// Disaster recovery's moves of a workload to another site, named with the words of a
	// failure but not one: failing over or back is under way, failed over or back is where
	// the workload now runs (Ramen's FailingOver and FailedOver, relocating and relocated).
	"failingover": phaseProgressing, "failingback": phaseProgressing, "relocating": phaseProgressing,
	"failedover": phaseUp, "failedback": phaseUp, "relocated": phaseUp,
	// In transit: being moved or downloaded (OME's BaseModel In_Transit).
	"intransit": phaseProgressing,
	// Not active: not yet doing what the object is for (IBM Cloud Operator's service
	// "inactive" while provisioning, Eclipse Che's Inactive while installing), unless the
	// spec asks for it (askedState: spec.active false, or a state named Inactive).
	"inactive": phaseProgressing,
	// A first step done, as a phase: the object was set up, the work it stands for not
	// yet (ChaosBlade's Initialized before Running, Dragonfly's ResourcesCreated).
	"initialized": phaseProgressing, "created": phaseProgressing, "resourcescreated": phaseProgressing,
	"syncing": phaseProgressing, "installing": phaseProgressing, "rebuilding": phaseProgressing,
	"recovering": phaseProgressing, "migrating": phaseProgressing, "suspending": phaseProgressing,
	"pausing": phaseProgressing, "resuming": phaseProgressing, "warning": phaseProgressing,
	"warn": phaseProgressing, "yellow": phaseProgressing, "new": phaseProgressing,
	"wait": phaseProgressing, "partial": phaseProgressing, "outofsync": phaseProgressing,
	"scheduled": phaseProgressing, "rolling": phaseProgressing, "rollingupdate": phaseProgressing,
	"awaited": phaseProgressing, "awaiting": phaseProgressing,
	// Not begun yet: queued (Volcano's Inqueue), planned, not started, not scheduled.
	"inqueue": phaseProgressing, "planned": phaseProgressing, "notstarted": phaseProgressing,
	"unscheduled": phaseProgressing,
	// A need not met yet (eks-anywhere-packages' "controller upgrade required"): something
	// must happen before the object is where it is meant to be.
	"required": phaseProgressing, "needed": phaseProgressing,
	// Behind the spec: a change the controller has yet to make.
	"needsupdate": phaseProgressing, "outdated": phaseProgressing, "stale": phaseProgressing,
	"rebalancing": phaseProgressing, "reconfiguring": phaseProgressing, "downgrading": phaseProgressing,

	"failed": phaseFailed, "failure": phaseFailed, "error": phaseFailed, "errored": phaseFailed,
	"crashloopbackoff": phaseFailed, "degraded": phaseFailed, "unhealthy": phaseFailed,
	"faulted": phaseFailed, "err": phaseFailed, "red": phaseFailed, "aborted": phaseFailed,
	"timeout": phaseFailed, "timedout": phaseFailed, "invalid": phaseFailed,
	"rejected": phaseFailed, "crashed": phaseFailed, "lost": phaseFailed,
	"alreadyexists": phaseFailed, "conflict": phaseFailed, "fail": phaseFailed,
	// Broken beyond what retrying clears: a crash loop, corrupt data, a refusal.
	"backoff": phaseFailed, "crashloop": phaseFailed, "broken": phaseFailed, "corrupt": phaseFailed,
	"corrupted": phaseFailed, "oomkilled": phaseFailed, "denied": phaseFailed, "revoked": phaseFailed,
	"forbidden": phaseFailed,
	// Failing is a failure the controller has seen and is winding down on (DevWorkspace's
	// Failing, before Failed): nothing a waiter waits for comes of it.
	"failing": phaseFailed,

	"suspended": phaseSuspended, "paused": phaseSuspended, "suspend": phaseSuspended,
	// Hibernated is a suspension by another name (SDSC's AmaltheaSession, spec.hibernated),
	// as the conditions' vocabulary already has it.
	"hibernated": phaseSuspended,
}

// inferConditions are the normal-true conditions rule 6 reads, at the top of status (after
// Ready, which rule 5 read) and in each entry of the condition-bearing lists below. The
// last three are the Gateway API's, which its kinds and many vendors' policies publish per
// parent, ancestor or listener.
var inferConditions = [...]string{"Succeeded", "Available", "Accepted", "Programmed", "ResolvedRefs"}

// nestedLists are the fields of status rule 6 looks into for per-entry conditions: Gateway
// API routes' parents, policies' ancestors, Gateways' listeners, and operators' components.
var nestedLists = [...]string{"parents", "ancestors", "listeners", "components"}

// entryLists are the lists of status whose entries' conditions 6b reads: nestedLists,
// and any other list the scan met (facts.lists) that is not a record of the past or of
// what is not now (notNow, isHistory): entries with conditions of their own, per part
// (Datum's DNSRecordSet: recordSets[].conditions, Programmed False NotOwner for a name
// another set owns). A list whose entries have no conditions costs one lookup.
func entryLists(facts *countFacts) (names [len(countFacts{}.lists)]string, n int) {
	if facts.nLists == len(facts.lists) {
		// More lists than the scan keeps: the named ones only.
		n = copy(names[:], nestedLists[:])
		return names, n
	}
	for _, k := range facts.lists[:facts.nLists] {
		if indexOf(nestedLists[:], k) >= 0 || !notNow(k) && !isHistory(k) {
			names[n] = k
			n++
		}
	}
	return names, n
}

// infer is rule 6: it judges an object no rule decided from what it publishes. See the
// package documentation for the steps.
func infer(f *fields, apiVersion string, m, status map[string]any, conds []any, gen int64, hasGen bool, opts *Options, tr *trace) verdict {
	// 6a: conditions at the top of status: the normal-true ones, then those of runs and
	// failures.
	var cv verdict
	var run runConditions
	if len(conds) > 0 { // (most objects with no rule and no Ready have none: skip the reads)
		cv, _ = judgeConditions(f, conds, "", gen, hasGen, tr)
		if f.err != nil {
			return malformed(f.err)
		}
		if cv.status == CurrentStatus && cv.by == "infer:succeeded" {
			return cv // a finished run: nothing else matters
		}
		run = judgeRunConditions(f, conds, gen, hasGen, tr)
		if f.err != nil {
			return malformed(f.err)
		}
		if run.done.status != "" {
			return run.done // a run's outcome decides alone, as Succeeded does
		}
		if v, ok := conditionsBehind(conds, status, gen, hasGen, tr); ok && cv.reason != v.reason {
			return v // (a condition 6a judged already says it, of its own type)
		}
		if cv.status == FailedStatus && run.busy.status == InProgressStatus && cv.reason != "" &&
			!namesFailureWord(cv.reason) && classifyReason(cv.reason) != reasonTerminal && succeededFalse(conds) {
			// Succeeded False with a reason that names no failure, beside a condition of
			// work under way True (OpenShift's MachineOSBuild writes every condition at the
			// start: Succeeded False, reason Ready, "Build Ready", while Building is True):
			// the outcome is not given yet, the work is under way.
			cv = run.busy
		}
		if pv, ok := progressingStopped(f, conds, gen, hasGen); ok && cv.status != FailedStatus {
			// Over an Available False too: the rollout behind it has stopped for good
			// (ProgressDeadlineExceeded), which is the news.
			cv = pv
		}
	}
	// 6c: phases and states, wherever status keeps them. Scanned before 6b, as the scan
	// notes which lists status has (facts.lists).
	var facts countFacts
	st := scanStates(m, status, f.kind, &facts, tr)
	if st.class != phaseUnknown {
		refineByKind(&st, status, f.kind, apiVersion, opts, tr)
	}
	// 6b: conditions of each parent, ancestor, listener or component: only those the scan
	// met are looked up.
	var nv verdict
	lists, nl := entryLists(&facts)
	for _, name := range lists[:nl] {
		list, _ := status[name].([]any)
		for i, e := range list {
			m, _ := e.(map[string]any)
			nc, _ := m["conditions"].([]any)
			if len(nc) == 0 {
				continue
			}
			if nv = worseEntry(f, nc, entryLabel(name, i, m), nv, gen, hasGen, tr); f.err != nil {
				return malformed(f.err)
			}
		}
	}
	// And the entries of an object of status keyed by name, each with conditions of its
	// own (Fybrik's FybrikApplication: assetStates["<asset>"].conditions, Ready False while
	// the asset's copy runs), read as a list's entries are, in key order.
	for _, name := range facts.keyed[:facts.nKeyed] {
		obj, _ := status[name].(map[string]any)
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			e, _ := obj[k].(map[string]any)
			nc, _ := e["conditions"].([]any)
			if len(nc) == 0 {
				continue
			}
			if nv = worseEntry(f, nc, name+"["+k+"]", nv, gen, hasGen, tr); f.err != nil {
				return malformed(f.err)
			}
		}
	}
	if st.class == phaseDone && run.failure.status != FailedStatus && cv.status != FailedStatus &&
		!(st.fromEntry && (cv.status == InProgressStatus || run.busy.status != "")) {
		// A run's outcome decides alone, as Succeeded does. Not the outcome of the parts
		// a list holds so far beside a condition of work under way (TALM's clusters[]
		// complete while Progressing True remediates the next batch): the list may not
		// yet hold every part.
		if r, _ := status["reason"].(string); r != "" && !st.fromEntry && phaseClassOf(r) == phaseFailed {
			// A run's end beside a status.reason that names how it ended badly (TrustyAI's
			// LMEvalJob: state Complete, reason Failed, message Error): the end is a failure.
			if tr != nil {
				tr.note("status.reason", r)
			}
			return verdict{status: FailedStatus, reason: r,
				message: st.v.message + ", reason " + r + messageSuffix(status), by: st.v.by}
		}
		if !st.fromEntry {
			// Unless a value status reports now is not what spec asks since (Carina's
			// LogicVolume: status Success for the volume made, currentSize 10Gi while
			// spec.size asks 20Gi): the outcome is the last operation's, and the change
			// asked since is not done.
			if cv := currentNotReached(m, status, &facts, tr); cv.status != "" {
				return cv
			}
		}
		return st.v
	}
	// 6d: counts, errors and flags.
	xv := judgeCounts(m, status, &st.parts, &facts, tr)
	if xv.status == "" {
		// The replicas of the kind's scale subresource, where no count of status says
		// more (Couchbase's CouchbaseAutoscaler: status.size 3 of spec.size 5).
		if v, short := scaleVerdict(opts.kindInfo(apiVersion, f.kind), m, tr); short {
			xv = v
		}
	}

	if xv.status == "" && facts.genKey != "" && hasGen && facts.genVal < gen {
		// A generation the controller says it applied, below the latest (Hedgehog's
		// GatewayAgent: lastAppliedGen 4 of generation 5): as observedGeneration behind it,
		// the latest spec is not acted on yet.
		if tr != nil {
			tr.note("status."+facts.genKey, facts.genVal)
		}
		xv = verdict{status: InProgressStatus, reason: "LatestGenerationNotApplied",
			message: "status." + facts.genKey + " is " + strconv.FormatInt(facts.genVal, 10) + ", but metadata.generation is " + strconv.FormatInt(gen, 10), by: "infer:counts"}
	}
	run6 := newRunFacts(f, apiVersion, m, status, conds, opts, tr)
	best := verdict{}
	rv, sv := run.verdict(&run6), st.verdict(&run6)
	for _, v := range [...]*verdict{&cv, &rv, &nv, &sv, &xv} {
		if v.status != "" && (best.status == "" || worse(v.status, best.status)) {
			best = *v
		}
	}

	if best.status == "" || best.status == CurrentStatus {
		// The latest attempt's outcome, a failure (frr-k8s' FRRNodeState: lastConversionResult
		// "failed: …"; flotta's upgradeInformation.lastUpgradeStatus failed): what the
		// controller last did for the spec did not work, whatever else reads as reached.
		if v, ok := lastOutcomeFailed(&facts, tr); ok {
			best = v
		} else if v, ok := appliedSpecBehind(m, status, facts.appliedSpec, tr); ok {
			best = v
		}
	}

	// A state that waits for a person (WaitingForUser): only a person ends the wait.
	if best.status != FailedStatus && st.class == phaseProgressing && waitsForPerson(st.value) {
		return personWait(st.v)
	}

	// A condition of a state not reached, beside status.ready true, the object's own
	// summary of its state (kaniop's KanidmGroup: PosixInitialized False for POSIX
	// attributes the spec does not ask for, and ready true): the operator weighed that
	// condition in its summary, as a Ready condition True sums up others. Not a failure,
	// work under way, a state or a count, which say more than the flag.
	if best.status == InProgressStatus && (best == cv || best == run.notMet) && status["ready"] == true &&
		run.busy.status == "" && run.failure.status == "" && sv.status == "" && xv.status == "" {
		if tr != nil {
			tr.note("status.ready", true)
		}
		return verdict{status: CurrentStatus, message: "status.ready is true (" + best.message + ")", by: "infer:counts"}
	}
	// A schedule of runs (a CronJob's kind: Cron or Schedule in its name, or a
	// spec.schedule) waiting for its next run: cosmos-operator's ScheduledVolumeSnapshot in
	// phase WaitingForNext, OpenShift Metering's scheduled Report with Running False,
	// ReportingPeriodWaiting, and status.nextReportTime. Between runs is where a schedule
	// is meant to be, as a CronJob is: Current.
	if best.status == InProgressStatus && (strings.Contains(best.reason, "ait") || strings.Contains(best.reason, "AIT")) {
		// (A substring first: most reasons have no word wait, and the schedule and the
		// reason's words cost a lookup and a walk.)
		if spec, _ := m["spec"].(map[string]any); schedulesRuns(f.kind, spec) && waitsForNextRun(best.reason, status) {
			return verdict{status: CurrentStatus, message: best.message + " (a schedule between runs)", by: best.by}
		}
	}
	// A state of being off (disabled, stopped, offline) that the spec asks for by value
	// (dana-team's Capp: spec.state disabled, stateStatus.state disabled, beside a Ready False
	// for the Knative Service it removed as asked): where the object is meant to be, and
	// what is not ready is what the spec turned off. Not beside a failure or work under way.
	if st.class == phaseUp && st.v.by == "infer:asked" && offState(st.value) && best.status != FailedStatus && run.busy.status == "" && xv.status == "" {
		v := st.v
		v.by = "infer:suspended" // as a suspension asked and reached: Ready's not True is what was turned off
		return v
	}
	// 6e: a stop the spec asks for, reached (spec.started false and phase Stopped), is
	// where the object is meant to be, whatever the conditions of the parts it stopped say
	// as long as they say no more than not True (DevWorkspace's StorageReady and
	// DeploymentReady Unknown once stopped), and whatever the object's own ready flag says
	// (bemade's OdooInstance: spec.replicas 0, phase Stopped, ready false): not a
	// failure, nor work under way.
	// (Only for a stop or an off state: beside a state asked that is a state of work, as
	// NNF's NnfAccess mounted, ready false is that work not done yet.)
	ownNotReady := xv.reason == "NotReady" && xv.status == InProgressStatus && (stopWord(st.value) || offState(st.value))
	if st.class == phaseUp && st.v.by == "infer:asked" && best.status == InProgressStatus &&
		run.failure.status == "" && run.busy.status == "" && nv.status != FailedStatus && (xv.status == "" || ownNotReady) &&
		(best == run.notMet || best == cv || best == xv) {
		return st.v
	}
	// Then a state the spec asks for by name (spec.offline and Offline) is where the object
	// is meant to be; then a suspension, read against what the spec asks.
	if st.class == phaseProgressing || st.class == phaseFailed || st.class == phaseSuspended {
		if path := askedState(m, st.value); path != "" && (best.status != FailedStatus || best.by == "infer:phase" || st.class == phaseSuspended) {
			if tr != nil {
				tr.note(path, true)
			}
			if active := st.activeText(); st.class == phaseSuspended && active != "" {
				// Suspended in one part, another still running: the suspension is under way.
				return verdict{status: InProgressStatus, reason: "Suspending",
					message: st.path + " is " + st.value + ", but " + active + " (" + path + " asks for a suspension)", by: "infer:suspended"}
			}
			return verdict{status: CurrentStatus, message: st.path + " is " + st.value + asks(m, path), by: "infer:suspended"}
		}
	}
	// So is one a condition's reason names (MOCO's MySQLCluster, spec.offline true:
	// Available and Healthy False, reason Offline): the condition is not True because the
	// object is where its spec asks it to be. Only when that reason is the worst news, and
	// no condition says work is under way.
	if best.status == InProgressStatus && best.reason != "" && run.busy.status == "" && xv.status == "" &&
		(best == cv || best == run.notMet) {
		if path := askedState(m, best.reason); path != "" {
			if tr != nil {
				tr.note(path, true)
			}
			return verdict{status: CurrentStatus, message: best.message + asks(m, path), by: "infer:asked"}
		}
	}
	// The object's own ready flag false (status.ready) is what such a state leaves
	// (Substratus' Notebook, spec.suspend: Serving False, Suspended, and ready false).
	if best == xv && xv.reason == "NotReady" && run.busy.status == "" && run.failure.status == "" && sv.status == "" && nv.status == "" {
		if c, path := askedReason(m, conds); path != "" {
			if tr != nil {
				tr.note(path, true)
			}
			t, _ := c["type"].(string)
			st, _ := c["status"].(string)
			r, _ := c["reason"].(string)
			return verdict{status: CurrentStatus, message: t + " condition is " + st + ", " + r + asks(m, path), by: "infer:asked"}
		}
	}
	// And a condition True named for the state a spec field named for a state asks for
	// (OpenShift's managementState Removed, and a Removed condition True, while the counts
	// of what it removed read 0 of 1): the object has reached what its spec asks, and what
	// else status says is what that state leaves behind.
	if best.status == InProgressStatus && run.busy.status == "" && run.failure.status == "" && xv.status != FailedStatus {
		if path, t := askedConditionTrue(m, conds); path != "" {
			if tr != nil {
				tr.note(path, t)
			}
			return verdict{status: CurrentStatus, message: t + " condition is True" + asks(m, path), by: "infer:asked"}
		}
		if path, t := askedConditionFalse(m, conds); path != "" {
			if tr != nil {
				tr.note(path, true)
			}
			return verdict{status: CurrentStatus, message: t + " condition is False" + asks(m, path), by: "infer:asked"}
		}
	}
	if run.suspended.status != "" || st.class == phaseSuspended {
		sv := run.suspended
		if sv.status == "" {
			sv = st.v
		}
		path := suspensionAsked(m)
		if tr != nil && path != "" {
			tr.note(path, true)
		}
		switch {
		case best.status == FailedStatus:
			// A failure is the news, suspended or not.
		case path != "" && st.class == phaseSuspended && st.activeValue != "":
			return verdict{status: InProgressStatus, reason: "Suspending",
				message: sv.message + ", but " + st.activeText() + " (" + path + " asks for a suspension)", by: "infer:suspended"}
		case path != "" && best.status == InProgressStatus && best.reason != "LatestGenerationNotObserved" &&
			pauseAsked(m) != "" && (best.by != "infer:conditions" && best.by != "infer:run" || anyFalse(conds)):
			// Paused as asked, with work left that the paused controller will not do
			// (Stackable's ReconciliationPaused beside Available False): as a paused
			// Deployment with its rollout unfinished, only a person ends the wait. Not
			// conditions the pause left Unknown (StackRox's Deployed), which report no work.
			return verdict{status: FailedStatus, reason: "Paused",
				message: best.message + " (" + path + ": nothing will change until someone resumes it)", by: "infer:suspended"}
		case path != "":
			return verdict{status: CurrentStatus, message: sv.message + asks(m, path), by: "infer:suspended"}
		default:
			sep, end := " (", ")"
			if sv.by == "infer:phase" {
				sep, end = ": ", ""
			}
			return verdict{status: FailedStatus, reason: "Suspended",
				message: sv.message + sep + "nothing will change until someone resumes it" + end, by: "infer:suspended"}
		}
	} else if best.status == CurrentStatus && (run.running || st.class == phaseRunning) {
		// Still running while the spec asks for a suspension: not suspended yet. Not a
		// pause (spec.paused), which stops the controller, not what runs (the etcd-operator
		// convention's paused cluster keeps running: Sensu's SensuCluster, phase Running,
		// controlPaused true); a paused object with nothing pending is Current.
		if path := suspensionAsked(m); path != "" && path != pauseAsked(m) {
			return verdict{status: InProgressStatus, reason: "Suspending",
				message: best.message + ", but " + path + " asks for it to be suspended", by: "infer:suspended"}
		}
	} else if best.status == CurrentStatus && best.by != "infer:suspended" {
		// Paused in the middle of a rollout (Gardener's MachineDeployment, as a paused
		// Deployment: spec.paused, updatedReplicas 1 of 3): the replicas left on the old
		// template stay so until someone resumes it.
		// (The counts first: they are two lookups, the pause a walk of spec.)
		if have, want, short := updatedShort(m, status); short {
			if path := pauseAsked(m); path != "" {
				return verdict{status: FailedStatus, reason: "Paused",
					message: "updatedReplicas: " + strconv.FormatInt(have, 10) + "/" + strconv.FormatInt(want, 10) + " (" + path + ": nothing will change until someone resumes it)", by: "infer:suspended"}
			}
		}
	} else if best.status == InProgressStatus && best.reason != "LatestGenerationNotObserved" {
		// Paused with work left: the controller stops acting on a paused object, so only
		// the person who paused it ends the wait, as for a paused Deployment. Not before
		// the controller has seen the pause: it may yet report it reached.
		if path := pauseAsked(m); path != "" {
			return verdict{status: FailedStatus, reason: "Paused",
				message: best.message + " (" + path + ": nothing will change until someone resumes it)", by: "infer:suspended"}
		}
	}

	// A stop the spec asks for (spec.state Stop), which a condition's reason says was reached
	// (Azure fleet's ClusterStagedUpdateRun: Progressing False, UpdateRunStopped, "The
	// update run has been stopped"): where the object is meant to be, run or not.
	if best.status != FailedStatus && len(conds) > 0 {
		// (The conditions first: the stop asked is a walk of spec.)
		if c := stoppedReason(conds); c != nil {
			if path := stopAsked(m); path != "" {
				if tr != nil {
					tr.note(path, specAt(m, path))
				}
				t, _ := c["type"].(string)
				r, _ := c["reason"].(string)
				msg := t + " " + fmt.Sprint(c["status"]) + ", " + r
				if text, _ := c["message"].(string); text != "" {
					msg += ": " + text
				}
				return verdict{status: CurrentStatus, message: msg + asks(m, path), by: "infer:asked"}
			}
		}
	}

	// A run begun that has not ended, as two conditions of one stem say it: its start True
	// and its end False (Harvester seeder's Inventory: bmcJobSubmitted True, bmcJobCompleted
	// False, while its state is inventoryNodeReady; Kogito's KogitoBuild: Running True,
	// Successful False, reason Running). Not an end False for a failure: that is read as one.
	if best.status == CurrentStatus || best.status == "" && len(conds) > 0 {
		if start, end := begunNotEnded(conds); start != "" {
			if tr != nil {
				tr.note("status.conditions", start+" True, "+end+" False")
			}
			return verdict{status: InProgressStatus, reason: start,
				message: start + " is True and " + end + " is False: begun, not ended", by: "infer:run"}
		}
	}

	// 6f: a kind that finishes is Current only when its run has ended: a Current read from
	// a running state, a run begun, or nothing at all is a run not finished yet.
	settled := best.status == FailedStatus || best.status == InProgressStatus || st.class == phaseDone || st.class == phaseUp ||
		(cv.status == CurrentStatus && !run.running && !run.started && st.class != phaseRunning)
	if !settled && (best.status != "" || len(status) > 0) {
		if k, at := completedAt(status); k != "" && best.status != FailedStatus {
			// A completion time recorded is a run that ended, and nothing says it failed.
			if tr != nil {
				tr.note("status."+k, at)
			}
			return verdict{status: CurrentStatus, message: "The run ended at " + at + " (status." + k + ")", by: "infer:outcome"}
		}
		if k := completedFlag(status); k != "" && best.status != FailedStatus {
			if tr != nil {
				tr.note("status."+k, true)
			}
			return verdict{status: CurrentStatus, message: "The run ended (status." + k + " is true)", by: "infer:outcome"}
		}
		if k, ok := outcomeFlag(status); k != "" && best.status != FailedStatus {
			// A flag of the run's outcome: true is a run that ended well; false beside a text
			// saying why is one that failed (false alone may be a run not ended yet).
			if tr != nil {
				tr.note("status."+k, ok)
			}
			if ok {
				return verdict{status: CurrentStatus, message: "The run ended (status." + k + " is true)", by: "infer:outcome"}
			}
			if tk, text := failureTextOf(status); text != "" {
				return verdict{status: FailedStatus, reason: "RunFailed",
					message: "status." + k + " is false: " + text + " (status." + tk + ")", by: "infer:outcome"}
			}
		}
		if c := outcomeReason(conds, f.kind); c != nil && best.status != FailedStatus {
			// A condition True whose reason is the object's own outcome (Cybozu's fin:
			// StoredToNode True, BackupCompleted, on a FinBackup; ReadyToUse True,
			// RestoreCompleted, on a FinRestore): the run ended, and said so.
			t, _ := c["type"].(string)
			r, _ := c["reason"].(string)
			if tr != nil {
				tr.note(condPath("", t), "True ("+r+")")
			}
			msg := "The run ended: " + t + " condition is True, " + r
			if text, _ := c["message"].(string); text != "" {
				msg += ": " + text
			}
			return verdict{status: CurrentStatus, message: msg, by: "infer:outcome"}
		}
		if why := run6.finishes(); why != "" {
			if best.status == "" {
				// Nothing else read: a state in a field not named for one, or said in
				// status.message ("Backup State: Completed"), or an error status.message
				// or status.reason names, says where the run stands (6h).
				if v, ok := leftState(status, kindNoun(f.kind), tr); ok {
					return v
				}
				if v, ok := leftReason(status, tr); ok && v.status == FailedStatus {
					return v
				}
			}
			msg := "Not finished: no condition or state says the run has ended (the kind finishes: " + why + ")"
			if best.status == CurrentStatus && best.message != "" && (run.running || st.class == phaseRunning || run.started) {
				msg = best.message + " (the kind finishes: " + why + ")"
			}
			return verdict{status: InProgressStatus, reason: "NotFinished", message: msg, by: "infer:finishes"}
		}
	}
	if best.status != "" {
		return best
	}

	// 6g: nothing to read. Whether that means a controller has yet to act depends on the
	// kind, which only its definition tells.
	if len(status) == 0 {
		info := opts.kindInfo(apiVersion, f.kind)
		if tr != nil {
			tr.note("status", "absent")
			if info != nil {
				tr.note("(definition) declares a status", info.HasStatus)
			} else {
				tr.note("(definition)", "not known")
			}
		}
		spec, _ := m["spec"].(map[string]any)
		switch {
		case info == nil && runKindName(f.kind, spec):
			// A kind named for a run (EtcdBackup, DataRestore) writes its status when the run
			// is made or fails: none yet is a run not done yet.
			return verdict{status: InProgressStatus, reason: "NoStatus",
				message: "No status reported yet, and the kind is named for a run (" + f.kind + ")", by: "infer:no-status"}
		case info == nil:
			return verdict{status: CurrentStatus, message: "No status, and the kind's definition is not known: nothing to wait for", by: "infer:no-status"}
		case info.HasStatus && (schedulesRuns(f.kind, spec) || cronAsked(spec, 1)):
			// A schedule publishes what its runs did, if anything, and has nothing of its
			// own to wait for (as a CronJob): Hazelcast's CronHotBackup writes no status;
			// clustercode's Blueprint, spec.scan.schedule a cron, none while suspended.
			return verdict{status: CurrentStatus, message: "No status, and the kind schedules runs: each run is its own object to wait on", by: "infer:no-status"}
		case info.HasStatus:
			return verdict{status: InProgressStatus, reason: "NoStatus",
				message: "No status reported yet by the controller", by: "infer:no-status"}
		}
		return verdict{status: CurrentStatus, message: "The kind publishes no status: nothing to wait for", by: "infer:no-status"}
	}
	// 6h: a reason status gives of its own, beside nothing that decides (status.reason
	// InstallOrUpdateFailed, with no state or condition): what the controller says went wrong.
	if v, ok := leftReason(status, tr); ok {
		return v
	}
	if v, ok := leftState(status, kindNoun(f.kind), tr); ok {
		return v
	}
	if run.befell.status != "" {
		if path := askedState(m, run.befell.reason); path != "" {
			// What befell it is what the spec asks for (Kubeflow Pipelines'
			// ScheduledWorkflow: Disabled True, reason Disabled, with spec.enabled false).
			if tr != nil {
				spec, _ := m["spec"].(map[string]any)
				tr.note(path, spec[strings.TrimPrefix(path, "spec.")])
			}
			return verdict{status: CurrentStatus, message: run.befell.message + asks(m, path), by: "infer:asked"}
		}
		// Something befell the object (a rollout blocked) and nothing else says where it
		// stands: not a state to call done.
		return run.befell
	}
	if v, ok := mirrorNotReached(m, status, tr); ok {
		return v
	}
	return verdict{status: CurrentStatus, message: nothingToWaitFor(status, conds, st.unknown), by: "default"}
}

// leftReason judges status.reason where nothing else in status decides: Failed when it
// names an error a person must fix (classifyReason, or classifyMessage for a sentence),
// InProgress when it names a failure otherwise (InstallFailed, "… cannot match anything"):
// the controller reports something wrong that it may yet mend, which is no state to call
// done, but Failed when status.message is terminal (Che's InstallOrUpdateFailed beside
// "... Check operator logs for details."). A reason that names no failure says nothing (ok
// is false).
func leftReason(status map[string]any, tr *trace) (v verdict, ok bool) {
	r, _ := status["reason"].(string)
	m, _ := status["message"].(string)
	if r == "" {
		// A message alone that names an error (SOPS secrets operator's "Decryption error",
		// its only status field): an error reported, as in an error field (6d).
		if m != "" && (failureText(m) || constraintBroken(m)) {
			if tr != nil {
				tr.note("status.message", m)
			}
			return errorVerdict("message", "status.message", m), true
		}
		return verdict{}, false
	}
	if tr != nil {
		tr.note("status.reason", r)
	}
	// A reason written as a sentence is its own message; a name is given with status.message.
	sentence := strings.IndexByte(r, ' ') >= 0
	name, msg := r, "status.reason is "+r
	if m != "" {
		msg += ": " + m
	}
	if sentence {
		name, msg = "Error", "status.reason: "+r
	}
	switch {
	case !sentence && classifyReason(r) == reasonTerminal, sentence && classifyMessage(r) == reasonTerminal,
		!sentence && namesFailureWord(r) && classifyReason(r) != reasonTransient && classifyMessage(m) == reasonTerminal:
		// The last: a failure named, whose message says a person must act (Che's
		// InstallOrUpdateFailed, "... Check operator logs for details.").
		return verdict{status: FailedStatus, reason: name, message: msg, by: "infer:reason"}, true
	case !sentence && namesFailureWord(r) && classifyReason(r) != reasonTransient, sentence && failureText(r),
		sentence && (unreachable(r) || saysMissing(r)):
		// The last: a server not reached ("dial tcp …: connection refused"), or
		// something named that does not exist (nakamasato's mysql-operator: "the specified
		// SecretManager type (gcp) doesn't exist"): no state to call done.
		return verdict{status: InProgressStatus, reason: name, message: msg, by: "infer:reason"}, true
	}
	return verdict{}, false
}

// ownStepNotEnded returns status.phase or status.state, and its value, when the kind's
// states (info.PhaseValues, that field's enum) include an end of its run and the value is
// one of them but neither a success nor a failure: a step of the object's own run. "" when
// not.
func ownStepNotEnded(status map[string]any, info *KindInfo) (k, v string) {
	if finishes, _ := info.finishes(); !finishes {
		return "", ""
	}
	for _, k := range [...]string{"phase", "state"} {
		v, _ := status[k].(string)
		if v == "" {
			continue
		}
		if !slices.Contains(info.PhaseValues, v) {
			return "", ""
		}
		if c := phaseClassOf(v); c == phaseDone || c == phaseFailed || c == phaseSuspended || stopWord(v) {
			return "", ""
		}
		return k, v
	}
	return "", ""
}

// leftState reads, where nothing else in status decides, a field at the top of status not
// named for a state whose value is one word that names a failure or work under way
// (Radius' status.phrase Failed or Updating): a controller that writes the word of a state
// writes the state, whatever it calls the field. The first such field by name decides. Not
// a field named for a state wanted or past (notNow), nor one that says what the value is
// of (a reason, a message, a type, a kind, a mode, a policy, a strategy, a role, a
// scope); and not
// the words of a state reached or running, which say no more than nothing does here.
//
// Created, on a kind that stands for a record (recordNoun of own: EDP's NexusRepository,
// status.value created), is the record made, as scanStates reads it in a state field.
func leftState(status map[string]any, own string, tr *trace) (v verdict, ok bool) {
	key, value, class := "", "", phaseUnknown
	made, madeValue := "", ""
	for k, x := range status {
		s, _ := x.(string)
		if s == "" || strings.IndexByte(s, ' ') >= 0 || key != "" && k > key || isStateField(k) || notNow(k) || namesWhatOf(k) {
			continue
		}
		switch c := phaseClassOf(s); c {
		case phaseFailed, phaseProgressing:
			if c == phaseProgressing && isWord(s, "created") && recordNoun(own) {
				if made == "" || k < made {
					made, madeValue = k, s
				}
				continue
			}
			key, value, class = k, s, c
		}
	}
	if key == "" && made != "" {
		if tr != nil {
			tr.note("status."+made, madeValue)
		}
		return verdict{status: CurrentStatus, message: "status." + made + " is " + madeValue + " (the record the kind stands for is made)", by: "infer:state"}, true
	}
	if key == "" {
		return messageState(status, tr)
	}
	if tr != nil {
		tr.note("status."+key, value)
	}
	if class == phaseFailed {
		return verdict{status: FailedStatus, reason: value, message: "status." + key + " is " + value, by: "infer:state"}, true
	}
	return verdict{status: InProgressStatus, reason: value, message: "status." + key + " is " + value, by: "infer:state"}, true
}

// messageState reads a state status.message states in so many words at its end: a word
// State, Status or Phase, a colon and one word (YugabyteDB's Backup: "Backup State:
// Completed"). A terminal success is Current, a failure Failed, work under way
// InProgress; any other word says nothing.
func messageState(status map[string]any, tr *trace) (verdict, bool) {
	msg, _ := status["message"].(string)
	head, value, found := strings.Cut(msg, ": ")
	if !found || value == "" || strings.ContainsAny(value, " :") {
		return verdict{}, false
	}
	last := head[strings.LastIndexByte(head, ' ')+1:]
	switch last {
	case "State", "state", "Status", "status", "Phase", "phase":
	default:
		return verdict{}, false
	}
	v := verdict{reason: value, message: "status.message says " + msg, by: "infer:state"}
	switch phaseClassOf(value) {
	case phaseDone:
		v.status, v.reason = CurrentStatus, ""
	case phaseFailed:
		v.status = FailedStatus
	case phaseProgressing:
		v.status = InProgressStatus
	default:
		return verdict{}, false
	}
	if tr != nil {
		tr.note("status.message", msg)
	}
	return v, true
}

// namesWhatOf reports a field name whose last word says what its value is of, not the
// object's state: a reason, a message, a type, a kind, a mode, a policy, a strategy, a
// role, a scope. (Compared without case and without a lowered copy: leftState asks it of
// every string field of a status nothing else decided.)
func namesWhatOf(k string) bool {
	for _, w := range [...]string{"reason", "message", "type", "kind", "mode", "policy", "strategy", "role", "scope"} {
		if len(k) >= len(w) && strings.EqualFold(k[len(k)-len(w):], w) {
			return true
		}
	}
	return false
}

// failureText reports whether free text says that something failed or cannot be done
// (failed, error, failure, cannot, unable), and names no work that ends by itself.
func failureText(text string) bool {
	found := false
	// negated: a "no" or "without" came before, and only the words of a list of what is
	// denied since ("No warning or error messages observed", the Node Tuning Operator's
	// Degraded False; "completed without errors"). Not "no such host: error …".
	negated := false
	it := wordIter{s: text}
	for w, ok := it.next(); ok; w, ok = it.next() {
		switch {
		case transientWords[string(w)]:
			return false
		case string(w) == "no" || string(w) == "without":
			negated = true
		case errorWords[string(w)] && negated:
		case errorWords[string(w)], string(w) == "cannot", string(w) == "unable":
			found = true
		case negated && !deniedListWords[string(w)]:
			negated = false
		}
	}
	return found
}

// deniedListWords are the words that may stand between "no" and an error it denies.
var deniedListWords = map[string]bool{"warning": true, "warnings": true, "or": true, "and": true, "other": true}

// succeededFalse reports a Succeeded condition False in conds.
func succeededFalse(conds []any) bool {
	for _, e := range conds {
		if c, _ := e.(map[string]any); c["type"] == "Succeeded" {
			return c["status"] == "False"
		}
	}
	return false
}

// waitsForNextRun reports a reason that says the object waits (WaitingForNext,
// ReportingPeriodWaiting) for its next run: the word next in it, or a time of the next run
// in status (a field next…Time: nextReportTime, nextScheduleTime).
func waitsForNextRun(reason string, status map[string]any) bool {
	waits, next := false, false
	it := wordIter{s: reason}
	for w, ok := it.next(); ok; w, ok = it.next() {
		switch string(w) {
		case "wait", "waiting", "waits":
			waits = true
		case "next":
			next = true
		}
	}
	if !waits {
		return false
	}
	if next {
		return true
	}
	for k, v := range status {
		if s, _ := v.(string); s != "" && len(k) > len("nextTime") && strings.HasPrefix(k, "next") && strings.HasSuffix(k, "Time") {
			return true
		}
	}
	return false
}

// updatedShort reports a rollout left unfinished: status.updatedReplicas short of
// status.desiredReplicas or else spec.replicas, where the spec's strategy updates every replica (not OnDelete, no
// partition, which hold replicas back by design).
func updatedShort(m, status map[string]any) (have, want int64, short bool) {
	have, ok := toInt(status["updatedReplicas"])
	if !ok {
		return 0, 0, false
	}
	spec, _ := m["spec"].(map[string]any)
	want, ok = desiredReplicas(spec, status)
	if !ok || have >= want || holdsBack(spec, 3) {
		return 0, 0, false
	}
	return have, want, true
}

// holdsBack reports a strategy in spec, up to depth objects down, that keeps replicas on
// the old template by design: a partition (a StatefulSet's rollingUpdate.partition,
// LeaderWorkerSet's rolloutStrategy.rollingUpdateConfiguration.partition) or an update
// type OnDelete.
func holdsBack(obj map[string]any, depth int) bool {
	for k, v := range obj {
		switch v := v.(type) {
		case map[string]any:
			if depth > 1 && holdsBack(v, depth-1) {
				return true
			}
		case string:
			if k == "type" && strings.EqualFold(v, "OnDelete") {
				return true
			}
		}
		if _, obj := v.(map[string]any); k == "partition" && !obj {
			// A count or percentage held back; not an object (Slurm's NodeSet names
			// the Slurm partition its nodes join spec.partition).
			return true
		}
	}
	return false
}

// worse reports whether a is a worse answer to a waiter than b: Failed, then InProgress,
// then Current.
func worse(a, b Status) bool {
	rank := func(s Status) int {
		switch s {
		case FailedStatus:
			return 2
		case InProgressStatus:
			return 1
		}
		return 0
	}
	return rank(a) > rank(b)
}

// entryLabel names entry i of status.<list> in a message: by its name or its parent's or
// ancestor's name where it has one.
func entryLabel(list string, i int, m map[string]any) string {
	name, _ := m["name"].(string)
	for _, ref := range [...]string{"parentRef", "ancestorRef"} {
		if name != "" {
			break
		}
		r, _ := m[ref].(map[string]any)
		name, _ = r["name"].(string)
	}
	label := list + "[" + strconv.Itoa(i) + "]"
	if name != "" {
		label += " (" + name + ")"
	}
	return label
}

// judgeConditions reads the inferred conditions in conds (and Ready, for a nested list whose
// label is not ""). found is false when conds has none of them; then v is the zero verdict.
func judgeConditions(f *fields, conds []any, label string, gen int64, hasGen bool, tr *trace) (v verdict, found bool) {
	types := inferConditions[:]
	if label != "" {
		if r := f.cond(conds, string(ConditionReady)); r.found || f.err != nil {
			if f.err != nil {
				return verdict{}, false
			}
			return judgeCondition(f, r, "Ready", label, gen, hasGen, tr), true
		}
	}
	prefix := ""
	if label != "" {
		prefix = label + ": "
	}
	// The first condition of each type, in one pass over conds (a lookup of each type in
	// turn would read every condition's type once per type).
	var first [len(inferConditions)]map[string]any
	for _, e := range conds {
		m, ok := e.(map[string]any)
		if !ok {
			continue
		}
		ty, _ := m["type"].(string)
		if i := indexOf(inferConditions[:], ty); i >= 0 && first[i] == nil {
			first[i] = m
		}
	}
	var trueBuf [len(inferConditions)]string
	trues := trueBuf[:0]
	for i, t := range types {
		if first[i] == nil {
			continue
		}
		c := f.condFrom(first[i], t)
		if f.err != nil {
			return verdict{}, false
		}
		found = true
		cv := judgeCondition(f, c, t, label, gen, hasGen, tr)
		if f.err != nil {
			return verdict{}, false
		}
		if t == "Succeeded" && cv.status != InProgressStatus {
			return cv, true // a run's outcome decides alone
		}
		if cv.status != CurrentStatus {
			return cv, true
		}
		trues = append(trues, t)
	}
	if !found {
		if label != "" {
			return entryFailure(f, conds, prefix)
		}
		return verdict{}, false
	}
	by := "infer:conditions"
	if label != "" {
		by = "infer:" + label[:strings.IndexByte(label, '[')]
	}
	if label == "" && len(trues) == 1 {
		// The common case, without building a message.
		return verdict{status: CurrentStatus, message: trueMessages[trues[0]], by: by}, true
	}
	return verdict{status: CurrentStatus, message: prefix + strings.Join(trues, ", ") + " True", by: by}, true
}

// lastOutcomeFailed is the verdict of a field of status, or of an object of status one
// level down, named for the outcome of the latest attempt at something (lastOutcomeField:
// lastConversionResult, lastUpgradeStatus, lastRunStatus) whose value names a failure
// (phaseFailed), as the scan of status met it (countFacts.lastFailed): Failed, with the
// field's path in the message. Such fields are no state of the object now (notNow skips
// them), so 6c does not read them; an outcome that went well says nothing the rest of
// status does not.
func lastOutcomeFailed(facts *countFacts, tr *trace) (verdict, bool) {
	k, k2, value := facts.lastFailed[0], facts.lastFailed[1], facts.lastFailed[2]
	if k == "" {
		return verdict{}, false
	}
	path := k
	if k2 != "" {
		path += "." + k2
	}
	if tr != nil {
		tr.note("status."+path, value)
	}
	return verdict{status: FailedStatus, reason: "LastAttemptFailed", message: path + " is " + value, by: "infer:phase"}, true
}

// appliedSpecFields are the names under which controllers copy into status the spec they
// last applied (Rancher's RKEControlPlane: appliedSpec; New Relic's operator: applied_spec).
// Not a field named applied alone, which some fill with what they defaulted (Feast's).
var appliedSpecFields = [...]string{"appliedSpec", "applied_spec", "lastAppliedSpec"}

// appliedSpecBehind reports a copy of the spec the controller last applied, in status
// (appliedSpecFields), that differs from spec in a value both hold: the latest spec is not
// applied yet (New Relic's AlertsChannel: applied_spec.configuration with the old
// recipients; Rancher's RKEControlPlane: appliedSpec.kubernetesVersion the old one).
// Values only one of them holds (defaults the controller filled in, fields it does not
// copy) say nothing.
//
// k is the field of status that holds the copy, as the scan of status found it
// (countFacts.appliedSpec), or "".
func appliedSpecBehind(m, status map[string]any, k string, tr *trace) (verdict, bool) {
	if k == "" {
		return verdict{}, false
	}
	spec, _ := m["spec"].(map[string]any)
	applied, _ := status[k].(map[string]any)
	if len(spec) == 0 || applied == nil {
		return verdict{}, false
	}
	at := firstDifference(spec, applied, "")
	if at == "" {
		return verdict{}, false
	}
	if tr != nil {
		tr.note("status."+k+"."+at, "differs from spec."+at)
	}
	return verdict{status: InProgressStatus, reason: "LatestSpecNotApplied",
		message: "status." + k + "." + at + " differs from spec." + at + ": the latest spec is not applied yet", by: "infer:counts"}, true
}

// firstDifference returns the path (below at) of the first value, by key order, that want
// and have both hold and that differ; "" if none does. Maps are compared key by key,
// lists entry by entry (a list of another length differs), numbers by value.
func firstDifference(want, have any, at string) string {
	join := func(k string) string {
		if at == "" {
			return k
		}
		return at + "." + k
	}
	switch w := want.(type) {
	case map[string]any:
		h, ok := have.(map[string]any)
		if !ok {
			return at
		}
		keys := make([]string, 0, len(w))
		for k := range w {
			if _, both := h[k]; both {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			if d := firstDifference(w[k], h[k], join(k)); d != "" {
				return d
			}
		}
		return ""
	case []any:
		h, ok := have.([]any)
		if !ok || len(h) != len(w) {
			return at
		}
		for i := range w {
			if d := firstDifference(w[i], h[i], at+"["+strconv.Itoa(i)+"]"); d != "" {
				return d
			}
		}
		return ""
	}
	if a, ok := numberOf(want); ok {
		if b, ok := numberOf(have); ok && a == b {
			return ""
		}
		return at
	}
	if want != have {
		return at
	}
	return ""
}

// numberOf returns v as a float64 when it is a number of any of the types unstructured
// objects hold (int64 from JSON integers, float64, and the Go integer types).
func numberOf(v any) (float64, bool) {
	if f, ok := v.(float64); ok {
		return f, true
	}
	n, ok := toInt(v)
	return float64(n), ok
}

// lastOutcomeField reports a field named for the outcome of the latest attempt: last or
// latest, then a name ending in Result, Status, State or Outcome.
func lastOutcomeField(k string) bool {
	rest, ok := strings.CutPrefix(k, "last")
	if !ok {
		if rest, ok = strings.CutPrefix(k, "latest"); !ok {
			return false
		}
	}
	if rest == "" || rest[0] < 'A' || rest[0] > 'Z' {
		return false
	}
	for _, w := range [...]string{"Result", "Status", "State", "Outcome"} {
		if strings.HasSuffix(rest, w) {
			return true
		}
	}
	return false
}

// worseEntry judges the conditions conds of the entry label (6b) and returns the worse of
// that verdict and nv, the worst of the entries before it; nv when conds say nothing
// inference reads. A malformed condition is left in f.err.
func worseEntry(f *fields, conds []any, label string, nv verdict, gen int64, hasGen bool, tr *trace) verdict {
	v, ok := judgeConditions(f, conds, label, gen, hasGen, tr)
	if ok && f.err == nil && (nv.status == "" || worse(v.status, nv.status)) {
		return v
	}
	return nv
}

// entryFailure judges the conditions of a list's entry that has neither Ready nor a type of
// inferConditions: a condition of any type False whose reason names a failure or what a
// person must fix (Kuma's MeshExternalService: hostnameGenerators[].conditions, Generated
// False, Collision) is news about the object, as the same condition at the top of status
// would be: Failed when the reason or message is terminal (notTrue), else InProgress. Any
// other condition of an entry says nothing inference can read.
func entryFailure(f *fields, conds []any, prefix string) (verdict, bool) {
	for _, e := range conds {
		m, _ := e.(map[string]any)
		if m["status"] != "False" {
			continue
		}
		r, _ := m["reason"].(string)
		if !reasonNamesFailure(r) || classifyReason(r) == reasonTransient {
			continue
		}
		t, _ := m["type"].(string)
		c := f.condFrom(m, t)
		if f.err != nil {
			return verdict{}, false
		}
		v := notTrue(c, t)
		v.message, v.by = prefix+v.message, "infer:"+prefix[:strings.IndexByte(prefix, '[')]
		return v, true
	}
	return verdict{}, false
}

// trueMessages are the messages of a single inferred condition True.
var trueMessages = func() map[string]string {
	m := map[string]string{}
	for _, t := range inferConditions {
		m[t] = t + " True"
	}
	return m
}()

// judgeCondition judges one normal-true condition c of type t: True is Current (but a
// Succeeded True is a finished run), Succeeded False is Failed, anything else InProgress;
// a condition observed at an older generation than metadata.generation is InProgress.
func judgeCondition(f *fields, c condition, t, label string, gen int64, hasGen bool, tr *trace) verdict {
	prefix, by := "", "infer:conditions"
	if label != "" {
		prefix = label + ": "
		by = "infer:" + label[:strings.IndexByte(label, '[')]
	}
	if tr != nil {
		tr.note(condPath(label, t), c.status+reasonSuffix(c))
	}
	if v, stale := staleCondition(f, c, t, gen, hasGen, tr); stale {
		v.message = prefix + v.message
		v.by = by
		return v
	}
	switch {
	case c.isTrue() && t == "Succeeded":
		return verdict{status: CurrentStatus, message: prefix + "Succeeded", by: "infer:succeeded"}
	case c.isTrue() && prefix == "":
		return verdict{status: CurrentStatus, message: trueMessages[t], by: by}
	case c.isTrue():
		return verdict{status: CurrentStatus, message: prefix + t + " True", by: by}
	case c.isFalse() && t == "Succeeded":
		return verdict{status: FailedStatus, reason: c.reasonOr("Failed"), message: prefix + c.text("Succeeded condition is False"), by: by}
	}
	v := notTrue(c, t)
	v.message = prefix + v.message
	v.by = by
	return v
}

// notTrue judges a normal-true condition c of type t that is not True: InProgress, with
// its reason and message, unless it says a person must act (Failed): it is False with
// severity Error (Cluster API v1beta1's convention for "given up", which other operators
// copied), or its reason names an error retrying will not clear (classifyReason). Severity
// Warning or Info, a transient reason, or one inference does not know stays InProgress.
func notTrue(c condition, t string) verdict {
	if c.isFalse() {
		sev, _ := c.raw["severity"].(string)
		switch {
		case strings.EqualFold(sev, "Error"):
			return verdict{status: FailedStatus, reason: c.reasonOr(t + "Error"),
				message: c.text(t+" condition is False") + severityErrorNote}
		case sev != "":
		case classifyReason(c.reason) == reasonTerminal:
			return verdict{status: FailedStatus, reason: c.reason, message: c.text(t + " condition is False")}
		case classifyReason(c.reason) == reasonUnclear && (classifyMessage(c.message) == reasonTerminal || clientError(c.message)):
			return verdict{status: FailedStatus, reason: c.reasonOr("Not" + t), message: c.text(t + " condition is False")}
		}
	}
	return verdict{status: InProgressStatus, reason: c.reasonOr("Not" + t), message: c.text(t + " condition is " + c.status)}
}

// anyFalse reports whether a condition of conds is False.
func anyFalse(conds []any) bool {
	for _, e := range conds {
		if c, _ := e.(map[string]any); c["status"] == "False" {
			return true
		}
	}
	return false
}

// severityErrorNote ends the message of a verdict Failed by a condition's severity Error.
const severityErrorNote = " (severity Error)"

// bySeverity reports whether v is Failed by a condition's severity Error alone.
func bySeverity(v verdict) bool {
	return v.status == FailedStatus && strings.HasSuffix(v.message, severityErrorNote)
}

// summarizedMilder reports whether ready, the summary condition, is False with a severity
// milder than Error (Warning, Info): the controller's own judgment of the object's state.
func summarizedMilder(ready condition) bool {
	sev, _ := ready.raw["severity"].(string)
	return ready.isFalse() && sev != "" && !strings.EqualFold(sev, "Error")
}

func condPath(label, t string) string {
	if label == "" {
		return "status.conditions[" + t + "]"
	}
	return "status." + label + ".conditions[" + t + "]"
}

func reasonSuffix(c condition) string {
	s := ""
	if c.reason != "" {
		s += " (" + c.reason + ")"
	}
	if c.message != "" {
		s += ": " + c.message
	}
	return s
}

// conditionsBehind reports an object whose conditions all say which generation they are for
// and none is for metadata.generation: the controller has not written status for the latest
// spec yet (Cilium's pools, which keep observedGeneration on each condition and none in
// status). Conditions without observedGeneration, and a status.observedGeneration (rule 4's),
// leave it to the other steps.
func conditionsBehind(conds []any, status map[string]any, gen int64, hasGen bool, tr *trace) (verdict, bool) {
	if !hasGen || len(conds) == 0 {
		return verdict{}, false
	}
	if _, ok := status["observedGeneration"]; ok {
		return verdict{}, false
	}
	newest := int64(-1)
	for _, e := range conds {
		m, _ := e.(map[string]any)
		obs, ok := toInt(m["observedGeneration"])
		if !ok || obs == 0 {
			return verdict{}, false // not said, or 0: not set (as staleCondition reads it)
		}
		newest = max(newest, obs)
	}
	if newest >= gen {
		return verdict{}, false
	}
	if tr != nil {
		tr.note("status.conditions[*].observedGeneration", newest)
		tr.note("metadata.generation", gen)
	}
	return inProgress("LatestGenerationNotObserved",
		fmt.Sprintf("Conditions are for generation %d, but latest generation is %d", newest, gen)), true
}

// staleCondition reports a condition whose observedGeneration is older than the object's
// metadata.generation: it describes a spec the controller has since been given, so it says
// nothing about the latest one.
func staleCondition(f *fields, c condition, t string, gen int64, hasGen bool, tr *trace) (verdict, bool) {
	if !hasGen {
		return verdict{}, false
	}
	raw, ok := c.raw["observedGeneration"]
	if !ok || raw == nil {
		return verdict{}, false
	}
	obs, ok := toInt(raw)
	if !ok {
		f.fail("status.conditions["+t+"].observedGeneration", "an integer", raw)
		return verdict{}, false
	}
	if tr != nil {
		tr.note("status.conditions["+t+"].observedGeneration", obs)
		tr.note("metadata.generation", gen)
	}
	if obs >= gen || obs == 0 {
		// 0 is no generation (metadata.generation starts at 1): a controller whose own
		// condition type has no omitempty writes it for "not set" (rukpak's conditions
		// beside a status.observedGeneration that is current).
		return verdict{}, false
	}
	return inProgress("LatestGenerationNotObserved",
		fmt.Sprintf("%s condition is for generation %d, but latest generation is %d", t, obs, gen)), true
}

// messageSuffix is ": " and status.message (or the first of status.messages) or
// status.reason, when the object has one.
func messageSuffix(status map[string]any) string {
	if s := statusMessage(status); s != "" {
		return ": " + s
	}
	if s, ok := status["reason"].(string); ok && s != "" {
		return ": " + s
	}
	return ""
}

// scaleShort reads the replicas of the kind's scale subresource (KindInfo's
// ScaleSpecReplicas and ScaleStatusReplicas) in m: short is true when both are numbers and
// the status count is below the spec's. A path that is not a plain field path (".a.b"), or
// a count absent, says nothing.
func scaleShort(info *KindInfo, m map[string]any) (specPath, statusPath string, want, have int64, short bool) {
	if info == nil || info.ScaleSpecReplicas == "" || info.ScaleStatusReplicas == "" {
		return "", "", 0, 0, false
	}
	want, okWant := toInt(fieldAt(m, info.ScaleSpecReplicas))
	hv := fieldAt(m, info.ScaleStatusReplicas)
	have, okHave := toInt(hv)
	if hv == nil && okWant && want > 0 && info.ScaleSelector != "" {
		// Absent beside the scale's selector written: the controller keeps the scale's
		// status and has no replicas to count yet (coil's Egress: status.selector set,
		// status.replicas, the available pods, omitted while 0). The API server's scale
		// subresource reads it so too. Without the selector, an absent count may be one
		// the controller never writes, and a wait on it would not end.
		if sel, _ := fieldAt(m, info.ScaleSelector).(string); sel != "" {
			have, okHave = 0, true
		}
	}
	if !okWant || !okHave || have >= want {
		return "", "", 0, 0, false
	}
	if stopAsked(m) != "" || stopBeside(m, info.ScaleSpecReplicas) {
		// The spec asks for a stop (rpaas-operator's spec.shutdown true beside
		// spec.replicas 2; kf's App, spec.instances.stopped beside
		// spec.instances.replicas): none are wanted now, whatever the count asked for.
		return "", "", 0, 0, false
	}
	if status, _ := m["status"].(map[string]any); status != nil {
		if d, ok := toInt(status["desiredReplicas"]); ok && have >= d {
			// The controller says it wants fewer than spec asks for now (stackset-
			// controller's Stack scaled down for lack of traffic: desiredReplicas 0 beside
			// spec.replicas 3), and has them.
			return "", "", 0, 0, false
		}
	}
	return info.ScaleSpecReplicas[1:], info.ScaleStatusReplicas[1:], want, have, true
}

// scaleVerdict is InProgress, reason LessReplicas, when the replicas of the kind's scale
// subresource are short (scaleShort).
func scaleVerdict(info *KindInfo, m map[string]any, tr *trace) (verdict, bool) {
	sp, st, want, have, short := scaleShort(info, m)
	if !short {
		return verdict{}, false
	}
	if tr != nil {
		tr.note(st, have)
	}
	count := strconv.FormatInt(have, 10)
	if fieldAt(m, info.ScaleStatusReplicas) == nil {
		count = "0 (absent, as the scale subresource reads it)"
	}
	return verdict{status: InProgressStatus, reason: "LessReplicas",
		message: st + " is " + count + " of " + sp + " " + strconv.FormatInt(want, 10) + " (the scale subresource's replicas)",
		by:      "infer:counts"}, true
}

// fieldAt returns the value at a plain field path (".spec.replicas") of m, or nil.
func fieldAt(m map[string]any, path string) any {
	if len(path) < 2 || path[0] != '.' || strings.ContainsAny(path, "[]*'\"") {
		return nil
	}
	var v any = m
	for _, k := range strings.Split(path[1:], ".") {
		obj, _ := v.(map[string]any)
		if obj == nil {
			return nil
		}
		v = obj[k]
	}
	return v
}

// askedReason returns the first condition not True whose reason is the state the spec asks
// for (askedState: Serving False, Suspended, with spec.suspend true), and the spec field.
func askedReason(m map[string]any, conds []any) (map[string]any, string) {
	for _, e := range conds {
		c, _ := e.(map[string]any)
		r, _ := c["reason"].(string)
		if c["status"] == "True" || r == "" {
			continue
		}
		if path := askedState(m, r); path != "" {
			return c, path
		}
	}
	return nil, ""
}

// askedConditionTrue returns the spec field named for a state (spec.state, or a field
// ending in State) whose value names a condition that is True (managementState Removed, and
// Removed True), and that condition's type; "" when there is none. Not a value that is a
// state of work (…ing) or Ready, which says nothing of what was asked.
func askedConditionTrue(m map[string]any, conds []any) (path, condType string) {
	anyTrue := false
	for _, e := range conds {
		if c, _ := e.(map[string]any); c["status"] == "True" {
			anyTrue = true
			break
		}
	}
	if !anyTrue {
		return "", "" // (the common case, without a walk of spec)
	}
	var want [40]byte
	k, v := specStateField(m, func(w, _ string) bool { return len(w) >= 4 && !strings.HasSuffix(w, "ing") && w != "ready" })
	if k == "" {
		return "", ""
	}
	w, ok := normalize(v, want[:])
	if !ok {
		return "", ""
	}
	for _, e := range conds {
		c, _ := e.(map[string]any)
		t, _ := c["type"].(string)
		if c["status"] != "True" || t == "" {
			continue
		}
		var tb [40]byte
		if tn, ok := normalize(t, tb[:]); ok && tn == w {
			return "spec." + k, t
		}
	}
	return "", ""
}

// saysMissing reports a text that says something does not exist or was not found ("does
// not exist", "doesn't exist", "not found").
func saysMissing(text string) bool {
	return saysNotFound(text) || strings.Contains(text, "does not exist") || strings.Contains(text, "doesn't exist") ||
		strings.Contains(text, "do not exist") || strings.Contains(text, "don't exist")
}

// constraintBroken reports a text that ends by saying something the spec must give is
// required ("command is required"): a spec a person must fix, as Boilerr's GameDefinition
// writes it alone in status.message.
func constraintBroken(text string) bool {
	t := strings.TrimRight(text, ". ")
	return strings.HasSuffix(t, " is required") || strings.HasSuffix(t, " are required")
}

// begunNotEnded returns the types of a condition True that says a run began (a type ending
// in Submitted, Started, Running, Triggered, Initiated or Launched) and of the condition
// False that says the same run ended (the same stem, ending in Completed, Complete,
// Finished, Succeeded, Successful or Done), whose reason names no failure; "" if there are
// none. Conditions in their order, so the answer is stable.
func begunNotEnded(conds []any) (start, end string) {
	for _, e := range conds {
		c, _ := e.(map[string]any)
		t, _ := c["type"].(string)
		if len(t) < len("Started") || t[len(t)-1] != 'd' && t[len(t)-1] != 'g' {
			continue // (no start word ends otherwise: the common case, without a lookup)
		}
		if c["status"] != "True" {
			continue
		}
		stem, begun := "", false
		for _, w := range [...]string{"Submitted", "Started", "Running", "Triggered", "Initiated", "Launched"} {
			if strings.HasSuffix(t, w) {
				stem, begun = t[:len(t)-len(w)], true
				break
			}
		}
		if !begun {
			continue
		}
		for _, e2 := range conds {
			c2, _ := e2.(map[string]any)
			t2, _ := c2["type"].(string)
			if c2["status"] != "False" || len(t2) <= len(stem) || !strings.HasPrefix(t2, stem) {
				continue
			}
			switch t2[len(stem):] {
			case "Completed", "Complete", "Finished", "Succeeded", "Successful", "Done":
			default:
				continue
			}
			if r, _ := c2["reason"].(string); reasonNamesFailure(r) {
				continue
			}
			return t, t2
		}
	}
	return "", ""
}

// stopBeside reports a boolean that says to stop (stopBool) in the object that holds the
// field at path (".spec.instances.replicas": spec.instances), below spec itself.
func stopBeside(m map[string]any, path string) bool {
	i := strings.LastIndexByte(path, '.')
	if i <= len(".spec") {
		return false
	}
	obj, _ := fieldAt(m, path[:i]).(map[string]any)
	for k, v := range obj {
		if b, ok := v.(bool); ok && stopBool(k, b) {
			return true
		}
	}
	return false
}

// stoppedReason returns the first condition whose reason's last word says it was stopped
// (UpdateRunStopped, JobCancelled, Aborted), or nil.
func stoppedReason(conds []any) map[string]any {
	for _, e := range conds {
		c, _ := e.(map[string]any)
		r, _ := c["reason"].(string)
		if len(r) < 2 || r[len(r)-1] != 'd' && r[len(r)-1] != 'D' {
			continue // (every stop word ends in d: most reasons are passed over here)
		}
		if it := (wordIter{s: r}); stoppedWord(string(it.last())) {
			return c
		}
	}
	return nil
}

// refineByKind corrects the state scanStates read by what the kind's definition says of its
// states (6c): Warning beside Ready and Created with nothing past it are states reached; a
// part's state reached before the kind's own, or a part's end before the object's own step
// ends, is a step on the way. (Apart from infer, whose frame it would otherwise enlarge on
// every call.)
func refineByKind(st *stateScan, status map[string]any, kind, apiVersion string, opts *Options, tr *trace) {
	if st.class == phaseProgressing && isWord(st.value, "warning") && !st.fromEntry {
		// Warning as a state of its own beside Ready in the kind's states (Kyma's modules
		// and gateways: Processing, Deleting, Ready, Error, Warning): the object works,
		// with a warning, where a health Warning elsewhere is a state on its way.
		if info := opts.kindInfo(apiVersion, kind); info != nil && warningBesideReady(info.PhaseValues) {
			st.class = phaseUp
			st.v = verdict{status: CurrentStatus, message: st.path + " is " + st.value + " (Ready with a warning, as the kind's states have it)" + warningText(status), by: "infer:phase"}
		}
	}
	if st.class == phaseProgressing && isWord(st.value, "created") && !st.fromEntry {
		// Created, on a kind whose states (its definition's enum) name no state reached
		// past it (jace-ys' sentry-operator: condition Created or Error): making the thing
		// is all the object asks, as on a kind named for a record.
		if info := opts.kindInfo(apiVersion, kind); info != nil && createdIsLast(info.PhaseValues) {
			st.class = phaseUp
			st.v = verdict{status: CurrentStatus, message: st.path + " is " + st.value + " (no state past it among the kind's states)", by: "infer:phase"}
		}
	}
	if st.class == phaseUp && !st.fromEntry && wordCount(st.value) > 1 && !firstWordIn(st.value, offeredWords) {
		// A state reached by a part, named for it (zenith's Client: ReservationReady), on a
		// kind whose states (its definition's enum) go on to one of the object's own, a
		// single word (Available): a step on the way, not the end. (Not one whose first word
		// names something on offer: "upgrade available" is a notice, not a part's state.)
		if info := opts.kindInfo(apiVersion, kind); info != nil {
			if later := ownStateBeyond(info.PhaseValues, st.value); later != "" {
				st.class = phaseProgressing
				st.v = verdict{status: InProgressStatus, reason: st.value,
					message: st.path + " is " + st.value + " (a step on the way: the kind's states go on to " + later + ")", by: "infer:phase"}
			}
		}
	}
	if st.class == phaseDone && strings.ContainsAny(st.path, ".[") {
		// A part's run ended (DataTunerX's FinetuneJob: finetuneStatus.state SUCCESSFUL)
		// while the object's own state, one of the kind's states that include its own end,
		// is not that end (state BUILDIMAGE, among INIT, FAILED, SUCCESSFUL, BUILDIMAGE,
		// FINETUNE, SERVE): the object's run goes on past its part's.
		if k, v := ownStepNotEnded(status, opts.kindInfo(apiVersion, kind)); k != "" {
			if tr != nil {
				tr.note("status."+k, v)
			}
			st.class = phaseProgressing
			st.v = verdict{status: InProgressStatus, reason: v,
				message: "status." + k + " is " + v + " (" + st.path + " is " + st.value + ": a part's end, not the object's)", by: "infer:phase"}
		}
	}
}

// warningBesideReady reports a kind's states (KindInfo.PhaseValues) that list Warning and
// Ready both: Warning is then a Ready with something to say.
func warningBesideReady(values []string) bool {
	warning, ready := false, false
	for _, v := range values {
		warning = warning || isWord(v, "warning")
		ready = ready || isWord(v, "ready")
	}
	return warning && ready
}

// warningText is ": " and the text status gives beside a Warning state (status.description,
// else status.message), or "".
func warningText(status map[string]any) string {
	for _, k := range [...]string{"description", "message"} {
		if s, _ := status[k].(string); s != "" {
			return ": " + s
		}
	}
	return ""
}

// wordCount is the number of words in s (wordIter's: camel case and separators split).
func wordCount(s string) int {
	n := 0
	it := wordIter{s: s}
	for _, ok := it.next(); ok; _, ok = it.next() {
		n++
	}
	return n
}

// firstWordIn reports whether the first word of s (wordIter's) is one of words.
func firstWordIn(s string, words map[string]bool) bool {
	it := wordIter{s: s}
	w, ok := it.next()
	return ok && words[string(w)]
}

// ownStateBeyond returns the first of a kind's states (KindInfo.PhaseValues) other than cur
// that is one word and a state reached, running or done (Available, Ready, Running,
// Succeeded): the object's own end, past a state named for a part; or "".
func ownStateBeyond(values []string, cur string) string {
	for _, v := range values {
		if v == cur || wordCount(v) != 1 {
			continue
		}
		switch phaseClassOf(v) {
		case phaseUp, phaseDone, phaseRunning:
			return v
		}
	}
	return ""
}

// createdIsLast reports a kind's states (KindInfo.PhaseValues) that list Created and no
// other state reached, finished or running: Created is then where an object is meant to be.
func createdIsLast(values []string) bool {
	created := false
	for _, v := range values {
		if isWord(v, "created") {
			created = true
			continue
		}
		switch phaseClassOf(v) {
		case phaseUp, phaseDone, phaseRunning:
			return false
		}
	}
	return created
}

// offAsked pairs a boolean of spec that, true, turns something off with the condition type
// that is then False: spec.disable and Enabled (IBM's WebSphereLibertyTrace), spec.stopped and
// Running.
var offAsked = [...][2]string{
	{"disable", "Enabled"}, {"disabled", "Enabled"}, {"stop", "Running"}, {"stopped", "Running"},
}

// askedConditionFalse returns the spec field true that turns something off and the type of
// the condition False that says it is off (offAsked), when that condition gives no reason
// or a reason that names no error; "" when there is none.
func askedConditionFalse(m map[string]any, conds []any) (path, condType string) {
	if len(conds) == 0 {
		return "", "" // (the common case, without a look at spec)
	}
	spec, _ := m["spec"].(map[string]any)
	if len(spec) == 0 {
		return "", ""
	}
	for _, pair := range offAsked {
		if b, _ := spec[pair[0]].(bool); !b {
			continue
		}
		for _, e := range conds {
			c, _ := e.(map[string]any)
			if t, _ := c["type"].(string); t != pair[1] || c["status"] != "False" {
				continue
			}
			if r, _ := c["reason"].(string); reasonNamesFailure(r) {
				continue
			}
			return "spec." + pair[0], pair[1]
		}
	}
	return "", ""
}
