package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/kates-dev/kates/testenv/katestest"
)

func TestValidateExample(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	client, _ := katestest.NewClient(t, katestest.Start(t), "kates-validate-")
	var out bytes.Buffer
	if err := run(ctx, client, &out); err != nil {
		t.Fatalf("run: %v\noutput:\n%s", err, out.String())
	}
	for _, want := range []string{
		"good: valid, applied",
		"typo: refused (invalid: true):\n  spec.replicass: field not declared in schema\n  spec.strategy.typ: field not declared in schema\n",
		"wrongtype: refused (invalid: true):\n  spec.replicas: expected numeric (int or float), got string\n",
		"kind: refused: kates: the server doesn't have a resource type \"Deploymnet (apps/v1)\"; did you mean deployments.apps?",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}
