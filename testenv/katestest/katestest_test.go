package katestest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/testenv/katestest"
)

func TestNewClientMakesANamespaceAndDeletesIt(t *testing.T) {
	cluster := katestest.Start(t)
	var c *kates.Client
	var ns string
	t.Run("inner", func(t *testing.T) {
		c, ns = katestest.NewClient(t, cluster, "kates-katestest-")
		if !strings.HasPrefix(ns, "kates-katestest-") || len(ns) == len("kates-katestest-") {
			t.Errorf("namespace %q, want the prefix and a random suffix", ns)
		}
		if got := c.Namespace(); got != ns {
			t.Errorf("client's namespace %q, want %q", got, ns)
		}
		var got kates.Namespace
		if err := c.Get(context.Background(), &kates.Namespace{ObjectMeta: kates.ObjectMeta{Name: ns}}, &got); err != nil {
			t.Fatalf("the namespace does not exist: %v", err)
		}
	})
	// The inner test's cleanup has run: the namespace is gone or on its way.
	var got kates.Namespace
	err := c.Get(context.Background(), &kates.Namespace{ObjectMeta: kates.ObjectMeta{Name: ns}}, &got)
	if err == nil && got.DeletionTimestamp == nil {
		t.Errorf("namespace %s outlived its test", ns)
	}
}
