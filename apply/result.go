package apply

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kates-dev/kates/kates"
)

// Action says what Run did with one object.
type Action string

const (
	// Applied: the server applied the object and it changed (or was created).
	Applied Action = "applied"
	// Unchanged: the server applied the object and nothing changed (see Run for how that is
	// told).
	Unchanged Action = "unchanged"
	// Pruned: the object was a member of the ApplySet, not in this batch, and was deleted (in
	// a dry run: would have been).
	Pruned Action = "pruned"
	// Skipped: the object was not sent, by design: in a dry run, a custom resource whose
	// CustomResourceDefinition is in the batch and not installed (the dry run did not create
	// it, so its kind is not served).
	Skipped Action = "skipped"
	// Failed: the object's apply (or the wait for its kind to be served) failed; ObjectResult.Err
	// says why. The batch stopped there. Whether the server applied it is not known when the
	// request was cut short (a cancelled context); otherwise it was refused and is unchanged.
	Failed Action = "failed"
	// NotApplied: the batch stopped before the object, or was refused as a whole: it was not
	// sent.
	NotApplied Action = "not applied"
)

// WaitGoal is what the wait after the apply waits for, for one object.
type WaitGoal string

const (
	// WaitCurrent waits until the object is Current, or whatever Options.WaitOptions say
	// instead (a condition, a JSONPath): the default.
	WaitCurrent WaitGoal = "current"
	// WaitExists waits until the object exists (WaitAnnotation "exists").
	WaitExists WaitGoal = "exists"
	// WaitNone does not wait for the object (WaitAnnotation "false").
	WaitNone WaitGoal = "none"
	// WaitDeleted waits until a pruned object is gone, finalizers and all.
	WaitDeleted WaitGoal = "deleted"
)

// Source says where an object came from, for messages.
type Source struct {
	// File is kates.ManifestObject.Source: the file or URL it was read from; "" when the object
	// was given without one.
	File string
	// Document is kates.ManifestObject.Document, counting from 1; 0 when not known.
	Document int
	// Index is the object's position among the objects given to Run, from 0; -1 for an object
	// pruned (it was not given).
	Index int
}

// String is "deploy/web.yaml: document 2", "document 2", "object 3" (counting from 1), or ""
// for a pruned object.
func (s Source) String() string {
	switch {
	case s.File != "" && s.Document > 0:
		return fmt.Sprintf("%s: document %d", s.File, s.Document)
	case s.File != "":
		return s.File
	case s.Document > 0:
		return fmt.Sprintf("document %d", s.Document)
	case s.Index >= 0:
		return fmt.Sprintf("object %d", s.Index+1)
	}
	return ""
}

// ObjectResult is what Run did with one object.
type ObjectResult struct {
	// Source is where the object came from.
	Source Source
	// GroupVersionKind, Namespace and Name identify the object; Namespace is the one it is
	// applied in (the Client's for a namespaced object that names none), "" for a
	// cluster-scoped object.
	GroupVersionKind schema.GroupVersionKind
	Namespace, Name  string
	// UID is the object's UID once applied, or the UID of the object pruned.
	UID types.UID
	// Group is the name of the group the object was applied in (see Group); "" for a pruned
	// object, and for every object of a batch without groups.
	Group string
	// Action is what was done.
	Action Action
	// Object is the object as the server answered the apply (Applied, Unchanged; in a dry run,
	// what it would have been), nil otherwise. In the callback BeforeApply, it is the object as
	// it will be sent.
	Object *unstructured.Unstructured
	// Warnings are the warnings the server sent with its answer to this object's apply (a
	// deprecated API version, a field it dropped), in order.
	Warnings []string
	// Err is why the object Failed.
	Err error
	// Wait is what the wait after the apply waits for, for this object (set as it is applied
	// or pruned, so OnResult sees it); "" without Options.Wait, or when it was not applied.
	Wait WaitGoal
	// Status is the object's last status in that wait; nil when it was not waited for
	// (WaitNone, or the batch stopped before the wait, or the wait before its goal's failed).
	Status *kates.ObjectStatus
}

// String names the object: "Deployment team-a/web", "Namespace team-a".
func (r ObjectResult) String() string {
	name := r.Name
	if r.Namespace != "" {
		name = r.Namespace + "/" + name
	}
	return r.GroupVersionKind.Kind + " " + name
}

// Result is what Run did with each object.
type Result struct {
	// Objects holds one entry per object given, in the order they were applied (group by
	// group; in each, CustomResourceDefinitions, then Namespaces, then the rest in the order
	// given), then one per object pruned, in the order of applyset.Set.Prune.
	Objects []ObjectResult
	// Groups are the groups, in the order they were applied; one group named "" when no
	// object is in a group. Nil when the checks refused the batch.
	Groups []Group
}

// Count is how many objects Run did action with.
func (r *Result) Count(action Action) int {
	n := 0
	for _, o := range r.Objects {
		if o.Action == action {
			n++
		}
	}
	return n
}

// Problem is one reason a batch was refused before anything was written.
type Problem struct {
	// Source is where the object came from.
	Source Source
	// Object names the object ("ConfigMap web").
	Object string
	// Message says what is wrong: a field's violation with its path, an unknown kind, a bad
	// annotation value.
	Message string
}

