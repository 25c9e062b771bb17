package applyset

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"sort"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kates-dev/kates/kates"
)

// The labels and annotations of an ApplySet, as KEP-3659 specifies them and kubectl writes
// them (https://git.k8s.io/enhancements/keps/sig-cli/3659-kubectl-apply-prune).
const (
	// ParentIDLabel marks the parent object; its value is the set's ID (see ID).
	ParentIDLabel = "applyset.kubernetes.io/id"
	// PartOfLabel marks each member; its value is the ID of the set's parent.
	PartOfLabel = "applyset.kubernetes.io/part-of"
	// ToolingAnnotation on the parent names the tool that manages the set, as
	// "name/version" ("kubectl/v1.34.0", "kates/v0.3.0").
	ToolingAnnotation = "applyset.kubernetes.io/tooling"
	// GroupKindsAnnotation on the parent lists the kinds of the members, each as
	// Kind.group ("ConfigMap,Deployment.apps"), sorted and comma-separated.
	GroupKindsAnnotation = "applyset.kubernetes.io/contains-group-kinds"
	// GroupResourcesAnnotation is what kubectl 1.27 wrote instead of
	// GroupKindsAnnotation ("configmaps,deployments.apps"). It is read, never written.
	GroupResourcesAnnotation = "applyset.kubernetes.io/contains-group-resources"
	// AdditionalNamespacesAnnotation on the parent lists the namespaces of the members
	// other than the parent's own, sorted and comma-separated.
	AdditionalNamespacesAnnotation = "applyset.kubernetes.io/additional-namespaces"
	// ParentTypeLabel on a CustomResourceDefinition allows its kind as a parent.
	ParentTypeLabel = "applyset.kubernetes.io/is-parent-type"
)

// ID computes the ID of the set whose parent is the object of group, kind, namespace
// and name, as KEP-3659 defines it: "applyset-" + base64url(sha256(name.namespace.kind.group))
// + "-v1", the base64 without padding. Group is "" for the core group (Secret, ConfigMap) and
// namespace "" for a cluster-scoped parent.
func ID(group, kind, namespace, name string) string {
	sum := sha256.Sum256([]byte(strings.Join([]string{name, namespace, kind, group}, ".")))
	return "applyset-" + base64.RawURLEncoding.EncodeToString(sum[:]) + "-v1"
}

// Options configure Open.
type Options struct {
	// Parent names the parent object as kubectl's --applyset takes it: [RESOURCE[.GROUP]/]NAME
	// ("web", "configmaps/web", "apps.example.com/web"). Without a resource it is a Secret.
	// Secrets and ConfigMaps are created when missing; a custom resource parent must exist, and
	// its CustomResourceDefinition must carry the label ParentTypeLabel. Required.
	Parent string
	// Namespace is the parent's namespace (ignored for a cluster-scoped parent). Default: the
	// Client's namespace.
	Namespace string
	// Tooling is the value of the parent's ToolingAnnotation, "name/version". A parent
	// whose annotation names another tool is refused, as the KEP asks of every tool; kubectl
	// refuses a set whose tool is not "kubectl" in the same way, so a set that kates and
	// kubectl both manage must be written with "kubectl/VERSION". Default: "kates/" and the
	// version of this module in the program's build information.
	Tooling string
	// DryRun makes every write (the parent's update, the members' applies, the prune's
	// deletions) a server-side dry run: nothing persists.
	DryRun bool
}

