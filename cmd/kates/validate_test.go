package main

import (
	"context"
	"os"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/rand"

	"github.com/kates-dev/kates/kates"
)

func TestValidateListsEveryViolationWithFileAndDocument(t *testing.T) {
	_, ns := newClient(t)
	data, err := os.ReadFile("../../testdata/validate/batch-invalid.yaml")
	if err != nil {
		t.Fatal(err)
	}
	bad := writeFile(t, "bad.yaml", string(data))
	good := writeFile(t, "good.yaml", webManifest)
	tests := []struct {
		name  string
		stdin string
		args  []string
		code  int
		want  []string // in stderr, or in stdout when the exit code is 0
	}{
		{"valid file", "", []string{"validate", "-f", good}, 0, []string{"3 of 3 objects valid"}},
		{"valid stdin", webManifest, []string{"validate", "-f", "-"}, 0, []string{"3 of 3 objects valid"}},
		{"invalid file", "", []string{"validate", "-f", bad}, 2, []string{
			"3 of 4 objects invalid",
			bad + ": document 2 (Deployment web): spec.replicass: ",
			bad + ": document 2 (Deployment web): spec.replicas: ",
			bad + ": document 3 (Deploymnet typo): the server does not serve kind Deploymnet of apps/v1; did you mean Deployment?",
			bad + ": document 4 (ConfigMap labelled): metadata.labels: ",
		}},
		{"a directory with both", "", []string{"validate", "-f", strings.TrimSuffix(bad, "/bad.yaml"), "-f", good}, 2, []string{"3 of 7 objects invalid"}},
		{"misspelled kind on apply", "", []string{"apply", "-f", bad}, 2, []string{"does not serve kind Deploymnet of apps/v1", "did you mean Deployment?"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdin []byte
			if tt.stdin != "" {
				stdin = []byte(tt.stdin)
			}
			r := runKates(t, stdin, append([]string{"-n", ns}, tt.args...)...)
			if r.code != tt.code {
				t.Errorf("exit %d, want %d", r.code, tt.code)
			}
			out := r.stderr
			if tt.code == 0 {
				out = r.stdout
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q", w)
				}
			}
		})
	}
}

// TestApplyValidatesTheWholeBatchFirst applies a batch whose last object is invalid: nothing
// may be applied, not even the valid objects before it; with --validate=false the server is
// left to judge, object by object, as kubectl does.
func TestApplyValidatesTheWholeBatchFirst(t *testing.T) {
	c, ns := newClient(t)
	batch := writeFile(t, "batch.yaml", `apiVersion: v1
kind: ConfigMap
metadata: {name: first}
data: {a: "1"}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: second, labels: {"a b": c}}
`)
	first := kates.NewUnstructured("v1", "ConfigMap", ns, "first")
	r := runKates(t, nil, "apply", "-n", ns, "-f", batch)
	if r.code != 2 {
		t.Errorf("exit %d, want 2", r.code)
	}
	for _, w := range []string{"1 of 2 objects invalid, nothing applied", batch + ": document 2 (ConfigMap second): metadata.labels: "} {
		if !strings.Contains(r.stderr, w) {
			t.Errorf("stderr lacks %q", w)
		}
	}
	if err := c.Get(context.Background(), first, nil); !apierrors.IsNotFound(err) {
		t.Errorf("after a batch with an invalid object, get the valid one: %v, want NotFound", err)
	}

	r = runKates(t, nil, "apply", "-n", ns, "-f", batch, "--validate=false")
	if r.code != 2 || strings.Contains(r.stderr, "nothing applied") || !strings.Contains(r.stdout, "configmap/first applied") {
		t.Errorf("with --validate=false: exit %d, want 2 from the server after configmap/first applied", r.code)
	}
	if err := c.Get(context.Background(), first, nil); err != nil {
		t.Errorf("with --validate=false, the valid object is applied: %v", err)
	}
}

// TestValidateCustomResourcesAgainstTheirCRDInTheBatch validates custom resources whose CRD
// comes in the same files and is not installed: they are checked against that CRD.
func TestValidateCustomResourcesAgainstTheirCRDInTheBatch(t *testing.T) {
	_, ns := newClient(t)
	data, err := os.ReadFile("../../testdata/validate/gadgets.yaml")
	if err != nil {
		t.Fatal(err)
	}
	group := "v" + rand.String(6) + ".example.com"
	crd := strings.ReplaceAll(string(data), "example.com", group)
	gadget := func(name, spec string) string {
		return "apiVersion: " + group + "/v1\nkind: Gadget\nmetadata: {name: " + name + "}\nspec: " + spec + "\n---\n"
	}
	good := writeFile(t, "good.yaml", gadget("g", "{color: red, size: 3}")+crd)
	bad := writeFile(t, "bad.yaml", gadget("g", "{color: purple, size: 3, minReplicas: 5, maxReplicas: 1}")+crd+"\n---\n"+gadget("h", "{color: red, size: 3, minReplicas: 5, maxReplicas: 1}"))

	r := runKates(t, nil, "-n", ns, "validate", "-f", good)
	if r.code != 0 || !strings.Contains(r.stdout, "2 of 2 objects valid") {
		t.Errorf("exit %d, want 0 and 2 of 2 objects valid", r.code)
	}
	r = runKates(t, nil, "-n", ns, "validate", "-f", bad)
	if r.code != 2 {
		t.Errorf("exit %d, want 2", r.code)
	}
	for _, w := range []string{
		bad + ": document 1 (Gadget g): spec.color: Unsupported value: \"purple\"",
		bad + ": document 3 (Gadget h): spec: Invalid value: minReplicas must not exceed maxReplicas",
		"2 of 3 objects invalid",
	} {
		if !strings.Contains(r.stderr, w) {
			t.Errorf("stderr lacks %q", w)
		}
	}
}