func (p Problem) String() string { return fmt.Sprintf("%s (%s): %s", p.Source, p.Object, p.Message) }

// InvalidError is the error Run returns when objects of the batch are invalid (see Run for the
// checks): nothing was written. Each violation is a Problem, so a batch can be corrected in
// one pass.
type InvalidError struct {
	// Invalid is how many objects have problems, of Total in the batch.
	Invalid, Total int
	Problems       []Problem
}

func (e *InvalidError) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	return fmt.Sprintf("%d of %d objects invalid, nothing applied:\n  %s", e.Invalid, e.Total, strings.Join(lines, "\n  "))
}

// Duplicate is an object that a batch defines more than once.
type Duplicate struct {
	// GroupKind, Namespace and Name identify the object, as in ObjectResult: two definitions of
	// one object in different versions (apps/v1 and apps/v1beta1) are the same object.
	GroupKind       schema.GroupKind
	Namespace, Name string
	// Sources are the definitions, in the order given.
	Sources []Source
}

func (d Duplicate) String() string {
	name := d.Name
	if d.Namespace != "" {
		name = d.Namespace + "/" + name
	}
	srcs := make([]string, len(d.Sources))
	for i, s := range d.Sources {
		srcs[i] = s.String()
	}
	return fmt.Sprintf("%s %s is defined %d times: %s", d.GroupKind.Kind, name, len(d.Sources), strings.Join(srcs, ", "))
}

// DuplicateError is the error Run returns when a batch defines one object more than once:
// nothing was written. Applying such a batch would apply each definition in turn, and the
// last one would silently win; kapp refuses it in the same way.
type DuplicateError struct {
	// Duplicates are the objects defined more than once, in the order of their first
	// definitions.
	Duplicates []Duplicate
}

func (e *DuplicateError) Error() string {
	lines := make([]string, len(e.Duplicates))
	for i, d := range e.Duplicates {
		lines[i] = d.String()
	}
	return fmt.Sprintf("%d object(s) defined more than once, nothing applied:\n  %s", len(e.Duplicates), strings.Join(lines, "\n  "))
}

// BatchError is the error Run returns when an object's apply failed after the checks passed:
// the objects before it in Result.Objects were applied (Applied, Unchanged or Skipped), it
// Failed, and the ones after it were NotApplied; nothing was pruned and nothing waited for.
// Err is the apply's error: apierrors.IsInvalid, IsConflict, context.Canceled and the rest
// see through.
type BatchError struct {
	// Object is the object that Failed.
	Object ObjectResult
	// Applied is how many objects were applied before it, of Total; NotApplied how many come
	// after it.
	Applied, NotApplied, Total int
	Err                        error
}

func (e *BatchError) Error() string {
	return fmt.Sprintf("%s (%s): %v (%d of %d objects applied before it, %d not applied)",
		e.Object.Source, e.Object, e.Err, e.Applied, e.Total, e.NotApplied)
}

func (e *BatchError) Unwrap() error { return e.Err }

// GroupError is the error Run returns when a group of a batch of several groups was not
// ready: an object failed (errors.Is(err, kates.ErrWaitFailed)), or the group's wait timed
// out (Options.GroupTimeout) or ctx ended. The groups before it were applied and ready, it
// was applied, and the groups after it were not applied (their objects are NotApplied).
// Err is the wait's error, a *kates.WaitError that names each object not ready, its status
// and why.
type GroupError struct {
	// Group is the group that was not ready; Index its place among Count groups, from 0.
	Group        Group
	Index, Count int
	// NotApplied names the groups after it, not applied.
	NotApplied []string
	Err        error
}

func (e *GroupError) Error() string {
	after := "it was the last group"
	if len(e.NotApplied) > 0 {
		after = "groups not applied: " + strings.Join(e.NotApplied, ", ")
	}
	return fmt.Sprintf("group %s (%d of %d) not ready (%s): %v", e.Group, e.Index+1, e.Count, after, e.Err)
}

func (e *GroupError) Unwrap() error { return e.Err }

// GroupPhase is a step in the life of a group, as Options.OnGroup reports it.
type GroupPhase string

const (
	// GroupPlanned: the checks passed and the group is planned; nothing is written yet. Each
	// group is reported so, in order, before any is applied.
	GroupPlanned GroupPhase = "planned"
	// GroupApplying: the group's objects are about to be applied.
	GroupApplying GroupPhase = "applying"
	// GroupWaiting: the group is applied, and the wait for its objects begins.
	GroupWaiting GroupPhase = "waiting"
	// GroupReadiness: an object the group waits for by its readiness annotations changed
	// status (GroupEvent.Status).
	GroupReadiness GroupPhase = "readiness"
	// GroupReady: every object of the group is ready.
	GroupReady GroupPhase = "ready"
)

// GroupEvent is what Options.OnGroup is told.
type GroupEvent struct {
	Group Group
	// Index is the group's place among Count groups, from 0.
	Index, Count int
	Phase        GroupPhase
	// Objects are the group's objects, as Result.Objects holds them now.
	Objects []ObjectResult
	// Status is, for GroupReadiness, the object's new status.
	Status *kates.ObjectStatus
}
