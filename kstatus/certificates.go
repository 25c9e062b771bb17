package kstatus

// Rules for the certificates.k8s.io group. A certificate request is done when a signer
// has issued its certificate; until then it waits on an approver or a signer, which may
// be a controller or a person, so it is InProgress with a message saying which.

func init() {
	register("CertificateSigningRequest", csrRule, "certificates.k8s.io")
	register("PodCertificateRequest", podCertificateRequestRule, "certificates.k8s.io")
}

// csrRule: Denied (by an approver) and Failed (by the signer) are final: a denied or
// failed request cannot be approved again, only replaced. Approved without
// status.certificate waits on the signer named in spec.signerName; neither waits on
// approval, which for most signers takes a person (kubectl certificate approve).
func csrRule(o object) verdict {
	f := o.fields()
	denied := f.cond(o.conds, "Denied")
	csrFailed := f.cond(o.conds, "Failed")
	approved := f.cond(o.conds, "Approved")
	certificate := f.str(o.status, "certificate", "status.certificate")
	signer := f.str(o.spec, "signerName", "spec.signerName")
	if f.err != nil {
		return malformed(f.err)
	}
	switch {
	case denied.isTrue():
		return failed(denied.reasonOr("Denied"), "Certificate request denied: "+denied.text("no reason given"))
	case csrFailed.isTrue():
		return failed(csrFailed.reasonOr("Failed"), "Certificate signing failed: "+csrFailed.text("no reason given"))
	case certificate != "":
		return current("Certificate issued")
	case approved.isTrue():
		return inProgress("AwaitingSigner", "Approved; waiting for signer "+signer+" to issue the certificate")
	}
	return inProgress("AwaitingApproval", "Waiting for the request to be approved (kubectl certificate approve)")
}

// podCertificateRequestRule: kubelets create these for projected pod certificates and a
// signer answers with Issued, Denied or Failed; the last two are final.
func podCertificateRequestRule(o object) verdict {
	f := o.fields()
	issued := f.cond(o.conds, "Issued")
	denied := f.cond(o.conds, "Denied")
	pcrFailed := f.cond(o.conds, "Failed")
	signer := f.str(o.spec, "signerName", "spec.signerName")
	if f.err != nil {
		return malformed(f.err)
	}
	switch {
	case denied.isTrue():
		return failed(denied.reasonOr("Denied"), "Certificate request denied: "+denied.text("no reason given"))
	case pcrFailed.isTrue():
		return failed(pcrFailed.reasonOr("Failed"), "Certificate signing failed: "+pcrFailed.text("no reason given"))
	case issued.isTrue():
		return current("Certificate issued")
	}
	return inProgress("AwaitingSigner", "Waiting for signer "+signer+" to issue the certificate")
}
