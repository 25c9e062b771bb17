// Package apply applies a batch of objects and waits until they are reconciled, in one call —
// what `kates apply --wait` does, for a Go program:
//
//	res, err := apply.Run(ctx, client, objects, apply.Options{Wait: true})
//
// Run checks the whole batch before it writes anything (every kind served or defined in the
// batch, no object defined twice, every object valid against the cluster's schemas), applies
// CustomResourceDefinitions first and Namespaces second, waits for each new kind to be served
// before its objects, keeps an ApplySet (package applyset) and prunes it, and then waits: each
// object until it is Current, or as its annotation kates.dev/wait says. The Result says, per
// object, whether it was Applied, Unchanged, Pruned, Skipped, Failed or NotApplied, with the
// server's warnings and its last status in the wait.
//
// # What a failure leaves
//
// A batch refused by the checks writes nothing. An apply that fails part way leaves the
// objects before it applied and the rest untouched, and says which in the Result and in the
// *BatchError; nothing is rolled back. See Run.
//
// It is a package of its own because it links validation (package validate) and ApplySets,
// which a program that only reads, watches and waits does not need.
package apply
