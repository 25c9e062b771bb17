package controllers_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/go-logr/logr"
	"github.com/prometheus/client_golang/prometheus"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	crcontroller "sigs.k8s.io/controller-runtime/pkg/controller"
	crlog "sigs.k8s.io/controller-runtime/pkg/log"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kates-dev/kates/controller"
	"github.com/kates-dev/kates/kates"
)

// A peer runs in a child process of its own (this test binary, run again with peerEnv set),
// so that its CPU time (getrusage) and heap are its own. It starts its controller, then
// answers the parent's commands on its standard input, one a line, with a JSON line each on
// its standard output: "stats" (reconciles so far, CPU time so far), "heap" (the live heap
// after two GCs, less the same before the controller started). It stops when its standard
// input closes.
const (
	peerEnv        = "CTRLBENCH_PEER"      // "kates" or "controller-runtime"
	peerNSEnv      = "CTRLBENCH_NAMESPACE" // the fixtures' namespace
	peerWorkers    = "CTRLBENCH_WORKERS"
	peerKates      = "kates"
	peerRuntime    = "controller-runtime"
	defaultWorkers = 8
)

type peerReport struct {
	Event      string  `json:"event"` // "started", "stats", "heap", "error"
	Reconciles int64   `json:"reconciles,omitempty"`
	Errors     int64   `json:"errors,omitempty"`
	CPUSeconds float64 `json:"cpuSeconds,omitempty"` // user + system, the whole process
	HeapBytes  int64   `json:"heapBytes,omitempty"`
	Error      string  `json:"error,omitempty"`
	// "stage": the last reconcile that applied a Deployment — its WebApp, and the wall-clock
	// times (Unix ns) at which the reconcile began and the Deployment's apply returned.
	Name    string `json:"name,omitempty"`
	Began   int64  `json:"began,omitempty"`
	Applied int64  `json:"applied,omitempty"`
}

// stage is the last reconcile that applied a Deployment, for the latency's breakdown: how long
// a change took to reach a reconcile, and how long the reconcile took to write the Deployment.
type stage struct {
	name           string
	began, applied int64
}

var lastStage atomic.Pointer[stage]

// beginReconcile returns the context a reconcile writes with: it carries the reconcile's start,
// which applyDone reads when the Deployment's apply returns.
func beginReconcile(ctx context.Context) context.Context {
	return context.WithValue(ctx, beganKey{}, time.Now().UnixNano())
}

type beganKey struct{}

func applyDone(ctx context.Context, obj any) {
	if d, ok := obj.(*appsv1.Deployment); ok {
		began, _ := ctx.Value(beganKey{}).(int64)
		lastStage.Store(&stage{name: d.Name, began: began, applied: time.Now().UnixNano()})
	}
}

var reconciles, reconcileErrors atomic.Int64

func counted(err error) error {
	reconciles.Add(1)
	if err != nil {
		reconcileErrors.Add(1)
	}
	return err
}

func runPeer(name string) int {
	out := json.NewEncoder(os.Stdout)
	fail := func(err error) int {
		_ = out.Encode(peerReport{Event: "error", Error: err.Error()})
		return 1
	}
	ns := os.Getenv(peerNSEnv)
	workers := defaultWorkers
	if w, err := strconv.Atoi(os.Getenv(peerWorkers)); err == nil && w > 0 {
		workers = w
	}
	cfg, err := peerConfig()
	if err != nil {
		return fail(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var run func(ctx context.Context) error
	switch name {
	case peerKates:
		run, err = newKatesPeer(cfg, ns, workers)
	case peerRuntime:
		run, err = newRuntimePeer(cfg, ns, workers)
	default:
		err = fmt.Errorf("%s=%q: no such peer", peerEnv, name)
	}
	if err != nil {
		return fail(err)
	}
	before := heapAlloc() // the baseline: client or manager made, kinds looked up, nothing watched
	done := make(chan error, 1)
	go func() { done <- run(ctx) }()
	_ = out.Encode(peerReport{Event: "started"})

	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			lines <- strings.TrimSpace(sc.Text())
		}
	}()
	for {
		select {
		case err := <-done:
			return fail(fmt.Errorf("the controller returned early: %v", err))
		case line, ok := <-lines:
			if !ok {
				cancel()
				select {
				case <-done:
				case <-time.After(30 * time.Second):
				}
				return 0
			}
			switch line {
			case "stats":
				_ = out.Encode(peerReport{Event: "stats", Reconciles: reconciles.Load(), Errors: reconcileErrors.Load(), CPUSeconds: cpuSeconds()})
			case "stage":
				r := peerReport{Event: "stage"}
				if st := lastStage.Load(); st != nil {
					r.Name, r.Began, r.Applied = st.name, st.began, st.applied
				}
				_ = out.Encode(r)
			case "heap":
				_ = out.Encode(peerReport{Event: "heap", HeapBytes: int64(heapAlloc()) - int64(before)})
			case "":
			default:
				return fail(fmt.Errorf("command %q", line))
			}
		}
	}
}

// peerConfig is a peer's rest.Config: the same for both, without client-side throttling (the
// defaults differ — kates 100 QPS, controller-runtime's GetConfig 20 — and either would cap the
// burst measured, not the controller).
func peerConfig() (*rest.Config, error) {
	cfg, err := configFrom(os.Getenv("KATES_TEST_KUBECONFIG"))
	if err != nil {
		return nil, err
	}
	cfg.QPS, cfg.Burst = -1, 0
	cfg.UserAgent = "kates-ctrlbench-peer"
	return cfg, nil
}

