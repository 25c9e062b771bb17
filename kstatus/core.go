package kstatus

import (
	"fmt"
	"strconv"
	"time"
)

// Rules for the core ("") group.

// ScheduleWindow is how long a Pod may be unschedulable before Compute reports it Failed.
// The scheduler marks a pod Unschedulable on its first attempt, often while the cluster
// autoscaler or a node still starting is about to make room; reporting that at once would
// fail waits that would have succeeded seconds later.
const ScheduleWindow = 15 * time.Second

func init() {
	register("Pod", podRule, "")
	register("ReplicationController", replicaSetRule("ReplicationController is available"), "")
	register("PersistentVolumeClaim", pvcRule, "")
	register("PersistentVolume", pvRule, "")
	register("ResourceQuota", resourceQuotaRule, "")
	register("Service", serviceRule, "")
	register("Namespace", namespaceRule, "")
	register("ConfigMap", alwaysCurrent("ConfigMap has no status to wait for"), "")
	register("Secret", alwaysCurrent("Secret has no status to wait for"), "")
	register("ServiceAccount", alwaysCurrent("ServiceAccount has no status to wait for"), "")
}

// alwaysCurrent returns the rule for kinds without a controller to wait for. A row for them,
// rather than the fall-through rule 6, keeps their message precise and keeps rule 5 from
// reading a Ready condition someone may have written into them.
func alwaysCurrent(message string) rule {
	return func(object) verdict { return current(message) }
}

// crashReasons are the waiting reasons after which a container will not start without a
// change to the Pod or to something it references: waiting for them only runs out a
// timeout.
var crashReasons = map[string]bool{
	"CrashLoopBackOff":           true,
	"ImagePullBackOff":           true,
	"ErrImagePull":               true,
	"InvalidImageName":           true,
	"ErrImageNeverPull":          true, // imagePullPolicy Never and the image is not on the node
	"CreateContainerConfigError": true,
}

// podRule: a Pod is done when it has run to success, or runs and is Ready. Bare Pods are
// rare in manifests; the rule matters most for Jobs' and tools' one-off Pods, and for
// messages when a workload's Pods are inspected.
func podRule(o object) verdict {
	f := o.fields()
	phase := f.str(o.status, "phase", "status.phase")
	ready := f.cond(o.conds, "Ready")
	scheduled := f.cond(o.conds, "PodScheduled")
	if f.err != nil {
		return malformed(f.err)
	}

	switch phase {
	case "Succeeded":
		return current("Pod has completed successfully")
	case "Failed":
		return podFailed(&f, o.status)
	case "Running":
		if ready.isTrue() {
			return current("Pod is Ready")
		}
	}

	if v, ok := crashingContainer(&f, o.status); ok || f.err != nil {
		if f.err != nil {
			return malformed(f.err)
		}
		return v
	}

	if scheduled.isFalse() && scheduled.reason == "Unschedulable" {
		// Measured from when the scheduler first said so; creationTimestamp stands in if
		// a hand-made object lacks the condition's time.
		since, ok := f.time(scheduled.raw, "lastTransitionTime", "status.conditions[PodScheduled].lastTransitionTime")
		if !ok {
			since, ok = f.time(o.meta, "creationTimestamp", "metadata.creationTimestamp")
		}
		if f.err != nil {
			return malformed(f.err)
		}
		msg := scheduled.text("no node fits")
		if ok && o.clock().Sub(since) < ScheduleWindow {
			return inProgress("PodNotScheduled", "Pod not yet scheduled: "+msg)
		}
		return failed("Unschedulable", "Pod unschedulable: "+msg)
	}

	switch phase {
	case "Running":
		return inProgress("PodRunningNotReady", "Pod is running but not Ready: "+ready.text("no Ready condition"))
	case "":
		return inProgress("PodNotStarted", "Pod has no phase yet")
	}
	reason := "PodNotReady"
	if phase == "Pending" {
		reason = "PodPending"
	}
	if w := waitingSummary(&f, o.status); w != "" {
		return inProgress(reason, "Pod is "+phase+": "+w)
	}
	return inProgress(reason, "Pod is "+phase)
}

