package kstatus

import (
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"
)

var updateRules = flag.Bool("update-rules", false, "write the messages the library rules give into testdata/kstatus/rules (review the diff)")

// ruleFixture is one file of testdata/kstatus/rules/<project>: an object and what the
// library decides for it. Reason is the Reason of the Result's condition; Rule is what
// Explain names as the judge.
type ruleFixture struct {
	Object   json.RawMessage `json:"object"`
	Expected struct {
		Status  Status `json:"status"`
		Reason  string `json:"reason,omitempty"`
		Message string `json:"message"`
		Rule    string `json:"rule"`
	} `json:"expected"`
	// State names the state of the kind the fixture stands for, one of fixtureStates, so
	// that TestArgoCDKindsCovered can count which states each kind's fixtures cover.
	// Optional: a fixture without one counts as healthy or not by its expected status.
	State string `json:"state,omitempty"`
	// ArgoCD records what Argo CD's own health check says of the object, and why ours
	// differs where it does; TestArgoCDAgreement runs Argo CD's script to hold it to that.
	ArgoCD *argoCDVerdict `json:"argocd,omitempty"`
}

// argoCDVerdict is Argo CD's health verdict on a fixture's object: Health is what its
// health.lua returns (Healthy, Progressing, Degraded, Suspended, Missing or Unknown), Why
// says why our status differs from the one that health maps to (Healthy→Current,
// Progressing→InProgress, Degraded→Failed, Missing→NotFound, Unknown→Unknown; Suspended
// agrees with a fixture of state "paused" whatever its status). Why is required exactly
// when they differ.
type argoCDVerdict struct {
	Health string `json:"health,omitempty"`
	Why    string `json:"why,omitempty"`
}

func loadRuleFixtures(t testing.TB) (paths []string, fixtures map[string]*ruleFixture) {
	t.Helper()
	paths, _ = filepath.Glob(filepath.Join(fixtureDir, "rules", "*", "*.yaml"))
	if len(paths) == 0 {
		t.Fatal("no fixtures in testdata/kstatus/rules")
	}
	sort.Strings(paths)
	fixtures = map[string]*ruleFixture{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		fx := &ruleFixture{}
		if err := yaml.UnmarshalStrict(data, fx); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		fixtures[p] = fx
	}
	return paths, fixtures
}

// TestLibraryFixtures judges every fixture of the built-in library: status, reason,
// message and the rule that decided.
func TestLibraryFixtures(t *testing.T) {
	paths, fixtures := loadRuleFixtures(t)
	for _, p := range paths {
		fx := fixtures[p]
		name := strings.TrimSuffix(strings.TrimPrefix(p, filepath.Join(fixtureDir, "rules")+"/"), ".yaml")
		t.Run(name, func(t *testing.T) {
			u := objectOf(t, fx.Object)
			res, rule, err := Explain(u, Options{})
			if err != nil {
				t.Fatalf("Explain() error = %v (%s)", err, res.Message)
			}
			got := fx.Expected
			got.Status, got.Message, got.Rule, got.Reason = res.Status, res.Message, rule, ""
			if len(res.Conditions) > 0 {
				got.Reason = res.Conditions[0].Reason
			}
			if *updateRules && got.Status == fx.Expected.Status && got.Reason == fx.Expected.Reason {
				writeExpected(t, p, got.Message, got.Rule)
				return
			}
			if diff := cmp.Diff(fx.Expected, got); diff != "" {
				t.Errorf("Explain() mismatch (-want +got):\n%s", diff)
			}
			checkResult(t, res, err)
		})
	}
}

// writeExpected rewrites the message and rule lines of a fixture, leaving its comments
// and layout alone.
func writeExpected(t *testing.T, path, message, rule string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out, err := rewriteExpected(string(data), message, rule)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
}

// rewriteExpected returns text, a fixture, with the message and rule of its expected
// section replaced. The section's status and reason lines are kept, and so is every
// line outside the section: the keys before it and the top-level keys after it (state,
// argocd, ...), which a fixture may place in any order.
func rewriteExpected(text, message, rule string) (string, error) {
	i := strings.Index(text, "\nexpected:\n")
	if i < 0 {
		return "", errors.New("no expected section")
	}
	body := text[i+len("\nexpected:\n"):]
	// The section ends at the first line that is neither indented nor blank: the next
	// top-level key (or a comment in column 0, which belongs to what follows).
	rest := ""
	lines := strings.SplitAfter(body, "\n")
	for j, l := range lines {
		if l != "" && l != "\n" && l[0] != ' ' {
			body, rest = strings.Join(lines[:j], ""), strings.Join(lines[j:], "")
			break
		}
	}
	var kept []string
	for _, l := range strings.Split(body, "\n") {
		if strings.HasPrefix(l, "  status:") || strings.HasPrefix(l, "  reason:") {
			kept = append(kept, l)
		}
	}
	m, _ := yaml.Marshal(map[string]string{"message": message})
	r, _ := yaml.Marshal(map[string]string{"rule": rule})
	for _, l := range strings.Split(strings.TrimSpace(string(m))+"\n"+strings.TrimSpace(string(r)), "\n") {
		kept = append(kept, "  "+l)
	}
	return text[:i] + "\nexpected:\n" + strings.Join(kept, "\n") + "\n" + rest, nil
}

