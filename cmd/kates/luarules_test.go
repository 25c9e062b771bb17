package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kates-dev/kates/kstatus"
)

// writeTree writes files (path → content) under a new directory and returns it.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, content := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const widgetCheck = `if obj.status ~= nil and obj.status.phase == "Ready" then
  return {status = "Healthy", message = "widget ready"}
end
return {status = "Progressing", message = "widget not ready"}
`

// TestStatusRulesLuaLoad: --status-rules takes a directory of Argo CD health checks and an
// argocd-cm ConfigMap besides CEL files, merged in order, and a broken script is a usage
// error naming the file and line. Pure: it needs no cluster.
func TestStatusRulesLuaLoad(t *testing.T) {
	dir := writeTree(t, map[string]string{"example.com/Widget/health.lua": widgetCheck, "example.com/Widget/testdata/x.yaml": "ignored"})
	cm := writeFile(t, "argocd-cm.yaml", `apiVersion: v1
kind: ConfigMap
metadata: {name: argocd-cm}
data:
  resource.customizations.health.example.com_Gadget: |
    return {status = "Degraded", message = "gadget broken"}
`)
	cel := writeFile(t, "rules.yaml", "rules: [{kind: Widget, group: example.com, current: 'true', message: \"'by cel'\"}]")
	f := ruleFlags{files: []string{dir, cm, cel}}
	if err := f.load(); err != nil {
		t.Fatal(err)
	}
	obj := func(kind string) *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{"apiVersion": "example.com/v1", "kind": kind,
			"metadata": map[string]any{"name": "x"}, "status": map[string]any{"phase": "Ready"}}}
	}
	for _, tc := range []struct {
		kind, rule string
		status     kstatus.Status
		message    string
	}{
		// The directory comes first, so its Widget check wins over the CEL rule.
		{"Widget", "lua:example.com/Widget/health.lua", kstatus.CurrentStatus, "widget ready"},
		{"Gadget", "lua:" + cm + ": resource.customizations.health.example.com_Gadget", kstatus.FailedStatus, "gadget broken"},
	} {
		res, rule, err := kstatus.Explain(obj(tc.kind), kstatus.Options{Rules: f.rules})
		if err != nil || res.Status != tc.status || res.Message != tc.message || rule != tc.rule {
			t.Errorf("Explain(%s) = %+v, %q, %v; want %s %q by %s", tc.kind, res, rule, err, tc.status, tc.message, tc.rule)
		}
	}

	for _, tc := range []struct {
		files []string
		want  string
	}{
		{[]string{writeTree(t, map[string]string{"example.com/Widget/health.lua": "if obj then\nreturn {}\n"})},
			"example.com/Widget/health.lua line:2"},
		{[]string{writeTree(t, map[string]string{"README.md": "no checks here"})}, "no Lua health check"},
		{[]string{writeFile(t, "bad-cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: argocd-cm}\ndata:\n  resource.customizations.health.example.com_W: 'return {'\n")},
			"resource.customizations.health.example.com_W"},
		{[]string{filepath.Join(t.TempDir(), "absent")}, "no such file"},
	} {
		f := ruleFlags{files: tc.files}
		err := f.load()
		ee, _ := err.(*exitError)
		if err == nil || !strings.Contains(err.Error(), tc.want) || ee == nil || ee.code != exitUsage {
			t.Errorf("load(%v) = %v; want a usage error containing %q", tc.files, err, tc.want)
		}
	}
}

// TestStatusWithLuaRules: kates status judges a custom resource by an Argo CD health check
// given as a directory (Degraded: Failed, exit code 1), and names it in -o wide; a broken
// check stops the command with exit code 2.
func TestStatusWithLuaRules(t *testing.T) {
	c, ns := newClient(t)
	manifest, _, group := phasedFixture(t, c)
	dir := writeTree(t, map[string]string{group + "/Phased/health.lua": `
if obj.status == nil or obj.status.phase == nil then
  return {status = "Progressing", message = "no phase yet"}
elseif obj.status.phase == "Failed" then
  return {status = "Degraded", message = "failed: " .. (obj.status.message or "")}
end
return {status = "Healthy", message = "phase " .. obj.status.phase}
`})
	if r := runKates(t, nil, "apply", "-n", ns, "-f", manifest); r.code != 0 {
		t.Fatalf("apply: exit %d", r.code)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	setPhase(t, ctx, c, group, "Failed", "disk full")
	r := runKates(t, nil, "status", "-n", ns, "phaseds."+group+"/job", "-o", "wide", "--status-rules", dir)
	// status exits 1 when an object is Failed.
	if r.code != 1 || !strings.Contains(r.stdout, "Failed") || !strings.Contains(r.stdout, "failed: disk full") ||
		!strings.Contains(r.stdout, "lua:"+group+"/Phased/health.lua") {
		t.Errorf("status -o wide: exit %d, want 1, Failed by the Lua check with its message", r.code)
	}
	broken := writeTree(t, map[string]string{group + "/Phased/health.lua": "return {"})
	if r := runKates(t, nil, "status", "-n", ns, "phaseds."+group+"/job", "--status-rules", broken); r.code != 2 ||
		!strings.Contains(r.stderr, "Phased/health.lua") {
		t.Errorf("status with a broken check: exit %d, want 2 naming the script", r.code)
	}
}