// Set is an ApplySet: a set of objects applied together, tracked as KEP-3659 describes so that
// a later apply of the set can delete (prune) the objects no longer in it, and so that kubectl
// apply --prune --applyset (and other tools that follow the KEP) see the same set. The parent
// object records the set's ID, the tool and the kinds and namespaces of its members; each
// member carries the label PartOfLabel with the ID.
//
// One apply of a set, step by step (ApplyAll does the first three):
//
//	set, err := applyset.Open(ctx, c, applyset.Options{Parent: "web"})
//	err = set.Prepare(ctx, objs)          // label the members; the parent records old ∪ new kinds
//	for _, o := range objs { c.Apply(ctx, o, out); set.Applied(out) }
//	pruned, err := set.Prune(ctx)         // delete members not applied; the parent records the new set
//
// The parent is updated to the union of the old and new kinds and namespaces before anything
// is applied, and to the new ones only once the prune succeeded, so a run that fails half way
// leaves no member outside what the parent records. Only objects that carry the set's label,
// of a kind and in a namespace the parent records, are ever deleted; objects applied in this
// run are never deleted. Do not use a Set from several goroutines.
type Set struct {
	c       *kates.Client
	mapping *meta.RESTMapping
	name    string
	ns      string // the parent's namespace; "" when cluster-scoped
	id      string
	tooling string
	dryRun  bool
	exists  bool // the parent existed before
	// old are the kinds and namespaces the parent recorded when the set was opened; updated
	// are those of the objects applied in this run.
	oldKinds, updatedKinds           map[schema.GroupKind]bool
	oldNamespaces, updatedNamespaces map[string]bool
	// applied are the identities of the objects applied in this run, which Prune keeps.
	applied map[memberKey]bool
}

// memberKey is an object's identity within a set.
type memberKey struct {
	gk        schema.GroupKind
	namespace string
	name      string
}

func (k memberKey) String() string {
	s := strings.ToLower(k.gk.Kind)
	if k.gk.Group != "" {
		s += "." + k.gk.Group
	}
	return s + "/" + k.name
}

// DefaultTooling is the tooling annotation kates writes unless told otherwise:
// "kates/VERSION", the version of this module as the program's build information records it
// ("v0.0.0" when built from a checkout without one).
func DefaultTooling() string {
	version := "v0.0.0"
	if bi, ok := debug.ReadBuildInfo(); ok {
		mods := append([]*debug.Module{&bi.Main}, bi.Deps...)
		for _, m := range mods {
			if m.Path == "github.com/kates-dev/kates" && strings.HasPrefix(m.Version, "v") {
				version = m.Version
			}
		}
	}
	return "kates/" + version
}

