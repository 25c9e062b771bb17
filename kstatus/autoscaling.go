package kstatus

import "encoding/json"

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
	conds := o.conds
	if len(conds) == 0 {
		conds = hpaAnnotationConditions(&f, o.meta)
	}
	able := f.cond(conds, "AbleToScale")
	active := f.cond(conds, "ScalingActive")
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
	case len(conds) == 0 && currentReplicas == 0 && !observed && !scaled:
		return inProgress("NotObserved", "Waiting for the HorizontalPodAutoscaler controller: status has no conditions yet")
	}
	return current("HorizontalPodAutoscaler is active")
}

// hpaAnnotationConditions decodes the conditions autoscaling/v1 keeps in an annotation,
// or returns nil if there are none. Only v1 objects pay for the decode.
func hpaAnnotationConditions(f *fields, meta map[string]any) []any {
	annotations := f.obj(meta, "annotations", "metadata.annotations")
	path := "metadata.annotations[" + hpaConditionsAnnotation + "]"
	raw := f.str(annotations, hpaConditionsAnnotation, path)
	if raw == "" {
		return nil
	}
	var conds []any
	if err := json.Unmarshal([]byte(raw), &conds); err != nil {
		f.fail(path, "a JSON list of conditions", raw)
		return nil
	}
	return conds
}
