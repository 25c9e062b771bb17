package controllers_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
)

// Settings, from the environment.
func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

func sizes() []int {
	s := os.Getenv("BENCH_CONTROLLERS_SIZES")
	if s == "" {
		return []int{10_000, 50_000}
	}
	var out []int
	for _, f := range strings.Fields(s) {
		if n, err := strconv.Atoi(f); err == nil && n > 0 {
			out = append(out, n)
		}
	}
	return out
}

// TestControllers runs the benchmark (BENCH_CONTROLLERS=1): for each size, a setup run (the
// kates peer, creating what is missing), then BENCH_CONTROLLERS_ROUNDS rounds of both peers,
// the order alternating, each in a child process, measuring on each the four measures of the
// package documentation. Results go to BENCH_CONTROLLERS_OUT (and the test log).
func TestControllers(t *testing.T) {
	if os.Getenv("BENCH_CONTROLLERS") != "1" {
		t.Skip("BENCH_CONTROLLERS=1 runs the controllers benchmark")
	}
	cfg := restConfig(t)
	ctx := context.Background()
	var out io.Writer = io.Discard
	if path := os.Getenv("BENCH_CONTROLLERS_OUT"); path != "" {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		out = f
	}
	rounds := envInt("BENCH_CONTROLLERS_ROUNDS", 3)
	set := settings{
		changes: envInt("BENCH_CONTROLLERS_CHANGES", 20),
		rate:    envInt("BENCH_CONTROLLERS_RATE", 100),
		churn:   time.Duration(envInt("BENCH_CONTROLLERS_CHURN_SECONDS", 30)) * time.Second,
		burst:   envInt("BENCH_CONTROLLERS_BURST", 1000),
		workers: envInt("BENCH_CONTROLLERS_WORKERS", defaultWorkers),
	}
	emit := func(format string, args ...any) {
		line := fmt.Sprintf(format, args...)
		t.Log(line)
		fmt.Fprintln(out, line)
	}
	emit("# controllers (bench/controllers, issue 34): the WebApp controller on kates' controller package and on controller-runtime's manager and builder, %d workers each", set.workers)
	emit("# latency: a WebApp's spec patched to its Deployment showing the new image (median of %d changes, one at a time)", set.changes)
	emit("# churn: %d changes/s for %s; cpu-ms-per-change: the peer process's user+system CPU over the window and its drain, per change", set.rate, set.churn)
	emit("# burst: %d WebApps patched at once, to every Deployment showing its new image", set.burst)
	emit("# heap: live heap after GC with the view or cache complete and settled, less the same after creating the client or manager")
	for _, n := range sizes() {
		begin := time.Now()
		if err := ensureFixtures(ctx, cfg, n); err != nil {
			t.Fatal(err)
		}
		b, err := newBench(ctx, cfg, n, set)
		if err != nil {
			t.Fatal(err)
		}
		emit("controllers-objects: size=%d fixtures-seconds=%.1f", n, time.Since(begin).Seconds())
		// Setup: the first run creates the Deployments and Services, or finds them.
		setupBegin := time.Now()
		if _, err := b.run(ctx, peerKates, "setup", false); err != nil {
			t.Fatalf("setup at %d: %v", n, err)
		}
		emit("controllers-setup: size=%d seconds=%.1f", n, time.Since(setupBegin).Seconds())
		for r := 1; r <= rounds; r++ {
			peers := []string{peerKates, peerRuntime}
			if r%2 == 0 {
				peers = []string{peerRuntime, peerKates}
			}
			for i, p := range peers {
				m, err := b.run(ctx, p, fmt.Sprintf("r%d", r), true)
				if err != nil {
					t.Fatalf("size %d round %d peer %s: %v", n, r, p, err)
				}
				emit("controllers-run: size=%d round=%d peer=%s order=%d %s", n, r, p, i+1, m)
			}
		}
		b.stop()
	}
}

func restConfig(tb testing.TB) *rest.Config {
	path := os.Getenv("KATES_TEST_KUBECONFIG")
	if path == "" {
		tb.Skip("KATES_TEST_KUBECONFIG is not set")
	}
	cfg, err := configFrom(path)
	if err != nil {
		tb.Fatal(err)
	}
	return cfg
}

type settings struct {
	changes, rate, burst, workers int
	churn                         time.Duration
}

// bench drives one size's fixtures: it patches WebApps and watches their Deployments' images
// (an informer keeping only each Deployment's image).
type bench struct {
	n            int
	ns           string
	set          settings
	dyn          dynamic.Interface
	stopInformer context.CancelFunc

	mu      sync.Mutex
	images  map[string]string // Deployment name → its image, as watched
	want    map[string]string // WebApp name → the image its spec asks for, as patched
	waiters map[string]waiter
	busy    map[string]bool // WebApps being patched: never two patches of one at once, or
	// the server might apply them in another order than want records
	seq atomic.Int64
}

