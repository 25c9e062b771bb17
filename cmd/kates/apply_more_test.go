package main

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kates-dev/kates/applyset"
	"github.com/kates-dev/kates/kates"
)

// configMaps is a manifest of ConfigMaps of those names.
func configMaps(names ...string) string {
	var b strings.Builder
	for _, n := range names {
		b.WriteString("---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: " + n + "}\ndata: {k: " + n + "}\n")
	}
	return b.String()
}

// TestApplyPruneWithApplySet: apply --prune --applyset writes the parent Secret with the
// KEP-3659 label and annotations, labels each member, and on the next apply deletes exactly the
// members that left the manifests: never an object without the label, nor one of another set.
// --dry-run=server lists what would go and deletes nothing; --wait waits until the pruned are
// gone. A refusal (another tool's set) is exit 2 and writes nothing.
func TestApplyPruneWithApplySet(t *testing.T) {
	c, ns := newClient(t)
	ctx := context.Background()
	// Outside the set: an unlabelled ConfigMap, and a member of another set.
	outsider := kates.NewUnstructured("v1", "ConfigMap", ns, "outsider")
	foreign := kates.NewUnstructured("v1", "ConfigMap", ns, "foreign")
	foreign.SetLabels(map[string]string{"applyset.kubernetes.io/part-of": applyset.ID("", "Secret", ns, "other")})
	for _, o := range []*unstructured.Unstructured{outsider, foreign} {
		if err := c.Create(ctx, o, nil); err != nil {
			t.Fatal(err)
		}
	}
	first := writeFile(t, "first.yaml", configMaps("a", "b", "c")+"---\n"+webManifest)
	r := runKates(t, nil, "apply", "-n", ns, "-f", first, "--prune", "--applyset", "app", "--applyset-tooling", "kates/v1.2.3")
	if r.code != 0 {
		t.Fatalf("first apply: exit %d", r.code)
	}

	// The parent: exactly kubectl's keys, the ID computed as the KEP says.
	// KEP-3659: base64url, unpadded, of sha256("<name>.<namespace>.<kind>.<group>"); core group "".
	sum := sha256.Sum256([]byte("app." + ns + ".Secret."))
	id := "applyset-" + base64.RawURLEncoding.EncodeToString(sum[:]) + "-v1"
	if got := applyset.ID("", "Secret", ns, "app"); got != id {
		t.Errorf("applyset.ID = %q, want %q", got, id)
	}
	parent := &unstructured.Unstructured{}
	if err := c.Get(ctx, kates.NewUnstructured("v1", "Secret", ns, "app"), parent); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{"applyset.kubernetes.io/id": id}, parent.GetLabels()); diff != "" {
		t.Errorf("parent labels mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]string{
		"applyset.kubernetes.io/tooling":               "kates/v1.2.3",
		"applyset.kubernetes.io/contains-group-kinds":  "ConfigMap,Deployment.apps,Service",
		"applyset.kubernetes.io/additional-namespaces": "",
	}, parent.GetAnnotations()); diff != "" {
		t.Errorf("parent annotations mismatch (-want +got):\n%s", diff)
	}
	for _, o := range []*unstructured.Unstructured{kates.NewUnstructured("v1", "ConfigMap", ns, "a"), kates.NewUnstructured("apps/v1", "Deployment", ns, "web")} {
		got := &unstructured.Unstructured{}
		if err := c.Get(ctx, o, got); err != nil {
			t.Fatal(err)
		}
		if v := got.GetLabels()["applyset.kubernetes.io/part-of"]; v != id {
			t.Errorf("%s %s: label applyset.kubernetes.io/part-of = %q, want %q", o.GetKind(), o.GetName(), v, id)
		}
	}

	// A dry run of a smaller set names what would go and deletes nothing.
	second := writeFile(t, "second.yaml", configMaps("a"))
	r = runKates(t, nil, "apply", "-n", ns, "-f", second, "--prune", "--applyset", "app", "--applyset-tooling", "kates/v1.2.3", "--dry-run=server")
	if r.code != 0 {
		t.Fatalf("dry run: exit %d", r.code)
	}
	wantPruned := []string{"configmap/b", "configmap/c", "deployment.apps/web", "service/web", "configmap/settings"}
	for _, name := range wantPruned {
		if !strings.Contains(r.stdout, name+" pruned (server dry run)\n") {
			t.Errorf("dry run does not list %s as pruned", name)
		}
	}
	for _, name := range []string{"b", "c", "settings"} {
		if err := c.Get(ctx, kates.NewUnstructured("v1", "ConfigMap", ns, name), nil); err != nil {
			t.Errorf("configmap %s after the dry run: %v, want kept", name, err)
		}
	}

	// For real, with --wait: exactly the members that left are gone.
	r = runKates(t, nil, "apply", "-n", ns, "-f", second, "--prune", "--applyset", "app", "--applyset-tooling", "kates/v1.2.3", "--wait", "--timeout", "60s", "-o", "name")
	if r.code != 0 {
		t.Fatalf("prune: exit %d", r.code)
	}
	var named []string
	for _, l := range strings.Split(r.stdout, "\n") {
		if nameLine.MatchString(l) {
			named = append(named, l)
		}
	}
	// Applied, then pruned in the order prune reports: by group, kind, namespace and name.
	want := []string{"configmap/a", "configmap/b", "configmap/c", "configmap/settings", "service/web", "deployment.apps/web"}
	if diff := cmp.Diff(want, named); diff != "" {
		t.Errorf("apply -o name: applied then pruned mismatch (-want +got):\n%s", diff)
	}
	if !strings.Contains(r.stdout, "5/5 deleted after") {
		t.Errorf("--wait did not wait for the pruned objects to be deleted")
	}
	for _, o := range []*unstructured.Unstructured{
		kates.NewUnstructured("v1", "ConfigMap", ns, "b"), kates.NewUnstructured("v1", "ConfigMap", ns, "c"),
		kates.NewUnstructured("v1", "ConfigMap", ns, "settings"), kates.NewUnstructured("v1", "Service", ns, "web"),
		kates.NewUnstructured("apps/v1", "Deployment", ns, "web"),
	} {
		if err := c.Get(ctx, o, nil); !apierrors.IsNotFound(err) {
			t.Errorf("%s %s after the prune: %v, want NotFound", o.GetKind(), o.GetName(), err)
		}
	}
	for _, o := range []*unstructured.Unstructured{kates.NewUnstructured("v1", "ConfigMap", ns, "a"), outsider, foreign} {
		if err := c.Get(ctx, o, nil); err != nil {
			t.Errorf("%s after the prune: %v, want kept (in the set, or outside it)", o.GetName(), err)
		}
	}
	if err := c.Get(ctx, kates.NewUnstructured("v1", "Secret", ns, "app"), parent); err != nil {
		t.Fatal(err)
	}
	if got := parent.GetAnnotations()["applyset.kubernetes.io/contains-group-kinds"]; got != "ConfigMap" {
		t.Errorf("parent contains-group-kinds after the prune = %q, want ConfigMap", got)
	}

	// Refusals, exit 2, nothing written: a set of another tool; --prune without --applyset.
	r = runKates(t, nil, "apply", "-n", ns, "-f", first, "--prune", "--applyset", "app", "--applyset-tooling", "helm/v3")
	if r.code != 2 || !strings.Contains(r.stderr, `managed by "kates", not "helm"`) {
		t.Errorf("apply to another tool's set: exit %d, want 2 naming the tools", r.code)
	}
	if err := c.Get(ctx, kates.NewUnstructured("v1", "ConfigMap", ns, "b"), nil); !apierrors.IsNotFound(err) {
		t.Errorf("configmap b after a refused apply: %v, want NotFound: nothing applied", err)
	}
	for _, args := range [][]string{{"--prune"}, {"--applyset", "app"}} {
		if r := runKates(t, nil, append([]string{"apply", "-n", ns, "-f", second}, args...)...); r.code != 2 {
			t.Errorf("apply %v: exit %d, want 2", args, r.code)
		}
	}
}

