package validate

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiextensionsvalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/openapi3"
	"k8s.io/kube-openapi/pkg/schemaconv"
	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"

	"github.com/kates-dev/kates/kates"
)

// ErrNotObject is what Validate's error wraps when its argument is not a Kubernetes object at
// all: not a typed object, *Unstructured or map, or a map without apiVersion and kind.
// crdGVR is where CustomResourceDefinitions are served.
var crdGVR = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

var ErrNotObject = errors.New("not a Kubernetes object")

// Error is Validate's verdict on an invalid object: every violation found, each with
// its field path, the rule it breaks and the value. It is the error the API server would answer
// with, in the same form: apierrors.IsInvalid(err) is true and Status() is the server's
// Invalid status, so code that handles the server's rejections handles these too.
type Error struct {
	GroupVersionKind schema.GroupVersionKind
	Namespace, Name  string
	Errors           field.ErrorList
}

func (e *Error) statusError() *apierrors.StatusError {
	return apierrors.NewInvalid(e.GroupVersionKind.GroupKind(), e.Name, e.Errors)
}

func (e *Error) Error() string { return e.statusError().Error() }

// Status makes a Error an apierrors.APIStatus, which is what apierrors.IsInvalid and
// apierrors.ReasonForError look for.
func (e *Error) Status() metav1.Status { return e.statusError().Status() }

// Validator checks objects against the schemas of the cluster a Client talks to, without writing
// anything, so a program can refuse bad input with the server's own verdict before it applies a
// batch. It is safe for concurrent use.
//
// A custom resource is checked against the openAPIV3Schema its CustomResourceDefinition gives
// for the object's version, with the code the API server runs for it: defaults applied (to a
// copy), fields the schema does not declare reported unless x-kubernetes-preserve-unknown-fields
// keeps them, then the schema's types, formats, enums, patterns and bounds, embedded objects'
// metadata, x-kubernetes-list-type invariants and x-kubernetes-validations CEL rules. A built-in
// kind (or any kind without a CRD, such as an aggregated API's) is checked against the schema
// the server publishes at /openapi/v3 the way server-side apply checks it: undeclared fields and
// wrong types, as kubectl's strict field validation reports them. Rules the server implements
// in Go for built-in kinds (a Deployment's selector matching its template, say) are not
// checked. Metadata (name, labels, annotations) is checked for every kind.
//
// Schemas are fetched the first time a kind needs them: CRDs once each, published schemas once
// per group-version. A Validator watches CustomResourceDefinitions from its first custom
// resource on, and forgets a CRD the moment it changes or goes, so a new version or schema is
// used from the next call and a CRD installed later is found; the watch ends with Close, or
// when the Validator is garbage-collected. Without the right to watch CRDs, nothing about them
// is cached. A kind the server does not serve is an error IsUnknownKind recognises, with close
// matches. ValidateWithCRD checks a custom resource against a CRD the caller has, installed or not.
type Validator struct {
	*validatorState
}

// validatorState is everything a Validator holds. The CRD watch goroutine refers to it, never
// to the Validator, so an abandoned Validator can be collected and its cleanup stop the watch.
type validatorState struct {
	c *kates.Client

	mu       sync.Mutex
	builtins map[schema.GroupVersion]*builtinSchemas
	crds     map[string]*crdSchemas // by CRD name, "plural.group"; nil entry: no such CRD
	// crdGen counts CRD changes seen; a lookup that began before a change must not store its
	// (possibly stale) result.
	crdGen   uint64
	watching bool // the CRD watch is established, so cached CRDs are kept up to date
	// local holds the CRDs ValidateWithCRD was given, compiled, by the hash of their JSON.
	local   map[[sha256.Size]byte]*localCRD
	started bool
	stop    context.CancelFunc
}

