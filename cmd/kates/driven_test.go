package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/rand"

	"github.com/kates-dev/kates/kates"
)

// promptly is how soon after the controller writes a terminal state apply --wait must end.
// kates reacts to the watch event within milliseconds; the bound leaves room for a loaded
// machine and the race detector, and is far below the wait's own timeout (60 s).
const promptly = 15 * time.Second

// drivenKind is one custom kind of testdata/inferkinds and the status its controller writes
// in each state, for the object's generation gen.
type drivenKind struct {
	kind, plural, crd string
	rules             string // file of status rules, or ""
	// spec is the object's spec in each of its three versions: 1 as created, 2 changed (the
	// fix after a failure), 3 paused.
	spec func(version int) string
	// The status in each state; the strings after each are what the wait must print.
	progressing                                                 func(gen int64) map[string]any
	failed                                                      func(gen int64) map[string]any
	current                                                     func(gen int64) map[string]any
	paused                                                      func(gen int64) map[string]any
	noStatusMsg, progressingMsg, failedMsg, staleMsg, pausedMsg string
	// pausedCode is the exit code apply --wait ends with on the paused object.
	pausedCode int
	// explain are lines status --explain must print for the recovered object.
	explain []string
}

func condition(t, status, reason, message string, gen int64) map[string]any {
	return map[string]any{"type": t, "status": status, "reason": reason, "message": message,
		"observedGeneration": gen, "lastTransitionTime": "2026-11-25T16:00:00Z"}
}

var drivenKinds = []drivenKind{{
	kind: "Gadget", plural: "gadgets", crd: "gadgets.yaml",
	spec: func(v int) string {
		return map[int]string{1: "{size: 1}", 2: "{size: 2}", 3: "{size: 2, paused: true}"}[v]
	},
	progressing: func(gen int64) map[string]any {
		return map[string]any{"conditions": []any{condition("Available", "False", "Assembling", "2 of 5 parts fitted", gen)}}
	},
	failed: func(gen int64) map[string]any {
		return map[string]any{"conditions": []any{
			condition("Available", "False", "Assembling", "part 3 missing", gen),
			condition("Stalled", "True", "PartMissing", "part 3 is out of stock", gen)}}
	},
	current: func(gen int64) map[string]any {
		return map[string]any{"conditions": []any{condition("Available", "True", "Assembled", "all parts fitted", gen)}}
	},
	paused: func(gen int64) map[string]any {
		return map[string]any{"conditions": []any{
			condition("Available", "True", "Assembled", "all parts fitted", gen),
			condition("Paused", "True", "UserPaused", "spec.paused is set", gen)}}
	},
	noStatusMsg:    "No status reported yet by the controller",
	progressingMsg: "2 of 5 parts fitted",
	failedMsg:      "part 3 is out of stock",
	staleMsg:       "but latest generation is",
	// Paused as spec.paused asks, reached and with nothing pending: Current (rule 6e).
	pausedMsg:  "Paused condition is True: spec.paused is set, as spec.paused asks",
	pausedCode: 0,
	explain: []string{
		"rule:       infer:conditions (rule 6a, ",
		"status.conditions[Available] = True (Assembled): all parts fitted",
		"verdict:    Current: Available True",
	},
}, {
	kind: "Voyage", plural: "voyages", crd: "voyages.yaml",
	spec: func(v int) string {
		return map[int]string{1: "{legs: 3}", 2: "{legs: 2}", 3: "{legs: 2, paused: true}"}[v]
	},
	progressing: func(gen int64) map[string]any {
		return map[string]any{"observedGeneration": gen, "phase": "Running", "message": "leg 1 of 3"}
	},
	failed: func(gen int64) map[string]any {
		return map[string]any{"observedGeneration": gen, "phase": "Failed", "message": "storm at leg 2"}
	},
	current: func(gen int64) map[string]any {
		return map[string]any{"observedGeneration": gen, "phase": "Succeeded", "message": "arrived"}
	},
	paused: func(gen int64) map[string]any {
		return map[string]any{"observedGeneration": gen, "phase": "Suspended", "message": "anchored"}
	},
	noStatusMsg: "No status reported yet by the controller",
	// Running is InProgress: the CRD's phases include Succeeded.
	progressingMsg: "phase is Running (the kind's phases include a terminal success)",
	failedMsg:      "phase is Failed: storm at leg 2",
	staleMsg:       "but latest observed generation is",
	// Suspended as spec.paused asks, and reached: Current, as a suspended Job (rule 6e).
	pausedMsg:  "phase is Suspended, as spec.paused asks",
	pausedCode: 0,
	explain: []string{
		"rule:       infer:outcome (rule 6a/6c, a run's outcome",
		"read:       metadata.generation = 2",
		"status.observedGeneration = 2",
		"status.phase = Succeeded",
		"verdict:    Current: phase is Succeeded",
	},
}, {
	kind: "Brew", plural: "brews", crd: "brews.yaml", rules: "brew-rules.yaml",
	spec: func(v int) string {
		return map[int]string{1: "{litres: 20}", 2: "{litres: 10}", 3: "{litres: 10, paused: true}"}[v]
	},
	progressing: func(gen int64) map[string]any {
		return map[string]any{"observedGeneration": gen, "stage": "Fermenting", "note": "day 3 of 10"}
	},
	failed: func(gen int64) map[string]any {
		return map[string]any{"observedGeneration": gen, "stage": "Spoilt", "note": "wild yeast"}
	},
	current: func(gen int64) map[string]any {
		return map[string]any{"observedGeneration": gen, "stage": "Bottled", "note": "40 bottles"}
	},
	paused: func(gen int64) map[string]any {
		return map[string]any{"observedGeneration": gen, "stage": "Resting", "note": "paused before bottling"}
	},
	noStatusMsg:    "not brewing yet",
	progressingMsg: "stage Fermenting: day 3 of 10",
	failedMsg:      "stage Spoilt: wild yeast",
	staleMsg:       "but latest observed generation is",
	pausedMsg:      "stage Resting: paused before bottling",
	pausedCode:     exitFailed,
	explain: []string{
		`rule:       cel:example/Brew (status rule "example/Brew" for Brew)`,
		"failed:     status.stage == 'Spoilt' || (has(spec.paused) && spec.paused && status.stage != 'Bottled')",
		"current:    status.stage == 'Bottled'",
		"status.stage = Bottled",
		"spec.paused = absent",
		"verdict:    Current: stage Bottled: 40 bottles",
	},
}}

