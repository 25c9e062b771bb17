package metrics_test

import (
	"context"
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

func nextSnapshot(t *testing.T, ctx context.Context, acc *kates.Accumulator, snap any) {
	t.Helper()
	katestest.NextSnapshot(t, ctx, acc, snap)
}

func createConfigMaps(t *testing.T, c *kates.Client, ns, prefix string, n int) {
	t.Helper()
	katestest.CreateConfigMaps(t, c, ns, prefix, n)
}
