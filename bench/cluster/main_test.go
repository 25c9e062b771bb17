package cluster_test

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/go-logr/logr"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/kates-dev/kates/bench/internal/fixture"
	"github.com/kates-dev/kates/testenv"
)

var (
	fixturesFile = flag.String("fixtures", "", "reuse the fixtures this file records, or create them and record them in it")
	teardown     = flag.Bool("teardown", false, "delete the fixtures -fixtures records, and exit")
	reverse      = flag.Bool("reverse", false, "run the peers of each benchmark in reverse order (hack/bench.sh alternates)")
	fixtureSizes = flag.String("fixture-sizes", "", "comma-separated sizes whose bootstrap namespaces are created (default: every size, and the throughput namespace)")
)

// peer is one sub-benchmark of a comparison.
type peer struct {
	name string
	run  func(b *testing.B)
}

// runPeers runs peers as sub-benchmarks named prefix+name, in order or, with -reverse, in
// reverse order, so that alternating runs cancel out what running first or last does.
func runPeers(b *testing.B, prefix string, peers ...peer) {
	if *reverse {
		slices.Reverse(peers)
	}
	for _, p := range peers {
		b.Run(prefix+p.name, p.run)
	}
}

// Object counts of the fixtures.
const (
	throughputCMs    = 500   // ConfigMaps the writers of BenchmarkWatchThroughput update
	throughputWrites = 5_000 // updates per BenchmarkWatchThroughput op
	writers          = 32    // concurrent writers filling fixtures
)

// bootstrapSizes are the ConfigMap counts of BenchmarkBootstrap's namespaces; each also holds
// bootstrapPods Pods (10,000, 50,000 and 100,000 ConfigMaps, each with 3,000 Pods, as issue 26
// measures: a cluster's Pods do not grow with its configuration). The objects are realistic
// (fixture.RealisticConfigMap, fixture.RealisticPod).
var bootstrapSizes = []int{10_000, 50_000, 100_000}

const bootstrapPods = 3_000

// podsOnly is the size of the bootstrap namespace that holds no ConfigMaps, only its
// bootstrapPods Pods: BenchmarkView's Pods-only case, where what one kind costs is not
// drowned by tens of thousands of ConfigMaps.
const podsOnly = 0

// fixtureSizesToCreate returns the sizes whose namespaces createFixtures creates: every size
// (podsOnly and bootstrapSizes), or those -fixture-sizes names.
func fixtureSizesToCreate() []int {
	all := append([]int{podsOnly}, bootstrapSizes...)
	if *fixtureSizes == "" {
		return all
	}
	var out []int
	for _, n := range all {
		if slices.Contains(splitComma(*fixtureSizes), fmt.Sprint(n)) {
			out = append(out, n)
		}
	}
	return out
}

// podsFor returns how many Pods the bootstrap namespace of n ConfigMaps holds.
func podsFor(int) int { return bootstrapPods }

// fixtures records the namespaces the benchmarks use.
type fixtures struct {
	// Memory is BenchmarkMemory's namespace: the bootstrap namespace of 10,000 ConfigMaps
	// (and 3,000 Pods).
	Memory string `json:"memory"`
	// Bootstrap maps a size to a namespace holding that many realistic ConfigMaps and
	// podsFor(size) realistic Pods.
	Bootstrap map[int]string `json:"bootstrap"`
	// Throughput holds throughputCMs ConfigMaps and the sentinel; empty if -fixture-sizes
	// left it out.
	Throughput string `json:"throughput"`
}

func (f *fixtures) namespaces() []string {
	var ns []string
	if f.Throughput != "" {
		ns = append(ns, f.Throughput)
	}
	for _, n := range append([]int{podsOnly}, bootstrapSizes...) {
		if name, ok := f.Bootstrap[n]; ok {
			ns = append(ns, name)
		}
	}
	return ns
}

var (
	cluster *testenv.Cluster
	// writer is a clientset without client-side throttling, for filling fixtures fast.
	writer kubernetes.Interface
	fx     *fixtures
)

