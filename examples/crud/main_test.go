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

func TestCRUDExample(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cluster, err := testenv.Start(ctx, testenv.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer cluster.Stop()
	client, err := kates.NewClientFromRESTConfig(cluster.RESTConfig(), "")
	if err != nil {
		t.Fatal(err)
	}
	// A namespace of this run's own: the last run's may still be terminating.
	ns := "kates-crud-" + rand.String(6)
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
