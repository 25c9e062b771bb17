package testenv

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"k8s.io/client-go/util/cert"
	"k8s.io/client-go/util/keyutil"
)

// EnvKubeconfig names a kubeconfig of a running cluster. When it is set, Start returns a handle on
// that cluster instead of starting one, so one cluster can serve every package of `make test`.
const EnvKubeconfig = "KATES_TEST_KUBECONFIG"

// FakeNodeAnnotation marks the Nodes kwok manages. Pods scheduled to them become Running.
const FakeNodeAnnotation = "kwok.x-k8s.io/node"

// ErrShared is returned by the fault controls of a cluster this process did not start (one named
// by KATES_TEST_KUBECONFIG): stopping a shared API server would break every other test using it.
// Tests that inject faults set Options.Private.
var ErrShared = errors.New("testenv: fault controls need a private cluster (Options.Private)")

// Options configures Start. The zero value starts a cluster with two fake nodes.
type Options struct {
	// Nodes is how many fake Nodes kwok runs. Default 2; set NoNodes for none.
	Nodes int
	// NoNodes starts the cluster without Nodes (Nodes is ignored).
	NoNodes bool
	// NodeCPU, NodeMemory and NodePods are each fake Node's capacity.
	// Defaults: "32", "256Gi", "110".
	NodeCPU, NodeMemory, NodePods string
	// Private starts a cluster of this process's own even when KATES_TEST_KUBECONFIG is set.
	// Fault tests (stopping the API server, compacting etcd) need one.
	Private bool
	// Dir is where data, certificates, kubeconfigs and logs go. Default: a new temporary
	// directory, removed by Stop. A Dir given here is kept.
	Dir string
	// Log receives progress lines (building binaries, starting components). Default: discarded.
	Log io.Writer
	// StartTimeout bounds Start once the binaries are built. Default 2 minutes.
	StartTimeout time.Duration
	// FeatureGates turns the API server's feature gates on or off, over the defaults
	// (ShardedListAndWatch on): {"ShardedListAndWatch": false} starts a server that ignores
	// shard selectors, as one without the gate does. A cluster reused through
	// KATES_TEST_KUBECONFIG keeps its own gates: set Private too. Default: none.
	FeatureGates map[string]bool
	// DisabledControllers are kube-controller-manager controllers not to run, by name
	// ("deployment-controller", "replicaset-controller"). A benchmark holding tens of
	// thousands of Deployments that never run Pods leaves these out: on a 2-core machine the
	// controller-manager takes over an hour to sync 50,000 new Deployments, and their status
	// writes keep every watcher busy the whole time. Default: none.
	DisabledControllers []string
}

func (o *Options) defaults() {
	if o.Nodes == 0 {
		o.Nodes = 2
	}
	if o.NoNodes {
		o.Nodes = 0
	}
	if o.NodeCPU == "" {
		o.NodeCPU = "32"
	}
	if o.NodeMemory == "" {
		o.NodeMemory = "256Gi"
	}
	if o.NodePods == "" {
		o.NodePods = "110"
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	if o.StartTimeout == 0 {
		o.StartTimeout = 2 * time.Minute
	}
}

// Cluster is a running local cluster: etcd, kube-apiserver, kube-controller-manager,
// kube-scheduler and kwok, all on loopback. Its methods are safe for concurrent use.
type Cluster struct {
	opts     Options
	bins     *Binaries
	dir      string
	ownsDir  bool
	external bool

	kubeconfigPath string
	restConfig     *rest.Config
	adminToken     string
	caData         []byte
	etcdPort       int
	apiPort        int

	mu          sync.Mutex
	etcd        *process
	apiserver   *process
	controllers []*process // controller-manager, scheduler, kwok
	// kwokArgs are kwok's binary and arguments, to start it again (see restartCrashedKwok).
	kwokBin     string
	kwokArgs    []string
	secondaries []*process // extra API servers on the same etcd
	stopped     bool
}

// Start starts a cluster and returns once the API server answers, the controllers run and every
// fake Node is Ready. When KATES_TEST_KUBECONFIG is set (and Options.Private is not), it returns
// a handle on that cluster instead; its Stop does nothing.
//
// The first Start on a machine builds the binaries (see EnsureBinaries); later ones reuse them.
// If Start fails, everything it started is stopped again.
func Start(ctx context.Context, opts Options) (*Cluster, error) {
	opts.defaults()
	if path := os.Getenv(EnvKubeconfig); path != "" && !opts.Private {
		return attach(path)
	}
	bins, err := EnsureBinaries(ctx, opts.Log)
	if err != nil {
		return nil, err
	}
	c := &Cluster{opts: opts, bins: bins, dir: opts.Dir}
	if c.dir == "" {
		if c.dir, err = os.MkdirTemp("", "kates-testenv-"); err != nil {
			return nil, err
		}
		c.ownsDir = true
	} else if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, opts.StartTimeout)
	defer cancel()
	if err := c.start(ctx); err != nil {
		_ = c.Stop()
		return nil, err
	}
	return c, nil
}

