package apply

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/validate"
)

// item is one object of a batch, as it will be sent.
type item struct {
	obj       *unstructured.Unstructured // a copy: the caller's object is never changed
	source    Source
	gvk       schema.GroupVersionKind
	namespace string // where it is applied: its own, the Client's, or "" when cluster-scoped
	unknown   error  // the kind is neither served nor defined in the batch
	wait      WaitGoal
	claim     *claim     // what its annotations (or Options.GroupOf) say of its group; nil: none
	group     string     // the group it is applied in, once planned
	ready     *readiness // its readiness annotations; nil: none
}

func (it *item) result(a Action) ObjectResult {
	return ObjectResult{Source: it.source, GroupVersionKind: it.gvk, Namespace: it.namespace, Name: it.obj.GetName(), Action: a, Group: it.group}
}

// describe names the object for a Problem: "ConfigMap web".
func (it *item) describe() string { return it.gvk.Kind + " " + it.obj.GetName() }

// crdKind is a kind that a CustomResourceDefinition of the batch defines.
type crdKind struct {
	resource   string // plural.group, as WaitFor and Mapping take it
	namespaced bool
	crd        *unstructured.Unstructured
}

// batch is the objects of one Run, in the order they are applied.
type batch struct {
	c        *kates.Client
	items    []*item
	crdKinds map[schema.GroupKind]crdKind
	groups   []*planGroup // in order, once planned; items are then in their order
}

// newBatch converts objects and puts them in apply order: CustomResourceDefinitions, then
// Namespaces, then the rest as given.
func newBatch(c *kates.Client, objects []any) (*batch, error) {
	b := &batch{c: c, crdKinds: map[schema.GroupKind]crdKind{}}
	for i, o := range objects {
		src := Source{Index: i}
		switch m := o.(type) {
		case kates.ManifestObject:
			src.File, src.Document, o = m.Source, m.Document, m.Object
		case *kates.ManifestObject:
			if m == nil {
				return nil, fmt.Errorf("apply: object %d is a nil *kates.ManifestObject", i+1)
			}
			src.File, src.Document, o = m.Source, m.Document, m.Object
		}
		u, err := kates.ToUnstructured(o)
		if err != nil {
			return nil, fmt.Errorf("apply: %s: %w", src, err)
		}
		b.items = append(b.items, &item{obj: u, source: src, gvk: u.GroupVersionKind(), wait: WaitCurrent})
	}
	rank := func(it *item) int {
		switch {
		case isCRD(it.gvk):
			return 0
		case it.gvk.Group == "" && it.gvk.Kind == "Namespace":
			return 1
		}
		return 2
	}
	slices.SortStableFunc(b.items, func(x, y *item) int { return rank(x) - rank(y) })
	for _, it := range b.items {
		if !isCRD(it.gvk) {
			continue
		}
		group, _, _ := unstructured.NestedString(it.obj.Object, "spec", "group")
		kind, _, _ := unstructured.NestedString(it.obj.Object, "spec", "names", "kind")
		plural, _, _ := unstructured.NestedString(it.obj.Object, "spec", "names", "plural")
		scope, _, _ := unstructured.NestedString(it.obj.Object, "spec", "scope")
		if kind != "" && plural != "" {
			b.crdKinds[schema.GroupKind{Group: group, Kind: kind}] = crdKind{resource: plural + "." + group, namespaced: scope != "Cluster", crd: it.obj}
		}
	}
	return b, nil
}

func isCRD(gvk schema.GroupVersionKind) bool {
	return gvk.Group == "apiextensions.k8s.io" && gvk.Kind == "CustomResourceDefinition"
}

// check runs every check of Run's first step; see Run.
func (b *batch) check(ctx context.Context, opts Options) error {
	var problems []Problem
	add := func(it *item, format string, args ...any) {
		problems = append(problems, Problem{Source: it.source, Object: it.describe(), Message: fmt.Sprintf(format, args...)})
	}
	for _, it := range b.items {
		if err := b.resolve(it); err != nil {
			return err
		}
	}
	if err := b.duplicates(); err != nil {
		return err
	}
	for _, it := range b.items {
		if it.obj.GetName() == "" {
			add(it, "no metadata.name: an apply needs one (generateName is not enough)")
		}
		if it.unknown != nil {
			add(it, "the server does not serve kind %s of %s, and no CustomResourceDefinition given defines it", it.gvk.Kind, it.gvk.GroupVersion())
		}
		if v, ok := it.obj.GetAnnotations()[WaitAnnotation]; ok {
			switch strings.ToLower(v) {
			case "true", "current":
				it.wait = WaitCurrent
			case "exists", "created":
				it.wait = WaitExists
			case "false", "none":
				it.wait = WaitNone
			default:
				add(it, "annotation %s: %q: want \"true\", \"exists\" or \"false\"", WaitAnnotation, v)
			}
		}
		if !opts.IgnoreWaitAnnotation {
			rd, msgs := readinessOf(it.obj)
			for _, m := range msgs {
				add(it, "%s", m)
			}
			if rd != nil && it.wait != WaitCurrent {
				add(it, "%s with %s %q: a readiness expression says when the object is ready, and the wait annotation says not to wait for that", rd.what, WaitAnnotation, it.obj.GetAnnotations()[WaitAnnotation])
			}
			it.ready = rd
		}
		if msgs := it.readClaim(opts); len(msgs) > 0 {
			for _, m := range msgs {
				add(it, "%s", m)
			}
		}
	}
	// Planned even when other problems refuse the batch: a cycle is listed with the rest.
	groups, more := b.plan()
	problems = append(problems, more...)
	if len(more) == 0 {
		b.order(groups)
	}
	if rules := opts.WaitOptions.StatusRules.Rules; rules != nil {
		for _, it := range b.items {
			if !isCRD(it.gvk) {
				continue
			}
			if err := checkRuleSchemas(it.obj, rules.CheckSchema); err != nil {
				add(it, "%v", err)
			}
		}
	}
	if !opts.NoValidate {
		more, err := b.validate(ctx, opts.Validator)
		if err != nil {
			return err
		}
		problems = append(problems, more...)
	}
	if len(problems) == 0 {
		return ctx.Err()
	}
	// In the order given, as a reader goes through the files.
	slices.SortStableFunc(problems, func(x, y Problem) int { return x.Source.Index - y.Source.Index })
	invalid := map[int]bool{}
	for _, p := range problems {
		invalid[p.Source.Index] = true
	}
	return &InvalidError{Invalid: len(invalid), Total: len(b.items), Problems: problems}
}