// builtinSchemas is the published schema of one group-version, fetched once.
type builtinSchemas struct {
	done   chan struct{} // closed once the rest is set
	schema *smdschema.Schema
	types  map[schema.GroupVersionKind]string // the schema's type name for each kind
	err    error
}

// crdSchemas is one CRD compiled for validation, by version.
type crdSchemas struct {
	versions map[string]*crdVersion
}

// localCRD is a CRD given to ValidateWithCRD, compiled.
type localCRD struct {
	compiled *crdSchemas
	spec     apiextensionsv1.CustomResourceDefinitionSpec
}

// crdVersion is what the API server builds to validate one version of a CRD.
type crdVersion struct {
	structural *structuralschema.Structural
	validator  apiextensionsvalidation.SchemaValidator
	cel        *cel.Validator // nil without x-kubernetes-validations
}

// NewValidator returns a Validator for c's cluster. It fetches nothing until the first Validate.
func New(c *kates.Client) (*Validator, error) {
	if c == nil {
		return nil, errors.New("kates: NewValidator: nil Client")
	}
	s := &validatorState{c: c, builtins: map[schema.GroupVersion]*builtinSchemas{}, crds: map[string]*crdSchemas{}, local: map[[sha256.Size]byte]*localCRD{}}
	v := &Validator{s}
	runtime.AddCleanup(v, func(s *validatorState) { s.close() }, s)
	return v, nil
}

// Close stops the Validator's CRD watch. A closed Validator still validates, fetching CRDs
// afresh each time.
func (v *Validator) Close() { v.close() }

func (s *validatorState) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.started = true // never start again
	s.watching = false
	s.crds = map[string]*crdSchemas{}
	if s.stop != nil {
		s.stop()
		s.stop = nil
	}
}

// Validate checks obj — a typed object, *Unstructured, Unstructured or map[string]any — against
// the cluster's schema for its kind and version. It returns nil for a valid object, a
// *Error listing every violation for an invalid one, an error IsUnknownKind recognises
// for a kind the server does not serve, one wrapping ErrNotObject for something that is not a
// Kubernetes object, and other errors when the schema cannot be fetched. obj is not changed.
//
// A namespaced object without a namespace is checked as if in the Client's default namespace,
// as the Client would write it.
func (v *Validator) Validate(ctx context.Context, obj any) (err error) {
	// The schema libraries are the API server's, written for decoded JSON; a bug there on an
	// input nobody foresaw must not take the caller's program down.
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("validate: internal error: %v", r)
		}
	}()
	// u is the one copy of obj made here; the checks below may change it (defaults, pruning).
	u, err := toValidatable(obj)
	if err != nil {
		return err
	}
	m, err := v.c.MappingFor(u.GroupVersionKind())
	if err != nil {
		return fmt.Errorf("kates: %w", err)
	}
	namespaced := m.Scope.Name() == meta.RESTScopeNameNamespace
	switch {
	case namespaced && u.GetNamespace() == "":
		u.SetNamespace(v.c.Namespace())
	case !namespaced && u.GetNamespace() != "":
		u.SetNamespace("") // as the Client clears it before writing
	}
	t := &target{obj: u, mapping: m}
	gvk := m.GroupVersionKind
	verdict := func(errs field.ErrorList) error {
		if len(errs) == 0 {
			return nil
		}
		return &Error{GroupVersionKind: gvk, Namespace: t.obj.GetNamespace(), Name: t.obj.GetName(), Errors: errs}
	}
	crd, err := v.crd(ctx, t.mapping.Resource.GroupResource())
	if err != nil {
		return fmt.Errorf("kates: validate %s: %w", t.describe(), err)
	}
	if crd != nil {
		cv := crd.versions[gvk.Version]
		if cv == nil {
			// Served a moment ago per discovery, but not by this CRD any more: it changed.
			return fmt.Errorf("kates: %w", &kates.UnknownKindError{Kind: gvk.Kind + " (" + gvk.GroupVersion().String() + ")", Suggestions: v.c.Suggest(gvk.Kind)})
		}
		return verdict(cv.validate(ctx, t.obj.Object, namespaced))
	}
	b, err := v.builtin(ctx, gvk.GroupVersion())
	if err != nil {
		return fmt.Errorf("kates: validate %s: %w", t.describe(), err)
	}
	errs, err := validateBuiltin(b, t.obj, namespaced)
	if err != nil {
		return fmt.Errorf("kates: validate %s: %w", t.describe(), err)
	}
	return verdict(errs)
}