// Open opens the set whose parent opts names: it resolves the parent's kind, reads the
// parent if it exists and checks that it is the parent of this set (its ID label) and managed
// by this tool (its tooling annotation). Nothing is written.
func Open(ctx context.Context, c *kates.Client, opts Options) (*Set, error) {
	if opts.Parent == "" {
		return nil, errors.New("applyset: no parent named")
	}
	resource, name, hasType := strings.Cut(opts.Parent, "/")
	if !hasType {
		resource, name = "secrets", opts.Parent
	}
	if name == "" || resource == "" || strings.Contains(name, "/") {
		return nil, fmt.Errorf("applyset %q: want [RESOURCE[.GROUP]/]NAME", opts.Parent)
	}
	m, err := c.Mapping(resource)
	if err != nil {
		return nil, fmt.Errorf("applyset %q: %w", opts.Parent, err)
	}
	gvk := m.GroupVersionKind
	builtin := gvk.Group == "" && (gvk.Kind == "Secret" || gvk.Kind == "ConfigMap")
	if !builtin {
		if err := checkParentType(ctx, c, m); err != nil {
			return nil, fmt.Errorf("applyset %q: %w", opts.Parent, err)
		}
	}
	s := &Set{
		c: c, mapping: m, name: name, tooling: opts.Tooling, dryRun: opts.DryRun,
		oldKinds: map[schema.GroupKind]bool{}, updatedKinds: map[schema.GroupKind]bool{},
		oldNamespaces: map[string]bool{}, updatedNamespaces: map[string]bool{},
		applied: map[memberKey]bool{},
	}
	if s.tooling == "" {
		s.tooling = DefaultTooling()
	}
	if toolName(s.tooling) == s.tooling || toolName(s.tooling) == "" {
		return nil, fmt.Errorf("applyset: tooling %q: want NAME/VERSION", s.tooling)
	}
	if m.Scope.Name() == meta.RESTScopeNameNamespace {
		s.ns = opts.Namespace
		if s.ns == "" {
			s.ns = c.Namespace()
		}
		if s.ns == "" {
			return nil, fmt.Errorf("applyset %q: a namespaced parent needs a namespace", opts.Parent)
		}
		s.oldNamespaces[s.ns] = true
	}
	s.id = ID(gvk.Group, gvk.Kind, s.ns, name)

	parent := &unstructured.Unstructured{}
	err = c.Get(ctx, s.parentRef(), parent)
	switch {
	case apierrors.IsNotFound(err):
		if !builtin {
			return nil, fmt.Errorf("applyset %s: a custom resource parent is not created: create it first", s)
		}
		return s, nil
	case err != nil:
		return nil, fmt.Errorf("applyset %s: %w", s, err)
	}
	s.exists = true
	if got := parent.GetLabels()[ParentIDLabel]; got != s.id {
		if got == "" {
			return nil, fmt.Errorf("applyset %s: the object exists and is not an ApplySet parent: refusing to take it over (a parent made by hand needs the label %s=%s and the annotation %s)", s, ParentIDLabel, s.id, ToolingAnnotation)
		}
		return nil, fmt.Errorf("applyset %s: its label %s is %q, want %q", s, ParentIDLabel, got, s.id)
	}
	annotations := parent.GetAnnotations()
	tool, ok := annotations[ToolingAnnotation]
	if !ok {
		return nil, fmt.Errorf("applyset %s: the parent lacks the annotation %s", s, ToolingAnnotation)
	}
	if toolName(tool) != toolName(s.tooling) {
		return nil, fmt.Errorf("applyset %s is managed by %q, not %q: refusing to change another tool's set", s, toolName(tool), toolName(s.tooling))
	}
	if s.oldKinds, err = parseSetKinds(c, annotations); err != nil {
		return nil, fmt.Errorf("applyset %s: %w", s, err)
	}
	for ns := range strings.SplitSeq(annotations[AdditionalNamespacesAnnotation], ",") {
		if ns != "" {
			s.oldNamespaces[ns] = true
		}
	}
	return s, nil
}

// checkParentType checks that a custom resource kind may be a parent: its
// CustomResourceDefinition carries ParentTypeLabel, as kubectl requires.
func checkParentType(ctx context.Context, c *kates.Client, m *meta.RESTMapping) error {
	crd := &unstructured.Unstructured{}
	name := m.Resource.Resource + "." + m.Resource.Group
	err := c.Get(ctx, kates.NewUnstructured("apiextensions.k8s.io/v1", "CustomResourceDefinition", "", name), crd)
	if err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	if _, ok := crd.GetLabels()[ParentTypeLabel]; err != nil || !ok {
		return fmt.Errorf("%s cannot be an ApplySet parent: only Secrets, ConfigMaps and custom resources whose CustomResourceDefinition has the label %s", m.Resource.GroupResource(), ParentTypeLabel)
	}
	return nil
}

// parseSetKinds reads the member kinds a parent records: contains-group-kinds, or else the
// contains-group-resources that kubectl 1.27 wrote.
func parseSetKinds(c *kates.Client, annotations map[string]string) (map[schema.GroupKind]bool, error) {
	out := map[schema.GroupKind]bool{}
	value, ok := annotations[GroupKindsAnnotation]
	if !ok {
		grs, ok := annotations[GroupResourcesAnnotation]
		if !ok {
			return nil, fmt.Errorf("the parent has neither annotation %s nor %s", GroupKindsAnnotation, GroupResourcesAnnotation)
		}
		for gr := range strings.SplitSeq(grs, ",") {
			if gr == "" {
				continue
			}
			m, err := c.Mapping(gr)
			if err != nil {
				return nil, fmt.Errorf("annotation %s: %w", GroupResourcesAnnotation, err)
			}
			out[m.GroupVersionKind.GroupKind()] = true
		}
		return out, nil
	}
	for gk := range strings.SplitSeq(value, ",") {
		if gk != "" {
			out[schema.ParseGroupKind(gk)] = true
		}
	}
	return out, nil
}

