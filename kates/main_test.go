package kates_test

import (
	"context"
	"log"
	"os"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/testenv"
)

// cluster is shared by every test of the package (and, under `make test`, by every package).
var cluster *testenv.Cluster

func TestMain(m *testing.M) {
	var err error
	cluster, err = testenv.Start(context.Background(), testenv.Options{Log: os.Stderr})
	if err != nil {
		log.Fatal(err)
	}
	code := m.Run()
	if private != nil {
		if err := private.Stop(); err != nil {
			log.Print(err)
		}
	}
	if err := cluster.Stop(); err != nil {
		log.Print(err)
	}
	os.Exit(code)
}

// private is a cluster of this package's own, for the fault tests that stop its API server;
// started by the first test that needs it.
var (
	private     *testenv.Cluster
	privateErr  error
	privateOnce sync.Once
)

func privateCluster(t *testing.T) *testenv.Cluster {
	t.Helper()
	privateOnce.Do(func() {
		private, privateErr = testenv.Start(context.Background(), testenv.Options{Private: true, Log: os.Stderr})
	})
	if privateErr != nil {
		t.Fatal(privateErr)
	}
	return private
}

// newClient returns an admin Client of the shared cluster whose default namespace is a fresh
// one, deleted after the test.
func newClient(t testing.TB) (*kates.Client, string) {
	t.Helper()
	return newClientOn(t, cluster)
}

// newClientOn is newClient on cluster cl (a private one, say).
func newClientOn(t testing.TB, cl *testenv.Cluster) (*kates.Client, string) {
	t.Helper()
	ns := newNamespaceOn(t, cl)
	c, err := kates.NewClient(kates.ClientConfig{Kubeconfig: cl.KubeconfigPath(), Namespace: ns})
	if err != nil {
		t.Fatal(err)
	}
	return c, ns
}

func newNamespace(t testing.TB) string {
	t.Helper()
	return newNamespaceOn(t, cluster)
}

// newNamespaceOn creates a namespace on cl, deleted after the test.
func newNamespaceOn(t testing.TB, cl *testenv.Cluster) string {
	t.Helper()
	cs, err := kubernetes.NewForConfig(cl.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	ns, err := cs.CoreV1().Namespaces().Create(context.Background(),
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "kates-test-"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cs.CoreV1().Namespaces().Delete(context.Background(), ns.Name, metav1.DeleteOptions{})
	})
	return ns.Name
}