// ValidateWithCRD checks obj, a custom resource, against crd (a *CustomResourceDefinition,
// *Unstructured or map) as Validate checks it against the cluster's CRD, without asking the
// cluster: for a batch that brings the CRD along with its custom resources, before the CRD is
// installed or while it is being changed. obj must be of the kind crd defines, in a version it
// serves; otherwise the error is one IsUnknownKind recognises. The last CRDs given are kept
// compiled, keyed by their content.
func (v *Validator) ValidateWithCRD(ctx context.Context, obj, crd any) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("validate: internal error: %v", r)
		}
	}()
	u, err := toValidatable(obj)
	if err != nil {
		return err
	}
	cu, err := kates.ToUnstructured(crd)
	if err != nil {
		return fmt.Errorf("kates: validate with CRD: %w", err)
	}
	compiled, spec, err := v.localCRD(cu)
	if err != nil {
		return fmt.Errorf("kates: validate with CRD %s: %w", cu.GetName(), err)
	}
	gvk := u.GroupVersionKind()
	cv := compiled.versions[gvk.Version]
	if gvk.Group != spec.Group || gvk.Kind != spec.Names.Kind || cv == nil {
		return fmt.Errorf("kates: %w", &kates.UnknownKindError{Kind: gvk.Kind + " (" + gvk.GroupVersion().String() + ")", Suggestions: []string{spec.Names.Plural + "." + spec.Group}})
	}
	namespaced := spec.Scope == apiextensionsv1.NamespaceScoped
	switch {
	case namespaced && u.GetNamespace() == "":
		u.SetNamespace(v.c.Namespace())
	case !namespaced && u.GetNamespace() != "":
		u.SetNamespace("")
	}
	if errs := cv.validate(ctx, u.Object, namespaced); len(errs) > 0 {
		return &Error{GroupVersionKind: gvk, Namespace: u.GetNamespace(), Name: u.GetName(), Errors: errs}
	}
	return nil
}

// maxLocalCRDs bounds how many compiled CRDs ValidateWithCRD keeps: more than a batch of
// manifests brings, few enough that their compiled CEL programs stay small.
const maxLocalCRDs = 64

// localCRD compiles a CRD given by the caller, once per distinct content.
func (s *validatorState) localCRD(u *unstructured.Unstructured) (*crdSchemas, *apiextensionsv1.CustomResourceDefinitionSpec, error) {
	data, err := json.Marshal(u.Object)
	if err != nil {
		return nil, nil, err
	}
	key := sha256.Sum256(data)
	s.mu.Lock()
	l, ok := s.local[key]
	s.mu.Unlock()
	if ok {
		return l.compiled, &l.spec, nil
	}
	compiled, crd, err := compileCRD(u)
	if err != nil {
		return nil, nil, err
	}
	l = &localCRD{compiled: compiled, spec: crd.Spec}
	s.mu.Lock()
	if len(s.local) >= maxLocalCRDs {
		s.local = map[[sha256.Size]byte]*localCRD{} // a program cycling through CRDs must not grow without bound
	}
	s.local[key] = l
	s.mu.Unlock()
	return l.compiled, &l.spec, nil
}