// attach returns a handle on an already running cluster.
func attach(kubeconfig string) (*Cluster, error) {
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return nil, fmt.Errorf("testenv: %s=%s: %w", EnvKubeconfig, kubeconfig, err)
	}
	return &Cluster{external: true, kubeconfigPath: kubeconfig, restConfig: cfg}, nil
}

func (c *Cluster) start(ctx context.Context) error {
	begin := time.Now()
	if err := c.writeSecrets(); err != nil {
		return err
	}
	ports, err := freePorts(3)
	if err != nil {
		return err
	}
	c.etcdPort, c.apiPort = ports[0], ports[2]

	logf := func(format string, args ...any) {
		fmt.Fprintf(c.opts.Log, "testenv: "+format+" (%s)\n", append(args, time.Since(begin).Round(time.Millisecond))...)
	}
	etcdURL := "http://127.0.0.1:" + strconv.Itoa(c.etcdPort)
	c.etcd, err = startProcess("etcd", c.bins.Etcd, []string{
		"--name=testenv",
		"--data-dir=" + filepath.Join(c.dir, "etcd"),
		"--listen-client-urls=" + etcdURL,
		"--advertise-client-urls=" + etcdURL,
		"--listen-peer-urls=http://127.0.0.1:" + strconv.Itoa(ports[1]),
		"--initial-advertise-peer-urls=http://127.0.0.1:" + strconv.Itoa(ports[1]),
		"--initial-cluster=testenv=http://127.0.0.1:" + strconv.Itoa(ports[1]),
		"--unsafe-no-fsync",                // tests don't need durability across power loss
		"--quota-backend-bytes=8589934592", // room for large list tests
		"--log-level=warn",
	}, c.dir)
	if err != nil {
		return err
	}
	if err := waitFor(ctx, c.etcd, func() bool { return httpOK(etcdURL + "/health") }); err != nil {
		return fmt.Errorf("testenv: etcd not healthy: %w", err)
	}
	logf("etcd ready on %s", etcdURL)

	if c.apiserver, err = c.startAPIServer(ctx, "kube-apiserver", c.apiPort); err != nil {
		return err
	}
	logf("kube-apiserver ready on https://127.0.0.1:%d", c.apiPort)

	c.restConfig = c.adminConfig(c.apiPort)
	c.kubeconfigPath = filepath.Join(c.dir, "kubeconfig")
	if err := writeKubeconfig(c.kubeconfigPath, c.restConfig, ""); err != nil {
		return err
	}
	if err := c.startControllers(); err != nil {
		return err
	}
	cs, err := kubernetes.NewForConfig(c.restConfig)
	if err != nil {
		return err
	}
	if err := c.createNodes(ctx, cs); err != nil {
		return err
	}
	if err := c.waitReady(ctx, cs); err != nil {
		return err
	}
	logf("cluster ready with %d fake nodes", c.opts.Nodes)
	return nil
}

// writeSecrets writes the serving certificate, the service-account key and the token file.
func (c *Cluster) writeSecrets() error {
	certPEM, keyPEM, err := cert.GenerateSelfSignedCertKey("127.0.0.1", []net.IP{net.ParseIP("127.0.0.1")}, []string{"localhost"})
	if err != nil {
		return fmt.Errorf("testenv: serving certificate: %w", err)
	}
	// The generated bundle holds the serving certificate and the CA that signed it, so it serves
	// as the kubeconfig's CA data too.
	c.caData = certPEM
	saKey, err := keyutil.MakeEllipticPrivateKeyPEM()
	if err != nil {
		return err
	}
	tok := make([]byte, 16)
	if _, err := rand.Read(tok); err != nil {
		return err
	}
	c.adminToken = hex.EncodeToString(tok)
	files := map[string][]byte{
		"serving.crt": certPEM,
		"serving.key": keyPEM,
		"sa.key":      saKey,
		"tokens.csv":  []byte(c.adminToken + ",admin,admin,system:masters\n"),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(c.dir, name), data, 0o600); err != nil {
			return err
		}
	}
	return nil
}

