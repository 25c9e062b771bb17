package kates

import (
	"context"
	"errors"
	"fmt"
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"

	"github.com/kates-dev/kates/internal/protodecode"
	"github.com/kates-dev/kates/internal/ujson"
)

// Typed, protobuf-fed watches.
//
// For every kind Scheme registers, Watch asks the API server for protobuf (as
// controller-runtime's cache does) and decodes each object straight into its Go struct, which
// the accumulator's store then holds and hands to the snapshot as it is. Protobuf into a
// struct is several times cheaper than JSON into unstructured (a realistic Pod: ~21 µs against
// ~75 µs), and the struct is far smaller than the maps of unstructured; converting it back
// to unstructured would lose both, so nothing does, except for a caller who asks for
// unstructured snapshot fields or a Transform (which takes *Unstructured).

// typedRESTClient returns a REST client for gv that asks for protobuf (JSON as a fallback, for
// kinds an API server cannot encode as protobuf) and decodes into Scheme's Go structs through
// internal/protodecode: each watch frame is decoded in place, without the two copies of the
// object's bytes apimachinery's serializer makes, and with stripManagedFields the objects'
// managedFields are not decoded at all (Watch drops them anyway). Clients are made once per
// group version and stripManagedFields, and share the Client's connections.
//
// Responses stay gzip-compressed, client-go's default, although compression shows as 16% of
// the client's CPU time in a profile of the first list of 10,000 ConfigMaps and 3,000 Pods:
// asking for them uncompressed (rest.Config.DisableCompression, as Kubernetes' control plane
// does) cost both kates and controller-runtime about 1.3 times the CPU time on this machine's
// loopback HTTP/2 and TLS, which then carry three times the bytes.
//
// With share set (every Watch sets its own), objects are decoded with the parts share keeps
// (see protodecode.Sharer); such a client serves one Watch and is not kept.
func (c *Client) typedRESTClient(gv schema.GroupVersion, stripManagedFields bool, share *protodecode.Sharer) (rest.Interface, error) {
	c.protoMu.Lock()
	defer c.protoMu.Unlock()
	key := protoClientKey{gv, stripManagedFields}
	if rc, ok := c.protoClients[key]; ok && share == nil {
		return rc, nil
	}
	cfg := rest.CopyConfig(c.config)
	cfg.GroupVersion = &gv
	cfg.APIPath = "/apis"
	if gv.Group == "" {
		cfg.APIPath = "/api"
	}
	cfg.ContentType = runtime.ContentTypeProtobuf
	cfg.AcceptContentTypes = runtime.ContentTypeProtobuf + "," + runtime.ContentTypeJSON
	cfg.NegotiatedSerializer = protodecode.NegotiatedSerializer(serializer.NewCodecFactory(Scheme).WithoutConversion(), Scheme,
		protodecode.Options{StripManagedFields: stripManagedFields, Share: share})
	rc, err := rest.RESTClientForConfigAndClient(cfg, c.httpClient)
	if err != nil {
		return nil, fmt.Errorf("kates: REST client for %s: %w", gv, err)
	}
	if share != nil {
		return rc, nil
	}
	if c.protoClients == nil {
		c.protoClients = map[protoClientKey]rest.Interface{}
	}
	c.protoClients[key] = rc
	return rc, nil
}

// protoClientKey names one of a Client's protobuf REST clients.
type protoClientKey struct {
	gv                 schema.GroupVersion
	stripManagedFields bool
}

// typedFor reports whether rq's objects can be watched typed: Scheme registers the kind and
// its list, and nothing asks for them unstructured (a Transform, which takes *Unstructured, or
// a store that holds another type). It returns a new object and a new list of the kind.
func typedFor(rq *resolvedQuery, opts WatchOptions, hold reflect.Type) (obj, list runtime.Object, ok bool) {
	if rq.MetadataOnly || opts.Transform != nil {
		return nil, nil, false
	}
	gvk := rq.mapping.GroupVersionKind
	t, known := Scheme.AllKnownTypes()[gvk]
	if !known || (hold != nil && hold != t) {
		return nil, nil, false
	}
	o, err := Scheme.New(gvk)
	if err != nil {
		return nil, nil, false
	}
	l, err := Scheme.New(gvk.GroupVersion().WithKind(gvk.Kind + "List"))
	if err != nil {
		return nil, nil, false
	}
	return o, l, true
}