// toValidatable converts obj as the Client's methods do (a map of Go values JSON encodes, such
// as an int, is taken as the Client takes it), after checking it is a Kubernetes object at all.
func toValidatable(obj any) (*unstructured.Unstructured, error) {
	switch obj.(type) {
	case map[string]any, unstructured.Unstructured, kruntime.Object: // *Unstructured is one
	default:
		return nil, fmt.Errorf("validate: %w: %T (want a typed object, *kates.Unstructured or map[string]any)", ErrNotObject, obj)
	}
	u, err := kates.ToUnstructured(obj)
	if err != nil {
		return nil, fmt.Errorf("validate: %w: %w", ErrNotObject, err)
	}
	apiVersion, _ := u.Object["apiVersion"].(string)
	kind, _ := u.Object["kind"].(string)
	if apiVersion == "" || kind == "" {
		return nil, fmt.Errorf("validate: %w: no apiVersion and kind", ErrNotObject)
	}
	if _, err := schema.ParseGroupVersion(apiVersion); err != nil {
		return nil, fmt.Errorf("validate: %w: apiVersion %q: %v", ErrNotObject, apiVersion, err)
	}
	return u, nil
}

// validateMeta checks metadata as every API server strategy does. nameFn is the kind's name
// rule; built-in kinds have several, so they pass one that accepts any non-empty name.
func validateMeta(obj map[string]any, namespaced bool, nameFn apimachineryvalidation.ValidateNameFunc) field.ErrorList {
	path := field.NewPath("metadata")
	om := &metav1.ObjectMeta{}
	if raw, ok := obj["metadata"]; ok && raw != nil {
		m, ok := raw.(map[string]any)
		if !ok {
			return field.ErrorList{field.Invalid(path, raw, "must be an object")}
		}
		if err := kruntime.DefaultUnstructuredConverter.FromUnstructured(m, om); err != nil {
			return field.ErrorList{field.Invalid(path, field.OmitValueType{}, err.Error())}
		}
	}
	return apimachineryvalidation.ValidateObjectMeta(om, namespaced, nameFn, path)
}

func anyName(string, bool) []string { return nil }

// validate runs, on obj, which it changes, what the API server runs on a custom resource being created:
// defaulting, pruning (reported, as strict field validation does), the OpenAPI schema, embedded
// objects' metadata, list types, then CEL rules unless earlier errors make them unsafe to run.
func (cv *crdVersion) validate(ctx context.Context, obj map[string]any, namespaced bool) field.ErrorList {
	integers(obj)
	errs := validateMeta(obj, namespaced, apimachineryvalidation.NameIsDNSSubdomain)
	structuraldefaulting.Default(obj, cv.structural)
	unknown := pruning.PruneWithOptions(obj, cv.structural, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})
	for _, p := range unknown {
		errs = append(errs, unknownField(p))
	}
	// The schema validator's order follows map iteration; messages should not change between runs.
	schemaErrs := apiextensionsvalidation.ValidateCustomResource(nil, obj, cv.validator)
	sort.SliceStable(schemaErrs, func(i, j int) bool { return schemaErrs[i].Field < schemaErrs[j].Field })
	errs = append(errs, schemaErrs...)
	errs = append(errs, schemaobjectmeta.Validate(ctx, nil, obj, cv.structural, false)...)
	errs = append(errs, listtype.ValidateListSetsAndMaps(nil, cv.structural, obj)...)
	if cv.cel != nil {
		if blocking(errs) {
			errs = append(errs, field.Invalid(nil, nil, "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"))
		} else {
			celErrs, _ := cv.cel.Validate(ctx, nil, cv.structural, obj, nil, celconfig.RuntimeCELCostBudget)
			errs = append(errs, celErrs...)
		}
	}
	return errs
}

// blocking reports the errors after which the API server does not run CEL rules, because the
// rules' inputs may be missing or of the wrong type.
func blocking(errs field.ErrorList) bool {
	for _, e := range errs {
		switch e.Type {
		case field.ErrorTypeNotSupported, field.ErrorTypeRequired, field.ErrorTypeTooLong, field.ErrorTypeTooMany, field.ErrorTypeTypeInvalid:
			return true
		}
	}
	return false
}

