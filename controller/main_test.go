package controller_test

import (
	"testing"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/testenv"
	"github.com/kates-dev/kates/testenv/katestest"
)

// cluster is shared by every test of the package.
var cluster *testenv.Cluster

func TestMain(m *testing.M) { katestest.Main(m, &cluster) }

// newClient returns an admin Client whose namespace is one of its own, deleted after the test.
func newClient(t testing.TB) (*kates.Client, string) {
	t.Helper()
	return katestest.NewClient(t, cluster, "kates-controller-")
}