type waiter struct {
	image string
	ch    chan struct{}
}

func newBench(ctx context.Context, cfg *rest.Config, n int, set settings) (*bench, error) {
	cfg = writerConfig(cfg)
	b := &bench{n: n, ns: namespaceFor(n), set: set, images: map[string]string{}, want: map[string]string{}, waiters: map[string]waiter{}, busy: map[string]bool{}}
	var err error
	if b.dyn, err = dynamic.NewForConfig(cfg); err != nil {
		return nil, err
	}
	// What each WebApp asks for now (earlier runs changed them).
	list, err := b.dyn.Resource(webAppsGVR).Namespace(b.ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	for _, item := range list.Items {
		img, _, _ := unstructuredString(item.Object, "spec", "image")
		b.want[item.GetName()] = img
	}
	if len(b.want) != n {
		return nil, fmt.Errorf("%s holds %d WebApps, want %d", b.ns, len(b.want), n)
	}
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	ictx, cancel := context.WithCancel(ctx)
	b.stopInformer = cancel
	factory := informers.NewSharedInformerFactoryWithOptions(kube, 0, informers.WithNamespace(b.ns),
		informers.WithTransform(func(obj any) (any, error) {
			d, ok := obj.(*appsv1.Deployment)
			if !ok {
				return obj, nil
			}
			img := ""
			if cs := d.Spec.Template.Spec.Containers; len(cs) > 0 {
				img = cs[0].Image
			}
			return &imageOf{ObjectMeta: metav1.ObjectMeta{Name: d.Name, Namespace: d.Namespace, ResourceVersion: d.ResourceVersion}, image: img}, nil
		}))
	inf := factory.Apps().V1().Deployments().Informer()
	record := func(obj any) {
		if d, ok := obj.(*imageOf); ok {
			b.seen(d.Name, d.image)
		}
	}
	if _, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    record,
		UpdateFunc: func(_, obj any) { record(obj) },
	}); err != nil {
		cancel()
		return nil, err
	}
	factory.Start(ictx.Done())
	if !cache.WaitForCacheSync(ictx.Done(), inf.HasSynced) {
		cancel()
		return nil, fmt.Errorf("the Deployments informer did not sync")
	}
	return b, nil
}

// imageOf is what the informer keeps of a Deployment.
type imageOf struct {
	metav1.ObjectMeta
	image string
}

func (b *bench) stop() { b.stopInformer() }

func (b *bench) seen(name, image string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.images[name] = image
	if w, ok := b.waiters[name]; ok && w.image == image {
		close(w.ch)
		delete(b.waiters, name)
	}
}

// expect returns a channel closed once Deployment name shows image.
func (b *bench) expect(name, image string) <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	ch := make(chan struct{})
	if b.images[name] == image {
		close(ch)
		return ch
	}
	b.waiters[name] = waiter{image: image, ch: ch}
	return ch
}

