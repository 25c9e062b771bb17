package shards_test

import (
	"os"
	"testing"

	"github.com/kates-dev/kates/testenv"
	"github.com/kates-dev/kates/testenv/katestest"
)

// cluster is shared by every test of the package.
var cluster *testenv.Cluster

func TestMain(m *testing.M) {
	// The process test runs this binary as its replicas.
	if os.Getenv(replicaEnv) != "" {
		os.Exit(replicaMain())
	}
	katestest.Main(m, &cluster)
}

// newNamespace creates a namespace, deleted after the test.
func newNamespace(t testing.TB) string {
	t.Helper()
	return katestest.Namespace(t, cluster, "kates-shards-")
}
