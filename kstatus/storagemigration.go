package kstatus

// Rules for the storagemigration.k8s.io group.

func init() {
	register("StorageVersionMigration", storageVersionMigrationRule, "storagemigration.k8s.io")
}

// storageVersionMigrationRule: a migration rewrites every object of a resource, which a
// caller applying one means to wait for. It is done when Succeeded; Failed is final (a
// new migration object is needed); anything else, Running or not yet started, is
// InProgress. The generic rules would call it Current at once: it has no Ready condition.
func storageVersionMigrationRule(o object) verdict {
	f := o.fields()
	succeeded := f.cond(o.conds, "Succeeded")
	migrationFailed := f.cond(o.conds, "Failed")
	running := f.cond(o.conds, "Running")
	if f.err != nil {
		return malformed(f.err)
	}
	switch {
	case succeeded.isTrue():
		return current("Migration succeeded")
	case migrationFailed.isTrue():
		return failed(migrationFailed.reasonOr("MigrationFailed"), "Migration failed: "+migrationFailed.text("no reason given"))
	case running.isTrue():
		return inProgress("MigrationRunning", "Migration running: "+running.text("no message"))
	}
	return inProgress("MigrationNotStarted", "Waiting for the storage version migrator to start the migration")
}
