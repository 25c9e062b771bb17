package apply

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kates-dev/kates/applyset"
	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/kstatus"
	"github.com/kates-dev/kates/validate"
)

// WaitAnnotation is the annotation by which an object says how the wait after its apply
// waits for it: "true" (or "current", or no annotation) until it is Current, "exists" (or
// "created") only until it exists, "false" (or "none") not at all. Any other value refuses
// the batch. The annotation is sent to the server with the rest of the object.
const WaitAnnotation = "kates.dev/wait"

// Options change what Run does. The zero value validates, applies with the field manager
// kates.DefaultFieldManager, and does not wait.
type Options struct {
	// FieldManager owns the fields applied. Default: kates.DefaultFieldManager.
	FieldManager string
	// Force takes fields another field manager owns instead of failing with a Conflict, as
	// kubectl apply --server-side --force-conflicts does.
	Force bool
	// DryRun sends every write as a server-side dry run: the server validates, defaults and
	// admits each object and persists nothing. Not with Wait. An ApplySet must have been
	// opened with applyset.Options.DryRun to match.
	DryRun bool
	// NoValidate skips the check of every object against the cluster's schemas (package
	// validate) before anything is written; the server then judges each object as it comes,
	// and an invalid one stops the batch part way (see BatchError).
	NoValidate bool
	// Validator is the validator to check with. Default: a new one for this call (validate.New),
	// which fetches the schemas it needs; pass one to reuse them across calls.
	Validator *validate.Validator
	// ApplySet, if set, makes the objects members of the set and prunes the members that are
	// not in this batch once every object is applied (see package applyset).
	ApplySet *applyset.Set
	// Wait waits, once every object is applied and the prune done, until each object is
	// Current (or what WaitOptions and WaitAnnotation say instead) and each pruned object is
	// gone.
	Wait bool
	// WaitOptions are the options of the wait for the objects to be Current: a condition or a
	// JSONPath instead, status rules, no fail fast. Their Progress is called in each of the
	// waits (see WaitWith). The zero value waits for Current.
	WaitOptions kates.WaitOptions
	// IgnoreWaitAnnotation waits for every object as WaitOptions say, whatever its
	// WaitAnnotation.
	IgnoreWaitAnnotation bool
	// BeforeApply, if set, is called once every check passed, before anything is written, with
	// each object as it will be sent (ObjectResult.Object, with the ApplySet's label) in the
	// order it will be sent. An error from it stops Run with that error and nothing written.
	BeforeApply func(ctx context.Context, planned []ObjectResult) error
	// OnResult, if set, is called with each object's result as soon as it is known: each
	// object applied, skipped or failed, then each pruned, in the order of Result.Objects. It
	// is called from Run's goroutine.
	OnResult func(ObjectResult)
	// WaitWith, if set, does the waiting instead of kates.Client.Wait: Run calls it once per
	// goal, in the order WaitExists, WaitCurrent, WaitDeleted (skipping goals no object has),
	// with the objects of that goal and the options for it, and stops at the first error. A
	// command line passes one that shows progress. It must return the *kates.WaitError of a
	// wait that did not succeed (or wrap it) for the objects' statuses to be filled in.
	WaitWith func(ctx context.Context, goal WaitGoal, objects []any, opts kates.WaitOptions) error

	// Conventions are the group annotations read (see Convention and the package
	// documentation, "Ordered groups"). Default (nil): Conventions, all of them. An object
	// annotated in two conventions is refused, unless one of them is left out here.
	Conventions []Convention
	// IgnoreGroups applies the batch as one group, whatever its group annotations.
	IgnoreGroups bool
	// GroupOf, if set, says each object's group and the groups that must be ready before it,
	// instead of the annotations: "" for none. It is called once per object during the
	// checks, with a copy of it; an error refuses the batch, as a Problem of the object.
	GroupOf func(obj *unstructured.Unstructured) (group string, dependsOn []string, err error)
	// GroupTimeout, if not 0, bounds each group's wait. Default: none but ctx's.
	GroupTimeout time.Duration
	// Timeout, if not 0, bounds the whole of Run, as a deadline on ctx would.
	Timeout time.Duration
	// OnGroup, if set, is told each group's steps: each group planned (before anything is
	// written), then, group by group, applying, waiting and ready, with the changes of the
	// objects waited for by their readiness annotations. Calls are never concurrent.
	OnGroup func(GroupEvent)
}

