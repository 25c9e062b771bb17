package kstatus

// Rules for the flowcontrol.apiserver.k8s.io group (API Priority and Fairness).
// A PriorityLevelConfiguration publishes no condition a wait could use: the generic rules
// call it Current once stored, which is when the API server starts using it.

func init() {
	register("FlowSchema", flowSchemaRule, "flowcontrol.apiserver.k8s.io")
}

// flowSchemaRule: the API server marks a FlowSchema Dangling while the priority level it
// names does not exist, and ignores it meanwhile. Applied together with that priority
// level, it is dangling only until the API server sees both, so Dangling True is
// InProgress, with the API server's message naming what is missing.
func flowSchemaRule(o object) verdict {
	f := o.fields()
	dangling := f.cond(o.conds, "Dangling")
	if f.err != nil {
		return malformed(f.err)
	}
	if dangling.isTrue() {
		return inProgress(dangling.reasonOr("Dangling"), "FlowSchema is ignored: "+dangling.text("its priority level does not exist"))
	}
	return current("FlowSchema is in use")
}
