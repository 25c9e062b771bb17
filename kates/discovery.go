package kates

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/version"
	"k8s.io/client-go/restmapper"
)

// ErrUnknownKind is what an unknown kind's error wraps: errors.Is(err, kates.ErrUnknownKind).
var ErrUnknownKind = errors.New("unknown kind")

// UnknownKindError says a kind or resource name matched nothing the server serves. Suggestions
// lists close matches, if any.
type UnknownKindError struct {
	Kind        string
	Suggestions []string
}

func (e *UnknownKindError) Error() string {
	msg := fmt.Sprintf("the server doesn't have a resource type %q", e.Kind)
	if len(e.Suggestions) > 0 {
		msg += "; did you mean " + strings.Join(e.Suggestions, ", ") + "?"
	}
	return msg
}

func (e *UnknownKindError) Is(target error) bool { return target == ErrUnknownKind }

// IsUnknownKind reports whether err, or an error it wraps, says a kind is unknown.
func IsUnknownKind(err error) bool { return errors.Is(err, ErrUnknownKind) }

// Mapping resolves a kind the way kubectl does: a resource ("deployments"), its short name
// ("deploy", a CRD's short names), singular ("deployment"), a Kind ("Deployment"), qualified with
// a group ("deployments.apps") or a version and group ("deployments.v1.apps",
// "mappings.v3alpha1.getambassador.io"). Discovery is cached; a name the cache does not know
// refreshes it once before the name is declared unknown, so a CRD installed a moment ago resolves.
func (c *Client) Mapping(kindOrResource string) (*meta.RESTMapping, error) {
	if strings.TrimSpace(kindOrResource) == "" {
		return nil, &UnknownKindError{Kind: kindOrResource}
	}
	m, err := c.mappingFor(kindOrResource)
	if err == nil {
		return m, nil
	}
	if !meta.IsNoMatchError(err) && !IsUnknownKind(err) {
		return nil, err
	}
	c.InvalidateCache()
	m, err = c.mappingFor(kindOrResource)
	if err == nil {
		return m, nil
	}
	if meta.IsNoMatchError(err) || IsUnknownKind(err) {
		return nil, &UnknownKindError{Kind: kindOrResource, Suggestions: c.Suggest(kindOrResource)}
	}
	return nil, err
}

// Category returns the resources of a category the way kubectl expands "all" in `kubectl get
// all`: every served resource whose discovery entry lists the category, as "resource.group"
// ("deployments.apps"; "pods" for the core group), each once, in discovery order. ok is false
// when no served resource lists it. Kinds come first in kubectl: call Mapping before treating
// a name as a category.
func (c *Client) Category(name string) (resources []string, ok bool) {
	grs, ok := restmapper.NewDiscoveryCategoryExpander(c.discovery).Expand(name)
	if !ok {
		c.InvalidateCache() // a CRD of that category may be new
		if grs, ok = restmapper.NewDiscoveryCategoryExpander(c.discovery).Expand(name); !ok {
			return nil, false
		}
	}
	seen := map[schema.GroupResource]bool{}
	for _, gr := range grs { // a resource served in several versions is listed once per version
		if seen[gr] {
			continue
		}
		seen[gr] = true
		resources = append(resources, gr.String())
	}
	return resources, true
}

// mappingFor tries the argument as a resource first, then as a kind, as kubectl's resource
// builder does; resources win because "pods" and "Pod" must both work and resources are what
// users type.
func (c *Client) mappingFor(arg string) (*meta.RESTMapping, error) {
	fullGVR, gr := schema.ParseResourceArg(arg)
	var gvk schema.GroupVersionKind
	if fullGVR != nil {
		gvk, _ = c.expander.KindFor(*fullGVR)
	}
	if gvk.Empty() {
		gvk, _ = c.expander.KindFor(gr.WithVersion(""))
	}
	if !gvk.Empty() {
		return c.expander.RESTMapping(gvk.GroupKind(), gvk.Version)
	}
	fullGVK, gk := schema.ParseKindArg(arg)
	if fullGVK != nil {
		if m, err := c.expander.RESTMapping(fullGVK.GroupKind(), fullGVK.Version); err == nil {
			return m, nil
		}
	}
	return c.expander.RESTMapping(gk)
}

// MappingFor returns the REST mapping of a kind given by group, version and kind.
func (c *Client) MappingFor(gvk schema.GroupVersionKind) (*meta.RESTMapping, error) {
	if gvk.Kind == "" {
		return nil, fmt.Errorf("kates: object has no kind")
	}
	if m, ok := c.mappings.Load(gvk); ok {
		return m.(*meta.RESTMapping), nil
	}
	m, err := c.mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if err == nil {
		c.mappings.Store(gvk, m)
		return m, nil
	}
	if !meta.IsNoMatchError(err) {
		return nil, err
	}
	c.InvalidateCache()
	if m, err = c.mapper.RESTMapping(gvk.GroupKind(), gvk.Version); err == nil {
		c.mappings.Store(gvk, m)
		return m, nil
	}
	name := gvk.Kind
	if gvk.Group != "" || gvk.Version != "" {
		name = gvk.Kind + " (" + gvk.GroupVersion().String() + ")"
	}
	return nil, &UnknownKindError{Kind: name, Suggestions: c.Suggest(gvk.Kind)}
}

