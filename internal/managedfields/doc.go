// Package managedfields reads metadata.managedFields as unstructured objects carry them:
// which entries record a write of the object's spec. kstatus reads their times to tell a spec
// the controller rejected from one it has not seen yet; kates' Wait keeps only those entries
// of the managedFields its watches otherwise strip.
package managedfields
