package kates

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/util/retry"
)

// DefaultFieldManager is the field manager Apply uses unless told otherwise.
const DefaultFieldManager = "kates"

// target is what every method resolves its resource argument into.
type target struct {
	obj     *unstructured.Unstructured
	mapping *meta.RESTMapping
	ri      dynamic.ResourceInterface
}

func (t *target) describe() string {
	name := t.obj.GetName()
	if name == "" {
		name = t.obj.GetGenerateName() + "*"
	}
	if ns := t.obj.GetNamespace(); ns != "" {
		name = ns + "/" + name
	}
	return t.mapping.GroupVersionKind.Kind + " " + name
}

// wrap adds the operation and the object's identity to err; apierrors helpers still see through.
func (t *target) wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("kates: %s %s: %w", op, t.describe(), err)
}

// resolve converts resource, finds its kind's mapping and fills in the default namespace.
// needName says whether the operation needs metadata.name (everything but create).
func (c *Client) resolve(resource any, needName bool) (*target, error) {
	u, err := toUnstructured(resource)
	if err != nil {
		return nil, err
	}
	m, err := c.MappingFor(u.GroupVersionKind())
	if err != nil {
		return nil, fmt.Errorf("kates: %w", err)
	}
	t := &target{obj: u, mapping: m}
	if m.Scope.Name() == meta.RESTScopeNameNamespace {
		if u.GetNamespace() == "" {
			u.SetNamespace(c.namespace)
		}
		t.ri = c.dynamic.Resource(m.Resource).Namespace(u.GetNamespace())
	} else {
		if u.GetNamespace() != "" {
			// kubectl ignores it too, but silently applying a namespaced manifest's namespace to
			// a cluster-scoped kind hides mistakes: clear it so the server does not reject it.
			u.SetNamespace("")
		}
		t.ri = c.dynamic.Resource(m.Resource)
	}
	if needName && u.GetName() == "" {
		return nil, fmt.Errorf("kates: %s has no metadata.name", m.GroupVersionKind.Kind)
	}
	return t, nil
}

// Create creates resource and stores the server's answer into target (nil to discard). resource
// and target may be typed objects, *Unstructured or map[string]any; target may be resource.
func (c *Client) Create(ctx context.Context, resource, target any) error {
	t, err := c.resolve(resource, false)
	if err != nil {
		return err
	}
	if t.obj.GetName() == "" && t.obj.GetGenerateName() == "" {
		return fmt.Errorf("kates: create %s: no metadata.name or generateName", t.mapping.GroupVersionKind.Kind)
	}
	t.obj.SetResourceVersion("")
	stampForContext(ctx, t.obj)
	out, err := t.ri.Create(ctx, t.obj, metav1.CreateOptions{})
	c.observeWrite("create", err)
	if err != nil {
		return t.wrap("create", err)
	}
	c.writes.recordAnswer(t.mapping.GroupVersionKind, out, target)
	return fromUnstructured(out, target)
}

// Get reads the object resource names (kind, namespace, name) into target.
func (c *Client) Get(ctx context.Context, resource, target any) error {
	t, err := c.resolve(resource, true)
	if err != nil {
		return err
	}
	out, err := t.ri.Get(ctx, t.obj.GetName(), metav1.GetOptions{})
	if err != nil {
		return t.wrap("get", err)
	}
	return fromUnstructured(out, target)
}

// Update replaces the object with resource. resource's resourceVersion, if set, makes the update
// conditional: a stale one fails with a Conflict (apierrors.IsConflict).
func (c *Client) Update(ctx context.Context, resource, target any) error {
	t, err := c.resolve(resource, true)
	if err != nil {
		return err
	}
	stampForContext(ctx, t.obj)
	out, err := t.ri.Update(ctx, t.obj, metav1.UpdateOptions{})
	c.observeWrite("update", err)
	if err != nil {
		return t.wrap("update", err)
	}
	c.writes.recordAnswer(t.mapping.GroupVersionKind, out, target)
	return fromUnstructured(out, target)
}