// podFailed names why a Pod failed: the Pod's own reason (Evicted, DeadlineExceeded) if
// it has one, else the first container that exited non-zero.
func podFailed(f *fields, status map[string]any) verdict {
	reason := f.str(status, "reason", "status.reason")
	message := f.str(status, "message", "status.message")
	if f.err != nil {
		return malformed(f.err)
	}
	if reason != "" {
		if message != "" {
			return failed(reason, "Pod failed: "+reason+": "+message)
		}
		return failed(reason, "Pod failed: "+reason)
	}
	for _, cs := range containerLists {
		for _, c := range f.list(status, cs.key, cs.path) {
			cm, _ := c.(map[string]any)
			state, _ := cm["state"].(map[string]any)
			term, _ := state["terminated"].(map[string]any)
			code, _ := toInt(term["exitCode"])
			if term == nil || code == 0 {
				continue
			}
			name, _ := cm["name"].(string)
			why, _ := term["reason"].(string)
			if why == "" {
				why = "Error"
			}
			return failed(why, fmt.Sprintf("Pod failed: container %s: %s (exit code %d)", name, why, code))
		}
	}
	if f.err != nil {
		return malformed(f.err)
	}
	if message != "" {
		return failed("PodFailed", "Pod failed: "+message)
	}
	return failed("PodFailed", "Pod failed")
}

// containerLists are the two lists of container statuses a Pod reports, init containers
// first because they run first.
var containerLists = [...]struct {
	key, path string
	init      bool
}{
	{"initContainerStatuses", "status.initContainerStatuses", true},
	{"containerStatuses", "status.containerStatuses", false},
}

// crashingContainer finds the first container, init containers first, waiting for one
// of crashReasons.
func crashingContainer(f *fields, status map[string]any) (verdict, bool) {
	for _, cs := range containerLists {
		for _, c := range f.list(status, cs.key, cs.path) {
			cm, _ := c.(map[string]any)
			state, _ := cm["state"].(map[string]any)
			waiting, _ := state["waiting"].(map[string]any)
			reason, _ := waiting["reason"].(string)
			if !crashReasons[reason] {
				continue
			}
			name, _ := cm["name"].(string)
			label := "Container "
			if cs.init {
				label = "Init container "
			}
			msg := label + name + ": " + reason
			if m, _ := waiting["message"].(string); m != "" {
				msg += ": " + m
			}
			return failed(reason, msg), true
		}
	}
	return verdict{}, false
}

// waitingSummary describes the first waiting container of a Pod that is not yet running,
// such as "container web is ContainerCreating", or returns "".
func waitingSummary(f *fields, status map[string]any) string {
	for _, cs := range containerLists {
		for _, c := range f.list(status, cs.key, cs.path) {
			cm, _ := c.(map[string]any)
			state, _ := cm["state"].(map[string]any)
			waiting, _ := state["waiting"].(map[string]any)
			if reason, _ := waiting["reason"].(string); reason != "" {
				name, _ := cm["name"].(string)
				return "container " + name + " is " + reason
			}
		}
	}
	return ""
}

// pvcRule: a claim is done when bound to a volume. Lost means its volume is gone, which
// no controller repairs. A claim whose storage class binds on first use stays Pending
// until a Pod uses it: the claim alone cannot tell that apart from a claim that will never
// bind, so it is InProgress either way.
func pvcRule(o object) verdict {
	f := o.fields()
	phase := f.str(o.status, "phase", "status.phase")
	volume := f.str(o.spec, "volumeName", "spec.volumeName")
	if f.err != nil {
		return malformed(f.err)
	}
	switch phase {
	case "Bound":
		return current("PersistentVolumeClaim is Bound")
	case "Lost":
		if volume != "" {
			return failed("ClaimLost", "PersistentVolumeClaim lost its volume "+volume)
		}
		return failed("ClaimLost", "PersistentVolumeClaim lost its volume")
	case "":
		return inProgress("NotBound", "PersistentVolumeClaim has no phase yet")
	}
	return inProgress("NotBound", "PersistentVolumeClaim is "+phase)
}

