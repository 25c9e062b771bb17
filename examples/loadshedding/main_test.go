package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/rand"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/testenv"
)

func TestLoadSheddingExample(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cluster, err := testenv.Start(ctx, testenv.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer cluster.Stop()
	ns := "kates-shed-" + rand.String(6)
	client, err := kates.NewClientFromRESTConfig(cluster.RESTConfig(), ns)
	if err != nil {
		t.Fatal(err)
	}
	if err := client.Create(ctx, &kates.Namespace{ObjectMeta: kates.ObjectMeta{Name: ns}}, nil); err != nil {
		t.Fatal(err)
	}
	defer client.Delete(context.Background(), &kates.Namespace{ObjectMeta: kates.ObjectMeta{Name: ns}}, nil)

	var out bytes.Buffer
	const changes = 300
	if err := run(ctx, client, changes, 200*time.Millisecond, &out); err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, "300 changes, ") {
		t.Fatalf("last line %q, want the summary", last)
	}
	reconciles := len(lines) - 1
	if reconciles >= changes/2 {
		t.Errorf("%d reconciles for %d changes: events were not shed\n%s", reconciles, changes, out.String())
	}
	if !strings.Contains(lines[len(lines)-2], "sees n=300") {
		t.Errorf("final reconcile %q did not see the final state", lines[len(lines)-2])
	}
}
