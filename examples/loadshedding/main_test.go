package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/kates-dev/kates/testenv/katestest"
)

func TestLoadSheddingExample(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	client, _ := katestest.NewClient(t, katestest.Start(t), "kates-shed-")
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