// reflected waits until every Deployment shows what its WebApp asks for.
func (b *bench) reflected(ctx context.Context, timeout time.Duration) error {
	b.mu.Lock()
	want := make(map[string]string, len(b.want))
	for k, v := range b.want {
		want[k] = v
	}
	b.mu.Unlock()
	deadline := time.After(timeout)
	for name, img := range want {
		select {
		case <-b.expect(name, img):
		case <-deadline:
			b.mu.Lock()
			missing := 0
			for n, i := range want {
				if b.images[n] != i {
					missing++
				}
			}
			b.mu.Unlock()
			return fmt.Errorf("%d Deployments do not show their WebApp's image after %s", missing, timeout)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// pickIdle returns a random WebApp not being patched, and marks it busy.
func (b *bench) pickIdle(rng *rand.Rand) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	for {
		if name := webAppName(rng.IntN(b.n)); !b.busy[name] {
			b.busy[name] = true
			return name
		}
	}
}

func (b *bench) release(name string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.busy, name)
}

// patch sets WebApp name's image to a new one, which it returns.
func (b *bench) patch(ctx context.Context, name, tag string) (string, <-chan struct{}, error) {
	img := fmt.Sprintf("registry.example.com/web:%s-%d", tag, b.seq.Add(1))
	b.mu.Lock()
	b.want[name] = img
	b.mu.Unlock()
	ch := b.expect(name, img)
	data := fmt.Sprintf(`{"spec":{"image":%q}}`, img)
	_, err := b.dyn.Resource(webAppsGVR).Namespace(b.ns).Patch(ctx, name, types.MergePatchType, []byte(data), metav1.PatchOptions{})
	return img, ch, err
}

// measures are one run's.
type measures struct {
	latencies         []time.Duration
	toReconcile       []time.Duration // of each latency: patch sent → reconcile began
	applying          []time.Duration // reconcile began → the Deployment's apply returned
	churnChanges      int
	churnSeconds      float64 // the window
	churnCPU          float64
	churnReconciles   int64
	burstSeconds      float64
	burstSendSeconds  float64
	burstCPU          float64
	heapBytes         int64
	settleSeconds     float64
	startupReconciles int64
	errors            int64
}

func (m measures) String() string {
	lat := slices.Clone(m.latencies)
	slices.Sort(lat)
	med, p90 := 0.0, 0.0
	if len(lat) > 0 {
		med = float64(lat[len(lat)/2].Microseconds()) / 1000
		p90 = float64(lat[len(lat)*9/10].Microseconds()) / 1000
	}
	return fmt.Sprintf("latency-ms=%.1f latency-p90-ms=%.1f to-reconcile-ms=%.1f applying-ms=%.1f churn-changes=%d churn-seconds=%.1f churn-cpu-seconds=%.3f cpu-ms-per-change=%.3f churn-reconciles=%d burst-seconds=%.2f burst-send-seconds=%.2f burst-cpu-seconds=%.3f heap-bytes=%d settle-seconds=%.1f startup-reconciles=%d reconcile-errors=%d",
		med, p90, medianMS(m.toReconcile), medianMS(m.applying), m.churnChanges, m.churnSeconds, m.churnCPU, 1000*m.churnCPU/float64(max(m.churnChanges, 1)), m.churnReconciles,
		m.burstSeconds, m.burstSendSeconds, m.burstCPU, m.heapBytes, m.settleSeconds, m.startupReconciles, m.errors)
}

// medianMS is the median of ds in milliseconds; 0 for none.
func medianMS(ds []time.Duration) float64 {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return float64(s[len(s)/2].Microseconds()) / 1000
}

// run starts peer in a child process, waits for it to settle, and, if measure, measures it.
func (b *bench) run(ctx context.Context, peer, tag string, measure bool) (measures, error) {
	var m measures
	workers := b.set.workers
	if !measure {
		workers = 32 // the setup run creates every Deployment and Service: not measured
	}
	p, err := startPeer(peer, b.ns, workers)
	if err != nil {
		return m, err
	}
	defer p.stop()
	begin := time.Now()
	// Settled: every Deployment shows its WebApp's image, every key was reconciled once, and
	// no reconcile ran for a second.
	if err := b.reflected(ctx, 60*time.Minute); err != nil {
		return m, err
	}
	st, err := p.quiet(ctx, int64(b.n))
	if err != nil {
		return m, err
	}
	m.settleSeconds = time.Since(begin).Seconds()
	m.startupReconciles = st.Reconciles
	if !measure {
		return m, nil
	}
	tag = fmt.Sprintf("%s-%s", tag, peer)
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 34))

	// (4) Heap, settled.
	h, err := p.ask("heap")
	if err != nil {
		return m, err
	}
	m.heapBytes = h.HeapBytes

	// (1) Latency, one change at a time.
	for range b.set.changes {
		name := webAppName(rng.IntN(b.n))
		t0 := time.Now()
		_, ch, err := b.patch(ctx, name, tag)
		if err != nil {
			return m, err
		}
		select {
		case <-ch:
			m.latencies = append(m.latencies, time.Since(t0))
			st, err := p.ask("stage")
			if err != nil {
				return m, err
			}
			if st.Name == name {
				m.toReconcile = append(m.toReconcile, time.Unix(0, st.Began).Sub(t0))
				m.applying = append(m.applying, time.Duration(st.Applied-st.Began))
			}
		case <-time.After(time.Minute):
			return m, fmt.Errorf("latency: %s not applied after a minute", name)
		}
		time.Sleep(300 * time.Millisecond) // its status write and the events that follow pass
	}
	if _, err := p.quiet(ctx, 0); err != nil {
		return m, err
	}

	// (2) CPU per change under steady churn.
	before, err := p.ask("stats")
	if err != nil {
		return m, err
	}
	var (
		wg       sync.WaitGroup
		sem      = make(chan struct{}, 64)
		errMu    sync.Mutex
		firstErr error
	)
	tick := time.NewTicker(time.Second / time.Duration(b.set.rate))
	windowBegin := time.Now()
	for time.Since(windowBegin) < b.set.churn {
		<-tick.C
		name := b.pickIdle(rng)
		sem <- struct{}{}
		m.churnChanges++
		wg.Go(func() {
			defer func() { <-sem }()
			defer b.release(name)
			if _, _, err := b.patch(ctx, name, tag); err != nil {
				errMu.Lock()
				firstErr = err
				errMu.Unlock()
			}
		})
	}
	tick.Stop()
	wg.Wait()
	m.churnSeconds = time.Since(windowBegin).Seconds()
	if firstErr != nil {
		return m, firstErr
	}
	if err := b.reflected(ctx, 5*time.Minute); err != nil {
		return m, fmt.Errorf("churn: %w", err)
	}
	after, err := p.quiet(ctx, 0)
	if err != nil {
		return m, err
	}
	m.churnCPU = after.CPUSeconds - before.CPUSeconds
	m.churnReconciles = after.Reconciles - before.Reconciles

	// (3) A burst: b.set.burst distinct WebApps patched at once.
	names := rng.Perm(b.n)[:min(b.set.burst, b.n)]
	chans := make([]<-chan struct{}, len(names))
	t0 := time.Now()
	for i, idx := range names {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			_, ch, err := b.patch(ctx, webAppName(idx), tag)
			if err != nil {
				errMu.Lock()
				firstErr = err
				errMu.Unlock()
				return
			}
			chans[i] = ch
		})
	}
	wg.Wait()
	m.burstSendSeconds = time.Since(t0).Seconds()
	if firstErr != nil {
		return m, firstErr
	}
	deadline := time.After(5 * time.Minute)
	for _, ch := range chans {
		select {
		case <-ch:
		case <-deadline:
			return m, fmt.Errorf("burst: not drained after 5 minutes")
		}
	}
	m.burstSeconds = time.Since(t0).Seconds()
	end, err := p.quiet(ctx, 0)
	if err != nil {
		return m, err
	}
	m.burstCPU = end.CPUSeconds - after.CPUSeconds
	m.errors = end.Errors
	return m, nil
}