func (c *Cluster) apiServerArgs(port int) []string {
	return []string{
		"--etcd-servers=http://127.0.0.1:" + strconv.Itoa(c.etcdPort),
		"--secure-port=" + strconv.Itoa(port),
		"--bind-address=127.0.0.1",
		"--tls-cert-file=" + filepath.Join(c.dir, "serving.crt"),
		"--tls-private-key-file=" + filepath.Join(c.dir, "serving.key"),
		"--cert-dir=" + filepath.Join(c.dir, "apiserver-certs-"+strconv.Itoa(port)),
		"--service-account-issuer=https://kubernetes.default.svc",
		"--service-account-key-file=" + filepath.Join(c.dir, "sa.key"),
		"--service-account-signing-key-file=" + filepath.Join(c.dir, "sa.key"),
		"--token-auth-file=" + filepath.Join(c.dir, "tokens.csv"),
		"--authorization-mode=RBAC",
		// A /16, not DESIGN.md's /24: 254 Service addresses ran out (the API server answers
		// "range is full") when many test runs shared one cluster, their namespaces still
		// terminating.
		"--service-cluster-ip-range=10.0.0.0/16",
		"--disable-admission-plugins=ServiceAccount",
		// Tests stop API servers often; nobody needs the graceful drain.
		"--shutdown-delay-duration=0s",
		"--shutdown-watch-termination-grace-period=0s",
		c.featureGatesArg(),
		"--v=0",
	}
}

// featureGatesArg is the API server's --feature-gates: Options.FeatureGates over the defaults.
func (c *Cluster) featureGatesArg() string {
	gates := map[string]bool{
		// Server-side sharded LIST and WATCH (KEP-5866, alpha in 1.37): kates' sharded
		// views send shard selectors, and tests compare against a server that honours them.
		"ShardedListAndWatch": true,
	}
	maps.Copy(gates, c.opts.FeatureGates)
	parts := make([]string, 0, len(gates))
	for _, name := range slices.Sorted(maps.Keys(gates)) {
		parts = append(parts, name+"="+strconv.FormatBool(gates[name]))
	}
	return "--feature-gates=" + strings.Join(parts, ",")
}

// startAPIServer starts a kube-apiserver on port and waits until /readyz answers.
func (c *Cluster) startAPIServer(ctx context.Context, name string, port int) (*process, error) {
	p, err := startProcess(name, c.bins.KubeAPIServer, c.apiServerArgs(port), c.dir)
	if err != nil {
		return nil, err
	}
	cs, err := kubernetes.NewForConfig(c.adminConfig(port))
	if err != nil {
		p.stop(time.Second)
		return nil, err
	}
	ready := func() bool {
		rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		body, err := cs.Discovery().RESTClient().Get().AbsPath("/readyz").DoRaw(rctx)
		return err == nil && string(body) == "ok"
	}
	if err := waitFor(ctx, p, ready); err != nil {
		p.stop(time.Second)
		return nil, fmt.Errorf("testenv: %s not ready: %w", name, err)
	}
	return p, nil
}

// containerLog is what every fake container logs, in the CRI log format kwok serves it from.
var containerLog = []string{
	"2026-01-01T00:00:00.000000001Z stdout F kates testenv: container started",
	"2026-01-01T00:00:01.000000002Z stdout F kates testenv: serving",
	"2026-01-01T00:00:02.000000003Z stderr F kates testenv: a warning",
}

// ContainerLogLines is the text of the log lines every fake container has, in order.
var ContainerLogLines = []string{"kates testenv: container started", "kates testenv: serving", "kates testenv: a warning"}

// containerLogPath is the file kwok serves as every container's log.
func (c *Cluster) containerLogPath() string { return filepath.Join(c.dir, "container.log") }

// WriteContainerLog appends line to the log every fake container serves, as if a container
// wrote it at t: a stream that follows any container's log (PodLogOptions.Follow) receives it,
// and every later read includes it. It changes every container's log, so it needs a cluster of
// the test's own (Options.Private), and a test that reads logs exactly should not share it.
func (c *Cluster) WriteContainerLog(t time.Time, line string) error {
	if c.external {
		return errors.New("testenv: WriteContainerLog needs a cluster of this process's own")
	}
	if strings.ContainsAny(line, "\r\n") {
		return fmt.Errorf("testenv: WriteContainerLog: %q is more than one line", line)
	}
	f, err := os.OpenFile(c.containerLogPath(), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return fmt.Errorf("testenv: %w", err)
	}
	// The CRI log format: time, stream, F for a full line, the text.
	_, werr := fmt.Fprintf(f, "%s stdout F %s\n", t.UTC().Format(time.RFC3339Nano), line)
	if err := f.Close(); werr == nil {
		werr = err
	}
	return werr
}

