package cluster_test

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/kstatus"
)

var capture = flag.Bool("capture", false, "TestCapture: record testdata/kstatus/*.json from the cluster")

// TestCapture applies testdata/capture.yaml in a namespace of its own, waits (at most 30 s)
// until every object is reconciled, and records each, as the API server serves it, into
// testdata/kstatus/<kind>.json, with one Pod of the StatefulSet beside them. It runs only with
// -capture; the recorded files are committed.
func TestCapture(t *testing.T) {
	if !*capture {
		t.Skip("records fixtures; run with -capture")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	ns := newNamespace(t)
	c, err := kates.NewClientFromRESTConfig(cluster.RESTConfig(), ns)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("../testdata/capture.yaml")
	if err != nil {
		t.Fatal(err)
	}
	objs, err := kates.ParseManifests(string(data))
	if err != nil {
		t.Fatal(err)
	}
	type ref struct{ kind, name string }
	var refs []ref
	for _, o := range objs {
		if err := c.Apply(ctx, o, nil); err != nil {
			t.Fatal(err)
		}
		refs = append(refs, ref{o.GetObjectKind().GroupVersionKind().Kind, o.GetName()})
	}
	refs = append(refs, ref{"Pod", "db-0"})

	deadline := time.Now().Add(30 * time.Second)
	for _, r := range refs {
		for {
			u := &unstructured.Unstructured{}
			u.SetKind(r.kind)
			u.SetAPIVersion(apiVersion(t, c, r.kind))
			u.SetNamespace(ns)
			u.SetName(r.name)
			err := c.Get(ctx, u, u)
			if err == nil {
				res, _ := kstatus.Compute(u)
				if (res != nil && res.Status == kstatus.CurrentStatus) || time.Now().After(deadline) {
					if res != nil {
						t.Logf("%s %s: %s (%s)", r.kind, r.name, res.Status, res.Message)
					}
					file := strings.ToLower(r.kind)
					if r.kind == "Pod" {
						file = "statefulset-pod" // beside testdata/kstatus/bench/pod.json
					}
					write(t, file, u)
					break
				}
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
}

// newNamespace creates a namespace for t, deleted when t ends.
func newNamespace(t *testing.T) string {
	t.Helper()
	ns, err := writer.CoreV1().Namespaces().Create(context.Background(),
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "kates-bench-capture-"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = writer.CoreV1().Namespaces().Delete(context.Background(), ns.Name, metav1.DeleteOptions{})
	})
	return ns.Name
}

func apiVersion(t *testing.T, c *kates.Client, kind string) string {
	t.Helper()
	m, err := c.Mapping(kind)
	if err != nil {
		t.Fatal(err)
	}
	return m.GroupVersionKind.GroupVersion().String()
}

func write(t *testing.T, name string, u *unstructured.Unstructured) {
	t.Helper()
	data, err := json.MarshalIndent(u.Object, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("..", "testdata", "kstatus", name+".json"), append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}