// Run applies objects as one batch with server-side apply, then optionally waits until they
// are reconciled: what `kates apply --wait` does. Each object may be a typed object
// (*kates.Deployment), a *kates.Unstructured, a map[string]any, or a kates.ManifestObject
// (whose Source and Document then name it in messages), and objects a slice of any of them
// ([]kates.Object from kates.ParseManifests, []kates.ManifestObject from
// kates.ParseUnstructuredManifests, []any of a mix). Run never changes them.
//
// # Steps
//
//  1. Checks, before anything is written: every object has a kind and a name; no object is
//     defined twice (DuplicateError, naming every definition); every kind is served or defined
//     by a CustomResourceDefinition in the batch; every WaitAnnotation is known; status rules
//     in WaitOptions fit the schemas of the batch's CRDs; unless NoValidate, every object is
//     valid against the cluster's schemas, a custom resource against its CRD in the batch if
//     there is one (validate.Validator). Every problem is listed in one InvalidError.
//  2. With an ApplySet, every object is labelled as a member (another set's member is
//     refused); BeforeApply is called; the ApplySet's parent is updated.
//  3. The objects are applied group by group (see the package documentation, "Ordered
//     groups"; a batch without groups is one group): in each, CustomResourceDefinitions first,
//     then Namespaces, then the rest in the order given. Before the first object of a kind that
//     a CRD in the batch defines, Run waits until the kind is served (kates.Client.WaitFor). In
//     a dry run such an object is Skipped when its kind is not served: the CRD's apply was only
//     a dry run. With Wait, each group but the last is waited for as in step 5 before the next
//     is applied.
//  4. With an ApplySet, once the last group is applied, the members not in this batch are
//     deleted (applyset.Set.Prune).
//  5. With Wait, Run waits for the last group's objects annotated "exists" to exist, then for
//     the rest to be Current (WaitOptions) or ready as their readiness annotations say, then
//     for the pruned objects to be gone.
//
// # Unchanged
//
// An object is Unchanged when the apply changed nothing on the server. Run reads the object
// before applying it; the apply changed nothing when the object existed and its
// resourceVersion is the same after the apply (the API server does not write an apply that
// changes nothing, not even the managedFields timestamps). In a dry run the resourceVersion
// says nothing, so the object read before and the dry run's answer are compared instead, less
// metadata.managedFields, resourceVersion and generation. A write by someone else between the
// read and the apply makes the object read as Applied.
//
// When the batch has 4 or more objects of one kind in one namespace, Run reads them with one
// LIST, made as the first of them comes to be applied, rather than a GET each; smaller groups
// get a GET per object. So the reads add a request per kind and namespace rather than one per
// object: on the test machine 50 unchanged ConfigMaps took 1.0 s with a GET each and 0.51 s
// with the LIST, as a loop of Client.Apply does (the Client's limit of 100 requests a second;
// BenchmarkRun). The LIST reads about 10 objects per object of the batch at most, so a large
// namespace is never read whole to apply a few objects in it (those it did not reach get a
// GET each), and one the identity may not list (Forbidden) falls back to the GETs. The LIST
// is made earlier than a GET would be, so the window for a write by someone else is the
// applies between it and the object's own.
//
// # Failures
//
// Options that contradict each other (DryRun with Wait, an ApplySet opened otherwise than
// DryRun says) and an object that is not one (a nil, a type Run cannot convert) return a nil
// Result and an error, with nothing written.
// A batch refused by the checks (InvalidError, DuplicateError, an ApplySet's refusal, an error
// from BeforeApply) writes nothing: every object is NotApplied. An object whose apply fails
// stops the batch there: Result.Objects says which objects were applied before it (Applied,
// Unchanged, Skipped), which one Failed, and which were NotApplied; the error is a *BatchError
// saying the same. Nothing is then pruned (the ApplySet's parent still records every kind it
// recorded, so a later run prunes what this one would have), and nothing is waited for. A prune
// that fails returns the ApplySet's error, with every object applied and the objects pruned so
// far in the Result. A wait that does not succeed returns the wait's error as it is (a
// *kates.WaitError: errors.Is(err, kates.ErrWaitFailed) when an object failed), with each
// waited object's last Status filled in; in a batch of several groups it is wrapped in a
// *GroupError naming the group, and the later groups are NotApplied.
//
// # Cancellation
//
// ctx bounds everything: give it a deadline. When ctx ends during the checks, Run returns an
// error wrapping ctx's error, with nothing written. When it ends during the applies, the object being applied
// Failed with a *BatchError wrapping ctx's error (errors.Is(err, context.Canceled)): the server
// may or may not have applied that one. When it ends during the wait, the wait's *WaitError
// wraps ctx's error (context.DeadlineExceeded for a timeout) and lists what was not done.
// Nothing is rolled back in any case: what was applied stays applied.
func Run[T any](ctx context.Context, c *kates.Client, objects []T, opts Options) (*Result, error) {
	all := make([]any, len(objects))
	for i, o := range objects {
		all[i] = o
	}
	return run1(ctx, c, all, opts)
}

