package kstatus

// Rules for the storage.k8s.io group. StorageClass, CSIDriver, CSINode,
// CSIStorageCapacity and VolumeAttributesClass have no status: the generic rules call
// them Current, which they are once stored.

func init() {
	register("VolumeAttachment", volumeAttachmentRule, "storage.k8s.io")
}

// volumeAttachmentRule: the attach/detach controller creates a VolumeAttachment and the
// volume's attacher (spec.attacher) attaches the volume and sets status.attached; the
// generic rules would call it Current before anything is attached. An attach error is
// retried by the attacher with back-off and is often transient (a cloud API's rate
// limit), so it is InProgress, with the error as the message.
func volumeAttachmentRule(o object) verdict {
	f := o.fields()
	attached := f.bool(o.status, "attached", "status.attached")
	attachError := f.obj(o.status, "attachError", "status.attachError")
	message := f.str(attachError, "message", "status.attachError.message")
	attacher := f.str(o.spec, "attacher", "spec.attacher")
	if f.err != nil {
		return malformed(f.err)
	}
	switch {
	case attached:
		return current("Volume is attached")
	case attachError != nil:
		return inProgress("AttachError", "Attach failed, the attacher retries: "+message)
	}
	return inProgress("NotAttached", "Waiting for attacher "+attacher+" to attach the volume")
}
