package kstatus

import "fmt"

// Rules for the apps group. The workload controllers publish counts, not the standard
// conditions, so these rules compare the counts with spec the way kubectl rollout status
// does, and name the first count that is short.

func init() {
	register("Deployment", deploymentRule, "apps", "extensions")
	register("StatefulSet", statefulSetRule, "apps")
	register("DaemonSet", daemonSetRule, "apps", "extensions")
	register("ReplicaSet", replicaSetRule("ReplicaSet is available"), "apps", "extensions")
}

// deploymentRule: a rollout is done when every replica runs the new template and is
// available, and no old pod is left. The controller reports a rollout that stopped moving
// for spec.progressDeadlineSeconds with the Progressing reason ProgressDeadlineExceeded;
// that, and a ReplicaFailure (pods rejected by quota or admission), are Failed: waiting
// longer will not help.
//
// A paused Deployment (spec.paused) whose rollout is unfinished is Failed too, with the
// controller's own reason for the pause, DeploymentPaused: the controller neither creates
// the new ReplicaSet nor scales the old one down until someone resumes it, and it stops
// measuring the progress deadline, so nothing in the object will change by waiting and a
// wait would only run out its timeout with no hint why (kubectl rollout status does
// exactly that). Unfinished means old pods are left (status.replicas exceeds
// status.updatedReplicas) or the Deployment was created paused, before any ReplicaSet
// (no deployment.kubernetes.io/revision annotation yet). Other shortfalls of a paused
// Deployment, pods still starting or a scale-up, are made good without a resume and stay
// InProgress. A paused Deployment with nothing left to roll out is Current. Two edges
// follow from reading one object: pausing in the instant after the controller scaled the
// last old ReplicaSet to zero, before its pods are counted out, reads Failed until they
// are; and a Deployment created paused from a manifest that already carries a revision
// annotation (copied from a live object) reads InProgress, not Failed.
func deploymentRule(o object) verdict {
	f := o.fields()
	progressing := f.cond(o.conds, "Progressing")
	replicaFailure := f.cond(o.conds, "ReplicaFailure")
	paused := f.bool(o.spec, "paused", "spec.paused")
	want := f.int(o.spec, "replicas", "spec.replicas", 1) // the API server's default
	replicas := f.int(o.status, "replicas", "status.replicas", 0)
	updated := f.int(o.status, "updatedReplicas", "status.updatedReplicas", 0)
	ready := f.int(o.status, "readyReplicas", "status.readyReplicas", 0)
	available := f.int(o.status, "availableReplicas", "status.availableReplicas", 0)
	if f.err != nil {
		return malformed(f.err)
	}

	switch {
	case progressing.reason == "ProgressDeadlineExceeded":
		return failed("ProgressDeadlineExceeded", "Progress deadline exceeded: "+progressing.text("no progress"))
	case replicaFailure.isTrue():
		return failed(replicaFailure.reasonOr("ReplicaFailure"), "ReplicaFailure: "+replicaFailure.text("cannot create pods"))
	case paused && replicas > updated:
		return failed("DeploymentPaused", fmt.Sprintf("Deployment is paused mid-rollout (updated %d/%d, old pods %d); "+
			"it will not continue until resumed (kubectl rollout resume)", updated, want, replicas-updated))
	case paused && want > 0 && !hasRevision(o.meta):
		return failed("DeploymentPaused", "Deployment was created paused; "+
			"it will create no pods until resumed (kubectl rollout resume)")
	case want > replicas:
		return inProgress("LessReplicas", fmt.Sprintf("Replicas: %d/%d", replicas, want))
	case want > updated:
		return inProgress("LessUpdated", fmt.Sprintf("Updated: %d/%d", updated, want))
	case replicas > want:
		return inProgress("ExtraPods", fmt.Sprintf("Pending termination: %d", replicas-want))
	case updated > available:
		return inProgress("LessAvailable", fmt.Sprintf("Available: %d/%d", available, updated))
	case want > ready:
		return inProgress("LessReady", fmt.Sprintf("Ready: %d/%d", ready, want))
	}
	return current("Deployment is available")
}

