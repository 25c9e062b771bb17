// Package applyset applies objects as an ApplySet (KEP-3659) and prunes what left the set: the
// objects that an earlier apply of the set made and this one no longer holds. It writes the
// labels and annotations kubectl writes, so `kubectl apply --prune --applyset` and kates can
// take over each other's sets.
//
//	set, err := applyset.Open(ctx, client, applyset.Options{Parent: "web"}) // the Secret "web"
//	applied, err := set.ApplyAll(ctx, objs)  // members labelled, the parent updated first
//	pruned, err := set.Prune(ctx)            // members not applied this time are deleted
//
// Only objects that carry the set's label (PartOfLabel) are ever deleted. Package apply runs
// a whole batch (validation, CRDs first, waiting) with a Set; this package is the set alone.
//
// It is a package of its own so that a program that only reads, watches and waits does not
// link it.
package applyset
