package kstatus

import (
	"fmt"
	"strings"
)

// Rules for the policy group.

func init() {
	register("PodDisruptionBudget", pdbRule, "policy")
}

// pdbRule: a PodDisruptionBudget is Current once stored (after the generation check, like
// every kind), whatever its counts say. A budget is a limit on voluntary evictions, not a
// workload: the API server enforces it from the moment it exists, and there is nothing
// for it to roll out. Fewer healthy pods than desiredHealthy means the workload's pods are
// not ready, which the workload's own rule reports (Deployment, StatefulSet, ...), and
// apply --wait on a manifest waits on that workload already. Making the budget InProgress
// as well would only repeat that verdict, and would hang a wait on a budget applied before
// its pods exist, or one whose selector matches pods scaled to zero, or one that asks for
// more pods than the workload runs: states where the budget is doing exactly its job
// (blocking evictions) and no controller will ever change. A DisruptionAllowed condition
// False with reason SyncFailed (the disruption controller could not compute the budget,
// such as for pods without a controller) blocks every eviction as well; it is reported in
// the message, and stays Current for the same reason.
//
// The message states what was read: the healthy pods against desiredHealthy, the
// expected pods, disruptionsAllowed and a DisruptionAllowed condition that is not True,
// or that the disruption controller has reported nothing yet.
func pdbRule(o object) verdict {
	f := o.fields()
	_, hasHealthy := f.intOK(o.status, "currentHealthy", "status.currentHealthy")
	healthy := f.int(o.status, "currentHealthy", "status.currentHealthy", 0)
	desired := f.int(o.status, "desiredHealthy", "status.desiredHealthy", 0)
	expected, hasExpected := f.intOK(o.status, "expectedPods", "status.expectedPods")
	allowed := f.int(o.status, "disruptionsAllowed", "status.disruptionsAllowed", 0)
	cond := f.cond(o.conds, "DisruptionAllowed")
	if f.err != nil {
		return malformed(f.err)
	}
	if !hasHealthy && !cond.found {
		return current("PodDisruptionBudget is in force; no status reported yet by the disruption controller")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "PodDisruptionBudget is in force: %d healthy pods (%d desired", healthy, desired)
	if hasExpected {
		fmt.Fprintf(&b, ", %d expected", expected)
	}
	b.WriteString(")")
	if allowed == 1 {
		b.WriteString(", 1 disruption allowed")
	} else {
		fmt.Fprintf(&b, ", %d disruptions allowed", allowed)
	}
	if cond.found && !cond.isTrue() {
		fmt.Fprintf(&b, "; DisruptionAllowed %s", cond.status)
		if cond.reason != "" {
			fmt.Fprintf(&b, " (%s)", cond.reason)
		}
		if cond.message != "" {
			b.WriteString(": " + cond.message)
		}
	}
	return current(b.String())
}
