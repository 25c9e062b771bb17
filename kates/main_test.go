package kates_test

import (
	"context"
	"log"
	"os"
	"sync"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/testenv"
	"github.com/kates-dev/kates/testenv/katestest"
)

// cluster is shared by every test of the package (and, under `make test`, by every package).
var cluster *testenv.Cluster

func TestMain(m *testing.M) {
	// The tests read CustomResourceDefinitions typed, which kates leaves to the program.
	utilruntime.Must(apiextensionsv1.AddToScheme(kates.Scheme))
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
	return katestest.NewClient(t, cluster, "kates-test-")
}

// newClientOn is newClient on cluster cl (a private one, say).
func newClientOn(t testing.TB, cl *testenv.Cluster) (*kates.Client, string) {
	t.Helper()
	return katestest.NewClient(t, cl, "kates-test-")
}

// newNamespace creates a namespace on the shared cluster, deleted after the test.
func newNamespace(t testing.TB) string {
	t.Helper()
	return katestest.Namespace(t, cluster, "kates-test-")
}

// newNamespaceOn creates a namespace on cl, deleted after the test.
func newNamespaceOn(t testing.TB, cl *testenv.Cluster) string {
	t.Helper()
	return katestest.Namespace(t, cl, "kates-test-")
}
