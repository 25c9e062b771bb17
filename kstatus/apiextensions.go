package kstatus

// Rules for the apiextensions.k8s.io group.

func init() {
	register("CustomResourceDefinition", crdRule, "apiextensions.k8s.io")
}

// crdRule: a CRD can be used once Established: the API server serves its resource, and
// creating its custom resources no longer fails with "no matches for kind". NamesAccepted
// False means its names clash with another CRD's, which only an edit fixes; Established False
// for InvalidCABundle (the conversion webhook's caBundle is not a PEM certificate) is also one
// that only an edit fixes: the establishing controller will not retry it. Established False
// for any other reason (Installing) is on its way.
func crdRule(o object) verdict {
	f := o.fields()
	names := f.cond(o.conds, "NamesAccepted")
	established := f.cond(o.conds, "Established")
	if f.err != nil {
		return malformed(f.err)
	}
	switch {
	case names.isFalse():
		return failed(names.reasonOr("NamesNotAccepted"), "Names not accepted: "+names.text("names conflict"))
	case established.isFalse() && established.reason == "InvalidCABundle":
		return failed("InvalidCABundle", "Not established: "+established.text("the conversion webhook's caBundle is invalid"))
	case established.isTrue():
		return current("CustomResourceDefinition is established")
	}
	return inProgress("NotEstablished", "Waiting for the CustomResourceDefinition to be established: "+
		established.text("no Established condition yet"))
}