func TestMain(m *testing.M) {
	// controller-runtime complains, with a stack trace, when nothing takes its logs.
	ctrllog.SetLogger(logr.Discard())
	flag.Parse()
	code, err := run(m)
	if err != nil {
		log.Print(err)
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}

func run(m *testing.M) (int, error) {
	ctx := context.Background()
	var err error
	if cluster, err = testenv.Start(ctx, testenv.Options{Log: os.Stderr}); err != nil {
		return 1, err
	}
	defer func() {
		if err := cluster.Stop(); err != nil {
			log.Print(err)
		}
	}()
	cfg := cluster.RESTConfig()
	cfg.QPS, cfg.Burst = -1, 0
	cfg.UserAgent = "kates-bench-writer"
	if writer, err = kubernetes.NewForConfig(cfg); err != nil {
		return 1, err
	}
	if v, err := writer.Discovery().ServerVersion(); err == nil {
		fmt.Printf("bench-info: apiserver: %s\n", v.GitVersion)
	}

	if *teardown {
		if err := loadFixtures(); err != nil {
			return 1, err
		}
		err := deleteFixtures(ctx)
		_ = os.Remove(*fixturesFile)
		return 0, err
	}
	if flag.Lookup("test.bench").Value.String() == "" {
		return m.Run(), nil // no benchmarks: no fixtures
	}
	owned := false
	if err := loadFixtures(); err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			return 1, err
		}
		owned = *fixturesFile == ""
		if err := createFixtures(ctx); err != nil {
			_ = deleteFixtures(ctx)
			return 1, err
		}
	}
	code := m.Run()
	if owned {
		if err := deleteFixtures(ctx); err != nil {
			return code, err
		}
	}
	return code, nil
}

// loadFixtures reads -fixtures; os.ErrNotExist if there is none to read.
func loadFixtures() error {
	if *fixturesFile == "" {
		return os.ErrNotExist
	}
	data, err := os.ReadFile(*fixturesFile)
	if err != nil {
		return err
	}
	fx = &fixtures{}
	return json.Unmarshal(data, fx)
}

func createFixtures(ctx context.Context) error {
	suffix := fmt.Sprintf("%06x", rand.Uint32()&0xffffff)
	fx = &fixtures{Bootstrap: map[int]string{}}
	if *fixtureSizes == "" {
		fx.Throughput = "kates-bench-" + suffix + "-thr"
	}
	sizes := fixtureSizesToCreate()
	for _, n := range sizes {
		fx.Bootstrap[n] = fmt.Sprintf("kates-bench-%s-boot%d", suffix, n)
	}
	fx.Memory = fx.Bootstrap[10_000]
	for _, ns := range fx.namespaces() {
		_, err := writer.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{})
		if err != nil {
			return fmt.Errorf("create namespace %s: %w", ns, err)
		}
	}
	if *fixturesFile != "" {
		data, _ := json.Marshal(fx)
		if err := os.WriteFile(*fixturesFile, data, 0o644); err != nil {
			return err
		}
	}

	begin := time.Now()
	type job struct {
		what   string
		n      int
		create func(ctx context.Context, i int) error
	}
	var jobs []job
	if fx.Throughput != "" {
		jobs = append(jobs, job{"throughput ConfigMaps", throughputCMs + 1, func(ctx context.Context, i int) error {
			name := fmt.Sprintf("cm-%06d", i)
			if i == throughputCMs {
				name = sentinel
			}
			_, err := writer.CoreV1().ConfigMaps(fx.Throughput).Create(ctx, fixture.PlainConfigMap(fx.Throughput, name), metav1.CreateOptions{})
			return err
		}})
	}
	for _, n := range sizes {
		ns := fx.Bootstrap[n]
		// The Pods' owner: a ReplicaSet that selects none of them, so no controller acts
		// on them, and the garbage collector finds their owner.
		rs, err := writer.AppsV1().ReplicaSets(ns).Create(ctx, &appsv1.ReplicaSet{
			ObjectMeta: metav1.ObjectMeta{Name: "bench-web-7c9d8"},
			Spec: appsv1.ReplicaSetSpec{
				Replicas: new(int32),
				Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"kates.dev/selects": "nothing"}},
				Template: corev1.PodTemplateSpec{
					ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"kates.dev/selects": "nothing"}},
					Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "registry.example.com/none"}}},
				},
			},
		}, metav1.CreateOptions{})
		if err != nil {
			return fmt.Errorf("create ReplicaSet in %s: %w", ns, err)
		}
		owner := fixture.OwnerRef(rs.Name, rs.UID)
		jobs = append(jobs,
			job{fmt.Sprintf("realistic ConfigMaps (%s)", ns), n, func(ctx context.Context, i int) error {
				return apply(ctx, writer.CoreV1().RESTClient(), ns, "configmaps", fmt.Sprintf("cm-%06d", i), fixture.RealisticConfigMap(ns, fmt.Sprintf("cm-%06d", i), i))
			}},
			job{fmt.Sprintf("realistic Pods (%s)", ns), podsFor(n), func(ctx context.Context, i int) error {
				name := fmt.Sprintf("bench-web-7c9d8-%06d", i)
				if err := apply(ctx, writer.CoreV1().RESTClient(), ns, "pods", name, fixture.RealisticPod(ns, name, i, owner)); err != nil {
					return err
				}
				return setRunning(ctx, ns, name, i)
			}},
		)
	}
	for _, j := range jobs {
		start := time.Now()
		if err := parallel(ctx, j.n, j.create); err != nil {
			return fmt.Errorf("create %s: %w", j.what, err)
		}
		log.Printf("bench: created %d %s in %s", j.n, j.what, time.Since(start).Round(time.Millisecond))
	}
	if err := waitPodsGated(ctx); err != nil {
		return err
	}
	log.Printf("bench: fixtures ready in %s", time.Since(begin).Round(time.Millisecond))
	return nil
}

