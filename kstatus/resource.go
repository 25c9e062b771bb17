package kstatus

// Rules for the resource.k8s.io group (dynamic resource allocation).

func init() {
	register("DeviceTaintRule", deviceTaintRuleRule, "resource.k8s.io")
}

// deviceTaintRuleRule: a rule with effect NoExecute evicts the pods using the devices it
// taints, and reports EvictionInProgress True until none is left; a caller that applies
// it to drain devices waits for that. Otherwise (False, absent, or effect None, for which
// the condition only previews what NoExecute would do) the rule is in force: Current.
func deviceTaintRuleRule(o object) verdict {
	f := o.fields()
	evicting := f.cond(o.conds, "EvictionInProgress")
	if f.err != nil {
		return malformed(f.err)
	}
	if evicting.isTrue() {
		return inProgress("EvictionInProgress", "Evicting pods: "+evicting.text("pods left to evict"))
	}
	return current("DeviceTaintRule is in force")
}