// TestRewriteExpected: -update-rules rewrites only the message and rule of a fixture; the
// keys after the expected section survive.
func TestRewriteExpected(t *testing.T) {
	in := `# A widget.
object:
  kind: Widget
expected:
  status: Failed
  reason: RuleFailed
  message: old message
    on two lines
  rule: cel:old
state: failed
argocd:
  health: Degraded
  why: because
`
	want := `# A widget.
object:
  kind: Widget
expected:
  status: Failed
  reason: RuleFailed
  message: new message
  rule: cel:example/Widget
state: failed
argocd:
  health: Degraded
  why: because
`
	got, err := rewriteExpected(in, "new message", "cel:example/Widget")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rewriteExpected() mismatch (-want +got):\n%s", diff)
	}
	// Expected last, as most fixtures have it: nothing follows.
	last := "object:\n  kind: Widget\nexpected:\n  status: Current\n  message: old\n  rule: cel:old\n"
	got, err = rewriteExpected(last, "new", "cel:new")
	if err != nil {
		t.Fatal(err)
	}
	if want := "object:\n  kind: Widget\nexpected:\n  status: Current\n  message: new\n  rule: cel:new\n"; got != want {
		t.Errorf("rewriteExpected() = %q, want %q", got, want)
	}
	if _, err := rewriteExpected("object: {}\n", "m", "r"); err == nil {
		t.Error("rewriteExpected() of a fixture without expected: no error")
	}
}

// TestLibraryFixturesCoverEveryRule fails when a library rule lacks a fixture for a state
// it can decide: Current when it has a current expression, Failed when it has a failed
// one, and InProgress for every rule that decides on its own (an inProgress expression,
// or a current one that did not match).
func TestLibraryFixturesCoverEveryRule(t *testing.T) {
	paths, fixtures := loadRuleFixtures(t)
	seen := map[string]map[Status]bool{}
	kinds := map[groupKind]bool{}
	for _, p := range paths {
		fx := fixtures[p]
		u := objectOf(t, fx.Object)
		kinds[groupKind{group(u.GetAPIVersion()), u.GetKind()}] = true
		if !strings.HasPrefix(fx.Expected.Rule, "cel:") {
			continue
		}
		name := strings.TrimPrefix(fx.Expected.Rule, "cel:")
		if seen[name] == nil {
			seen[name] = map[Status]bool{}
		}
		seen[name][fx.Expected.Status] = true
	}
	for _, r := range Library().Rules() {
		covered := false // by a fixture of the rule's group and kind, or one its wildcards match
		for gk := range kinds {
			covered = covered || matchesPattern(groupKind{r.Group, r.Kind}, gk)
		}
		if !covered {
			t.Errorf("library rule %s has no fixture", r.Name)
			continue
		}
		var want []Status
		if r.Current != "" {
			want = append(want, CurrentStatus)
		}
		if r.Failed != "" {
			want = append(want, FailedStatus)
		}
		if r.InProgress != "" || (r.Current != "" && r.Current != "true") {
			want = append(want, InProgressStatus)
		}
		// A project's fixtures cover a rule through any kind sharing its expressions (the
		// Flux kinds, Strimzi's): count the states seen for any rule of the same text.
		got := map[Status]bool{}
		for _, o := range Library().Rules() {
			if o.Current == r.Current && o.Failed == r.Failed && o.InProgress == r.InProgress {
				for st := range seen[o.Name] {
					got[st] = true
				}
			}
		}
		for _, st := range want {
			if !got[st] {
				t.Errorf("library rule %s has no fixture for %s", r.Name, st)
			}
		}
	}
}

// objectOf decodes a fixture's object as client-go does, integers as int64.
func objectOf(t testing.TB, raw json.RawMessage) *unstructured.Unstructured {
	t.Helper()
	var m map[string]any
	if err := utiljson.Unmarshal(raw, &m); err != nil {
		t.Fatalf("decode object: %v", err)
	}
	return &unstructured.Unstructured{Object: m}
}