// toolName is the name part of a tooling annotation: "kubectl" of "kubectl/v1.34.0".
func toolName(tooling string) string {
	if i := strings.LastIndex(tooling, "/"); i >= 0 {
		return tooling[:i]
	}
	return tooling
}

// ID is the set's ID: the parent's ParentIDLabel, each member's PartOfLabel.
func (s *Set) ID() string { return s.id }

// DryRun reports whether the set was opened for a dry run (Options.DryRun).
func (s *Set) DryRun() bool { return s.dryRun }

// String names the parent as kubectl's --applyset does: "secrets/web -n team-a".
func (s *Set) String() string {
	r := s.mapping.Resource.Resource
	if g := s.mapping.Resource.Group; g != "" {
		r += "." + g
	}
	r += "/" + s.name
	if s.ns != "" {
		r += " -n " + s.ns
	}
	return r
}

// parentRef is the parent's apiVersion, kind, namespace and name, as an object to pass to Get.
func (s *Set) parentRef() *unstructured.Unstructured {
	return kates.NewUnstructured(s.mapping.GroupVersionKind.GroupVersion().String(), s.mapping.GroupVersionKind.Kind, s.ns, s.name)
}

// Label labels each object as a member (PartOfLabel) and records its kind and namespace for
// the parent, writing nothing. An object that already carries the label with another value is
// refused, as is the parent itself among objs; nothing is labelled then. Prepare calls it; call
// it alone to see the objects as they will be sent before anything is written.
func (s *Set) Label(objs []*unstructured.Unstructured) error {
	for _, o := range objs {
		gvk := o.GroupVersionKind()
		if gvk.GroupKind() == s.mapping.GroupVersionKind.GroupKind() && o.GetName() == s.name && s.nsOf(o) == s.ns {
			return fmt.Errorf("applyset %s: the parent cannot be a member of its own set", s)
		}
		if v, ok := o.GetLabels()[PartOfLabel]; ok && v != s.id {
			return fmt.Errorf("applyset %s: %s %s already has the label %s=%s of another set", s, gvk.Kind, o.GetName(), PartOfLabel, v)
		}
	}
	for _, o := range objs {
		labels := o.GetLabels()
		if labels == nil {
			labels = map[string]string{}
		}
		labels[PartOfLabel] = s.id
		o.SetLabels(labels)
		s.updatedKinds[o.GroupVersionKind().GroupKind()] = true
		if ns := s.nsOf(o); ns != "" {
			s.updatedNamespaces[ns] = true
		}
	}
	return nil
}

// Prepare labels each object as a member (see Label) and updates the parent (creating a
// Secret or ConfigMap parent) to record the union of the kinds and namespaces it recorded and
// those of objs. Call it before applying objs.
func (s *Set) Prepare(ctx context.Context, objs []*unstructured.Unstructured) error {
	if err := s.Label(objs); err != nil {
		return err
	}
	return s.writeParent(ctx, true)
}

// nsOf is the namespace o will be applied in: its own, or the Client's for a namespaced kind
// (or a kind not served yet, which a CustomResourceDefinition applied with it will define; a
// namespace recorded for it in vain only widens what Prune looks at).
func (s *Set) nsOf(o *unstructured.Unstructured) string {
	m, err := s.c.MappingFor(o.GroupVersionKind())
	if err == nil && m.Scope.Name() != meta.RESTScopeNameNamespace {
		return ""
	}
	if ns := o.GetNamespace(); ns != "" {
		return ns
	}
	return s.c.Namespace()
}

// Applied records obj, as the server answered its apply, as applied in this run: Prune keeps it.
func (s *Set) Applied(obj *unstructured.Unstructured) {
	gk := obj.GroupVersionKind().GroupKind()
	s.applied[memberKey{gk, obj.GetNamespace(), obj.GetName()}] = true
	s.updatedKinds[gk] = true
	if ns := obj.GetNamespace(); ns != "" {
		s.updatedNamespaces[ns] = true
	}
}

