package main

import (
	"context"
	"strings"
	"testing"

	"github.com/kates-dev/kates/kates"
)

// TestCompletionFromTheCluster: the shell scripts (kates completion bash|zsh|fish) call the
// hidden __complete command, which completes resource types, object names, namespaces and
// contexts from the cluster and the kubeconfig, as kubectl's completion does.
func TestCompletionFromTheCluster(t *testing.T) {
	c, ns := newClient(t)
	for _, name := range []string{"alpha", "beta"} {
		if err := c.Create(context.Background(), &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: name}}, nil); err != nil {
			t.Fatal(err)
		}
	}
	complete := func(args ...string) []string {
		t.Helper()
		r := runKates(t, nil, append([]string{"__complete"}, args...)...)
		if r.code != 0 {
			t.Fatalf("__complete %v: exit %d", args, r.code)
		}
		lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
		return lines[:len(lines)-1] // the last line is the directive, ":4"
	}
	has := func(what string, got []string, want ...string) {
		t.Helper()
		for _, w := range want {
			if !containsString(got, w) {
				t.Errorf("%s: completions %v lack %q", what, got, w)
			}
		}
	}
	has("types", complete("status", "-n", ns, ""), "configmaps", "deployments.apps", "customresourcedefinitions.apiextensions.k8s.io")
	has("types by prefix", complete("wait", "deploy"), "deployments.apps")
	got := complete("status", "-n", ns, "configmaps", "")
	has("names of a type", got, "alpha", "beta")
	got = complete("status", "-n", ns, "configmaps", "alpha", "")
	if containsString(got, "alpha") {
		t.Errorf("a name already given is offered again: %v", got)
	}
	has("TYPE/NAME", complete("wait", "-n", ns, "cm/a"), "cm/alpha")
	if got := complete("wait", "-n", ns, "cm/a"); containsString(got, "cm/beta") {
		t.Errorf("cm/a completes to %v, beyond its prefix", got)
	}
	has("namespaces", complete("status", "-n", ns[:len(ns)-2]), ns)
	has("contexts", complete("status", "--context", ""), "testenv")
	has("--for", complete("wait", "--for", ""), "current", "deleted", "condition=")

	for _, shell := range []string{"bash", "zsh", "fish"} {
		r := runKates(t, nil, "completion", shell)
		if r.code != 0 || !strings.Contains(r.stdout, "__complete") {
			t.Errorf("completion %s: exit %d, want a script calling __complete", shell, r.code)
		}
	}
}