// UpdateStatus replaces the status subresource of the object with resource's status.
func (c *Client) UpdateStatus(ctx context.Context, resource, target any) error {
	t, err := c.resolve(resource, true)
	if err != nil {
		return err
	}
	out, err := t.ri.UpdateStatus(ctx, t.obj, metav1.UpdateOptions{})
	c.observeWrite("update_status", err)
	if err != nil {
		return t.wrap("update status of", err)
	}
	c.writes.recordAnswer(t.mapping.GroupVersionKind, out, target)
	return fromUnstructured(out, target)
}

// Patch patches the object resource names with data, a patch of type pt (JSONPatchType,
// MergePatchType, StrategicMergePatchType — built-in kinds only — or ApplyPatchType).
func (c *Client) Patch(ctx context.Context, resource any, pt PatchType, data []byte, target any) error {
	t, err := c.resolve(resource, true)
	if err != nil {
		return err
	}
	opts := metav1.PatchOptions{}
	if pt == types.ApplyPatchType {
		opts.FieldManager = DefaultFieldManager
	}
	out, err := t.ri.Patch(ctx, t.obj.GetName(), pt, data, opts)
	c.observeWrite("patch", err)
	if err != nil {
		return t.wrap("patch", err)
	}
	c.writes.recordAnswer(t.mapping.GroupVersionKind, out, target)
	return fromUnstructured(out, target)
}

// Delete deletes the object resource names; only kind, namespace and name are needed. target
// receives the object as the server last had it when the server returns it (nil to discard).
// An object with finalizers is not gone when Delete returns: it is terminating, and snapshots
// show it so until the finalizers are done.
func (c *Client) Delete(ctx context.Context, resource, target any) error {
	return c.DeleteWith(ctx, resource, target, metav1.DeleteOptions{})
}

// DeleteWith is Delete with the request's options: a UID or resourceVersion precondition (a
// mismatch fails with a Conflict), a propagation policy, a dry run (which records nothing).
func (c *Client) DeleteWith(ctx context.Context, resource, target any, opts metav1.DeleteOptions) error {
	t, err := c.resolve(resource, true)
	if err != nil {
		return err
	}
	gvk := t.mapping.GroupVersionKind
	// The dynamic client hides the response; its body says whether the object is gone or
	// terminating, and which UID went, which the coherence record needs.
	body, err := json.Marshal(opts)
	if err != nil {
		return err
	}
	res := c.rest.Delete().AbsPath(urlSegments(t.mapping, t.obj.GetNamespace(), t.obj.GetName())...).
		SetHeader("Content-Type", "application/json").Body(body).Do(ctx)
	obj, err := res.Get()
	c.observeWrite("delete", err)
	if err != nil {
		return t.wrap("delete", err)
	}
	out, _ := obj.(*unstructured.Unstructured)
	switch {
	case len(opts.DryRun) > 0:
		// Nothing was deleted: nothing to record.
	case out != nil && out.GetKind() == gvk.Kind && out.GetDeletionTimestamp() != nil:
		c.writes.recordWrite(gvk, out) // still there, terminating
	case out != nil && out.GetKind() == gvk.Kind:
		c.writes.recordDelete(gvk, t.obj.GetNamespace(), t.obj.GetName(), out.GetResourceVersion(), out.GetUID())
	default:
		var uid types.UID
		if out != nil {
			s, _, _ := unstructured.NestedString(out.Object, "details", "uid")
			uid = types.UID(s)
		}
		c.writes.recordDelete(gvk, t.obj.GetNamespace(), t.obj.GetName(), "", uid)
		out = nil
	}
	if out == nil {
		return nil
	}
	return fromUnstructured(out, target)
}