// nameLine is a line of -o name: TYPE/NAME alone.
var nameLine = regexp.MustCompile(`^[a-z.]+/[a-z0-9.-]+$`)

// TestApplySetCrossPruneWithKubectl: a set kates applied is pruned by kubectl apply --prune
// --applyset, and the other way round. Needs kubectl on PATH.
func TestApplySetCrossPruneWithKubectl(t *testing.T) {
	kubectl, err := exec.LookPath("kubectl")
	if err != nil {
		t.Skip("kubectl is not on PATH: the cross-prune with kubectl is not tested here")
	}
	c, ns := newClient(t)
	ctx := context.Background()
	kubectlApply := func(file string) {
		t.Helper()
		cmd := exec.Command(kubectl, "--kubeconfig", cluster.KubeconfigPath(), "apply", "-n", ns, "--server-side", "--prune", "--applyset", "shared", "-f", file)
		cmd.Env = append(os.Environ(), "KUBECTL_APPLYSET=true")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("kubectl apply: %v\n%s", err, out)
		}
	}
	// kubectl writes "kubectl/VERSION" and refuses other tools' sets: kates shares it by name.
	katesApply := func(file string) {
		t.Helper()
		if r := runKates(t, nil, "apply", "-n", ns, "-f", file, "--prune", "--applyset", "shared", "--applyset-tooling", "kubectl/v1.0.0"); r.code != 0 {
			t.Fatalf("kates apply: exit %d", r.code)
		}
	}
	gone := func(name string) {
		t.Helper()
		if err := c.Get(ctx, kates.NewUnstructured("v1", "ConfigMap", ns, name), nil); !apierrors.IsNotFound(err) {
			t.Errorf("configmap %s: %v, want pruned", name, err)
		}
	}
	katesApply(writeFile(t, "ab.yaml", configMaps("a", "b")))
	kateswrote := &unstructured.Unstructured{}
	if err := c.Get(ctx, kates.NewUnstructured("v1", "Secret", ns, "shared"), kateswrote); err != nil {
		t.Fatal(err)
	}
	kubectlApply(writeFile(t, "a.yaml", configMaps("a")))
	gone("b")
	// kubectl's parent: the same ID label, the same annotation keys and values but its version.
	kubectlWrote := &unstructured.Unstructured{}
	if err := c.Get(ctx, kates.NewUnstructured("v1", "Secret", ns, "shared"), kubectlWrote); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(kateswrote.GetLabels(), kubectlWrote.GetLabels()); diff != "" {
		t.Errorf("parent labels, kates (-) and kubectl (+):\n%s", diff)
	}
	if id := kubectlWrote.GetLabels()["applyset.kubernetes.io/id"]; id != applyset.ID("", "Secret", ns, "shared") {
		t.Errorf("kubectl's ID %q, applyset.ID %q", id, applyset.ID("", "Secret", ns, "shared"))
	}
	strip := func(a map[string]string) map[string]string {
		a["applyset.kubernetes.io/tooling"] = toolName(a["applyset.kubernetes.io/tooling"])
		return a
	}
	if diff := cmp.Diff(strip(kateswrote.GetAnnotations()), strip(kubectlWrote.GetAnnotations())); diff != "" {
		t.Errorf("parent annotations (tooling version aside), kates (-) and kubectl (+):\n%s", diff)
	}
	kubectlApply(writeFile(t, "ac.yaml", configMaps("a", "c")))
	katesApply(writeFile(t, "a2.yaml", configMaps("a")))
	gone("c")
}

