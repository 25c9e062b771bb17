package kstatus

// Rules for the policy group.

func init() {
	// A PodDisruptionBudget's counts describe the pods it protects, which are the business
	// of their workload's rule: the budget itself is in force once created.
	register("PodDisruptionBudget", alwaysCurrent("PodDisruptionBudget has no status to wait for"), "policy")
}
