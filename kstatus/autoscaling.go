package kstatus

// Rules for the autoscaling group.

func init() {
	register("HorizontalPodAutoscaler", hpaRule, "autoscaling")
}

// hpaConditionsAnnotation is where autoscaling/v1, which has no status.conditions, carries
// the conditions of autoscaling/v2: the API server converts them to a JSON list there.
const hpaConditionsAnnotation = "autoscaling.alpha.kubernetes.io/conditions"

// hpaRule: an autoscaler has nothing to converge to; what matters is whether it can work.
// AbleToScale False means it cannot read or update its target's scale; ScalingActive
// False means it cannot compute a recommendation, usually because metrics are missing.
// Both are Failed, except ScalingActive's reason ScalingDisabled: the target was scaled to
// zero on purpose.
//
// The conditions are read from status.conditions (autoscaling/v2) or, failing that, from
// the annotation autoscaling/v1 keeps them in, so the same object gets the same verdict
// through either version. An autoscaler with no conditions, no current replicas and no
// scale time has not been looked at by its controller yet (every pass of the controller
// sets conditions): nothing says it can work, so it is InProgress until it has been.
func hpaRule(o object) verdict {
	f := o.fields()
	var able, active condition
	observedConds := len(o.conds)
	if observedConds > 0 {
		able = f.cond(o.conds, "AbleToScale")
		active = f.cond(o.conds, "ScalingActive")
	} else {
		able, active, observedConds = hpaAnnotationConditions(&f, o.meta)
	}
	currentReplicas := f.int(o.status, "currentReplicas", "status.currentReplicas", 0)
	_, observed := f.intOK(o.status, "observedGeneration", "status.observedGeneration")
	scaled := f.str(o.status, "lastScaleTime", "status.lastScaleTime") != ""
	if f.err != nil {
		return malformed(f.err)
	}
	switch {
	case able.isFalse():
		return failed(able.reasonOr("UnableToScale"), "Cannot scale: "+able.text("AbleToScale is False"))
	case active.isFalse() && active.reason != "ScalingDisabled":
		return failed(active.reasonOr("ScalingInactive"), "Scaling inactive: "+active.text("ScalingActive is False"))
	case observedConds == 0 && currentReplicas == 0 && !observed && !scaled:
		return inProgress("NotObserved", "Waiting for the HorizontalPodAutoscaler controller: status has no conditions yet")
	}
	return current("HorizontalPodAutoscaler is active")
}

// hpaAnnotationConditions reads the AbleToScale and ScalingActive conditions from the
// annotation autoscaling/v1 keeps them in, and how many conditions it holds.
func hpaAnnotationConditions(f *fields, meta map[string]any) (able, active condition, n int) {
	annotations := f.obj(meta, "annotations", "metadata.annotations")
	const path = "metadata.annotations[" + hpaConditionsAnnotation + "]"
	raw := f.str(annotations, hpaConditionsAnnotation, path)
	if raw == "" {
		return condition{}, condition{}, 0
	}
	sc := jsonScanner{s: raw}
	able, active, n, ok := sc.conditions("AbleToScale", "ScalingActive")
	if !ok {
		f.fail(path, "a JSON list of conditions", raw)
		return condition{}, condition{}, 0
	}
	return able, active, n
}