// writeKwokConfig writes kwok's configuration: the stages (kwok's, and testenv's for
// SimulateLabel), and a ClusterLogs rule that serves
// containerLog as every container's log through kwok's kubelet API.
func (c *Cluster) writeKwokConfig() (string, error) {
	stages, err := os.ReadFile(c.bins.KwokStages)
	if err != nil {
		return "", err
	}
	if stages, err = withSimulatedFailures(stages); err != nil {
		return "", err
	}
	logPath := c.containerLogPath()
	if err := os.WriteFile(logPath, []byte(strings.Join(containerLog, "\n")+"\n"), 0o644); err != nil {
		return "", err
	}
	logs := fmt.Sprintf("---\nkind: ClusterLogs\napiVersion: kwok.x-k8s.io/v1alpha1\nmetadata:\n  name: testenv-logs\nspec:\n  logs:\n  - logsFile: %s\n    follow: false\n", logPath)
	path := filepath.Join(c.dir, "kwok.yaml")
	return path, os.WriteFile(path, append(stages, []byte(logs)...), 0o644)
}

func (c *Cluster) startControllers() error {
	k := c.kubeconfigPath
	kwokConfig, err := c.writeKwokConfig()
	if err != nil {
		return err
	}
	ports, err := freePorts(1)
	if err != nil {
		return err
	}
	kubeletPort := strconv.Itoa(ports[0])
	specs := []struct {
		name, bin string
		args      []string
	}{
		{"kube-controller-manager", c.bins.KubeControllerManager, []string{
			"--kubeconfig=" + k, "--authentication-kubeconfig=" + k, "--authorization-kubeconfig=" + k,
			"--leader-elect=false", "--controllers=" + c.controllersFlag(), "--secure-port=0",
			"--service-account-private-key-file=" + filepath.Join(c.dir, "sa.key"),
			"--use-service-account-credentials=false",
			// Kwok's pods exit at once; the defaults would keep terminated pods for a long time.
			"--terminated-pod-gc-threshold=500",
			// The default client rate (20 requests/s, bursts of 30) is sized for shared
			// production API servers; here it made rolling out 60 Deployments at once take
			// 16-21 s, all of it queued in the controller-manager's own rate limiter.
			"--kube-api-qps=200", "--kube-api-burst=400",
		}},
		{"kube-scheduler", c.bins.KubeScheduler, []string{
			"--kubeconfig=" + k, "--authentication-kubeconfig=" + k, "--authorization-kubeconfig=" + k,
			"--leader-elect=false", "--secure-port=0",
		}},
		{"kwok", c.bins.Kwok, []string{
			"--kubeconfig=" + k, "--config=" + kwokConfig,
			"--manage-all-nodes=false",
			"--manage-nodes-with-annotation-selector=" + FakeNodeAnnotation + "=fake",
			"--cidr=10.0.0.1/24",
			// kwok plays every Node's kubelet on this address, so the API server's pod log
			// requests reach it.
			"--node-ip=127.0.0.1", "--node-port=" + kubeletPort,
			"--server-address=127.0.0.1:" + kubeletPort,
			"--tls-cert-file=" + filepath.Join(c.dir, "serving.crt"),
			"--tls-private-key-file=" + filepath.Join(c.dir, "serving.key"),
		}},
	}
	c.kwokBin, c.kwokArgs = specs[2].bin, specs[2].args
	for _, s := range specs {
		p, err := startProcess(s.name, s.bin, s.args, c.dir)
		if err != nil {
			return err
		}
		c.mu.Lock()
		c.controllers = append(c.controllers, p)
		c.mu.Unlock()
	}
	return nil
}

