package main

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/util/rand"

	"github.com/kates-dev/kates/kates"
)

// kubectlGetName runs kubectl get -o name with args against the test cluster and returns its
// standard output, the bytes kates' -o name must match.
func kubectlGetName(t *testing.T, args ...string) string {
	t.Helper()
	out, err := kubectlGetNameExit(t, args...)
	if err != nil {
		t.Fatalf("kubectl get %v: %v", args, err)
	}
	return out
}

// kubectlGetNameExit is kubectlGetName for a kubectl that may fail (an object not found): its
// standard output and its error.
func kubectlGetNameExit(t *testing.T, args ...string) (string, error) {
	t.Helper()
	kubectl, err := exec.LookPath("kubectl")
	if err != nil {
		t.Skip("kubectl is not on PATH: -o name is not compared with it here")
	}
	cmd := exec.Command(kubectl, append([]string{"--kubeconfig", cluster.KubeconfigPath(), "get", "-o", "name"}, args...)...)
	out, err := cmd.Output()
	return string(out), err
}

// TestOutputNameAsKubectl: status, wait and watch -o name print, byte for byte, what kubectl
// get -o name prints for the same objects: built-in kinds of the core group and of others,
// a CustomResourceDefinition and a custom resource of it.
func TestOutputNameAsKubectl(t *testing.T) {
	c, ns := newClient(t)
	data, err := os.ReadFile("../../testdata/wait/batch.yaml")
	if err != nil {
		t.Fatal(err)
	}
	group := "n" + rand.String(6) + ".example.com"
	file := writeFile(t, "batch.yaml", strings.ReplaceAll(string(data), "example.com", group))
	t.Cleanup(func() {
		_ = c.Delete(context.Background(), kates.NewUnstructured("apiextensions.k8s.io/v1", "CustomResourceDefinition", "", "gadgets."+group), nil)
	})
	if r := runKates(t, nil, "apply", "-n", ns, "-f", file, "--wait", "--timeout", "90s"); r.code != 0 {
		t.Fatalf("apply: exit %d", r.code)
	}
	want := kubectlGetName(t, "-n", ns, "-f", file)
	if !strings.Contains(want, "gadget."+group+"/g1\n") || !strings.Contains(want, "configmap/settings\n") ||
		!strings.Contains(want, "deployment.apps/") {
		t.Fatalf("kubectl get -o name printed %q: the fixture lacks a kind the test needs", want)
	}

	t.Run("status", func(t *testing.T) {
		r := runKates(t, nil, "status", "-n", ns, "-f", file, "-o", "name")
		if r.code != 0 {
			t.Errorf("exit %d, want 0: every object is Current", r.code)
		}
		if diff := cmp.Diff(want, r.stdout); diff != "" {
			t.Errorf("status -o name differs from kubectl get -o name (-want +got):\n%s", diff)
		}
		// An object that does not exist: kubectl names it on stderr only, and fails.
		wantOut, kerr := kubectlGetNameExit(t, "-n", ns, "deploy/web", "cm/nothere", "cm/settings")
		r = runKates(t, nil, "status", "-n", ns, "deploy/web", "cm/nothere", "cm/settings", "-o", "name")
		if kerr == nil || r.code != 1 {
			t.Errorf("with an object not found: kubectl's error %v, kates' exit %d; want both to fail", kerr, r.code)
		}
		if diff := cmp.Diff(wantOut, r.stdout); diff != "" {
			t.Errorf("status -o name with an object not found differs from kubectl (-want +got):\n%s", diff)
		}
		if !strings.Contains(r.stderr, "configmap/nothere: not found") {
			t.Errorf("stderr %q does not name the object not found", r.stderr)
		}
	})
	t.Run("wait", func(t *testing.T) {
		r := runKates(t, nil, "wait", "-n", ns, "-f", file, "-o", "name", "--timeout", "60s")
		if r.code != 0 {
			t.Errorf("exit %d, want 0", r.code)
		}
		if diff := cmp.Diff(want, r.stdout); diff != "" {
			t.Errorf("wait -o name differs from kubectl get -o name (-want +got):\n%s", diff)
		}
	})
	t.Run("watch", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		w := startWatch(t, ctx, "-n", ns, "cm", "-l", "set=n", "-o", "name")
		createThenDelete(t, ctx, c, "two", "n", func() {
			line := w.expect(`two`)
			if diff := cmp.Diff(kubectlGetName(t, "-n", ns, "configmap/two"), line+"\n"); diff != "" {
				t.Errorf("watch -o name line differs from kubectl get -o name (-want +got):\n%s", diff)
			}
		})
		// Its deletion is a change too, named the same way (kubectl get -w prints a line per
		// event, the deletion's included).
		if line := w.expect(`two`); line != "configmap/two" {
			t.Errorf("line after the deletion %q, want %q", line, "configmap/two")
		}
		w.interrupt()
	})
}