// hasRevision reports whether the Deployment controller has given the Deployment a
// revision, which it does when it first has a ReplicaSet for it.
func hasRevision(meta map[string]any) bool {
	annotations, _ := meta["annotations"].(map[string]any)
	rev, _ := annotations["deployment.kubernetes.io/revision"].(string)
	return rev != ""
}

// statefulSetRule: pods are replaced one by one, in order, so the rollout is done when
// every replica is ready and the controller has moved currentRevision to updateRevision.
// Ready is not enough with spec.minReadySeconds: a pod counts as available only once it
// has been ready that long, as for a Deployment, so status.availableReplicas (which
// every API server since 1.22 writes) is waited for too; kubectl rollout status and Argo
// CD stop at ready.
// With spec.updateStrategy.rollingUpdate.partition > 0 only the ordinals at or above the
// partition are updated, so the rollout is done when that many are. An OnDelete
// StatefulSet is never rolled by its controller: a pod takes a new template only when
// someone deletes it, so the revisions are not waited for, but its pods must still exist
// and be ready, as for a DaemonSet. Argo CD checks readiness too; cli-utils, Helm and
// kubectl rollout status call an OnDelete StatefulSet done even with no pod up, which
// lets a wait on a new one return before anything runs.
func statefulSetRule(o object) verdict {
	f := o.fields()
	strategy := f.obj(o.spec, "updateStrategy", "spec.updateStrategy")
	strategyType := f.str(strategy, "type", "spec.updateStrategy.type")
	rolling := f.obj(strategy, "rollingUpdate", "spec.updateStrategy.rollingUpdate")
	partition := f.int(rolling, "partition", "spec.updateStrategy.rollingUpdate.partition", 0)
	want := f.int(o.spec, "replicas", "spec.replicas", 1)
	replicas := f.int(o.status, "replicas", "status.replicas", 0)
	ready := f.int(o.status, "readyReplicas", "status.readyReplicas", 0)
	available, hasAvailable := f.intOK(o.status, "availableReplicas", "status.availableReplicas")
	updated := f.int(o.status, "updatedReplicas", "status.updatedReplicas", 0)
	currentRevision := f.str(o.status, "currentRevision", "status.currentRevision")
	updateRevision := f.str(o.status, "updateRevision", "status.updateRevision")
	if f.err != nil {
		return malformed(f.err)
	}

	switch {
	case want > replicas:
		return inProgress("LessReplicas", fmt.Sprintf("Replicas: %d/%d", replicas, want))
	case want > ready:
		return inProgress("LessReady", fmt.Sprintf("Ready: %d/%d", ready, want))
	case hasAvailable && want > available:
		return inProgress("LessAvailable", fmt.Sprintf("Available: %d/%d", available, want))
	case replicas > want:
		return inProgress("ExtraPods", fmt.Sprintf("Pending termination: %d", replicas-want))
	case strategyType == "OnDelete" && currentRevision != updateRevision:
		return current("StatefulSet is ready; with OnDelete, pods take the new template only when deleted")
	case strategyType == "OnDelete":
		return current("StatefulSet is ready")
	}
	if partition > 0 {
		target := max(want-partition, 0)
		if updated < target {
			return inProgress("PartitionRollout", fmt.Sprintf("Updated: %d/%d (partition %d)", updated, target, partition))
		}
		return current("Partitioned rollout complete")
	}
	if currentRevision != updateRevision {
		return inProgress("RevisionMismatch", fmt.Sprintf("Updated: %d/%d to revision %s", updated, want, updateRevision))
	}
	return current("StatefulSet is ready")
}