func toolName(tooling string) string {
	name, _, _ := strings.Cut(tooling, "/")
	return name
}

// TestApplyJSONPathOutput: -o jsonpath=TEMPLATE prints each object the server answered through
// the template, as kubectl does (no newline added); jsonpath-file reads it from a file;
// status and watch take it too, over the status objects; a bad template is exit 2 and nothing
// is applied.
func TestApplyJSONPathOutput(t *testing.T) {
	c, ns := newClient(t)
	file := writeFile(t, "cms.yaml", configMaps("one", "two"))
	r := runKates(t, nil, "apply", "-n", ns, "-f", file, "-o", `jsonpath={.kind}/{.metadata.name} {.data.k} {.metadata.namespace}{"\n"}`)
	if want := "ConfigMap/one one " + ns + "\nConfigMap/two two " + ns + "\n"; r.code != 0 || r.stdout != want {
		t.Errorf("apply -o jsonpath: exit %d, stdout %q, want %q", r.code, r.stdout, want)
	}
	tmpl := writeFile(t, "uid.tmpl", `{.metadata.uid}{"\n"}`)
	r = runKates(t, nil, "apply", "-n", ns, "-f", file, "-o", "jsonpath-file="+tmpl)
	got := &unstructured.Unstructured{}
	if err := c.Get(context.Background(), kates.NewUnstructured("v1", "ConfigMap", ns, "one"), got); err != nil {
		t.Fatal(err)
	}
	if r.code != 0 || !strings.HasPrefix(r.stdout, string(got.GetUID())+"\n") {
		t.Errorf("apply -o jsonpath-file: exit %d, stdout %q, want the uid %s first", r.code, r.stdout, got.GetUID())
	}
	r = runKates(t, nil, "status", "-n", ns, "cm", "-o", `jsonpath={.name}={.status}{"\n"}`)
	if !strings.Contains(r.stdout, "one=Current\n") || !strings.Contains(r.stdout, "two=Current\n") {
		t.Errorf("status -o jsonpath: stdout %q, want name=status lines", r.stdout)
	}
	r = runKates(t, nil, "wait", "-n", ns, "cm/one", "cm/two", "-o", `jsonpath={.kind}/{.name}:{.status}{"\n"}`)
	if want := "ConfigMap/one:Current\nConfigMap/two:Current\n"; r.code != 0 || r.stdout != want {
		t.Errorf("wait -o jsonpath: exit %d, stdout %q, want %q", r.code, r.stdout, want)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	w := startWatch(t, ctx, "-n", ns, "cm", "-l", "set=jp", "-o", `jsonpath={.name} {.status}{"\n"}`)
	createThenDelete(t, ctx, c, "four", "jp", func() { w.expect(`^four Current$`) })
	w.expect(`^four NotFound$`)
	w.interrupt()
	r = runKates(t, nil, "apply", "-n", ns, "-f", writeFile(t, "three.yaml", configMaps("three")), "-o", "jsonpath={.metadata.name")
	if r.code != 2 || !strings.Contains(r.stderr, "jsonpath") {
		t.Errorf("apply -o with a broken template: exit %d, want 2 naming the jsonpath", r.code)
	}
	r = runKates(t, nil, "apply", "-n", ns, "-f", writeFile(t, "three.yaml", configMaps("three")), "-o", "jsonpath-file=/no/such/template")
	if r.code != 2 || !strings.Contains(r.stderr, "/no/such/template") {
		t.Errorf("apply -o jsonpath-file of a missing file: exit %d, want 2 naming the file", r.code)
	}
	if err := c.Get(context.Background(), kates.NewUnstructured("v1", "ConfigMap", ns, "three"), nil); !apierrors.IsNotFound(err) {
		t.Errorf("configmap three after a refused -o: %v, want NotFound", err)
	}
}

// TestApplyKustomize: -k DIR applies what kustomize builds from the overlay (prefix, label,
// patch, generated ConfigMap); diff and validate take -k too; a kustomization that does not
// build is exit 2 with kustomize's reason, and -f with -k is refused.
func TestApplyKustomize(t *testing.T) {
	c, ns := newClient(t)
	overlay := "../../testdata/kustomize/overlay"
	r := runKates(t, nil, "apply", "-n", ns, "-k", overlay, "-o", "name")
	if r.code != 0 {
		t.Fatalf("apply -k: exit %d", r.code)
	}
	names := strings.Fields(r.stdout)
	if len(names) != 2 || names[0] != "configmap/prod-settings" || !strings.HasPrefix(names[1], "configmap/prod-generated-") {
		t.Errorf("apply -k applied %v, want prod-settings and prod-generated-<hash>", names)
	}
	got := &unstructured.Unstructured{}
	if err := c.Get(context.Background(), kates.NewUnstructured("v1", "ConfigMap", ns, "prod-settings"), got); err != nil {
		t.Fatal(err)
	}
	if level, _, _ := unstructured.NestedString(got.Object, "data", "level"); level != "prod" || got.GetLabels()["env"] != "prod" {
		t.Errorf("prod-settings: level %q, labels %v; want the overlay's patch and label", level, got.GetLabels())
	}
	if r := runKates(t, nil, "diff", "-n", ns, "-k", overlay); r.code != 0 {
		t.Errorf("diff -k of what is applied: exit %d, want 0", r.code)
	}
	if r := runKates(t, nil, "validate", "-n", ns, "-k", overlay); r.code != 0 || !strings.Contains(r.stdout, "2 of 2 objects valid") {
		t.Errorf("validate -k: exit %d, want 0 and 2 objects valid", r.code)
	}
	broken, _ := filepath.Abs("../../testdata/kustomize/broken")
	r = runKates(t, nil, "apply", "-n", ns, "-k", broken)
	if r.code != 2 || !strings.Contains(r.stderr, "-k "+broken) || !strings.Contains(r.stderr, "missing.yaml") {
		t.Errorf("apply -k of a broken kustomization: exit %d, want 2 naming the directory and the missing file", r.code)
	}
	if r := runKates(t, nil, "apply", "-n", ns, "-k", overlay, "-f", writeFile(t, "x.yaml", configMaps("x"))); r.code != 2 || !strings.Contains(r.stderr, "not both") {
		t.Errorf("apply -k with -f: exit %d, want 2", r.code)
	}
}

// TestApplyDiffShowsTheChangeFirst: apply --diff prints the diff of what it is about to change,
// then applies it.
func TestApplyDiffShowsTheChangeFirst(t *testing.T) {
	c, ns := newClient(t)
	if r := runKates(t, nil, "apply", "-n", ns, "-f", writeFile(t, "v1.yaml", configMaps("cfg"))); r.code != 0 {
		t.Fatalf("apply: exit %d", r.code)
	}
	changed := writeFile(t, "v2.yaml", strings.Replace(configMaps("cfg"), "{k: cfg}", "{k: changed}", 1))
	r := runKates(t, nil, "apply", "-n", ns, "-f", changed, "--diff")
	if r.code != 0 {
		t.Fatalf("apply --diff: exit %d, want 0", r.code)
	}
	diffAt, appliedAt := strings.Index(r.stdout, "+  k: changed"), strings.Index(r.stdout, "configmap/cfg applied")
	if diffAt < 0 || !strings.Contains(r.stdout, "-  k: cfg") || appliedAt < diffAt {
		t.Errorf("apply --diff: want the diff (-  k: cfg, +  k: changed) before \"configmap/cfg applied\"")
	}
	got := &unstructured.Unstructured{}
	if err := c.Get(context.Background(), kates.NewUnstructured("v1", "ConfigMap", ns, "cfg"), got); err != nil {
		t.Fatal(err)
	}
	if v, _, _ := unstructured.NestedString(got.Object, "data", "k"); v != "changed" {
		t.Errorf("data.k = %q after apply --diff, want changed", v)
	}
}

// TestApplyWaitAnnotation: kates.dev/wait "false" leaves an object apply --wait would wait for
// forever (a Deployment no Node can run) out of the wait; "exists" waits only until it exists;
// an unknown value is exit 2 before anything is applied.
func TestApplyWaitAnnotation(t *testing.T) {
	c, ns := newClient(t)
	stuck := func(name, wait string) string {
		return `---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: ` + name + `
  annotations: {kates.dev/wait: "` + wait + `"}
spec:
  selector: {matchLabels: {app: ` + name + `}}
  template:
    metadata: {labels: {app: ` + name + `}}
    spec:
      nodeSelector: {no-such-node: "true"}
      containers: [{name: c, image: example.com/c:1}]
`
	}
	file := writeFile(t, "stuck.yaml", stuck("skipped", "false")+stuck("existing", "exists")+configMaps("plain"))
	r := runKates(t, nil, "apply", "-n", ns, "-f", file, "--wait", "--timeout", "60s")
	if r.code != 0 {
		t.Fatalf("apply --wait with kates.dev/wait annotations: exit %d, want 0", r.code)
	}
	for _, want := range []string{"not waiting for 1 object(s) annotated kates.dev/wait: \"false\"", "deployment.apps/existing Current: exists", "1/1 Current after"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q", want)
		}
	}
	bad := writeFile(t, "bad.yaml", configMaps("first")+stuck("odd", "maybe"))
	r = runKates(t, nil, "apply", "-n", ns, "-f", bad, "--wait")
	if r.code != 2 || !strings.Contains(r.stderr, `annotation kates.dev/wait: "maybe"`) || !strings.Contains(r.stderr, "(Deployment odd)") {
		t.Errorf("apply of an unknown kates.dev/wait: exit %d, want 2 naming the value and document", r.code)
	}
	if err := c.Get(context.Background(), kates.NewUnstructured("v1", "ConfigMap", ns, "first"), nil); !apierrors.IsNotFound(err) {
		t.Errorf("configmap first after a refused apply: %v, want NotFound", err)
	}
}