// urlSegments is the REST path of one object: /api/v1/namespaces/ns/pods/name or
// /apis/group/version/...
func urlSegments(m *meta.RESTMapping, namespace, name string) []string {
	var s []string
	if m.Resource.Group == "" {
		s = append(s, "api")
	} else {
		s = append(s, "apis", m.Resource.Group)
	}
	s = append(s, m.Resource.Version)
	if namespace != "" && m.Scope.Name() == meta.RESTScopeNameNamespace {
		s = append(s, "namespaces", namespace)
	}
	return append(s, m.Resource.Resource, name)
}

// ApplyOption changes how Apply applies.
type ApplyOption func(*applyOptions)

type applyOptions struct {
	fieldManager    string
	force           bool
	dryRun          bool
	fieldValidation string
}

// Field validation modes for FieldValidation, as the API server names them.
const (
	// FieldValidationStrict fails a write whose object has a field the kind's schema does not
	// know or a field given twice: Apply's default, as kubectl's.
	FieldValidationStrict = "Strict"
	// FieldValidationWarn writes, dropping such fields, and the server warns of each.
	FieldValidationWarn = "Warn"
	// FieldValidationIgnore writes, dropping such fields without a word.
	FieldValidationIgnore = "Ignore"
)

// FieldValidation sets the field validation directive of the apply request:
// FieldValidationStrict (the default, as kubectl's), FieldValidationWarn or
// FieldValidationIgnore. Know what it does and does not govern: server-side apply refuses a
// field the kind's schema lacks (a misspelled "replikas") whatever the directive, and Apply
// reports that as apierrors.IsBadRequest with the field's path; the directive governs the rest
// of strict decoding. Strict is sent so that nothing is ever dropped without a word. A typed
// object (a *kates.Deployment) has no unknown fields left to report: they were dropped when it
// was decoded. Pass *Unstructured (see ParseUnstructuredManifests) to have them checked.
func FieldValidation(mode string) ApplyOption {
	return func(o *applyOptions) { o.fieldValidation = mode }
}

// FieldManager names the manager whose fields Apply sets. Default: DefaultFieldManager.
func FieldManager(name string) ApplyOption { return func(o *applyOptions) { o.fieldManager = name } }

// ForceOwnership takes fields another manager owns instead of failing with a Conflict, as
// kubectl apply --server-side --force-conflicts does.
func ForceOwnership() ApplyOption { return func(o *applyOptions) { o.force = true } }

// DryRun asks the server to validate and default without persisting anything.
func DryRun() ApplyOption { return func(o *applyOptions) { o.dryRun = true } }

// Apply applies resource with server-side apply: the server merges the fields resource sets into
// the live object (creating it if needed), records this field manager as their owner, and
// answers with a Conflict (apierrors.IsConflict) when another manager owns a field resource
// changes, unless ForceOwnership is given. Fields resource leaves out that this manager set
// before are removed.
func (c *Client) Apply(ctx context.Context, resource, target any, opts ...ApplyOption) error {
	o := applyOptions{fieldManager: DefaultFieldManager, fieldValidation: FieldValidationStrict}
	for _, opt := range opts {
		opt(&o)
	}
	switch o.fieldValidation {
	case FieldValidationStrict, FieldValidationWarn, FieldValidationIgnore:
	default:
		return fmt.Errorf("kates: apply: field validation %q: want %s, %s or %s", o.fieldValidation,
			FieldValidationStrict, FieldValidationWarn, FieldValidationIgnore)
	}
	t, err := c.resolve(resource, true)
	if err != nil {
		return err
	}
	prepareForApply(t.obj)
	stampForContext(ctx, t.obj)
	// A patch rather than the dynamic client's Apply, whose options cannot carry the field
	// validation mode.
	body, err := t.obj.MarshalJSON()
	if err != nil {
		return t.wrap("apply", err)
	}
	po := metav1.PatchOptions{FieldManager: o.fieldManager, Force: &o.force, FieldValidation: o.fieldValidation}
	if o.dryRun {
		po.DryRun = []string{metav1.DryRunAll}
	}
	out, err := t.ri.Patch(ctx, t.obj.GetName(), types.ApplyPatchType, body, po)
	err = patchSchemaErrorIsBadRequest(err)
	if !o.dryRun {
		c.observeWrite("apply", err)
	}
	if err != nil {
		return t.wrap("apply", err)
	}
	if !o.dryRun {
		c.writes.recordAnswer(t.mapping.GroupVersionKind, out, target)
	}
	return fromUnstructured(out, target)
}