// resolve finds whether it's kind is served (or defined in the batch) and the namespace it is
// applied in.
func (b *batch) resolve(it *item) error {
	it.namespace = it.obj.GetNamespace()
	namespaced := true
	if crd, ok := b.crdKinds[it.gvk.GroupKind()]; ok {
		namespaced = crd.namespaced
	} else {
		m, err := b.c.MappingFor(it.gvk)
		switch {
		case kates.IsUnknownKind(err):
			it.unknown = err
		case err != nil:
			return fmt.Errorf("apply: %s (%s): %w", it.source, it.describe(), err)
		default:
			namespaced = m.Scope.Name() == meta.RESTScopeNameNamespace
		}
	}
	switch {
	case !namespaced:
		it.namespace = ""
	case it.namespace == "":
		it.namespace = b.c.Namespace()
	}
	return nil
}

// duplicates refuses a batch that defines one object more than once.
func (b *batch) duplicates() error {
	type key struct {
		gk        schema.GroupKind
		namespace string
		name      string
	}
	seen := map[key][]*item{}
	var order []key
	for _, it := range b.items {
		k := key{it.gvk.GroupKind(), it.namespace, it.obj.GetName()}
		if k.name == "" {
			continue // refused as nameless by check
		}
		if _, ok := seen[k]; !ok {
			order = append(order, k)
		}
		seen[k] = append(seen[k], it)
	}
	var dups []Duplicate
	for _, k := range order {
		its := seen[k]
		if len(its) < 2 {
			continue
		}
		// In the order given, not the order of application.
		slices.SortFunc(its, func(x, y *item) int { return x.source.Index - y.source.Index })
		d := Duplicate{GroupKind: k.gk, Namespace: k.namespace, Name: k.name}
		for _, it := range its {
			d.Sources = append(d.Sources, it.source)
		}
		dups = append(dups, d)
	}
	if len(dups) == 0 {
		return nil
	}
	slices.SortStableFunc(dups, func(x, y Duplicate) int { return x.Sources[0].Index - y.Sources[0].Index })
	return &DuplicateError{Duplicates: dups}
}

// validate checks every object against the cluster's schemas, a custom resource against its
// CustomResourceDefinition in the batch if there is one (which may not be installed yet, or
// may change the kind's schema).
func (b *batch) validate(ctx context.Context, v *validate.Validator) ([]Problem, error) {
	if v == nil {
		var err error
		if v, err = validate.New(b.c); err != nil {
			return nil, fmt.Errorf("apply: %w", err)
		}
		defer v.Close()
	}
	var problems []Problem
	for _, it := range b.items {
		if it.unknown != nil || it.obj.GetName() == "" {
			continue // refused already
		}
		var err error
		if crd, ok := b.crdKinds[it.gvk.GroupKind()]; ok {
			err = v.ValidateWithCRD(ctx, it.obj, crd.crd)
		} else {
			err = v.Validate(ctx, it.obj)
		}
		var verr *validate.Error
		switch {
		case err == nil:
		case errors.As(err, &verr):
			for _, e := range verr.Errors {
				problems = append(problems, Problem{Source: it.source, Object: it.describe(), Message: e.Error()})
			}
		default:
			return nil, fmt.Errorf("apply: validate %s (%s): %w", it.source, it.describe(), err)
		}
	}
	return problems, nil
}

// checkRuleSchemas checks status rules against each version's schema of a
// CustomResourceDefinition, so that a rule naming a field the kind lacks (status.phse) is an
// error before anything is applied rather than an Unknown status later.
func checkRuleSchemas(crd *unstructured.Unstructured, check func(group, version, kind string, schema map[string]any) error) error {
	group, _, _ := unstructured.NestedString(crd.Object, "spec", "group")
	kind, _, _ := unstructured.NestedString(crd.Object, "spec", "names", "kind")
	versions, _, _ := unstructured.NestedSlice(crd.Object, "spec", "versions")
	for _, v := range versions {
		vm, _ := v.(map[string]any)
		name, _, _ := unstructured.NestedString(vm, "name")
		schema, found, _ := unstructured.NestedMap(vm, "schema", "openAPIV3Schema")
		if !found {
			continue
		}
		if err := check(group, name, kind, schema); err != nil {
			return err
		}
	}
	return nil
}
