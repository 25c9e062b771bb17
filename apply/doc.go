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
// # Ordered groups
//
// Objects may be in groups that are applied one after another, each waited for (with
// Options.Wait) before the next is applied: a database before the Job that seeds it, before
// the app that reads it. Run reads the groups from annotations of four conventions
// (Options.Conventions; Options.GroupOf gives them instead, Options.IgnoreGroups ignores them):
//
//   - kates: GroupAnnotation ("kates.dev/group: app") and DependsOnAnnotation
//     ("kates.dev/depends-on: db, seed").
//   - Helm's HIP-0025: helm.sh/resource-group and helm.sh/depends-on/resource-groups, a JSON
//     list. The latter is no valid annotation key (two slashes) and the API server refuses an
//     object that carries it, so Run removes it from the object it sends, once read.
//   - Argo CD: argocd.argoproj.io/sync-wave, an integer (negative ones first, 0 when absent),
//     and the hooks PreSync and PostSync (argocd.argoproj.io/hook), whose waves come before and
//     after every Sync wave. Each wave is a group that waits for the one before. Other hooks
//     (SyncFail, PostDelete, Skip) are refused; a hook's delete policy is not honoured (the
//     Job stays).
//   - kapp: kapp.k14s.io/change-group (and change-group.<x>; the placeholders {name},
//     {namespace}, {kind}, {api-group}, {crd-kind} and {crd-group} filled in) and the change
//     rules "upsert after upserting G" and "upsert before upserting G". A rule on one object
//     holds for its whole group; an object with rules and no group is a group of its own.
//     Rules about deletions are refused: Run does not order deletions.
//
// Groups declared in different conventions share one set of names. An object annotated for
// two groups (two conventions, or two kapp change groups) is refused: there is no precedence;
// leave one convention out with Options.Conventions to choose. Sync waves and named groups
// do not order one another, so a batch with both is refused too.
//
// Groups that do not depend on one another are applied in the order of their first objects
// in the batch, one at a time. The objects that no annotation groups go last, as Helm puts
// them (in a batch ordered by Argo CD waves, they are in wave 0, as Argo CD puts them), with
// two exceptions: a CustomResourceDefinition or a Namespace without a group goes with the
// first group, so that every later group finds its kinds and namespaces. Within a group,
// CustomResourceDefinitions come first, then Namespaces, then the rest in the order given. A
// custom resource in a group before its CRD's, or an object in a group before its
// Namespace's, is refused. Without Wait the groups are applied in order, without gates.
//
// Before anything is written, Run refuses, all listed in one InvalidError: dependency cycles
// (naming the groups of the cycle), dependencies on groups no object is in, objects in two
// groups, and annotation values it cannot honour.
//
// An ApplySet's pruned objects go last: after every group is applied, and with the last
// group's wait (they are waited for until gone). They are in no group of the batch, and
// deleting one while the groups that replace it are not yet applied could take away what
// still serves, so nothing is deleted before everything is applied.
//
// # Readiness
//
// A group's objects are ready when Current (kstatus, as Client.Wait judges them), or as
// WaitAnnotation says, or as an object's readiness annotations say instead:
//
//   - Helm's HIP-0025: helm.sh/readiness-success and helm.sh/readiness-failure, both or
//     neither, each a JSON list of expressions "{.succeeded} >= 1": a JSONPath into the
//     object's status (".status" may be written), an operator (==, !=, <, <=, >, >=) and a
//     value. The object is Failed when a failure expression holds, else ready when a success
//     expression holds; a path that finds nothing holds neither.
//   - kates: ReadyWhenAnnotation and FailedWhenAnnotation, CEL over the object (self), as the
//     Current and Failed expressions of a kstatus status rule.
//
// A Failed object stops the run at once: Run returns a *GroupError naming the group, the
// object and why, and the later groups are not applied. Options.GroupTimeout bounds each
// group's wait, Options.Timeout the whole run.
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