// patchSchemaErrorIsBadRequest reports, as the bad request it is, the API server's refusal of
// an applied object that does not fit the kind's schema: a field the schema lacks (a
// misspelled "replikas"), a value of the wrong type. Server-side apply checks the object
// against the schema before it looks at the field validation directive, and answers with a bare
// status of code 500 and no reason ("failed to create typed patch object (...): .spec.replikas:
// field not declared in schema"), which reads as a server failure. The cause is the request,
// so apierrors.IsBadRequest, and a command line's exit code for bad input, should say so. The
// server's message is kept whole. This is the one place kates reads a server message: the
// status carries nothing else to tell this case apart.
func patchSchemaErrorIsBadRequest(err error) error {
	var status apierrors.APIStatus
	if !errors.As(err, &status) {
		return err
	}
	st := status.Status()
	if st.Code == http.StatusInternalServerError && st.Reason == metav1.StatusReasonUnknown &&
		strings.Contains(st.Message, "failed to create typed patch object") {
		return apierrors.NewBadRequest(st.Message)
	}
	return err
}

// prepareForApply removes what a typed object converts to but an apply configuration must not
// claim: server-set metadata, and an empty status, which would make this manager own status.
func prepareForApply(u *unstructured.Unstructured) {
	u.SetManagedFields(nil)
	u.SetResourceVersion("")
	u.SetUID("")
	u.SetGeneration(0)
	u.SetSelfLink("")
	if ts, ok := u.Object["metadata"].(map[string]any); ok {
		delete(ts, "creationTimestamp")
	}
	if status, ok := u.Object["status"].(map[string]any); ok && len(status) == 0 {
		delete(u.Object, "status")
	}
}

// upsertBackoff bounds Upsert's retries on Conflict: enough for tens of writers racing on one
// object, and never more than a few seconds.
var upsertBackoff = wait.Backoff{Steps: 30, Duration: 5 * time.Millisecond, Factor: 1.3, Jitter: 1, Cap: 500 * time.Millisecond}

// Upsert creates resource if it does not exist. If it does, Upsert merges source into the live
// object — labels and annotations key by key, owner references by UID, and spec replaced — and
// updates it, retrying on Conflict (bounded) by reading the live object again, so concurrent
// Upserts of one object all land. The result goes into target.
func (c *Client) Upsert(ctx context.Context, resource, source, target any) error {
	t, err := c.resolve(resource, true)
	if err != nil {
		return err
	}
	src, err := toUnstructured(source)
	if err != nil {
		return err
	}
	stampForContext(ctx, t.obj)
	stampForContext(ctx, src)
	created, err := t.ri.Create(ctx, t.obj, metav1.CreateOptions{})
	c.observeWrite("create", err)
	if err == nil {
		c.writes.recordWrite(t.mapping.GroupVersionKind, created)
		return fromUnstructured(created, target)
	}
	if !apierrors.IsAlreadyExists(err) {
		return t.wrap("upsert (create)", err)
	}
	var out *unstructured.Unstructured
	err = retry.OnError(upsertBackoff, apierrors.IsConflict, func() error {
		live, err := t.ri.Get(ctx, t.obj.GetName(), metav1.GetOptions{})
		if err != nil {
			return err
		}
		MergeUpdate(live, src)
		out, err = t.ri.Update(ctx, live, metav1.UpdateOptions{})
		c.observeWrite("update", err)
		return err
	})
	if err != nil {
		return t.wrap("upsert", err)
	}
	c.writes.recordAnswer(t.mapping.GroupVersionKind, out, target)
	return fromUnstructured(out, target)
}

