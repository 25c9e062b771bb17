package kstatus

// Rules for the networking.k8s.io group (and its old home, extensions).

func init() {
	register("Ingress", ingressRule, "networking.k8s.io", "extensions")
}

// ingressRule: an Ingress is served once its controller publishes an address. Some
// controllers never publish one (no load balancer in front of them); their Ingresses stay
// InProgress, and a caller that knows this should not wait on them.
func ingressRule(o object) verdict {
	f := o.fields()
	has, err := hasLoadBalancerIngress(&f, o.status)
	switch {
	case err != nil:
		return malformed(err)
	case has:
		return current("Ingress has a load balancer address")
	}
	return inProgress("NoLoadBalancerAddress", "Waiting for a load balancer address in status.loadBalancer.ingress")
}
