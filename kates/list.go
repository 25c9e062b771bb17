package kates

import (
	"context"
	"fmt"
	"reflect"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/pager"
)

// Query names a set of objects of one kind: for List, and for Watch, where Name is the snapshot
// struct field the query fills.
type Query struct {
	// Name is the snapshot field a Watch query fills; List ignores it.
	Name string
	// Kind is the kind or resource, in any form kubectl accepts (see Client.Mapping).
	Kind string
	// Namespace restricts the query to one namespace. "" means all namespaces; use
	// Client.Namespace() for the kubeconfig's namespace.
	Namespace string
	// FieldSelector and LabelSelector restrict the query, in the API server's syntax
	// ("metadata.name=web", "app=web,tier!=db").
	FieldSelector string
	LabelSelector string
	// MetadataOnly makes a Watch query receive only each object's metadata (as kubectl get -o
	// name does, through the API server's PartialObjectMetadata): spec and status never cross
	// the wire nor take memory. Snapshot objects then carry apiVersion, kind and metadata alone.
	// List ignores it.
	MetadataOnly bool
	// Sharding restricts the query to some shards, for good: List returns, and a Watch
	// holds, only the objects of Sharding.Owned, placed as Placement says. The API server
	// selects them where it can (it has the ShardedListAndWatch gate, and the placement is
	// by key), and the client matches every object it receives either way. UIDShard(i, n) and
	// NamespaceShard(i, n) make the simple ones. Default nil: unsharded, unless the Watch is
	// (WatchOptions.Sharding).
	Sharding *Sharding
	// Placement says how a sharded query places its objects: by the shard space's key (the
	// default), by their controller owner, or everywhere (not sharded: every replica holds
	// every object). See Placement.
	Placement Placement
}

// listPageSize is how many objects one List request asks for; large lists come in pages so no
// single response is huge.
const listPageSize = 500

// resolvedQuery is a Query with its kind resolved and its selectors parsed.
type resolvedQuery struct {
	Query
	mapping *meta.RESTMapping
	labels  labels.Selector
	fields  fields.Selector
	// sharding is the query's sharding in a Watch (its own or the Watch's), nil if
	// unsharded; static, whether it is the query's own, which AddShard leaves alone.
	sharding *Sharding
	static   bool
}

// resolveQuery resolves q's kind and validates its selectors, so a mistake is a clear error
// before any request.
func (c *Client) resolveQuery(q Query) (*resolvedQuery, error) {
	m, err := c.Mapping(q.Kind)
	if err != nil {
		return nil, fmt.Errorf("kates: query %q: %w", q.Name, err)
	}
	rq := &resolvedQuery{Query: q, mapping: m}
	if rq.labels, err = labels.Parse(q.LabelSelector); err != nil {
		return nil, fmt.Errorf("kates: query %q: invalid label selector %q: %w", q.Name, q.LabelSelector, err)
	}
	if rq.fields, err = fields.ParseSelector(q.FieldSelector); err != nil {
		return nil, fmt.Errorf("kates: query %q: invalid field selector %q: %w", q.Name, q.FieldSelector, err)
	}
	if m.Scope.Name() != meta.RESTScopeNameNamespace {
		rq.Namespace = "" // a cluster-scoped kind has no namespaces to restrict to
	}
	return rq, nil
}

func (c *Client) resourceFor(rq *resolvedQuery) dynamic.ResourceInterface {
	if rq.Namespace != "" {
		return c.dynamic.Resource(rq.mapping.Resource).Namespace(rq.Namespace)
	}
	return c.dynamic.Resource(rq.mapping.Resource)
}

