package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/kates-dev/kates/testenv/katestest"
)

func TestWaitExample(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	client, ns := katestest.NewClient(t, katestest.Start(t), "kates-wait-")
	var out bytes.Buffer
	if err := run(ctx, client, ns, &out); err != nil {
		t.Fatalf("run: %v\noutput:\n%s", err, out.String())
	}
	for _, want := range []string{
		"Deployment web: Current: Deployment is available",
		"Service web: Current: Service is ready; endpoints: 3/3 ready",
		"web tier Current after",
		"Deployment stuck failed: Progress deadline exceeded",
		"Unschedulable: 0/2 nodes are available",
		"both Deployments deleted",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	t.Logf("output:\n%s", out.String())
}