// TestApplyRefusesDuplicatesAndSaysUnchanged: a batch that defines one object in two files
// (as prometheus-operator's getting-started folder defines its Prometheus four times) is
// refused before anything is written, naming the object and every file and document; a
// re-apply says which objects did not change.
func TestApplyRefusesDuplicatesAndSaysUnchanged(t *testing.T) {
	c, ns := newClient(t)
	dir := t.TempDir()
	for name, text := range map[string]string{
		"a.yaml": configMaps("first", "shared"),
		"b.yaml": configMaps("shared"),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := runKates(t, nil, "apply", "-n", ns, "-f", dir)
	want := "ConfigMap " + ns + "/shared is defined 2 times: " + filepath.Join(dir, "a.yaml") + ": document 2, " + filepath.Join(dir, "b.yaml") + ": document 1"
	if r.code != 2 || !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, "nothing applied") {
		t.Errorf("apply of a duplicate: exit %d, stderr %q; want 2 and %q", r.code, r.stderr, want)
	}
	if err := c.Get(context.Background(), kates.NewUnstructured("v1", "ConfigMap", ns, "first"), nil); !apierrors.IsNotFound(err) {
		t.Errorf("configmap first after a refused batch: %v, want NotFound", err)
	}

	file := writeFile(t, "two.yaml", configMaps("one", "two"))
	if r := runKates(t, nil, "apply", "-n", ns, "-f", file); r.code != 0 || r.stdout != "configmap/one applied\nconfigmap/two applied\n" {
		t.Fatalf("first apply: exit %d, stdout %q", r.code, r.stdout)
	}
	changed := writeFile(t, "two.yaml", strings.Replace(configMaps("one", "two"), "{k: two}", "{k: changed}", 1))
	r = runKates(t, nil, "apply", "-n", ns, "-f", changed)
	if r.code != 0 || r.stdout != "configmap/one unchanged\nconfigmap/two applied\n" {
		t.Errorf("re-apply with one change: exit %d, stdout %q; want one unchanged, two applied", r.code, r.stdout)
	}
}
