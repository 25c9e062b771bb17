// Package katestest gives tests a kates Client on a testenv cluster, in a namespace of their
// own. It is the one place the "fresh namespace, client defaulting to it, both gone after the
// test" helper lives: kates' own tests, election's, validate's, metrics' and the examples' call
// it. It sits below testenv's directory but above the kates package in the import graph —
// testenv itself imports nothing of ours, so that kates' tests can start a cluster.
//
// It also holds what the process tests of election and shards share: a Recorder, whose
// proxies record what replica processes really wrote, and CheckTerms, which holds those
// writes against the Leases' history (WatchLeases) to show that no two replicas wrote at once.
//
//	var cluster *testenv.Cluster // started in TestMain
//
//	func TestSomething(t *testing.T) {
//		client, ns := katestest.NewClient(t, cluster, "kates-test-")
//		...
//	}
package katestest

import (
	"context"
	"fmt"
	"log"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"
	"k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/client-go/kubernetes"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/testenv"
)

// Main is the whole TestMain of a package whose tests share one cluster: it starts (or,
// under KATES_TEST_KUBECONFIG, attaches to) a test cluster, sets *cluster, runs each setup
// with it, runs the tests, stops the cluster and exits with the tests' code.
//
//	var cluster *testenv.Cluster
//
//	func TestMain(m *testing.M) { katestest.Main(m, &cluster) }
func Main(m *testing.M, cluster **testenv.Cluster, setup ...func(*testenv.Cluster)) {
	c, err := testenv.Start(context.Background(), testenv.Options{Log: os.Stderr})
	if err != nil {
		log.Fatal(err)
	}
	*cluster = c
	for _, f := range setup {
		f(c)
	}
	code := m.Run()
	if err := c.Stop(); err != nil {
		log.Print(err)
	}
	os.Exit(code)
}

// Start starts (or, under KATES_TEST_KUBECONFIG, attaches to) a test cluster for t, stopped
// when t ends. Packages with many tests start theirs once in TestMain instead.
func Start(t testing.TB) *testenv.Cluster {
	t.Helper()
	cluster, err := testenv.Start(context.Background(), testenv.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cluster.Stop() })
	return cluster
}

// Namespace creates a namespace on cluster whose name is prefix plus a random suffix (the API
// server's generateName, so a run never meets the last run's namespace still terminating), and
// deletes it when t ends, without waiting for it to go.
func Namespace(t testing.TB, cluster *testenv.Cluster, prefix string) string {
	t.Helper()
	admin, err := kates.NewClientFromRESTConfig(cluster.RESTConfig(), "default")
	if err != nil {
		t.Fatal(err)
	}
	ns := &kates.Namespace{ObjectMeta: kates.ObjectMeta{GenerateName: prefix}}
	if err := admin.Create(context.Background(), ns, ns); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = admin.Delete(context.Background(), &kates.Namespace{ObjectMeta: kates.ObjectMeta{Name: ns.Name}}, nil)
	})
	return ns.Name
}

// NewClient creates a namespace as Namespace does and returns an admin Client of cluster whose
// default namespace it is, and the namespace's name.
func NewClient(t testing.TB, cluster *testenv.Cluster, prefix string) (*kates.Client, string) {
	t.Helper()
	ns := Namespace(t, cluster, prefix)
	c, err := kates.NewClientFromRESTConfig(cluster.RESTConfig(), ns)
	if err != nil {
		t.Fatal(err)
	}
	return c, ns
}

// IgnoreConnections are goleak options that ignore the goroutines of pooled HTTP connections:
// they belong to the clients, which outlive what a test checks for leaks (a controller,
// election.Run), not to it.
var IgnoreConnections = []goleak.Option{
	goleak.IgnoreAnyFunction("net/http.(*persistConn).readLoop"),
	goleak.IgnoreAnyFunction("net/http.(*persistConn).writeLoop"),
	goleak.IgnoreAnyFunction("net/http.(*http2ClientConn).readLoop"),
	goleak.IgnoreAnyFunction("golang.org/x/net/http2.(*ClientConn).readLoop"),
	goleak.IgnoreAnyFunction("internal/poll.runtime_pollWait"),
}

// NextSnapshot waits for acc's next notification and takes a snapshot into snap, until one is
// complete; it fails t if none is within 30 seconds or Update fails.
func NextSnapshot(t testing.TB, ctx context.Context, acc *kates.Accumulator, snap any) {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		select {
		case _, ok := <-acc.Changed():
			if !ok {
				t.Fatal("Changed closed")
			}
			ok, err := acc.Update(ctx, snap)
			if err != nil {
				t.Fatalf("Update: %v", err)
			}
			if ok {
				return
			}
		case <-deadline:
			t.Fatal("no complete snapshot within 30s")
		}
	}
}

// CreateConfigMaps creates n ConfigMaps named prefix-NNNN and labelled set=prefix in ns, 16 at
// a time. (Every namespace also holds kube-root-ca.crt: select by the label to leave it out.)
func CreateConfigMaps(t testing.TB, c *kates.Client, ns, prefix string, n int) {
	t.Helper()
	var wg sync.WaitGroup
	sem := make(chan struct{}, 16)
	var failed atomic.Value
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			cm := &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: fmt.Sprintf("%s-%04d", prefix, i), Namespace: ns,
				Labels: map[string]string{"set": prefix}}}
			if err := c.Create(context.Background(), cm, nil); err != nil {
				failed.Store(err)
			}
		}()
	}
	wg.Wait()
	if err, _ := failed.Load().(error); err != nil {
		t.Fatal(err)
	}
}

// Clientset returns a typed client-go clientset on c's connections (kates has none of its own,
// so that programs do not link every API group's typed client). Its writes are not recorded
// for c's coherence.
func Clientset(t testing.TB, c *kates.Client) kubernetes.Interface {
	t.Helper()
	cs, err := kubernetes.NewForConfigAndClient(c.RESTConfig(), c.HTTPClient())
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// ManifestWithUniqueGroup parses the manifest file at path with "example.com" replaced by a
// group unique to this run, so tests sharing a cluster never see each other's CRDs. It returns
// the objects and that group.
func ManifestWithUniqueGroup(t testing.TB, path string) ([]kates.Object, string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	group := "g" + rand.String(6) + ".example.com"
	objs, err := kates.ParseManifests(strings.ReplaceAll(string(data), "example.com", group))
	if err != nil {
		t.Fatal(err)
	}
	return objs, group
}
