// Package exampletest gives the examples' tests a client on the test cluster and a namespace of
// their own, and goleak options shared by the tests that check for leaked goroutines.
package exampletest

import (
	"context"
	"testing"

	"go.uber.org/goleak"
	"k8s.io/apimachinery/pkg/util/rand"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/testenv"
)

// Namespace starts (or, under KATES_TEST_KUBECONFIG, attaches to) the test cluster, creates a
// namespace named prefix plus a random suffix — the last run's may still be terminating — and
// returns an admin client whose default namespace it is. Both go away when the test ends.
func Namespace(t *testing.T, prefix string) (*kates.Client, string) {
	t.Helper()
	ctx := context.Background()
	cluster, err := testenv.Start(ctx, testenv.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cluster.Stop() })
	ns := prefix + rand.String(6)
	client, err := kates.NewClientFromRESTConfig(cluster.RESTConfig(), ns)
	if err != nil {
		t.Fatal(err)
	}
	if err := client.Create(ctx, &kates.Namespace{ObjectMeta: kates.ObjectMeta{Name: ns}}, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = client.Delete(context.Background(), &kates.Namespace{ObjectMeta: kates.ObjectMeta{Name: ns}}, nil)
	})
	return client, ns
}

// IgnoreConnections are goleak options that ignore the goroutines of pooled HTTP connections:
// they belong to the clients, which outlive what a test checks for leaks (a controller,
// election.Run), not to it.
var IgnoreConnections = []goleak.Option{
	goleak.IgnoreAnyFunction("net/http.(*persistConn).readLoop"),
	goleak.IgnoreAnyFunction("net/http.(*persistConn).writeLoop"),
	goleak.IgnoreAnyFunction("net/http.(*http2ClientConn).readLoop"),
	goleak.IgnoreAnyFunction("golang.org/x/net/http2.(*ClientConn).readLoop"),
	goleak.IgnoreAnyFunction("internal/poll.runtime_pollWait"),
}
