package election_test

import (
	"testing"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/testenv"
	"github.com/kates-dev/kates/testenv/katestest"
)

// cluster is shared by every test of the package (and, under `make test`, by every package).
var cluster *testenv.Cluster

func TestMain(m *testing.M) { katestest.Main(m, &cluster) }

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