// createNodes creates the fake Nodes kwok will make Ready.
func (c *Cluster) createNodes(ctx context.Context, cs kubernetes.Interface) error {
	capacity := corev1.ResourceList{
		corev1.ResourceCPU:    resource.MustParse(c.opts.NodeCPU),
		corev1.ResourceMemory: resource.MustParse(c.opts.NodeMemory),
		corev1.ResourcePods:   resource.MustParse(c.opts.NodePods),
	}
	for i := 0; i < c.opts.Nodes; i++ {
		name := fmt.Sprintf("kwok-node-%d", i)
		node := &corev1.Node{
			ObjectMeta: metav1.ObjectMeta{
				Name:        name,
				Annotations: map[string]string{FakeNodeAnnotation: "fake", "node.alpha.kubernetes.io/ttl": "0"},
				Labels: map[string]string{
					"type": "kwok", "kubernetes.io/hostname": name, "kubernetes.io/os": "linux",
					"kubernetes.io/arch": "amd64", "kubernetes.io/role": "agent",
				},
			},
			Status: corev1.NodeStatus{Capacity: capacity, Allocatable: capacity},
		}
		if _, err := cs.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
			return fmt.Errorf("testenv: create node %s: %w", name, err)
		}
	}
	return nil
}

// controllersFlag is the controller-manager's --controllers: all but the ServiceAccount
// token controller (the API server mints tokens) and Options.DisabledControllers.
func (c *Cluster) controllersFlag() string {
	flag := "*,-serviceaccount-token"
	for _, name := range c.opts.DisabledControllers {
		flag += ",-" + name
	}
	return flag
}

// waitReady waits until every fake Node is Ready and the controller-manager has acted (the
// default ServiceAccount exists), so a test's first Deployment rolls out without a cold start.
func (c *Cluster) waitReady(ctx context.Context, cs kubernetes.Interface) error {
	ready := func() bool {
		nodes, err := cs.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
		if err != nil {
			return false
		}
		n := 0
		for _, node := range nodes.Items {
			for _, cond := range node.Status.Conditions {
				if cond.Type == corev1.NodeReady && cond.Status == corev1.ConditionTrue {
					n++
				}
			}
		}
		if n < c.opts.Nodes {
			return false
		}
		_, err = cs.CoreV1().ServiceAccounts("default").Get(ctx, "default", metav1.GetOptions{})
		return err == nil
	}
	for attempt := 1; ; attempt++ {
		err := c.waitForAll(ctx, ready)
		if err == nil {
			return nil
		}
		if attempt < kwokStarts && ctx.Err() == nil && c.restartCrashedKwok() {
			continue
		}
		return fmt.Errorf("testenv: nodes or controllers not ready: %w", err)
	}
}

// kwokStarts bounds how often waitReady starts kwok. kwok 0.8.0 sometimes dies as it starts,
// "fatal error: concurrent map writes" in easycel's type registry (a global map its CEL
// environments fill from several goroutines): seen once among this machine's several dozen
// cluster starts of 2026-11-23, under load. A second start gets past it; a kwok that fails
// every time is reported.
const kwokStarts = 3

// restartCrashedKwok starts kwok again, its log appended to the same file, if it exited
// without being asked to; it reports whether it did.
func (c *Cluster) restartCrashedKwok() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, p := range c.controllers {
		if p.name != "kwok" || p.exited() == nil {
			continue
		}
		np, err := startProcess(p.name, c.kwokBin, c.kwokArgs, c.dir)
		if err != nil {
			return false
		}
		c.controllers[i] = np
		return true
	}
	return false
}

// waitForAll is waitFor watching every child for an early exit.
func (c *Cluster) waitForAll(ctx context.Context, cond func() bool) error {
	return poll(ctx, 100*time.Millisecond, c.Err, cond)
}

// waitFor polls cond until it holds, p exits, or ctx ends; a timeout carries p's log tail.
func waitFor(ctx context.Context, p *process, cond func() bool) error {
	err := poll(ctx, 50*time.Millisecond, p.exited, cond)
	if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return fmt.Errorf("%w; last lines of %s:\n%s", err, p.logPath, logTail(p.logPath))
	}
	return err
}

// poll checks cond every interval until it holds, failed reports an error, or ctx ends.
func poll(ctx context.Context, interval time.Duration, failed func() error, cond func() bool) error {
	for {
		if err := failed(); err != nil {
			return err
		}
		if cond() {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(interval):
		}
	}
}

func logTail(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return "(no log)"
	}
	return tail(string(data), 25)
}

// Err reports the first child that exited without being asked to, with the tail of its log, or
// nil while all run.
func (c *Cluster) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range c.children() {
		if err := p.exited(); err != nil {
			return err
		}
	}
	return nil
}