// run1 is Run, once objects are []any.
func run1(ctx context.Context, c *kates.Client, objects []any, opts Options) (*Result, error) {
	if opts.FieldManager == "" {
		opts.FieldManager = kates.DefaultFieldManager
	}
	if opts.DryRun && opts.Wait {
		return nil, errors.New("apply: a dry run with a wait: nothing is applied, so there is nothing to wait for")
	}
	if opts.ApplySet != nil && opts.ApplySet.DryRun() != opts.DryRun {
		return nil, fmt.Errorf("apply: the ApplySet %s was opened with DryRun %t, the apply has DryRun %t", opts.ApplySet, opts.ApplySet.DryRun(), opts.DryRun)
	}
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
	}
	b, err := newBatch(c, objects)
	if err != nil {
		return nil, err
	}
	err = b.check(ctx, opts) // before the results: it resolves each object's namespace
	res := &Result{Objects: make([]ObjectResult, len(b.items))}
	for i, it := range b.items {
		res.Objects[i] = it.result(NotApplied)
	}
	if err != nil {
		return res, err
	}
	r := &run{c: c, opts: opts, batch: b, res: res}
	res.Groups = make([]Group, len(b.groups))
	for gi, g := range b.groups {
		res.Groups[gi] = g.Group
		r.event(gi, GroupPlanned, nil)
	}
	if err := r.prepare(ctx); err != nil {
		return res, err
	}
	for gi, g := range b.groups {
		r.event(gi, GroupApplying, nil)
		if err := r.applyItems(ctx, g.Objects); err != nil {
			return res, err
		}
		last := gi == len(b.groups)-1
		idx := g.Objects
		if last && opts.ApplySet != nil {
			// Pruned last, once every group is applied: the members left out of the batch
			// belong to no group of it, and deleting one while the groups that replace it
			// are not applied yet could take away what still serves.
			before := len(res.Objects)
			if err := r.prune(ctx); err != nil {
				return res, err
			}
			idx = slices.Clone(idx)
			for i := before; i < len(res.Objects); i++ {
				idx = append(idx, i)
			}
		}
		if !opts.Wait {
			continue
		}
		r.event(gi, GroupWaiting, nil)
		if err := r.waitGroup(ctx, idx); err != nil {
			if len(b.groups) == 1 {
				return res, err // as it always was: the wait's own error
			}
			gerr := &GroupError{Group: res.Groups[gi], Index: gi, Count: len(b.groups), Err: err}
			for _, later := range res.Groups[gi+1:] {
				gerr.NotApplied = append(gerr.NotApplied, later.String())
			}
			return res, gerr
		}
		r.event(gi, GroupReady, nil)
	}
	return res, nil
}