// apply creates obj by server-side apply, as deployment tools do, so that it carries the
// managedFields such tools leave.
func apply(ctx context.Context, rc rest.Interface, ns, resource, name string, obj any) error {
	data, err := json.Marshal(obj)
	if err != nil {
		return err
	}
	return rc.Patch(types.ApplyPatchType).Namespace(ns).Resource(resource).Name(name).
		Param("fieldManager", "kates-bench").Param("force", "true").Body(data).Do(ctx).Error()
}

// setRunning writes Pod i's status as a kubelet would for a Running, Ready Pod.
func setRunning(ctx context.Context, ns, name string, i int) error {
	for {
		pod, err := writer.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		fixture.RunningStatus(pod, i)
		_, err = writer.CoreV1().Pods(ns).UpdateStatus(ctx, pod, metav1.UpdateOptions{FieldManager: "kubelet"})
		if !apierrors.IsConflict(err) {
			return err
		}
	}
}

// sentinel is the ConfigMap BenchmarkWatchThroughput writes last in each op.
const sentinel = "zz-sentinel"

// parallel runs create(0..n-1) on writers goroutines. An AlreadyExists counts as done.
func parallel(ctx context.Context, n int, create func(ctx context.Context, i int) error) error {
	return fixture.Parallel(ctx, writers, n, func(ctx context.Context, i int) error {
		if err := create(ctx, i); !apierrors.IsAlreadyExists(err) {
			return err
		}
		return nil
	})
}

// waitPodsGated waits (at most a minute) until the scheduler has recorded on every Pod that it
// is gated, so that every peer sees the same, settled objects.
func waitPodsGated(ctx context.Context) error {
	start := time.Now()
	for {
		list, err := writer.CoreV1().Pods("").List(ctx, metav1.ListOptions{ResourceVersion: "0", LabelSelector: "app.kubernetes.io/name=bench-web"})
		if err != nil {
			return err
		}
		gated := 0
		for _, p := range list.Items {
			for _, c := range p.Status.Conditions {
				if c.Type == corev1.PodScheduled {
					gated++
					break
				}
			}
		}
		if gated == len(list.Items) {
			log.Printf("bench: %d Pods gated after %s", gated, time.Since(start).Round(time.Millisecond))
			return nil
		}
		if time.Since(start) > time.Minute {
			log.Printf("bench: only %d of %d Pods gated after a minute; going on", gated, len(list.Items))
			return nil
		}
		time.Sleep(time.Second)
	}
}

// deleteFixtures deletes the fixture namespaces and waits (at most two minutes) until they are
// gone, so that the namespace controller's work does not disturb what runs next.
func deleteFixtures(ctx context.Context) error {
	var errs []error
	for _, ns := range fx.namespaces() {
		err := writer.CoreV1().Namespaces().Delete(ctx, ns, metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			errs = append(errs, err)
		}
	}
	deadline := time.Now().Add(2 * time.Minute)
	for _, ns := range fx.namespaces() {
		for time.Now().Before(deadline) {
			if _, err := writer.CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{}); apierrors.IsNotFound(err) {
				break
			}
			time.Sleep(time.Second)
		}
	}
	return errors.Join(errs...)
}

// config returns a rest.Config for a peer under test, as a program would build one: the
// client library's own throttling defaults apply.
func config() *rest.Config {
	cfg := cluster.RESTConfig()
	cfg.QPS, cfg.Burst = 0, 0
	return cfg
}
