package kstatus

// Rules for the apiregistration.k8s.io group.

func init() {
	register("APIService", apiServiceRule, "apiregistration.k8s.io")
}

// apiServiceRule: an aggregated API is usable once Available. While it is not (its
// backing Service has no endpoints yet, discovery fails) every request for its group
// fails, so callers that apply its custom resources must wait for it.
func apiServiceRule(o object) verdict {
	f := o.fields()
	available := f.cond(o.conds, "Available")
	if f.err != nil {
		return malformed(f.err)
	}
	if available.isTrue() {
		return current("APIService is available")
	}
	return inProgress(available.reasonOr("NotAvailable"), "APIService not available: "+
		available.text("no Available condition yet"))
}
