package shards_test

import (
	"context"
	"log"
	"os"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/kates-dev/kates/testenv"
)

// cluster is shared by every test of the package.
var cluster *testenv.Cluster

func TestMain(m *testing.M) {
	// The process test runs this binary as its replicas.
	if os.Getenv(replicaEnv) != "" {
		os.Exit(replicaMain())
	}
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

// newNamespace creates a namespace, deleted after the test.
func newNamespace(t testing.TB) string {
	t.Helper()
	cs, err := kubernetes.NewForConfig(cluster.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	ns, err := cs.CoreV1().Namespaces().Create(context.Background(),
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "kates-shards-"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cs.CoreV1().Namespaces().Delete(context.Background(), ns.Name, metav1.DeleteOptions{})
	})
	return ns.Name
}