// MergeUpdate merges source into target, as Upsert does: labels and annotations key by key
// (source wins), owner references added by UID, and spec replaced by source's when source has
// one. Everything else of target, its status above all, is kept.
func MergeUpdate(target, source *unstructured.Unstructured) {
	labels := target.GetLabels()
	if labels == nil {
		labels = map[string]string{}
	}
	for k, v := range source.GetLabels() {
		labels[k] = v
	}
	if len(labels) > 0 {
		target.SetLabels(labels)
	}
	annotations := target.GetAnnotations()
	if annotations == nil {
		annotations = map[string]string{}
	}
	for k, v := range source.GetAnnotations() {
		annotations[k] = v
	}
	if len(annotations) > 0 {
		target.SetAnnotations(annotations)
	}
	refs := target.GetOwnerReferences()
	for _, ref := range source.GetOwnerReferences() {
		if !hasRef(refs, ref.UID) {
			refs = append(refs, ref)
		}
	}
	if len(refs) > 0 {
		target.SetOwnerReferences(refs)
	}
	if spec, ok := source.Object["spec"]; ok {
		target.Object["spec"] = runtimeDeepCopy(spec)
	}
}

func hasRef(refs []metav1.OwnerReference, uid types.UID) bool {
	for _, r := range refs {
		if r.UID == uid {
			return true
		}
	}
	return false
}

func runtimeDeepCopy(v any) any {
	return (&unstructured.Unstructured{Object: map[string]any{"v": v}}).DeepCopy().Object["v"]
}

// HasOwnerReference reports whether obj names owner (by UID) among its owner references.
func HasOwnerReference(owner, obj Object) bool {
	return hasRef(obj.GetOwnerReferences(), owner.GetUID())
}

// SetOwnerReferences makes owner the controller owner of each of objects (replacing an existing
// reference to owner), so the garbage collector deletes them with it. owner must have a UID (it
// must have been created) and a kind.
//
// An object has at most one controller (the API server rejects a second): if one of objects is
// already controlled by another owner, SetOwnerReferences returns an *AlreadyOwnedError naming
// it and changes none of objects, as controller-runtime's SetControllerReference refuses.
func SetOwnerReferences(owner Object, objects ...Object) error {
	gvk := owner.GetObjectKind().GroupVersionKind()
	if gvk.Kind == "" {
		k, err := kindOf(owner)
		if err != nil {
			return err
		}
		gvk = k
	}
	if owner.GetUID() == "" {
		return fmt.Errorf("kates: owner %s %s has no UID (create it first)", gvk.Kind, owner.GetName())
	}
	ref := *metav1.NewControllerRef(owner, gvk)
	for _, obj := range objects {
		for _, r := range obj.GetOwnerReferences() {
			if r.Controller != nil && *r.Controller && r.UID != ref.UID {
				return &AlreadyOwnedError{Object: obj, Owner: r}
			}
		}
	}
	for _, obj := range objects {
		refs := obj.GetOwnerReferences()
		kept := refs[:0]
		for _, r := range refs {
			if r.UID != ref.UID {
				kept = append(kept, r)
			}
		}
		obj.SetOwnerReferences(append(kept, ref))
	}
	return nil
}

// AlreadyOwnedError is what SetOwnerReferences returns for an object another owner controls.
type AlreadyOwnedError struct {
	Object Object
	Owner  metav1.OwnerReference // the controller the object has
}

func (e *AlreadyOwnedError) Error() string {
	return fmt.Sprintf("kates: %s is already controlled by %s %s (uid %s): an object has one controller",
		objectKey(e.Object.GetNamespace(), e.Object.GetName()), e.Owner.Kind, e.Owner.Name, e.Owner.UID)
}

// ByName indexes objects by "namespace/name" (by name alone for cluster-scoped objects).
func ByName[T Object](objects []T) map[string]T {
	out := make(map[string]T, len(objects))
	for _, o := range objects {
		out[objectKey(o.GetNamespace(), o.GetName())] = o
	}
	return out
}

func objectKey(namespace, name string) string {
	if namespace == "" {
		return name
	}
	return namespace + "/" + name
}
