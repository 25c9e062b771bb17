package metrics_test

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

func nextSnapshot(t *testing.T, ctx context.Context, acc *kates.Accumulator, snap any) {
	t.Helper()
	katestest.NextSnapshot(t, ctx, acc, snap)
}

func createConfigMaps(t *testing.T, c *kates.Client, ns, prefix string, n int) {
	t.Helper()
	katestest.CreateConfigMaps(t, c, ns, prefix, n)
}
