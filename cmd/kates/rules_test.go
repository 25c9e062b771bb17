package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/rand"

	"github.com/kates-dev/kates/kates"
)

// phasedFixture writes testdata/statusrules' CRD and rules with a unique group, and returns
// the manifest's path, the rules' path and the group.
func phasedFixture(t *testing.T, c *kates.Client) (manifest, rules, group string) {
	t.Helper()
	group = "r" + rand.String(6) + ".example.com"
	read := func(name string) string {
		data, err := os.ReadFile("../../testdata/statusrules/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return strings.ReplaceAll(string(data), "example.com", group)
	}
	t.Cleanup(func() {
		_ = c.Delete(context.Background(), kates.NewUnstructured("apiextensions.k8s.io/v1", "CustomResourceDefinition", "", "phaseds."+group), nil)
	})
	return writeFile(t, "phased.yaml", read("phased.yaml")), writeFile(t, "rules.yaml", read("phased-rules.yaml")), group
}

// setPhase writes status.phase (and message) of Phased job through the status subresource,
// as its controller would.
func setPhase(t *testing.T, ctx context.Context, c *kates.Client, group, phase, message string) {
	t.Helper()
	u := &kates.Unstructured{}
	for {
		err := c.Get(ctx, kates.NewUnstructured(group+"/v1", "Phased", "", "job"), u)
		if err == nil {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("get Phased job: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	u.Object["status"] = map[string]any{"phase": phase, "message": message}
	if err := c.UpdateStatus(ctx, u, u); err != nil {
		t.Fatalf("set phase %s: %v", phase, err)
	}
}

// startKates runs the binary in the background; wait returns its result.
func startKates(t *testing.T, ctx context.Context, args ...string) (wait func() result) {
	t.Helper()
	cmd := exec.CommandContext(ctx, binary, append([]string{"--kubeconfig", cluster.KubeconfigPath()}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	begin := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan result, 1)
	go func() {
		err := cmd.Wait()
		r := result{stdout: stdout.String(), stderr: stderr.String(), took: time.Since(begin)}
		if ee, ok := err.(*exec.ExitError); ok {
			r.code = ee.ExitCode()
		} else if err != nil {
			r.code = -1
		}
		done <- r
	}()
	return func() result {
		r := <-done
		t.Logf("kates %v: exit %d after %s\nstdout:\n%s\nstderr:\n%s", args, r.code, r.took.Round(time.Millisecond), r.stdout, r.stderr)
		return r
	}
}

// TestApplyWaitWithStatusRules: a kind that reports only a phase is waited for through
// its CEL rule, Current once the phase says Ready, and failing fast on Failed. Without the
// rule the wait would end at once, the object being Current by the generic rules.
func TestApplyWaitWithStatusRules(t *testing.T) {
	c, ns := newClient(t)
	manifest, rules, group := phasedFixture(t, c)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()

	wait := startKates(t, ctx, "apply", "-n", ns, "-f", manifest, "--wait", "--timeout", "80s", "--status-rules", rules)
	setPhase(t, ctx, c, group, "Pending", "copying tables")
	// Still waiting: no status, then Pending, are InProgress by the rule.
	time.Sleep(2 * time.Second)
	setPhase(t, ctx, c, group, "Ready", "migrated")
	r := wait()
	if r.code != 0 || !strings.Contains(r.stdout, "2/2 Current") {
		t.Fatalf("apply --wait: exit %d, want 0 with 2/2 Current", r.code)
	}
	if r.took < 2*time.Second {
		t.Errorf("apply --wait returned after %s, before the phase was Ready", r.took)
	}

	// status -o wide names the rule.
	st := runKates(t, nil, "status", "-n", ns, "phaseds."+group+"/job", "-o", "wide", "--status-rules", rules)
	if st.code != 0 || !strings.Contains(st.stdout, "cel:example/Phased") || !strings.Contains(st.stdout, "migrated") {
		t.Errorf("status -o wide: exit %d, want 0 naming rule cel:example/Phased and the message", st.code)
	}

	// A failed phase ends the wait at once, exit 1, with the rule's message.
	setPhase(t, ctx, c, group, "Pending", "retrying")
	wait = startKates(t, ctx, "wait", "-n", ns, "phaseds."+group+"/job", "--timeout", "80s", "--status-rules", rules)
	time.Sleep(time.Second)
	failedAt := time.Now()
	setPhase(t, ctx, c, group, "Failed", "disk full")
	r = wait()
	if r.code != 1 || !strings.Contains(r.stdout+r.stderr, "disk full") {
		t.Fatalf("wait on a Failed phase: exit %d, want 1 naming the message", r.code)
	}
	if d := time.Since(failedAt); d > 10*time.Second {
		t.Errorf("wait took %s after the phase failed, want it to fail fast", d)
	}

	// A rule that does not compile is a usage error (exit 2) before anything is applied.
	bad := writeFile(t, "bad.yaml", "rules: [{kind: Phased, group: "+group+", current: \"status.phase ==\"}]")
	r = runKates(t, nil, "apply", "-n", ns, "-f", manifest, "--wait", "--status-rules", bad)
	if r.code != 2 || !strings.Contains(r.stderr, `current expression "status.phase =="`) {
		t.Errorf("apply with a bad rule: exit %d, want 2 naming the expression", r.code)
	}
	// So is a rule naming a field the CRD's schema does not have.
	misspelt := writeFile(t, "misspelt.yaml", "rules: [{kind: Phased, group: "+group+", current: \"status.phse == 'Ready'\"}]")
	r = runKates(t, nil, "apply", "-n", ns, "-f", manifest, "--wait", "--status-rules", misspelt)
	if r.code != 2 || !strings.Contains(r.stderr, `no field "phse"`) {
		t.Errorf("apply with a misspelt field: exit %d, want 2 naming the field", r.code)
	}
}