// run is one call of Run once its batch passed the checks.
type run struct {
	c     *kates.Client
	opts  Options
	batch *batch
	res   *Result
	mu    sync.Mutex // serializes OnGroup, called from the readiness waits
}

// event tells OnGroup of group gi's phase.
func (r *run) event(gi int, phase GroupPhase, st *kates.ObjectStatus) {
	if r.opts.OnGroup == nil {
		return
	}
	g := r.batch.groups[gi]
	r.mu.Lock()
	defer r.mu.Unlock()
	objs := make([]ObjectResult, len(g.Objects))
	for j, i := range g.Objects {
		objs[j] = r.res.Objects[i]
	}
	r.opts.OnGroup(GroupEvent{Group: r.res.Groups[gi], Index: gi, Count: len(r.batch.groups), Phase: phase, Objects: objs, Status: st})
}

func (r *run) report(i int) {
	if r.opts.OnResult != nil {
		r.opts.OnResult(r.res.Objects[i])
	}
}

// prepare labels the members of the ApplySet, calls BeforeApply and writes the set's parent.
func (r *run) prepare(ctx context.Context) error {
	objs := make([]*unstructured.Unstructured, len(r.batch.items))
	for i, it := range r.batch.items {
		objs[i] = it.obj
	}
	if set := r.opts.ApplySet; set != nil {
		if err := set.Label(objs); err != nil {
			return err
		}
	}
	if r.opts.BeforeApply != nil {
		planned := make([]ObjectResult, len(r.batch.items))
		for i, it := range r.batch.items {
			planned[i] = it.result(NotApplied)
			planned[i].Object = it.obj.DeepCopy()
		}
		if err := r.opts.BeforeApply(ctx, planned); err != nil {
			return err
		}
	}
	if set := r.opts.ApplySet; set != nil {
		return set.Prepare(ctx, objs)
	}
	return nil
}

// applyItems applies the objects idx (of one group) in order, stopping at the first failure.
func (r *run) applyItems(ctx context.Context, idx []int) error {
	applyOpts := []kates.ApplyOption{kates.FieldManager(r.opts.FieldManager)}
	if r.opts.Force {
		applyOpts = append(applyOpts, kates.ForceOwnership())
	}
	if r.opts.DryRun {
		applyOpts = append(applyOpts, kates.DryRun())
	}
	// served and unserved are the batch's CRD kinds found served, and (in a dry run) not.
	served, unserved := map[schema.GroupKind]bool{}, map[schema.GroupKind]bool{}
	// One reader per group: a LIST read for a later group's objects at the first group
	// would be older than it need be.
	items := make([]*item, len(idx))
	for j, i := range idx {
		items[j] = r.batch.items[i]
	}
	reads := newReader(r.c, items)
	for _, i := range idx {
		it := r.batch.items[i]
		res := &r.res.Objects[i]
		if unserved[it.gvk.GroupKind()] {
			res.Action = Skipped
			r.report(i)
			continue
		}
		if crd, ok := r.batch.crdKinds[it.gvk.GroupKind()]; ok && !served[it.gvk.GroupKind()] {
			if _, err := r.c.Mapping(crd.resource); r.opts.DryRun && kates.IsUnknownKind(err) {
				unserved[it.gvk.GroupKind()] = true
				res.Action = Skipped
				r.report(i)
				continue
			}
			if err := r.c.WaitFor(ctx, crd.resource); err != nil {
				return r.fail(i, err)
			}
			served[it.gvk.GroupKind()] = true
		}
		before, err := reads.read(ctx, it)
		if err != nil {
			return r.fail(i, err)
		}
		out := &unstructured.Unstructured{}
		wctx := kates.WithWarnings(ctx, func(w string) { res.Warnings = append(res.Warnings, w) })
		if err := r.c.Apply(wctx, it.obj, out, applyOpts...); err != nil {
			return r.fail(i, err)
		}
		res.Action = Applied
		if unchanged(before, out, r.opts.DryRun) {
			res.Action = Unchanged
		}
		res.Object, res.UID = out, out.GetUID()
		if r.opts.Wait {
			res.Wait = WaitCurrent
			if !r.opts.IgnoreWaitAnnotation {
				res.Wait = it.wait
			}
		}
		if set := r.opts.ApplySet; set != nil {
			set.Applied(out)
		}
		r.report(i)
	}
	return nil
}