// proc is a peer's child process.
type proc struct {
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	reports chan peerReport
}

func startPeer(peer, ns string, workers int) (*proc, error) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), peerEnv+"="+peer, peerNSEnv+"="+ns, peerWorkers+"="+strconv.Itoa(workers))
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &proc{cmd: cmd, stdin: stdin, reports: make(chan peerReport, 16)}
	go func() {
		defer close(p.reports)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var r peerReport
			if json.Unmarshal(sc.Bytes(), &r) == nil && r.Event != "" {
				p.reports <- r
			}
		}
	}()
	r, err := p.next()
	if err != nil {
		p.stop()
		return nil, err
	}
	if r.Event != "started" {
		p.stop()
		return nil, fmt.Errorf("peer %s: %+v", peer, r)
	}
	return p, nil
}

func (p *proc) next() (peerReport, error) {
	select {
	case r, ok := <-p.reports:
		if !ok {
			return r, fmt.Errorf("the peer exited")
		}
		if r.Event == "error" {
			return r, fmt.Errorf("the peer failed: %s", r.Error)
		}
		return r, nil
	case <-time.After(5 * time.Minute):
		return peerReport{}, fmt.Errorf("no answer from the peer in 5 minutes")
	}
}

func (p *proc) ask(cmd string) (peerReport, error) {
	if _, err := fmt.Fprintln(p.stdin, cmd); err != nil {
		return peerReport{}, err
	}
	return p.next()
}

// quiet waits until the peer has reconciled at least min keys and then none for a second,
// and returns its stats then.
func (p *proc) quiet(ctx context.Context, min int64) (peerReport, error) {
	var last peerReport
	stable := time.Time{}
	for {
		st, err := p.ask("stats")
		if err != nil {
			return st, err
		}
		if st.Reconciles >= min && st.Reconciles == last.Reconciles {
			if stable.IsZero() {
				stable = time.Now()
			} else if time.Since(stable) >= time.Second {
				return st, nil
			}
		} else {
			stable = time.Time{}
		}
		last = st
		select {
		case <-time.After(250 * time.Millisecond):
		case <-ctx.Done():
			return st, ctx.Err()
		}
	}
}

func (p *proc) stop() {
	_ = p.stdin.Close()
	done := make(chan struct{})
	go func() { _ = p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		_ = p.cmd.Process.Kill()
		<-done
	}
}

func unstructuredString(obj map[string]any, fields ...string) (string, bool, error) {
	var cur any = obj
	for _, f := range fields {
		m, ok := cur.(map[string]any)
		if !ok {
			return "", false, nil
		}
		cur = m[f]
	}
	s, ok := cur.(string)
	return s, ok, nil
}
