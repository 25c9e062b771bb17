package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/kates-dev/kates/testenv/katestest"
)

func TestCRUDExample(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// run creates (Upsert) and deletes its namespace itself; starting from an existing one
	// exercises the Upsert path.
	client, ns := katestest.NewClient(t, katestest.Start(t), "kates-crud-")
	var out bytes.Buffer
	if err := run(ctx, client, ns, &out); err != nil {
		t.Fatalf("run: %v\noutput:\n%s", err, out.String())
	}
	for _, want := range []string{
		"created ConfigMap " + ns + "/settings (has uid: true)",
		"map[color:blue shape:round size:large]",
		"applied Deployment web with 2 replicas",
		"listed 1 Deployment(s) and 2 ConfigMap(s)",
		`after delete, Get says: kates: get ConfigMap ` + ns + `/settings: configmaps "settings" not found`,
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}