// fail marks object i Failed with err and returns the BatchError.
func (r *run) fail(i int, err error) error {
	res := &r.res.Objects[i]
	res.Action, res.Err = Failed, err
	r.report(i)
	applied := 0
	for _, o := range r.res.Objects[:i] {
		if o.Action == Applied || o.Action == Unchanged {
			applied++
		}
	}
	return &BatchError{Object: *res, Applied: applied, NotApplied: len(r.res.Objects) - i - 1, Total: len(r.res.Objects), Err: err}
}

// unchanged says whether the apply that answered after changed nothing of before (nil: the
// object did not exist); see Run.
func unchanged(before, after *unstructured.Unstructured, dryRun bool) bool {
	if before == nil {
		return false
	}
	if !dryRun {
		return before.GetResourceVersion() != "" && before.GetResourceVersion() == after.GetResourceVersion()
	}
	strip := func(u *unstructured.Unstructured) map[string]any {
		u = u.DeepCopy()
		u.SetManagedFields(nil)
		u.SetResourceVersion("")
		u.SetGeneration(0)
		return u.Object
	}
	return equality.Semantic.DeepEqual(strip(before), strip(after))
}

// prune deletes the ApplySet's members that were not applied, appending them to the result.
func (r *run) prune(ctx context.Context) error {
	pruned, err := r.opts.ApplySet.Prune(ctx)
	for _, p := range pruned {
		r.res.Objects = append(r.res.Objects, ObjectResult{
			Source:           Source{Index: -1},
			GroupVersionKind: schema.GroupVersionKind{Group: p.Group, Version: p.Version, Kind: p.Kind},
			Namespace:        p.Namespace, Name: p.Name, UID: p.UID,
			Action: Pruned,
		})
		if r.opts.Wait {
			r.res.Objects[len(r.res.Objects)-1].Wait = WaitDeleted
		}
		r.report(len(r.res.Objects) - 1)
	}
	return err
}

// waitGroup waits for the objects idx (a group's, and the pruned ones with the last group)
// for each goal in turn: exists, current, deleted. The objects with readiness annotations
// are waited for beside the goal current, each by a watch of its own.
func (r *run) waitGroup(ctx context.Context, idx []int) error {
	if r.opts.GroupTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.opts.GroupTimeout)
		defer cancel()
	}
	byGoal := map[WaitGoal][]int{}
	var byReadiness []int
	for _, i := range idx {
		o := &r.res.Objects[i]
		switch o.Action {
		case Applied, Unchanged, Pruned: // Wait set as each was applied or pruned
		default:
			continue
		}
		if o.Action != Pruned && o.Wait == WaitCurrent && r.batch.items[i].ready != nil {
			byReadiness = append(byReadiness, i)
			continue
		}
		byGoal[o.Wait] = append(byGoal[o.Wait], i)
	}
	for _, goal := range []WaitGoal{WaitExists, WaitCurrent, WaitDeleted} {
		var err error
		if goal == WaitCurrent && len(byReadiness) > 0 {
			err = r.waitWithReadiness(ctx, byGoal[goal], byReadiness)
		} else if len(byGoal[goal]) > 0 {
			err = r.waitGoal(ctx, goal, byGoal[goal])
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// waitWithReadiness waits for the objects idx to be Current, and at the same time for each of
// byReadiness as its readiness annotations say. The first failure ends every wait.
func (r *run) waitWithReadiness(ctx context.Context, idx, byReadiness []int) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	gi := r.groupIndex(byReadiness[0])
	errs := make([]error, len(byReadiness)+1)
	var wg sync.WaitGroup
	for k, i := range byReadiness {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[k+1] = r.waitReadiness(ctx, i, r.batch.items[i].ready, func(st kates.ObjectStatus) {
				r.event(gi, GroupReadiness, &st)
			})
			if errs[k+1] != nil {
				cancel()
			}
		}()
	}
	if len(idx) > 0 {
		if errs[0] = r.waitGoal(ctx, WaitCurrent, idx); errs[0] != nil {
			cancel()
		}
	}
	wg.Wait()
	return firstCause(errs)
}