// unknownField is the error for a field the schema does not declare, worded as the API
// server's strict field validation words it.
func unknownField(path string) *field.Error {
	return &field.Error{Type: field.ErrorTypeInvalid, Field: path, BadValue: field.OmitValueType{}, Detail: "field not declared in schema"}
}

// validateBuiltin checks u against its group-version's published schema as server-side apply
// does (structured-merge-diff): undeclared fields, wrong types, duplicate keys of list maps and
// sets. Structured-merge-diff stops looking at an object at its first undeclared field, and
// which one it meets first depends on map order; so undeclared fields are found, and removed
// from a copy, by a walk over the same schema first, and the rest is left to it.
func validateBuiltin(b *builtinSchemas, u *unstructured.Unstructured, namespaced bool) (field.ErrorList, error) {
	gvk := u.GroupVersionKind()
	name, ok := b.types[gvk]
	if !ok {
		return nil, fmt.Errorf("the server publishes no schema for %s", gvk)
	}
	obj := u.Object // Validate's own copy: pruneUndeclared may change it
	errs := validateMeta(obj, namespaced, anyName)
	root := smdschema.TypeRef{NamedType: &name}
	errs = append(errs, pruneUndeclared(b.schema, root, obj, nil)...)
	_, err := typed.ParseableType{Schema: b.schema, TypeRef: root}.FromUnstructured(obj)
	if err == nil {
		return errs, nil
	}
	var verrs typed.ValidationErrors
	if !errors.As(err, &verrs) {
		return append(errs, field.Invalid(nil, field.OmitValueType{}, err.Error())), nil
	}
	for _, ve := range verrs {
		errs = append(errs, &field.Error{
			Type:     field.ErrorTypeInvalid,
			Field:    strings.TrimPrefix(ve.Path, "."),
			BadValue: field.OmitValueType{},
			Detail:   ve.ErrorMessage,
		})
	}
	return errs, nil
}

// pruneUndeclared removes from v, and reports, every field that type tr does not declare, by
// the rule structured-merge-diff applies: a field is undeclared when the object type neither
// lists it nor takes any key (as a map, or an object that preserves unknown fields, does).
// Values of the wrong shape are left for structured-merge-diff to report.
func pruneUndeclared(s *smdschema.Schema, tr smdschema.TypeRef, v any, path *field.Path) field.ErrorList {
	atom, ok := s.Resolve(tr)
	if !ok {
		return nil
	}
	var errs field.ErrorList
	switch x := v.(type) {
	case map[string]any:
		if atom.Map == nil {
			return nil
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if sf, ok := atom.Map.FindField(k); ok {
				errs = append(errs, pruneUndeclared(s, sf.Type, x[k], path.Child(k))...)
				continue
			}
			if atom.Map.ElementType != (smdschema.TypeRef{}) {
				errs = append(errs, pruneUndeclared(s, atom.Map.ElementType, x[k], path.Key(k))...)
				continue
			}
			errs = append(errs, unknownField(path.Child(k).String()))
			delete(x, k)
		}
	case []any:
		if atom.List == nil {
			return nil
		}
		for i, e := range x {
			errs = append(errs, pruneUndeclared(s, atom.List.ElementType, e, path.Index(i))...)
		}
	}
	return errs
}

