package shards_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

func TestMain(m *testing.M) {
	if spec := os.Getenv(peerEnv); spec != "" {
		os.Exit(runPeer(spec))
	}
	os.Exit(m.Run())
}

// configFrom loads the kubeconfig at path.
func configFrom(path string) (*rest.Config, error) {
	if path == "" {
		return nil, fmt.Errorf("KATES_TEST_KUBECONFIG is not set")
	}
	return clientcmd.BuildConfigFromFlags("", path)
}

// widgetCount is how many Widgets the fixtures hold (BENCH_SHARDS_WIDGETS, default 20,000:
// with four ConfigMaps each, 100,000 objects).
func widgetCount() int {
	if n, err := strconv.Atoi(os.Getenv("BENCH_SHARDS_WIDGETS")); err == nil && n > 0 {
		return n
	}
	return 20_000
}

// restConfig is the cluster KATES_TEST_KUBECONFIG names.
func restConfig(tb testing.TB) *rest.Config {
	path := os.Getenv("KATES_TEST_KUBECONFIG")
	if path == "" {
		tb.Skip("KATES_TEST_KUBECONFIG is not set")
	}
	cfg, err := configFrom(path)
	if err != nil {
		tb.Fatal(err)
	}
	return cfg
}

// TestShardFixtures creates the fixtures alone (BENCH_SHARDS=1), so that they can be made
// ahead of a run.
func TestShardFixtures(t *testing.T) {
	if os.Getenv("BENCH_SHARDS") != "1" {
		t.Skip("BENCH_SHARDS=1 runs the sharded-view benchmark")
	}
	n, err := ensureFixtures(context.Background(), restConfig(t), widgetCount())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d Widgets, %d ConfigMaps", n, n*configMapsPerWidget)
}
