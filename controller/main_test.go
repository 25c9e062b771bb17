package controller_test

import (
	"testing"
	"time"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/testenv"
	"github.com/kates-dev/kates/testenv/katestest"
)

// The Lease timings of the tests' elections and shards: long enough that a replica keeps its
// terms on a machine loaded to a load average of 50 (with 2 s and 1.5 s, some runs lost them
// there), short enough for the tests to wait out; handovers in the tests are releases, at once.
const (
	testLease = 10 * time.Second
	testRenew = 8 * time.Second
	testRetry = 500 * time.Millisecond
)

// cluster is shared by every test of the package.
var cluster *testenv.Cluster

func TestMain(m *testing.M) { katestest.Main(m, &cluster) }

// newClient returns an admin Client whose namespace is one of its own, deleted after the test.
func newClient(t testing.TB) (*kates.Client, string) {
	t.Helper()
	return katestest.NewClient(t, cluster, "kates-controller-")
}