// builtin returns the published schema of gv, fetching it once; concurrent callers wait for
// the one fetch. A failed fetch is not kept, so the next call tries again.
func (s *validatorState) builtin(ctx context.Context, gv schema.GroupVersion) (_ *builtinSchemas, err error) {
	s.mu.Lock()
	b, ok := s.builtins[gv]
	if !ok {
		b = &builtinSchemas{done: make(chan struct{})}
		s.builtins[gv] = b
		s.mu.Unlock()
		// Callers waiting for this fetch must be released however it ends, a panic included.
		defer func() {
			if r := recover(); r != nil {
				b.err = fmt.Errorf("internal error: %v", r)
				err = b.err
			}
			if b.err != nil {
				s.mu.Lock()
				delete(s.builtins, gv)
				s.mu.Unlock()
			}
			close(b.done)
		}()
		b.err = b.fetch(s.c, gv)
		return b, b.err
	}
	s.mu.Unlock()
	select {
	case <-b.done:
		return b, b.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// fetch reads gv's document from /openapi/v3, converts its schemas to structured-merge-diff's
// as the API server does for server-side apply, and indexes them by kind.
func (b *builtinSchemas) fetch(c *kates.Client, gv schema.GroupVersion) error {
	// A fresh OpenAPI v3 client: its list of group-versions must include ones served since.
	disc, err := discovery.NewDiscoveryClientForConfigAndClient(c.RESTConfig(), c.HTTPClient())
	if err != nil {
		return fmt.Errorf("fetch the published schema of %s: %w", gv, err)
	}
	doc, err := openapi3.NewRoot(disc.OpenAPIV3()).GVSpec(gv)
	if err != nil {
		return fmt.Errorf("fetch the published schema of %s: %w", gv, err)
	}
	if doc.Components == nil {
		return fmt.Errorf("the published schema of %s has no components", gv)
	}
	b.schema, err = schemaconv.ToSchemaFromOpenAPI(doc.Components.Schemas, false)
	if err != nil {
		return fmt.Errorf("the published schema of %s: %w", gv, err)
	}
	b.types = map[schema.GroupVersionKind]string{}
	for name, sch := range doc.Components.Schemas {
		gvks, _ := sch.Extensions["x-kubernetes-group-version-kind"].([]any)
		for _, g := range gvks {
			m, _ := g.(map[string]any)
			group, _ := m["group"].(string)
			version, _ := m["version"].(string)
			kind, _ := m["kind"].(string)
			b.types[schema.GroupVersionKind{Group: group, Version: version, Kind: kind}] = name
		}
	}
	return nil
}

// crd returns the compiled CRD that defines gr, or nil when no CRD does (a built-in kind, or an
// identity that may not read CRDs).
func (s *validatorState) crd(ctx context.Context, gr schema.GroupResource) (*crdSchemas, error) {
	if !strings.Contains(gr.Group, ".") {
		return nil, nil // a CRD's group has a dot: apps, batch and the core group are built in
	}
	name := gr.Resource + "." + gr.Group
	s.mu.Lock()
	if c, ok := s.crds[name]; ok {
		s.mu.Unlock()
		return c, nil
	}
	gen := s.crdGen
	s.startWatch()
	s.mu.Unlock()

	var c *crdSchemas
	u, err := s.c.DynamicInterface().Resource(crdGVR).Get(ctx, name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err) || apierrors.IsForbidden(err):
	case err != nil:
		return nil, fmt.Errorf("get CustomResourceDefinition %s: %w", name, err)
	default:
		if c, _, err = compileCRD(u); err != nil {
			return nil, err
		}
	}
	s.mu.Lock()
	if s.watching && s.crdGen == gen {
		s.crds[name] = c
	}
	s.mu.Unlock()
	return c, nil
}

// compileCRD builds the validators of every served version of a CRD, as the API server does
// when it starts serving it.
func compileCRD(u *unstructured.Unstructured) (*crdSchemas, *apiextensionsv1.CustomResourceDefinition, error) {
	var crd apiextensionsv1.CustomResourceDefinition
	if err := kruntime.DefaultUnstructuredConverter.FromUnstructured(u.Object, &crd); err != nil {
		return nil, nil, fmt.Errorf("decode CustomResourceDefinition %s: %w", u.GetName(), err)
	}
	out := &crdSchemas{versions: map[string]*crdVersion{}}
	for _, ver := range crd.Spec.Versions {
		if !ver.Served {
			continue
		}
		var props apiextensions.JSONSchemaProps
		if ver.Schema != nil && ver.Schema.OpenAPIV3Schema != nil {
			if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(ver.Schema.OpenAPIV3Schema, &props, nil); err != nil {
				return nil, nil, fmt.Errorf("CustomResourceDefinition %s version %s: %w", crd.Name, ver.Name, err)
			}
		} else {
			preserve := true
			props.XPreserveUnknownFields = &preserve
		}
		structural, err := structuralschema.NewStructural(&props)
		if err != nil {
			return nil, nil, fmt.Errorf("CustomResourceDefinition %s version %s: schema is not structural: %w", crd.Name, ver.Name, err)
		}
		validator, _, err := apiextensionsvalidation.NewSchemaValidator(&props)
		if err != nil {
			return nil, nil, fmt.Errorf("CustomResourceDefinition %s version %s: %w", crd.Name, ver.Name, err)
		}
		out.versions[ver.Name] = &crdVersion{
			structural: structural,
			validator:  validator,
			cel:        cel.NewValidator(structural, true, celconfig.PerCallLimit),
		}
	}
	return out, &crd, nil
}

// startWatch starts the CRD watch once; s.mu is held.
func (s *validatorState) startWatch() {
	if s.started {
		return
	}
	s.started = true
	ctx, cancel := context.WithCancel(context.Background())
	s.stop = cancel
	go s.watchCRDs(ctx)
}

// watchCRDs forgets each CRD as it changes. Until a watch is established, and whenever one
// ends (events may have been missed), nothing is cached. A watch from no resourceVersion begins
// with an ADDED event per existing CRD, which also drops anything fetched before it began.
func (s *validatorState) watchCRDs(ctx context.Context) {
	forgetAll := func(watching bool) {
		s.mu.Lock()
		s.watching = watching && ctx.Err() == nil
		s.crds = map[string]*crdSchemas{}
		s.crdGen++
		s.mu.Unlock()
	}
	for ctx.Err() == nil {
		w, err := s.c.DynamicInterface().Resource(crdGVR).Watch(ctx, metav1.ListOptions{})
		if err != nil {
			if apierrors.IsForbidden(err) {
				return // nothing is cached then: every call looks the CRD up afresh
			}
			select {
			case <-ctx.Done():
			case <-time.After(time.Second):
			}
			continue
		}
		forgetAll(true)
		for ev := range w.ResultChan() {
			name := ""
			if o, ok := ev.Object.(*unstructured.Unstructured); ok {
				name = o.GetName()
			}
			s.mu.Lock()
			if name == "" {
				s.crds = map[string]*crdSchemas{} // an error event: forget everything
			} else {
				delete(s.crds, name)
			}
			s.crdGen++
			s.mu.Unlock()
		}
		w.Stop()
		forgetAll(false)
	}
}

// integers turns whole float64 numbers into int64 in place. The API server decodes JSON
// integers as int64, and CEL rules, unlike the schema validator, tell the two apart; a map built
// by encoding/json or YAML has float64 for every number.
func integers(v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if f, ok := e.(float64); ok {
				if i, ok := wholeNumber(f); ok {
					x[k] = i
				}
				continue
			}
			integers(e)
		}
	case []any:
		for k, e := range x {
			if f, ok := e.(float64); ok {
				if i, ok := wholeNumber(f); ok {
					x[k] = i
				}
				continue
			}
			integers(e)
		}
	}
}

func wholeNumber(f float64) (int64, bool) {
	if f != math.Trunc(f) || f < math.MinInt64 || f >= math.MaxInt64 {
		return 0, false
	}
	return int64(f), true
}

// target is the object being validated and its kind's mapping.
type target struct {
	obj     *unstructured.Unstructured
	mapping *meta.RESTMapping
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
