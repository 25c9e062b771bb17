package apply_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/rand"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/testenv"
	"github.com/kates-dev/kates/testenv/katestest"
)

// cluster is shared by every test of the package (and, under `make test`, by every package).
var cluster *testenv.Cluster

func TestMain(m *testing.M) {
	katestest.Main(m, &cluster, func(c *testenv.Cluster) {
		// The examples connect as a program would, with kates.NewClient's defaults.
		os.Setenv("KUBECONFIG", c.KubeconfigPath())
	})
}

// newClient returns a client whose default namespace is a new one, deleted after the test.
func newClient(t testing.TB) (*kates.Client, string) {
	t.Helper()
	return katestest.NewClient(t, cluster, "kates-test-")
}

// newNamespace creates a namespace, deleted after the test.
func newNamespace(t testing.TB) string {
	t.Helper()
	return katestest.Namespace(t, cluster, "kates-test-")
}

// manifests parses testdata/name with its example.com group made unique to the test, so
// tests sharing a cluster never see each other's CRDs, each object named as from name. It
// returns the objects and the group; the CRDs of the group are deleted after the test.
func manifests(t *testing.T, c *kates.Client, name string) ([]any, string) {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	group := "g" + rand.String(6) + ".example.com"
	objs, err := kates.ParseUnstructuredManifests(strings.ReplaceAll(string(data), "example.com", group))
	if err != nil {
		t.Fatal(err)
	}
	out := make([]any, len(objs))
	for i, o := range objs {
		o.Source = name
		out[i] = o
		if o.Object.GetKind() == "CustomResourceDefinition" {
			crd := o.Object.DeepCopy()
			t.Cleanup(func() { _ = c.Delete(context.Background(), crd, nil) })
		}
	}
	return out, group
}