// typedListWatch lists and watches rq's objects through rc, typed: list is a new list object of
// the kind, copied for each request. Lists are decoded as they stream in, by dec (see
// streamingListWatch).
//
// arrive, if not nil, is applied to each item as it is decoded (the store's Transformer, so
// that building its record overlaps the transfer too); it returns a runtime.Object. keep, if
// not nil, picks the list items worth decoding (see serverSelection.keep).
func typedListWatch(rc rest.Interface, dec *protodecode.ObjectDecoder, arrive cache.TransformFunc, keep func([]byte) bool, rq *resolvedQuery, list runtime.Object, prepare, watchTimeout func(*metav1.ListOptions)) *cache.ListWatch {
	namespaced := rq.Namespace != ""
	resource := rq.mapping.Resource.Resource
	gvk := rq.mapping.GroupVersionKind
	return &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
			prepare(&o)
			body, err := rc.Get().NamespaceIfScoped(rq.Namespace, namespaced).Resource(resource).
				VersionedParams(&o, metav1.ParameterCodec).Stream(ctx)
			if err != nil {
				return nil, err
			}
			defer body.Close()
			out := &metav1.List{}
			lm, err := dec.DecodeList(body, gvk, keep, func(obj runtime.Object) {
				if arrive != nil {
					if a, err := arrive(obj); err == nil {
						if ao, ok := a.(runtime.Object); ok {
							obj = ao
						}
					}
				}
				out.Items = append(out.Items, runtime.RawExtension{Object: obj})
			})
			if errors.Is(err, protodecode.ErrNotProtobufList) { // JSON, say: list as usual
				whole := list.DeepCopyObject()
				err := rc.Get().NamespaceIfScoped(rq.Namespace, namespaced).Resource(resource).
					VersionedParams(&o, metav1.ParameterCodec).Do(ctx).Into(whole)
				if err != nil {
					return nil, err
				}
				return whole, nil
			}
			if err != nil {
				return nil, err
			}
			out.ListMeta = lm
			return out, nil
		},
		WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			prepare(&o)
			watchTimeout(&o)
			o.Watch = true
			return rc.Get().NamespaceIfScoped(rq.Namespace, namespaced).Resource(resource).
				VersionedParams(&o, metav1.ParameterCodec).Watch(ctx)
		},
	}
}

// streamingListWatch is a typed query's ListWatch: it tells client-go's Reflector to list
// (one LIST, from the API server's watch cache) rather than to stream the initial objects as
// watch events (WatchList), and its list decodes the response's items as they arrive
// (protodecode's DecodeList). On the API server the LIST path hands over the same objects in
// about 0.7 times the time of WatchList's, which encodes and frames each object as an event;
// decoding as the list streams in keeps the client's work beside the transfer, as WatchList
// did.
type streamingListWatch struct{ *cache.ListWatch }

// IsWatchListSemanticsUnSupported makes the Reflector list instead of using WatchList
// (client-go's util/watchlist.DoesClientNotSupportWatchListSemantics).
func (streamingListWatch) IsWatchListSemanticsUnSupported() bool { return true }

// unstructuredListWatch lists and watches rq's whole objects as unstructured, for kinds Scheme
// does not know (custom resources) or callers that want them so: JSON, each list and watch frame
// decoded once, straight into the maps of unstructured (internal/ujson), where the dynamic
// client decodes every watch frame three times.
func unstructuredListWatch(rc rest.Interface, rq *resolvedQuery, prepare, watchTimeout func(*metav1.ListOptions)) *cache.ListWatch {
	gvr := rq.mapping.Resource
	segments := []string{"api"}
	if gvr.Group != "" {
		segments = []string{"apis", gvr.Group}
	}
	segments = append(segments, gvr.Version)
	if rq.Namespace != "" {
		segments = append(segments, "namespaces", rq.Namespace)
	}
	segments = append(segments, gvr.Resource)
	return &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
			prepare(&o)
			data, err := rc.Get().AbsPath(segments...).
				SpecificallyVersionedParams(&o, metav1.ParameterCodec, metav1.SchemeGroupVersion).DoRaw(ctx)
			if err != nil {
				return nil, err
			}
			return ujson.DecodeList(data)
		},
		WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			prepare(&o)
			watchTimeout(&o)
			o.Watch = true
			body, err := rc.Get().AbsPath(segments...).
				SpecificallyVersionedParams(&o, metav1.ParameterCodec, metav1.SchemeGroupVersion).Stream(ctx)
			if err != nil {
				return nil, err
			}
			return ujson.NewWatcher(body), nil
		},
	}
}