// firstCause picks, of the errors of waits run together, the one that ended them: a
// failure before a timeout, and never a wait cut short only because another one failed.
// Waits that all ran out of time make one *kates.WaitError listing every object.
func firstCause(errs []error) error {
	var merged *kates.WaitError
	for _, err := range errs {
		var werr *kates.WaitError
		switch {
		case err == nil:
		case kates.IsWaitFailed(err):
			return err
		case !errors.As(err, &werr):
			return err
		case merged == nil:
			merged = &kates.WaitError{For: werr.For, Err: werr.Err, Results: slices.Clone(werr.Results)}
		default:
			// A deadline says more than the cancellation it caused in the other waits.
			if errors.Is(merged.Err, context.Canceled) {
				merged.Err = werr.Err
			}
			merged.Results = append(merged.Results, werr.Results...)
		}
	}
	if merged == nil {
		return nil
	}
	return merged
}

// groupIndex is the group of object i.
func (r *run) groupIndex(i int) int {
	for gi, g := range r.batch.groups {
		if slices.Contains(g.Objects, i) {
			return gi
		}
	}
	return len(r.batch.groups) - 1
}

// waitGoal waits for the objects idx to reach goal, with WaitWith or kates.Client.Wait, and
// fills in their last statuses.
func (r *run) waitGoal(ctx context.Context, goal WaitGoal, idx []int) error {
	waitWith := r.opts.WaitWith
	if waitWith == nil {
		waitWith = func(ctx context.Context, _ WaitGoal, objects []any, opts kates.WaitOptions) error {
			return r.c.Wait(ctx, objects, opts)
		}
	}
	objects := make([]any, len(idx))
	for j, i := range idx {
		o := r.res.Objects[i]
		if o.Action == Pruned {
			objects[j] = kates.ObjectRef{Kind: o.GroupVersionKind.Kind, APIVersion: o.GroupVersionKind.GroupVersion().String(),
				Namespace: o.Namespace, Name: o.Name, UID: o.UID}
			continue
		}
		objects[j] = o.Object
	}
	opts := r.opts.WaitOptions
	switch goal {
	case WaitExists:
		opts = kates.WaitOptions{For: kstatus.CurrentStatus, Exists: true, Progress: opts.Progress}
	case WaitDeleted:
		opts = kates.WaitOptions{For: kstatus.NotFoundStatus, Progress: opts.Progress}
	}
	var last []kates.ObjectStatus
	also := opts.Progress
	opts.Progress = func(rs []kates.ObjectStatus) {
		last = slices.Clone(rs)
		if also != nil {
			also(rs)
		}
	}
	err := waitWith(ctx, goal, objects, opts)
	var werr *kates.WaitError
	if errors.As(err, &werr) {
		last = werr.Results
	}
	if len(last) == len(idx) {
		r.mu.Lock() // OnGroup may be reading the group from a readiness wait
		for j, i := range idx {
			st := last[j]
			r.res.Objects[i].Status = &st
		}
		r.mu.Unlock()
	}
	return err
}
