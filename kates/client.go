package kates

import (
	"fmt"
	"net/http"
	"os"
	"sync"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/tools/clientcmd"
)

// ClientConfig says which cluster a Client talks to. The zero value behaves like kubectl: the
// kubeconfig named by $KUBECONFIG or ~/.kube/config, its current context and namespace, or the
// in-cluster configuration when the program runs in a Pod.
type ClientConfig struct {
	// Kubeconfig is the kubeconfig file's path. Default: $KUBECONFIG, then ~/.kube/config.
	Kubeconfig string
	// Context is the kubeconfig context to use. Default: its current context.
	Context string
	// Namespace is the namespace for namespaced objects that name none. Default: the context's
	// namespace, then the Pod's namespace in a cluster, then "default".
	Namespace string
}

// Client reads and writes Kubernetes objects of any kind, typed or unstructured, and builds
// accumulators (Watch) that see its own writes at once. A Client is safe for concurrent use.
//
// Kinds are named as kubectl names them ("deploy", "deployments.apps", "Deployment",
// "deployments.v1.apps", a CRD's short name); see Client.Mapping.
type Client struct {
	config    *rest.Config
	namespace string
	inCluster bool

	httpClient *http.Client
	dynamic    dynamic.Interface
	rest       rest.Interface // unstructured REST client, for calls whose response dynamic hides
	metadata   metadata.Interface
	discovery  discovery.CachedDiscoveryInterface
	mapper     *restmapper.DeferredDiscoveryRESTMapper
	// mappings caches MappingFor's answers by GroupVersionKind until InvalidateCache: asking
	// mapper again costs ~90 allocations a call (its priority mapper builds a NoMatch error for
	// every group it passes over), and every write asks.
	mappings sync.Map // schema.GroupVersionKind → *meta.RESTMapping
	// expander resolves short names ("deploy", a CRD's) through mapper.
	expander meta.RESTMapper

	// reach follows whether the API server answers, to cut retries' backoff short when it
	// comes back from an outage (see reach.go).
	reach *serverReach

	// writes records the client's writes for the accumulators built from it (coherence).
	writes *writeLog

	// facts are what custom resources' CRDs say about their status, for kstatus.
	facts kindFacts

	// protoClients holds the protobuf REST clients of typed watches, one per group version and
	// managedFields choice; see typedRESTClient.
	protoMu      sync.Mutex
	protoClients map[protoClientKey]rest.Interface

	// observer is set by SetObserver; nil until then.
	observer atomic.Pointer[Observer]

	// shardSelectorsIgnored is set when an API server answered a shard selector without
	// applying it; shardWarning warns of it once (see checkShardGate).
	shardSelectorsIgnored atomic.Bool
	shardWarning          sync.Once
}

// NewClient returns a Client for the cluster config names, loaded as kubectl loads it
// ($KUBECONFIG, ~/.kube/config, or in-cluster).
func NewClient(config ClientConfig) (*Client, error) {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = config.Kubeconfig
	overrides := &clientcmd.ConfigOverrides{CurrentContext: config.Context}
	overrides.Context.Namespace = config.Namespace
	return NewClientFromClientConfig(clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, overrides))
}

// NewClientFromClientConfig returns a Client for a kubeconfig loader, so a command line tool
// can bind --kubeconfig, --context, -n and the rest with cli-runtime and hand over
// flags.ToRawKubeConfigLoader() (kates itself does not link cli-runtime).
func NewClientFromClientConfig(cc clientcmd.ClientConfig) (*Client, error) {
	cfg, err := cc.ClientConfig()
	if err != nil {
		return nil, fmt.Errorf("kates: load kubeconfig: %w", err)
	}
	ns, _, err := cc.Namespace()
	if err != nil {
		return nil, fmt.Errorf("kates: namespace: %w", err)
	}
	return NewClientFromRESTConfig(cfg, ns)
}