// kates: controller.Controller on a view of the WebApps, Deployments and Services of the
// namespace; the default owner mapping queues a Deployment's or Service's WebApp.

type katesView struct {
	WebApps     map[string]*WebApp
	Deployments map[string]*kates.Deployment
	Services    map[string]*kates.Service
}

type katesWriter struct{ c *kates.Client }

func (w katesWriter) apply(ctx context.Context, obj any) error {
	err := w.c.Apply(ctx, obj, nil, kates.FieldManager(fieldManager), kates.ForceOwnership())
	applyDone(ctx, obj)
	return err
}

func (w katesWriter) updateStatus(ctx context.Context, app *WebApp) error {
	return w.c.UpdateStatus(ctx, app, nil)
}

func newKatesPeer(cfg *rest.Config, ns string, workers int) (func(context.Context) error, error) {
	c, err := kates.NewClientFromRESTConfig(cfg, ns)
	if err != nil {
		return nil, err
	}
	for _, k := range []string{"webapps.examples.kates.dev", "deployments.apps", "services"} {
		if _, err := c.Mapping(k); err != nil {
			return nil, err
		}
	}
	w := katesWriter{c}
	ctl, err := controller.New(c, controller.Options[katesView]{
		Name: "webapp",
		Queries: []kates.Query{
			{Name: "WebApps", Kind: "webapps.examples.kates.dev", Namespace: ns},
			{Name: "Deployments", Kind: "deployments.apps", Namespace: ns},
			{Name: "Services", Kind: "services", Namespace: ns},
		},
		For:     "WebApps",
		Workers: workers,
		Metrics: prometheus.NewRegistry(),
		Reconcile: func(ctx context.Context, req controller.Request[katesView]) (controller.Result, error) {
			ctx = beginReconcile(ctx)
			key := req.Key.String()
			var (
				app *WebApp
				dep *appsv1.Deployment
				svc *corev1.Service
			)
			req.View(func(v *katesView) { app, dep, svc = v.WebApps[key], v.Deployments[key], v.Services[key] })
			return controller.Result{}, counted(reconcileWebApp(ctx, app, dep, svc, w))
		},
	})
	if err != nil {
		return nil, err
	}
	return ctl.Run, nil
}

// controller-runtime: a manager and its cache (the defaults, but for the namespace), and a
// controller built as kubebuilder scaffolds it: For WebApp, Owns Deployment and Service.

type runtimeWriter struct{ c client.Client }

func (w runtimeWriter) apply(ctx context.Context, obj any) error {
	err := w.c.Patch(ctx, obj.(client.Object), client.Apply, client.FieldOwner(fieldManager), client.ForceOwnership,
		client.FieldValidation("Strict"))
	applyDone(ctx, obj)
	return err
}

func (w runtimeWriter) updateStatus(ctx context.Context, app *WebApp) error {
	return w.c.Status().Update(ctx, app)
}

func newRuntimePeer(cfg *rest.Config, ns string, workers int) (func(context.Context) error, error) {
	crlog.SetLogger(logr.Discard())
	scheme := kruntime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		return nil, err
	}
	gv := webAppGVK.GroupVersion()
	scheme.AddKnownTypes(gv, &WebApp{}, &WebAppList{})
	metav1.AddToGroupVersion(scheme, gv)
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:  scheme,
		Cache:   cache.Options{DefaultNamespaces: map[string]cache.Config{ns: {}}},
		Metrics: metricsserver.Options{BindAddress: "0"},
	})
	if err != nil {
		return nil, err
	}
	for _, gk := range []schema.GroupKind{webAppGVK.GroupKind(), {Group: "apps", Kind: "Deployment"}, {Kind: "Service"}} {
		if _, err := mgr.GetRESTMapper().RESTMapping(gk); err != nil {
			return nil, err
		}
	}
	c := mgr.GetClient()
	w := runtimeWriter{c}
	err = ctrl.NewControllerManagedBy(mgr).
		For(&WebApp{}).
		Owns(&appsv1.Deployment{}).
		Owns(&corev1.Service{}).
		Named("webapp").
		WithOptions(crcontroller.Options{MaxConcurrentReconciles: workers}).
		Complete(reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
			ctx = beginReconcile(ctx)
			app := &WebApp{}
			if err := c.Get(ctx, req.NamespacedName, app); err != nil {
				if apierrors.IsNotFound(err) {
					return reconcile.Result{}, counted(nil)
				}
				return reconcile.Result{}, counted(err)
			}
			dep := &appsv1.Deployment{}
			if err := c.Get(ctx, req.NamespacedName, dep); apierrors.IsNotFound(err) {
				dep = nil
			} else if err != nil {
				return reconcile.Result{}, counted(err)
			}
			svc := &corev1.Service{}
			if err := c.Get(ctx, req.NamespacedName, svc); apierrors.IsNotFound(err) {
				svc = nil
			} else if err != nil {
				return reconcile.Result{}, counted(err)
			}
			return reconcile.Result{}, counted(reconcileWebApp(ctx, app, dep, svc, w))
		}))
	if err != nil {
		return nil, err
	}
	return mgr.Start, nil
}

func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// heapAlloc returns the live heap after two full collections.
func heapAlloc() uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