// children lists the running children, controllers first; c.mu must be held.
func (c *Cluster) children() []*process {
	var all []*process
	all = append(all, c.controllers...)
	all = append(all, c.secondaries...)
	for _, p := range []*process{c.apiserver, c.etcd} {
		if p != nil {
			all = append(all, p)
		}
	}
	return all
}

// Stop ends every child, controllers first and etcd last (an API server whose etcd is gone does
// not exit on SIGTERM), and removes the temporary directory. It is safe to call more than once.
// On a cluster named by KATES_TEST_KUBECONFIG it does nothing.
func (c *Cluster) Stop() error {
	if c == nil || c.external {
		return nil
	}
	c.mu.Lock()
	if c.stopped {
		c.mu.Unlock()
		return nil
	}
	c.stopped = true
	procs := c.children()
	c.mu.Unlock()
	for _, p := range procs {
		p.stop(5 * time.Second)
	}
	if c.ownsDir {
		return os.RemoveAll(c.dir)
	}
	return nil
}

// KubeconfigPath is a kubeconfig file with an admin identity (group system:masters).
func (c *Cluster) KubeconfigPath() string { return c.kubeconfigPath }

// RESTConfig returns a new rest.Config with an admin identity; callers may modify it.
func (c *Cluster) RESTConfig() *rest.Config { return rest.CopyConfig(c.restConfig) }

// RESTConfigAs returns a rest.Config that acts as user, a member of groups (plus
// system:authenticated), through impersonation. Such a user can do nothing until RBAC grants it
// something, which is what tests of Forbidden need.
func (c *Cluster) RESTConfigAs(user string, groups ...string) *rest.Config {
	cfg := c.RESTConfig()
	cfg.Impersonate = rest.ImpersonationConfig{UserName: user, Groups: append(groups, "system:authenticated")}
	return cfg
}

// KubeconfigAs writes a kubeconfig for the identity RESTConfigAs describes and returns its path.
func (c *Cluster) KubeconfigAs(user string, groups ...string) (string, error) {
	dir := c.dir
	if c.external {
		dir = os.TempDir()
	}
	path := filepath.Join(dir, "kubeconfig-"+user)
	return path, writeKubeconfig(path, c.RESTConfigAs(user, groups...), "")
}

// Dir is the cluster's data directory (logs are there as NAME.log); "" for an attached cluster.
func (c *Cluster) Dir() string { return c.dir }

func (c *Cluster) adminConfig(port int) *rest.Config {
	return &rest.Config{
		Host:            "https://127.0.0.1:" + strconv.Itoa(port),
		BearerToken:     c.adminToken,
		TLSClientConfig: rest.TLSClientConfig{CAData: c.caData},
		QPS:             -1, // tests create thousands of objects: no client-side throttling
	}
}

// writeKubeconfig writes cfg (token or impersonation, CA data) as a kubeconfig file.
func writeKubeconfig(path string, cfg *rest.Config, namespace string) error {
	kc := clientcmdapi.NewConfig()
	kc.Clusters["testenv"] = &clientcmdapi.Cluster{
		Server:                   cfg.Host,
		CertificateAuthorityData: cfg.CAData,
		InsecureSkipTLSVerify:    cfg.Insecure,
	}
	user := &clientcmdapi.AuthInfo{
		Token:                 cfg.BearerToken,
		ClientCertificateData: cfg.CertData,
		ClientKeyData:         cfg.KeyData,
		Impersonate:           cfg.Impersonate.UserName,
		ImpersonateGroups:     cfg.Impersonate.Groups,
	}
	if cfg.BearerTokenFile != "" {
		user.TokenFile = cfg.BearerTokenFile
	}
	kc.AuthInfos["testenv"] = user
	kc.Contexts["testenv"] = &clientcmdapi.Context{Cluster: "testenv", AuthInfo: "testenv", Namespace: namespace}
	kc.CurrentContext = "testenv"
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return clientcmd.WriteToFile(*kc, path)
}

// freePorts asks the kernel for n distinct free loopback ports. They are released before the
// children bind them, so another process could take one meanwhile; on loopback in a test sandbox
// that does not happen in practice, and a clash shows as a child's early exit with its log.
func freePorts(n int) ([]int, error) {
	var ports []int
	var listeners []net.Listener
	defer func() {
		for _, l := range listeners {
			l.Close()
		}
	}()
	for i := 0; i < n; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("testenv: free port: %w", err)
		}
		listeners = append(listeners, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

func httpOK(url string) bool {
	client := http.Client{Timeout: time.Second}
	resp, err := client.Get(url)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode == http.StatusOK
}