// serviceRule: only a LoadBalancer Service waits on anything, its load balancer's
// address. Whether Endpoints exist is the business of the workload behind it, not the
// Service.
//
// The address is assigned by a load-balancer controller: the cloud provider's, or one
// installed for it such as MetalLB; with spec.loadBalancerClass, only the controller of
// that class. Clusters without one (kind, minikube, most CI clusters) never assign it, and
// the Service cannot tell that apart from an address still coming, so it stays InProgress
// with reason LoadBalancerPending and a message that says who assigns the address.
// Callers that know their cluster has no such controller match that reason to stop
// waiting for it.
func serviceRule(o object) verdict {
	f := o.fields()
	typ := f.str(o.spec, "type", "spec.type")
	class := f.str(o.spec, "loadBalancerClass", "spec.loadBalancerClass")
	if f.err != nil {
		return malformed(f.err)
	}
	if typ != "LoadBalancer" {
		return current("Service is ready")
	}
	has, err := hasLoadBalancerIngress(&f, o.status)
	switch {
	case err != nil:
		return malformed(err)
	case has:
		return current("Service has a load balancer address")
	case class != "":
		return inProgress("LoadBalancerPending", "Waiting for a load balancer address: the controller of loadBalancerClass "+
			class+" assigns it, and a cluster without that controller never does")
	}
	return inProgress("LoadBalancerPending", "Waiting for a load balancer address: a load-balancer controller "+
		"(the cloud provider's, MetalLB, ...) assigns it, and clusters without one (kind, minikube, most CI clusters) never do")
}

// hasLoadBalancerIngress reports whether status.loadBalancer.ingress, shared by Service
// and Ingress, lists an address.
func hasLoadBalancerIngress(f *fields, status map[string]any) (bool, *FieldError) {
	lb := f.obj(status, "loadBalancer", "status.loadBalancer")
	ingress := f.list(lb, "ingress", "status.loadBalancer.ingress")
	return len(ingress) > 0, f.err
}

// pvRule: the API server creates every PersistentVolume Pending and the volume
// controller makes it Available once it has checked it, so Pending is InProgress.
// Available, Bound and Released are each a state the volume rests in: Released (its claim
// is gone) waits on its reclaim policy or an administrator, not on anything a wait can
// expect. Failed means its automatic reclamation failed, which no controller retries.
func pvRule(o object) verdict {
	f := o.fields()
	phase := f.str(o.status, "phase", "status.phase")
	message := f.str(o.status, "message", "status.message")
	if f.err != nil {
		return malformed(f.err)
	}
	switch phase {
	case "Available":
		return current("PersistentVolume is Available")
	case "Bound":
		return current("PersistentVolume is Bound")
	case "Released":
		return current("PersistentVolume is Released")
	case "Failed":
		if message != "" {
			return failed("VolumeFailed", "PersistentVolume failed: "+message)
		}
		return failed("VolumeFailed", "PersistentVolume failed")
	case "":
		return inProgress("VolumePending", "PersistentVolume has no phase yet")
	}
	return inProgress("VolumePending", "PersistentVolume is "+phase)
}

// resourceQuotaRule: a quota is in force once the quota controller has copied spec.hard
// into status.hard and counted usage against it; until then admission refuses objects it
// covers with "status unknown for quota", and after an edit it enforces the old limits.
// The controller publishes no observedGeneration, so the rule compares the two maps:
// every limit in spec.hard must appear in status.hard with the same value (both are
// canonical quantities, written by the API server and copied by the controller).
func resourceQuotaRule(o object) verdict {
	f := o.fields()
	want := f.obj(o.spec, "hard", "spec.hard")
	have := f.obj(o.status, "hard", "status.hard")
	if f.err != nil {
		return malformed(f.err)
	}
	// Report the first limit by name, not by map order, so the message is stable.
	// found, not first == "", says whether a limit is short: "" is a name a map can hold.
	first, found := "", false
	for name, limit := range want {
		if got, ok := have[name]; (!ok || quantity(got) != quantity(limit)) && (!found || name < first) {
			first, found = name, true
		}
	}
	if !found {
		return current("ResourceQuota is in force")
	}
	got, ok := have[first]
	if !ok {
		return inProgress("QuotaNotComputed", "Waiting for the resource quota controller: no usage computed for "+first)
	}
	return inProgress("QuotaNotComputed", "Waiting for the resource quota controller: "+first+" is "+
		quantity(got)+" in status, "+quantity(want[first])+" in spec")
}

// quantity spells a decoded quantity for comparison: the API server writes strings, a
// hand-written manifest may hold numbers.
func quantity(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	if i, ok := toInt(v); ok {
		return strconv.FormatInt(i, 10)
	}
	return fmt.Sprint(v)
}

// namespaceRule: the namespace lifecycle reports deletion in status.phase as well as in
// metadata.deletionTimestamp (rule 1); either one means Terminating.
func namespaceRule(o object) verdict {
	f := o.fields()
	phase := f.str(o.status, "phase", "status.phase")
	if f.err != nil {
		return malformed(f.err)
	}
	if phase == "Terminating" {
		return verdict{status: TerminatingStatus, message: "Namespace is terminating"}
	}
	return current("Namespace is active")
}