// NewClientFromRESTConfig returns a Client for a rest.Config, with namespace as the default for
// namespaced objects that name none ("" means "default").
func NewClientFromRESTConfig(cfg *rest.Config, namespace string) (*Client, error) {
	cfg = rest.CopyConfig(cfg)
	if cfg.UserAgent == "" {
		cfg.UserAgent = "kates"
	}
	// Client-side throttling exists to protect shared API servers from runaway loops; kates'
	// own traffic is bounded (one watch per kind, writes the caller asks for), and the defaults
	// (5 QPS) would make a wait on a batch of objects crawl.
	if cfg.QPS == 0 {
		cfg.QPS = 100
		cfg.Burst = 200
	}
	if namespace == "" {
		namespace = "default"
	}
	// Writes sent on behalf of an elected run are checked against its term's fence just
	// before they leave (see Fence); every other request passes straight through.
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return &fencedTransport{next: rt, fence: contextFence}
	})
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper { return &warningTransport{next: rt} })
	// Every request's outcome tells whether the API server answers, so that retries go again
	// as soon as it is back from an outage (see reach.go).
	reach := newServerReach()
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper { return &reachTransport{next: rt, reach: reach} })
	httpClient, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return nil, fmt.Errorf("kates: %w", err)
	}
	dyn, err := dynamic.NewForConfigAndClient(cfg, httpClient)
	if err != nil {
		return nil, fmt.Errorf("kates: %w", err)
	}
	rc, err := rest.UnversionedRESTClientForConfigAndClient(dynamic.ConfigFor(cfg), httpClient)
	if err != nil {
		return nil, fmt.Errorf("kates: %w", err)
	}
	disc, err := discovery.NewDiscoveryClientForConfigAndClient(cfg, httpClient)
	if err != nil {
		return nil, fmt.Errorf("kates: %w", err)
	}
	meta, err := metadata.NewForConfigAndClient(cfg, httpClient)
	if err != nil {
		return nil, fmt.Errorf("kates: %w", err)
	}
	disco := memory.NewMemCacheClient(disc)
	c := &Client{
		config:     cfg,
		namespace:  namespace,
		inCluster:  inCluster(),
		httpClient: httpClient,
		dynamic:    dyn,
		rest:       rc,
		metadata:   meta,
		discovery:  disco,
		writes:     newWriteLog(),
		reach:      reach,
	}
	reach.probe = c.probeReadyz
	c.mapper = restmapper.NewDeferredDiscoveryRESTMapper(disco)
	c.expander = restmapper.NewShortcutExpander(c.mapper, disco, func(string) {})
	return c, nil
}

// inCluster reports whether this process runs in a Pod with a service account token, which is
// what client-go's in-cluster configuration needs.
func inCluster() bool {
	if os.Getenv("KUBERNETES_SERVICE_HOST") == "" {
		return false
	}
	_, err := os.Stat("/var/run/secrets/kubernetes.io/serviceaccount/token")
	return err == nil
}

// InCluster reports whether the client runs inside a Pod of the cluster.
func (c *Client) InCluster() bool { return c.inCluster }

// Namespace is the namespace used for namespaced objects that name none.
func (c *Client) Namespace() string { return c.namespace }

// RESTConfig returns a copy of the client's rest.Config.
func (c *Client) RESTConfig() *rest.Config { return rest.CopyConfig(c.config) }

// DynamicInterface returns the client-go dynamic client the Client uses. Writes made through it
// directly are not recorded for coherence.
func (c *Client) DynamicInterface() dynamic.Interface { return c.dynamic }

// HTTPClient returns the http.Client the Client sends its requests with. Clients of client-go
// built from RESTConfig and it share the Client's connections:
//
//	cs, err := kubernetes.NewForConfigAndClient(client.RESTConfig(), client.HTTPClient())
//
// Writes made through them are not recorded for coherence. (kates has no typed clientset of
// its own: that would link every API group's typed client into every program.)
func (c *Client) HTTPClient() *http.Client { return c.httpClient }
