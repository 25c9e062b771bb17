package kstatus

// Rules for the autoscaling group.

func init() {
	register("HorizontalPodAutoscaler", hpaRule, "autoscaling")
}

// hpaRule: an autoscaler has nothing to converge to; what matters is whether it can work.
// AbleToScale False means it cannot read or update its target's scale; ScalingActive
// False means it cannot compute a recommendation, usually because metrics are missing.
// Both are Failed, except ScalingActive's reason ScalingDisabled: the target was scaled to
// zero on purpose.
func hpaRule(o object) verdict {
	f := o.fields()
	able := f.cond(o.conds, "AbleToScale")
	active := f.cond(o.conds, "ScalingActive")
	if f.err != nil {
		return malformed(f.err)
	}
	switch {
	case able.isFalse():
		return failed(able.reasonOr("UnableToScale"), "Cannot scale: "+able.text("AbleToScale is False"))
	case active.isFalse() && active.reason != "ScalingDisabled":
		return failed(active.reasonOr("ScalingInactive"), "Scaling inactive: "+active.text("ScalingActive is False"))
	}
	return current("HorizontalPodAutoscaler is active")
}
