package kstatus

import (
	"fmt"
	"strings"
)

// Rules for the batch group.

func init() {
	register("Job", jobRule, "batch")
	register("CronJob", cronJobRule, "batch")
}

// jobRule: a Job is reconciled when it has finished, and Failed when it has given up
// (BackoffLimitExceeded, DeadlineExceeded). A Job that is still running is InProgress:
// "apply, then wait" on a migration Job must wait for the migration. Reporting a running
// Job Current, as cli-utils does, lets the wait return before the work is done.
//
// Since Kubernetes 1.31 the controller decides a Job's end before its pods are gone: it
// sets FailureTarget (or SuccessCriteriaMet) at once, and Failed (or Complete) only when
// the last pod has terminated. FailureTarget True is Failed already: the verdict is
// final, and a wait should stop without sitting out the pods' grace period.
// SuccessCriteriaMet is not Current yet: what follows the Job may depend on its pods
// having stopped.
//
// A suspended Job is Current: nothing will happen until someone resumes it. Suspended
// means the controller has acted on spec.suspend (stopped the Job's pods, set the
// Suspended condition True), not only that someone asked: Jobs have no
// observedGeneration, so until the condition is there the Job may still be running, and
// it is InProgress.
func jobRule(o object) verdict {
	f := o.fields()
	complete := f.cond(o.conds, "Complete")
	jobFailed := f.cond(o.conds, "Failed")
	failureTarget := f.cond(o.conds, "FailureTarget")
	successCriteriaMet := f.cond(o.conds, "SuccessCriteriaMet")
	suspended := f.cond(o.conds, "Suspended")
	suspend := f.bool(o.spec, "suspend", "spec.suspend")
	completions, hasCompletions := f.intOK(o.spec, "completions", "spec.completions")
	active := f.int(o.status, "active", "status.active", 0)
	succeeded := f.int(o.status, "succeeded", "status.succeeded", 0)
	failedPods := f.int(o.status, "failed", "status.failed", 0)
	started := f.str(o.status, "startTime", "status.startTime") != ""
	if f.err != nil {
		return malformed(f.err)
	}

	switch {
	case complete.isTrue():
		return current("Job completed")
	case jobFailed.isTrue():
		return failed(jobFailed.reasonOr("JobFailed"), "Job failed: "+jobFailed.text("no reason given"))
	case failureTarget.isTrue():
		return failed(failureTarget.reasonOr("JobFailed"), "Job failing, its pods terminating: "+failureTarget.text("no reason given"))
	case successCriteriaMet.isTrue():
		return inProgress("JobCompleting", "Job succeeded; waiting for its pods to terminate")
	case suspend && suspended.isTrue():
		return current("Job is suspended")
	case suspend && suspended.found:
		return inProgress("JobSuspending", "Waiting for the Job controller to suspend the Job: spec.suspend is true, but the Suspended condition is not True")
	case suspend:
		return inProgress("JobSuspending", "Waiting for the Job controller to suspend the Job: spec.suspend is true, but there is no Suspended condition yet")
	case !started && active == 0 && succeeded == 0 && failedPods == 0:
		return inProgress("JobNotStarted", "Job has not started yet")
	}
	var msg string
	if hasCompletions {
		msg = fmt.Sprintf("Job running: succeeded %d/%d, active %d", succeeded, completions, active)
	} else {
		msg = fmt.Sprintf("Job running: active %d, succeeded %d", active, succeeded)
	}
	if failedPods > 0 {
		msg += fmt.Sprintf(", failed %d", failedPods)
	}
	return inProgress("JobRunning", msg)
}

// cronJobRule: a CronJob is a schedule, not a workload, so it is always Current: each run
// is a Job, and a wait that should cover a run waits on that Job. Waiting on the CronJob
// for its next run would wait for the clock, and for a failed last run would wait for a
// run that may be hours away. spec.suspend stops new runs, which is what the spec asks,
// so a suspended CronJob is Current too. The message says what was read: the suspension,
// the active runs, and the last scheduled and successful times, or that the CronJob has
// not been scheduled yet.
func cronJobRule(o object) verdict {
	f := o.fields()
	suspend := f.bool(o.spec, "suspend", "spec.suspend")
	active := f.list(o.status, "active", "status.active")
	lastSchedule := f.str(o.status, "lastScheduleTime", "status.lastScheduleTime")
	lastSuccess := f.str(o.status, "lastSuccessfulTime", "status.lastSuccessfulTime")
	if f.err != nil {
		return malformed(f.err)
	}
	var b strings.Builder
	b.WriteString("CronJob is a schedule; its runs are Jobs")
	if suspend {
		b.WriteString(": suspended (spec.suspend), no new runs")
	}
	switch {
	case lastSchedule == "" && len(active) == 0:
		b.WriteString("; not scheduled yet")
	default:
		if len(active) > 0 {
			fmt.Fprintf(&b, "; %d active", len(active))
		}
		if lastSchedule != "" {
			b.WriteString("; last scheduled " + lastSchedule)
		}
		if lastSuccess != "" {
			b.WriteString(", last successful " + lastSuccess)
		} else {
			b.WriteString(", none successful yet")
		}
	}
	return current(b.String())
}
