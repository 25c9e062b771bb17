package election_test

import (
	"context"
	"log"
	"os"
	"testing"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/testenv"
	"github.com/kates-dev/kates/testenv/katestest"
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
	if err := cluster.Stop(); err != nil {
		log.Print(err)
	}
	os.Exit(code)
}

// newClient returns an admin client whose default namespace is a fresh one, deleted after the
// test.
func newClient(t testing.TB) (*kates.Client, string) {
	t.Helper()
	return katestest.NewClient(t, cluster, "kates-test-")
}

// newNamespace creates a namespace, deleted after the test.
func newNamespace(t testing.TB) string {
	t.Helper()
	return katestest.Namespace(t, cluster, "kates-test-")
}
