package validate_test

import (
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
	katestest.Main(m, &cluster)
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

// manifestWithUniqueGroup parses testdata/path with its example.com group made unique to the test.
func manifestWithUniqueGroup(t testing.TB, path string) ([]kates.Object, string) {
	t.Helper()
	return katestest.ManifestWithUniqueGroup(t, "../testdata/"+path)
}