// List stores every object query matches into target, a pointer to a slice of typed objects
// (*[]*kates.Pod or *[]kates.Pod), of *Unstructured or Unstructured, of Object, or of
// map[string]any. Large lists are read in pages of 500, each page converted as it arrives.
func (c *Client) List(ctx context.Context, query Query, target any) error {
	rq, err := c.resolveQuery(query)
	if err != nil {
		return err
	}
	tv := reflect.ValueOf(target)
	if tv.Kind() != reflect.Pointer || tv.IsNil() || tv.Elem().Kind() != reflect.Slice {
		return fmt.Errorf("kates: list target must be a pointer to a slice, not %T", target)
	}
	conv, err := elementConverter(tv.Elem().Type().Elem())
	if err != nil {
		return err
	}
	if err := checkElementKind(tv.Elem().Type().Elem(), rq); err != nil {
		return err
	}
	ri := c.resourceFor(rq)
	p := pager.New(func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
		return ri.List(ctx, opts)
	})
	p.PageSize = listPageSize
	opts := metav1.ListOptions{LabelSelector: query.LabelSelector, FieldSelector: query.FieldSelector}
	inShards := func(*unstructured.Unstructured) bool { return true }
	if sh := query.Sharding; sh != nil && query.Placement != PlaceEverywhere {
		if err := sh.validate(); err != nil {
			return fmt.Errorf("kates: query %q: %w", query.Name, err)
		}
		if len(sh.Owned) == 0 {
			tv.Elem().Set(reflect.MakeSlice(tv.Elem().Type(), 0, 0))
			return nil
		}
		opts.ShardSelector = sh.serverSelector(query.Placement)
		opts.LabelSelector = andSelectors(opts.LabelSelector, sh.labelSelector(query.Placement))
		inShards = sh.matcher(query.Placement)
	}
	out := reflect.MakeSlice(tv.Elem().Type(), 0, 0)
	err = p.EachListItemWithAlloc(ctx, opts, func(obj runtime.Object) error {
		u, ok := obj.(*unstructured.Unstructured)
		if !ok {
			return fmt.Errorf("unexpected list item %T", obj)
		}
		if !inShards(u) {
			return nil // a server without the shard gate sent every shard
		}
		v, err := conv(u)
		if err != nil {
			return err
		}
		out = reflect.Append(out, v)
		return nil
	})
	if err != nil {
		return fmt.Errorf("kates: list %s: %w", rq.mapping.Resource.Resource, err)
	}
	tv.Elem().Set(out)
	return nil
}

var (
	unstructuredType = reflect.TypeFor[unstructured.Unstructured]()
	objectType       = reflect.TypeFor[Object]()
	mapType          = reflect.TypeFor[map[string]any]()
)

// elementConverter returns a function that turns an Unstructured into a slice element of type t.
func elementConverter(t reflect.Type) (func(*unstructured.Unstructured) (reflect.Value, error), error) {
	switch {
	case t == reflect.PointerTo(unstructuredType):
		return func(u *unstructured.Unstructured) (reflect.Value, error) { return reflect.ValueOf(u), nil }, nil
	case t == unstructuredType:
		return func(u *unstructured.Unstructured) (reflect.Value, error) { return reflect.ValueOf(*u), nil }, nil
	case t == mapType:
		return func(u *unstructured.Unstructured) (reflect.Value, error) { return reflect.ValueOf(u.Object), nil }, nil
	case t == objectType:
		return func(u *unstructured.Unstructured) (reflect.Value, error) {
			o, err := NewObjectFromUnstructured(u)
			if err != nil {
				return reflect.Value{}, err
			}
			return reflect.ValueOf(&o).Elem(), nil
		}, nil
	case t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct:
		return func(u *unstructured.Unstructured) (reflect.Value, error) {
			v := reflect.New(t.Elem())
			if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, v.Interface()); err != nil {
				return reflect.Value{}, fmt.Errorf("convert %s %s into %s: %w", u.GetKind(), u.GetName(), t, err)
			}
			return v, nil
		}, nil
	case t.Kind() == reflect.Struct:
		return func(u *unstructured.Unstructured) (reflect.Value, error) {
			v := reflect.New(t)
			if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, v.Interface()); err != nil {
				return reflect.Value{}, fmt.Errorf("convert %s %s into %s: %w", u.GetKind(), u.GetName(), t, err)
			}
			return v.Elem(), nil
		}, nil
	}
	return nil, fmt.Errorf("kates: cannot list into a slice of %s", t)
}

// checkElementKind refuses a typed element registered for another kind: converting Deployments
// into Services would "succeed" and silently drop every field.
func checkElementKind(t reflect.Type, rq *resolvedQuery) error {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || t == unstructuredType {
		return nil
	}
	obj, ok := reflect.New(t).Interface().(runtime.Object)
	if !ok {
		return nil
	}
	gvks, _, err := Scheme.ObjectKinds(obj)
	if err != nil {
		return nil // not registered: the caller's own type for a custom resource
	}
	want := rq.mapping.GroupVersionKind.GroupKind()
	for _, gvk := range gvks {
		if gvk.GroupKind() == want {
			return nil
		}
	}
	return fmt.Errorf("kates: query %q: a %s cannot hold %s", rq.Name, t, want)
}