// ApplyAll applies objs as members of the set: Prepare, then Apply of each (with opts, and
// DryRun if the set is a dry run), then Applied. It returns the server's answers, in order. It
// stops at the first error.
func (s *Set) ApplyAll(ctx context.Context, objs []*unstructured.Unstructured, opts ...kates.ApplyOption) ([]*unstructured.Unstructured, error) {
	if err := s.Prepare(ctx, objs); err != nil {
		return nil, err
	}
	if s.dryRun {
		opts = append(opts, kates.DryRun())
	}
	var out []*unstructured.Unstructured
	for _, o := range objs {
		got := &unstructured.Unstructured{}
		if err := s.c.Apply(ctx, o, got, opts...); err != nil {
			return out, err
		}
		s.Applied(got)
		out = append(out, got)
	}
	return out, nil
}

// PrunedObject is an object Prune deleted (or, in a dry run, would delete).
type PrunedObject struct {
	Group, Version, Kind string
	Namespace, Name      string
	UID                  types.UID
}

// Prune deletes every member of the set that was not applied in this run (see Applied): the
// objects that carry the set's label, of a kind and in a namespace the parent records or this
// run applied. Each deletion is conditional on the object's UID, so an object created again
// meanwhile is left alone, and cascades in the background as kubectl's does. Once every
// deletion is accepted, the parent is updated to record only what this run applied. It
// returns the objects deleted, sorted by kind, namespace and name; a member whose deletion the
// server refused is an error, and the parent then keeps recording it. An object deleted is
// not necessarily gone: one with finalizers is terminating (wait for it with Wait and For
// kstatus.NotFoundStatus, giving each PrunedObject's UID).
func (s *Set) Prune(ctx context.Context) ([]PrunedObject, error) {
	candidates, err := s.pruneCandidates(ctx)
	if err != nil {
		return nil, err
	}
	opts := metav1.DeleteOptions{PropagationPolicy: ptrTo(metav1.DeletePropagationBackground)}
	if s.dryRun {
		opts.DryRun = []string{metav1.DryRunAll}
	}
	var pruned []PrunedObject
	var errs []error
	for _, p := range candidates {
		o := opts
		o.Preconditions = &metav1.Preconditions{UID: &p.UID}
		obj := kates.NewUnstructured(schema.GroupVersion{Group: p.Group, Version: p.Version}.String(), p.Kind, p.Namespace, p.Name)
		err := s.c.DeleteWith(ctx, obj, nil, o)
		switch {
		case apierrors.IsNotFound(err), apierrors.IsConflict(err):
			// Gone already, or another object of that name now: not ours to delete.
			continue
		case err != nil:
			errs = append(errs, err)
			continue
		}
		pruned = append(pruned, p)
	}
	if len(errs) > 0 {
		return pruned, fmt.Errorf("applyset %s: prune: %w", s, errors.Join(errs...))
	}
	return pruned, s.writeParent(ctx, false)
}