// suggest lists served resources whose names are close to arg: same prefix or within a small
// edit distance of the resource, its singular, short names or kind.
// Suggest returns the kinds and resources the server serves whose names are close to arg, for
// an error message's "did you mean".
func (c *Client) Suggest(arg string) []string {
	lists, _ := c.discovery.ServerPreferredResources() // partial results are fine for hints
	want := strings.ToLower(strings.SplitN(arg, ".", 2)[0])
	seen := map[string]bool{}
	var out []string
	for _, list := range lists {
		gv, _ := schema.ParseGroupVersion(list.GroupVersion)
		for _, r := range list.APIResources {
			if strings.Contains(r.Name, "/") {
				continue
			}
			names := append([]string{r.Name, r.SingularName, strings.ToLower(r.Kind)}, r.ShortNames...)
			for _, n := range names {
				if n == "" {
					continue
				}
				if d := editDistance(want, n); d <= 2 || (len(want) >= 3 && strings.HasPrefix(n, want)) {
					full := r.Name
					if gv.Group != "" {
						full += "." + gv.Group
					}
					if !seen[full] {
						seen[full] = true
						out = append(out, full)
					}
					break
				}
			}
		}
	}
	sort.Strings(out)
	if len(out) > 5 {
		out = out[:5]
	}
	return out
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// InvalidateCache forgets cached discovery, so kinds installed or removed since are seen. It is
// safe to call while other calls run; they use the old or the new information, never a mix.
func (c *Client) InvalidateCache() {
	c.discovery.Invalidate()
	c.mapper.Reset()
	c.mappings.Clear()
}

// ServerVersion returns the API server's version.
func (c *Client) ServerVersion() (*version.Info, error) {
	return c.discovery.ServerVersion()
}

// ServerResources returns every group, version and resource the server serves. A partial result
// comes with an error (a group whose discovery failed, such as an unavailable APIService); the
// lists that did arrive are still returned.
func (c *Client) ServerResources() ([]*metav1.APIResourceList, error) {
	_, lists, err := c.discovery.ServerGroupsAndResources()
	return lists, err
}

// ServerPreferredResources returns, for each group, the resources of its preferred version.
func (c *Client) ServerPreferredResources() ([]*metav1.APIResourceList, error) {
	return c.discovery.ServerPreferredResources()
}

// crdGVR is where CustomResourceDefinitions are served.
var crdGVR = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

// apiServiceGVR is where aggregated APIs are registered.
var apiServiceGVR = schema.GroupVersionResource{Group: "apiregistration.k8s.io", Version: "v1", Resource: "apiservices"}

// WaitFor returns once kindOrResource is served and, for a custom resource, its
// CustomResourceDefinition is Established, so objects of it can be created and watched. It
// watches CustomResourceDefinitions and APIServices and looks again at each change, rather than
// polling discovery; a backstop look every 10 s covers kinds that arrive any other way. It
// returns ctx's error, naming the kind, if ctx ends first.
func (c *Client) WaitFor(ctx context.Context, kindOrResource string) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	changed := make(chan struct{}, 1)
	poke := func() {
		select {
		case changed <- struct{}{}:
		default:
		}
	}
	for _, gvr := range []schema.GroupVersionResource{crdGVR, apiServiceGVR} {
		go c.watchKinds(ctx, gvr, poke)
	}
	backstop := time.NewTicker(10 * time.Second)
	defer backstop.Stop()
	for {
		ready, err := c.kindReady(ctx, kindOrResource)
		if ready || err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("kates: wait for kind %q: %w", kindOrResource, ctx.Err())
		case <-changed:
		case <-backstop.C:
		}
	}
}

// watchKinds calls poke on every change of gvr's objects until ctx ends; it rewatches after
// errors, and quietly gives up on a kind the identity may not watch (the backstop remains).
func (c *Client) watchKinds(ctx context.Context, gvr schema.GroupVersionResource, poke func()) {
	for ctx.Err() == nil {
		w, err := c.dynamic.Resource(gvr).Watch(ctx, metav1.ListOptions{})
		if err != nil {
			if apierrors.IsForbidden(err) || apierrors.IsNotFound(err) {
				return
			}
			select {
			case <-ctx.Done():
			case <-time.After(time.Second):
			}
			continue
		}
		poke() // anything may have changed between two watches
		for range w.ResultChan() {
			poke()
		}
		w.Stop()
	}
}

// kindReady reports whether kindOrResource is served and, if a CRD defines it, Established.
func (c *Client) kindReady(ctx context.Context, kindOrResource string) (bool, error) {
	m, err := c.Mapping(kindOrResource)
	if IsUnknownKind(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	crd, err := c.dynamic.Resource(crdGVR).Get(ctx, m.Resource.Resource+"."+m.Resource.Group, metav1.GetOptions{})
	if apierrors.IsNotFound(err) || apierrors.IsForbidden(err) {
		return true, nil // served, and not by a CRD we can see: nothing more to wait for
	}
	if err != nil {
		return false, err
	}
	conds, _, _ := unstructured.NestedSlice(crd.Object, "status", "conditions")
	for _, cond := range conds {
		cm, _ := cond.(map[string]any)
		if cm["type"] == "Established" && cm["status"] == "True" {
			return true, nil
		}
	}
	return false, nil
}