// daemonSetRule: the generic observedGeneration check (rule 2) lets objects without the
// field through, but the DaemonSet controller always sets it, so its absence means the
// controller has not acted yet. The wanted count is status.desiredNumberScheduled: one
// pod per eligible node, which only the controller knows.
//
// With spec.updateStrategy.type OnDelete the controller never replaces a running pod: a
// pod takes a new template only when someone deletes it. updatedNumberScheduled then stays
// short for as long as nobody does, so it is not waited for (kubectl rollout status and
// Argo CD call such a DaemonSet done too); the pods must still be scheduled, available
// and ready, which the controller does bring about on its own.
func daemonSetRule(o object) verdict {
	f := o.fields()
	strategy := f.obj(o.spec, "updateStrategy", "spec.updateStrategy")
	onDelete := f.str(strategy, "type", "spec.updateStrategy.type") == "OnDelete"
	_, observed := f.intOK(o.status, "observedGeneration", "status.observedGeneration")
	want, hasWant := f.intOK(o.status, "desiredNumberScheduled", "status.desiredNumberScheduled")
	scheduled := f.int(o.status, "currentNumberScheduled", "status.currentNumberScheduled", 0)
	updated := f.int(o.status, "updatedNumberScheduled", "status.updatedNumberScheduled", 0)
	available := f.int(o.status, "numberAvailable", "status.numberAvailable", 0)
	ready := f.int(o.status, "numberReady", "status.numberReady", 0)
	if f.err != nil {
		return malformed(f.err)
	}

	switch {
	case !observed:
		return inProgress("NoObservedGeneration", "Waiting for the DaemonSet controller: status.observedGeneration not set")
	case !hasWant:
		return inProgress("NoDesiredNumber", "Waiting for the DaemonSet controller: status.desiredNumberScheduled not set")
	case want > scheduled:
		return inProgress("LessScheduled", fmt.Sprintf("Scheduled: %d/%d", scheduled, want))
	case want > updated && !onDelete:
		return inProgress("LessUpdated", fmt.Sprintf("Updated: %d/%d", updated, want))
	case want > available:
		return inProgress("LessAvailable", fmt.Sprintf("Available: %d/%d", available, want))
	case want > ready:
		return inProgress("LessReady", fmt.Sprintf("Ready: %d/%d", ready, want))
	case want > updated:
		return current("DaemonSet is available; with OnDelete, pods take the new template only when deleted")
	}
	return current("DaemonSet is available")
}

// replicaSetRule: a ReplicaSet is usually owned by a Deployment, whose rule is the one to
// wait on; standalone ones are done when every replica carries the selector's labels and
// is available. ReplicaFailure means pods are being rejected (quota, admission): Failed.
// The ReplicationController, the ReplicaSet's predecessor, publishes the same counts and
// condition and shares the rule; available is the message of each when Current.
func replicaSetRule(available string) rule {
	return func(o object) verdict {
		f := o.fields()
		replicaFailure := f.cond(o.conds, "ReplicaFailure")
		want := f.int(o.spec, "replicas", "spec.replicas", 1)
		replicas := f.int(o.status, "replicas", "status.replicas", 0)
		labelled := f.int(o.status, "fullyLabeledReplicas", "status.fullyLabeledReplicas", 0)
		availableReplicas := f.int(o.status, "availableReplicas", "status.availableReplicas", 0)
		ready := f.int(o.status, "readyReplicas", "status.readyReplicas", 0)
		if f.err != nil {
			return malformed(f.err)
		}

		switch {
		case replicaFailure.isTrue():
			return failed(replicaFailure.reasonOr("ReplicaFailure"), "ReplicaFailure: "+replicaFailure.text("cannot create pods"))
		case want > labelled:
			return inProgress("LessLabelled", fmt.Sprintf("Labelled: %d/%d", labelled, want))
		case want > availableReplicas:
			return inProgress("LessAvailable", fmt.Sprintf("Available: %d/%d", availableReplicas, want))
		case want > ready:
			return inProgress("LessReady", fmt.Sprintf("Ready: %d/%d", ready, want))
		case replicas > want:
			return inProgress("ExtraPods", fmt.Sprintf("Pending termination: %d", replicas-want))
		}
		return current(available)
	}
}