// pruneCandidates lists the members of the set that were not applied in this run.
func (s *Set) pruneCandidates(ctx context.Context) ([]PrunedObject, error) {
	kinds := map[schema.GroupKind]bool{}
	for gk := range s.oldKinds {
		kinds[gk] = true
	}
	for gk := range s.updatedKinds {
		kinds[gk] = true
	}
	namespaces := map[string]bool{}
	for ns := range s.oldNamespaces {
		namespaces[ns] = true
	}
	for ns := range s.updatedNamespaces {
		namespaces[ns] = true
	}
	var out []PrunedObject
	selector := PartOfLabel + "=" + s.id
	for gk := range kinds {
		m, err := s.c.MappingFor(gk.WithVersion(""))
		if kates.IsUnknownKind(err) {
			continue // the kind is no longer served: nothing of it is left to delete
		}
		if err != nil {
			return nil, fmt.Errorf("applyset %s: %w", s, err)
		}
		var scopes []string
		if m.Scope.Name() == meta.RESTScopeNameNamespace {
			for ns := range namespaces {
				scopes = append(scopes, ns)
			}
		} else {
			scopes = []string{""}
		}
		for _, ns := range scopes {
			ri := s.c.DynamicInterface().Resource(m.Resource)
			var list *unstructured.UnstructuredList
			if ns != "" {
				list, err = ri.Namespace(ns).List(ctx, metav1.ListOptions{LabelSelector: selector})
			} else {
				list, err = ri.List(ctx, metav1.ListOptions{LabelSelector: selector})
			}
			if apierrors.IsNotFound(err) {
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("applyset %s: list %s: %w", s, m.Resource.GroupResource(), err)
			}
			for _, item := range list.Items {
				if item.GetLabels()[PartOfLabel] != s.id {
					continue // the server selected it; this only guards against a surprise
				}
				key := memberKey{gk, item.GetNamespace(), item.GetName()}
				if s.applied[key] || item.GetDeletionTimestamp() != nil {
					continue
				}
				if gk == s.mapping.GroupVersionKind.GroupKind() && item.GetName() == s.name && item.GetNamespace() == s.ns {
					continue // never the parent
				}
				out = append(out, PrunedObject{Group: gk.Group, Version: m.GroupVersionKind.Version, Kind: gk.Kind,
					Namespace: item.GetNamespace(), Name: item.GetName(), UID: item.GetUID()})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		return strings.Join([]string{a.Group, a.Kind, a.Namespace, a.Name}, "\x00") < strings.Join([]string{b.Group, b.Kind, b.Namespace, b.Name}, "\x00")
	})
	return out, nil
}

// writeParent applies the parent's label and annotations with the field manager
// "<tool>-applyset", as kubectl does: the union of the old and updated kinds and namespaces
// when superset, else the updated ones alone.
func (s *Set) writeParent(ctx context.Context, superset bool) error {
	kinds := maps2list(s.updatedKinds, func(gk schema.GroupKind) string { return gk.String() })
	namespaces := maps2list(s.updatedNamespaces, func(ns string) string { return ns })
	if superset {
		kinds = append(kinds, maps2list(s.oldKinds, func(gk schema.GroupKind) string { return gk.String() })...)
		namespaces = append(namespaces, maps2list(s.oldNamespaces, func(ns string) string { return ns })...)
	}
	namespaces = slices.DeleteFunc(namespaces, func(ns string) bool { return ns == s.ns })
	parent := map[string]any{
		"apiVersion": s.mapping.GroupVersionKind.GroupVersion().String(),
		"kind":       s.mapping.GroupVersionKind.Kind,
		"metadata": map[string]any{
			"name":   s.name,
			"labels": map[string]any{ParentIDLabel: s.id},
			"annotations": map[string]any{
				ToolingAnnotation:              s.tooling,
				GroupKindsAnnotation:           joinSorted(kinds),
				AdditionalNamespacesAnnotation: joinSorted(namespaces),
			},
		},
	}
	if s.ns != "" {
		parent["metadata"].(map[string]any)["namespace"] = s.ns
	}
	// The parent's fields are this field manager's by definition: forced.
	opts := []kates.ApplyOption{kates.FieldManager(toolName(s.tooling) + "-applyset"), kates.ForceOwnership()}
	if s.dryRun {
		opts = append(opts, kates.DryRun())
	}
	if err := s.c.Apply(ctx, &unstructured.Unstructured{Object: parent}, nil, opts...); err != nil {
		return fmt.Errorf("applyset %s: update the parent: %w", s, err)
	}
	return nil
}

func maps2list[K comparable](m map[K]bool, str func(K) string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, str(k))
	}
	return out
}

// joinSorted sorts, removes duplicates and joins with commas.
func joinSorted(s []string) string {
	slices.Sort(s)
	return strings.Join(slices.Compact(s), ",")
}

func ptrTo[T any](v T) *T { return &v }