// TestApplyWaitDrivenKinds drives three custom kinds through their states on the cluster,
// with a test controller writing each state through the status subresource, and checks that
// apply --wait ends right on each: a failure ends it at once, exit 1, naming the failure; a
// fix (a changed spec) ends it with exit 0 once the controller reports Current for the new
// generation, never before; a pause ends it as the paused policy says. Every step waits on
// what kates printed or what the controller's watch saw, never on a sleep.
func TestApplyWaitDrivenKinds(t *testing.T) {
	for _, k := range drivenKinds {
		t.Run(k.kind, func(t *testing.T) {
			t.Parallel()
			driveKind(t, k)
		})
	}
}

func driveKind(t *testing.T, k drivenKind) {
	c, ns := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	group := "d" + rand.String(6) + ".example.com"
	read := func(name string) string {
		data, err := os.ReadFile("../../testdata/inferkinds/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return strings.ReplaceAll(string(data), "example.com", group)
	}
	crdPath := writeFile(t, k.crd, read(k.crd))
	t.Cleanup(func() {
		_ = c.Delete(context.Background(), kates.NewUnstructured("apiextensions.k8s.io/v1", "CustomResourceDefinition", "", k.plural+"."+group), nil)
	})
	if r := runKates(t, nil, "apply", "-f", crdPath, "--wait", "--timeout", "60s"); r.code != 0 {
		t.Fatalf("apply the CRD: exit %d", r.code)
	}
	var rules []string
	if k.rules != "" {
		rules = []string{"--status-rules", writeFile(t, k.rules, read(k.rules))}
	}
	manifest := func(version int) string {
		return writeFile(t, fmt.Sprintf("object-%d.yaml", version), fmt.Sprintf(
			"apiVersion: %s/v1\nkind: %s\nmetadata: {name: one, namespace: %s}\nspec: %s\n", group, k.kind, ns, k.spec(version)))
	}
	ctl := startController(t, ctx, c, k.plural+"."+group, ns)
	apply := func(version int) *streamed {
		return startStreamed(t, ctx, append([]string{"apply", "-f", manifest(version), "--wait", "--timeout", "60s"}, rules...)...)
	}

	// 1. Created: no status yet, then progressing, then failed. The wait ends on the failure.
	run := apply(1)
	run.waitLine(t, "InProgress: "+k.noStatusMsg)
	ctl.write(t, 1, k.progressing)
	run.waitLine(t, "InProgress: "+k.progressingMsg)
	failedAt := ctl.write(t, 1, k.failed)
	r := run.wait(t)
	if r.code != exitFailed || !strings.Contains(r.stdout+r.stderr, k.failedMsg) {
		t.Fatalf("apply --wait on a failed %s: exit %d, want %d naming %q", k.kind, r.code, exitFailed, k.failedMsg)
	}
	checkEnded(t, "failed", r, failedAt)

	// 2. Fixed: a changed spec (generation 2). The failed status is about generation 1, so
	// the wait goes on until the controller reports generation 2 Current.
	run = apply(2)
	run.waitLine(t, k.staleMsg)
	ctl.write(t, 2, k.progressing)
	run.waitLine(t, "InProgress: "+k.progressingMsg)
	currentAt := ctl.write(t, 2, k.current)
	r = run.wait(t)
	if r.code != 0 || !strings.Contains(r.stdout, "Current") {
		t.Fatalf("apply --wait on a recovered %s: exit %d, want 0 and Current", k.kind, r.code)
	}
	checkEnded(t, "recovered", r, currentAt)

	// status --explain says how the object was judged.
	st := runKates(t, nil, append([]string{"status", "-n", ns, k.plural + "." + group + "/one", "--explain"}, rules...)...)
	for _, want := range k.explain {
		if st.code != 0 || !strings.Contains(st.stdout, want) {
			t.Errorf("status --explain: exit %d, want 0 and a line with %q", st.code, want)
		}
	}

	// 3. Paused (generation 3): the kind's paused policy decides, naming the pause. With no
	// rule, a pause the spec asks for that the controller has reached is Current (kstatus
	// rule 6e, as a suspended Job); the Brew rule says a pause before bottling is Failed.
	run = apply(3)
	run.waitLine(t, k.staleMsg)
	pausedAt := ctl.write(t, 3, k.paused)
	r = run.wait(t)
	if r.code != k.pausedCode || !strings.Contains(r.stdout+r.stderr, k.pausedMsg) {
		t.Fatalf("apply --wait on a paused %s: exit %d, want %d naming %q", k.kind, r.code, k.pausedCode, k.pausedMsg)
	}
	checkEnded(t, "paused", r, pausedAt)
}

// checkEnded fails unless the run ended after the controller wrote the state that ends it
// (at), and promptly.
func checkEnded(t *testing.T, state string, r streamedResult, at time.Time) {
	t.Helper()
	if r.ended.Before(at) {
		t.Errorf("%s: apply --wait ended %s before the controller wrote the state", state, at.Sub(r.ended))
	}
	if d := r.ended.Sub(at); d > promptly {
		t.Errorf("%s: apply --wait ended %s after the controller wrote the state, want within %s", state, d, promptly)
	}
}

// controller is the test's controller of one kind: a goroutine that writes status for the
// object "one" of namespace ns through the status subresource, as a real controller does,
// for the generation its own watch has seen. write hands it a state and returns once the
// state is written.
type controller struct {
	orders chan order
}

type order struct {
	gen    int64
	status func(int64) map[string]any
	done   chan written
}

type written struct {
	at  time.Time // just before the write that succeeded: nothing can have seen it earlier
	err error
}

func startController(t *testing.T, ctx context.Context, c *kates.Client, kind, ns string) *controller {
	t.Helper()
	acc, err := c.Watch(ctx, kates.Query{Name: "Objects", Kind: kind, Namespace: ns})
	if err != nil {
		t.Fatal(err)
	}
	ctl := &controller{orders: make(chan order)}
	var wg sync.WaitGroup
	wg.Add(1)
	t.Cleanup(wg.Wait)
	go func() {
		defer wg.Done()
		var snap struct{ Objects []*kates.Unstructured }
		for {
			select {
			case <-ctx.Done():
				return
			case o := <-ctl.orders:
				at, err := reconcile(ctx, c, acc, &snap, o)
				o.done <- written{at, err}
			}
		}
	}()
	return ctl
}

// reconcile waits until the watch shows the object at generation o.gen, then writes
// o.status over it, retrying on a conflict with what the watch shows next.
func reconcile(ctx context.Context, c *kates.Client, acc *kates.Accumulator, snap *struct{ Objects []*kates.Unstructured }, o order) (time.Time, error) {
	for {
		if _, err := acc.Update(ctx, snap); err != nil {
			return time.Time{}, err
		}
		for _, obj := range snap.Objects {
			if obj.GetName() != "one" || obj.GetGeneration() != o.gen {
				continue
			}
			u := obj.DeepCopy()
			u.Object["status"] = o.status(o.gen)
			at := time.Now()
			err := c.UpdateStatus(ctx, u, u)
			if err == nil {
				return at, nil
			}
			if !apierrors.IsConflict(err) {
				return time.Time{}, fmt.Errorf("update status: %w", err)
			}
		}
		select {
		case <-acc.Changed():
		case <-ctx.Done():
			return time.Time{}, fmt.Errorf("never saw the object at generation %d: %w", o.gen, ctx.Err())
		}
	}
}

// write has the controller write status(gen) once it sees generation gen, and returns the
// time of the write.
func (ctl *controller) write(t *testing.T, gen int64, status func(int64) map[string]any) time.Time {
	t.Helper()
	done := make(chan written, 1)
	ctl.orders <- order{gen: gen, status: status, done: done}
	w := <-done
	if w.err != nil {
		t.Fatalf("controller: %v", w.err)
	}
	return w.at
}

// streamed is a run of the binary whose standard output is read line by line as it comes.
type streamed struct {
	args  []string
	lines chan string
	done  chan streamedResult
	seen  strings.Builder
}

type streamedResult struct {
	result
	ended time.Time
}

func startStreamed(t *testing.T, ctx context.Context, args ...string) *streamed {
	t.Helper()
	cmd := exec.CommandContext(ctx, binary, append([]string{"--kubeconfig", cluster.KubeconfigPath()}, args...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	begin := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &streamed{args: args, lines: make(chan string, 1024), done: make(chan streamedResult, 1)}
	go func() {
		sc := bufio.NewScanner(out)
		var all strings.Builder
		for sc.Scan() {
			all.WriteString(sc.Text() + "\n")
			s.lines <- sc.Text()
		}
		close(s.lines)
		err := cmd.Wait()
		r := streamedResult{result: result{stdout: all.String(), stderr: stderr.String(), took: time.Since(begin)}, ended: time.Now()}
		if ee, ok := err.(*exec.ExitError); ok {
			r.code = ee.ExitCode()
		} else if err != nil {
			r.code = -1
		}
		s.done <- r
	}()
	return s
}

// waitLine reads the run's output until a line contains want. It fails if the run ends first.
func (s *streamed) waitLine(t *testing.T, want string) {
	t.Helper()
	for line := range s.lines {
		s.seen.WriteString(line + "\n")
		if strings.Contains(line, want) {
			return
		}
	}
	r := <-s.done
	s.done <- r
	t.Fatalf("kates %v ended (exit %d) before printing %q; stdout:\n%s\nstderr:\n%s", s.args, r.code, want, r.stdout, r.stderr)
}

// wait returns the run's result once it has ended.
func (s *streamed) wait(t *testing.T) streamedResult {
	t.Helper()
	for line := range s.lines {
		s.seen.WriteString(line + "\n")
	}
	r := <-s.done
	t.Logf("kates %v: exit %d after %s\nstdout:\n%s\nstderr:\n%s", s.args, r.code, r.took.Round(time.Millisecond), r.stdout, r.stderr)
	if strings.Contains(r.stderr, raceReport) {
		t.Errorf("kates %v: the race detector found a data race", s.args)
	}
	return r
}
