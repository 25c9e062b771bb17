package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/kstatus"
)

func TestLinePrinterPrintsOnlyChanges(t *testing.T) {
	var out strings.Builder
	p := &linePrinter{out: &out, start: time.Now()}
	web := kates.ObjectStatus{Group: "apps", Kind: "Deployment", Namespace: "a", Name: "web", Status: kstatus.InProgressStatus, Message: "Replicas: 0/3"}
	cm := kates.ObjectStatus{Kind: "ConfigMap", Namespace: "a", Name: "settings", Status: kstatus.CurrentStatus, Message: "ok"}
	p.update([]kates.ObjectStatus{web, cm})
	p.update([]kates.ObjectStatus{web, cm}) // nothing changed: nothing printed
	web.Status, web.Message = kstatus.CurrentStatus, "Deployment is available"
	p.update([]kates.ObjectStatus{web, cm})
	p.update([]kates.ObjectStatus{web}) // settings left the view
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		_, rest, _ := strings.Cut(strings.TrimSpace(l), "s ") // drop the elapsed time
		got = append(got, rest)
	}
	want := []string{
		"deployment.apps/web InProgress: Replicas: 0/3",
		"configmap/settings Current: ok",
		"deployment.apps/web Current: Deployment is available",
		"configmap/settings gone",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("lines mismatch (-want +got):\n%s", diff)
	}
}

func TestJSONLinesPrinterWritesOneObjectPerChange(t *testing.T) {
	var out strings.Builder
	p := newJSONLinesPrinter(&out)
	web := kates.ObjectStatus{Group: "apps", Kind: "Deployment", Namespace: "a", Name: "web", Status: kstatus.InProgressStatus, Message: "Replicas: 0/3"}
	cm := kates.ObjectStatus{Kind: "ConfigMap", Namespace: "a", Name: "settings", Status: kstatus.CurrentStatus, Message: "ok"}
	p.update([]kates.ObjectStatus{web, cm})
	p.update([]kates.ObjectStatus{web, cm}) // nothing changed: nothing written
	web.Status, web.Message = kstatus.CurrentStatus, "Deployment is available"
	p.update([]kates.ObjectStatus{web}) // and settings left the view
	var got []kates.ObjectStatus
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var s kates.ObjectStatus
		if err := json.Unmarshal([]byte(l), &s); err != nil {
			t.Fatalf("line %q is not a JSON object: %v", l, err)
		}
		got = append(got, s)
	}
	gone := cm
	gone.Status, gone.Reason, gone.Message = kstatus.NotFoundStatus, "Gone", "Gone"
	want := []kates.ObjectStatus{
		{Group: "apps", Kind: "Deployment", Namespace: "a", Name: "web", Status: kstatus.InProgressStatus, Message: "Replicas: 0/3"},
		cm,
		web,
		gone,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("objects mismatch (-want +got):\n%s", diff)
	}
}

func TestWriteTableShowsNamespacesWhenSeveralOrAll(t *testing.T) {
	now := time.Date(2030, 1, 1, 0, 1, 0, 0, time.UTC)
	rs := []kates.ObjectStatus{
		{Group: "apps", Kind: "Deployment", Namespace: "a", Name: "web", Status: kstatus.CurrentStatus, Message: "ok", Created: now.Add(-90 * time.Second)},
		{Kind: "ConfigMap", Namespace: "a", Name: "gone", Status: kstatus.NotFoundStatus, Message: "Not found"},
	}
	var one strings.Builder
	writeTable(&one, rs, now, false)
	want := "NAME                  STATUS     AGE   MESSAGE\n" +
		"deployment.apps/web   Current    90s   ok\n" +
		"configmap/gone        NotFound   -     Not found\n"
	if diff := cmp.Diff(want, one.String()); diff != "" {
		t.Errorf("one namespace (-want +got):\n%s", diff)
	}
	var all strings.Builder
	writeTable(&all, rs, now, true) // -A: kubectl names the namespace even when there is one
	if !strings.HasPrefix(all.String(), "NAMESPACE   NAME") || !strings.Contains(all.String(), "\na           deployment.apps/web") {
		t.Errorf("-A with one namespace: no NAMESPACE column:\n%s", all.String())
	}
	rs[1].Namespace = "b"
	var two strings.Builder
	writeTable(&two, rs, now, false)
	if !strings.HasPrefix(two.String(), "NAMESPACE   NAME") {
		t.Errorf("two namespaces: no NAMESPACE column:\n%s", two.String())
	}
}

func TestProgressCountAndTruncate(t *testing.T) {
	rs := []kates.ObjectStatus{{Status: kstatus.CurrentStatus}, {Status: kstatus.InProgressStatus}, {Status: kstatus.NotFoundStatus}}
	if got := progressCount(rs, kstatus.CurrentStatus); got != "1/3 Current" {
		t.Errorf("progressCount(Current) = %q", got)
	}
	if got := progressCount(rs, kstatus.NotFoundStatus); got != "1/3 deleted" {
		t.Errorf("progressCount(NotFound) = %q", got)
	}
	if got := truncate("héllo world", 5); got != "héll…" {
		t.Errorf("truncate = %q", got)
	}
	if got := truncate("short", 10); got != "short" {
		t.Errorf("truncate = %q", got)
	}
}

// TestCRDKinds: the kinds the CRDs of a batch define, by the name WaitFor takes.
func TestCRDKinds(t *testing.T) {
	data, err := os.ReadFile("../../testdata/manifests/crd-batch.yaml")
	if err != nil {
		t.Fatal(err)
	}
	objs, err := kates.ParseUnstructuredManifests(string(data))
	if err != nil {
		t.Fatal(err)
	}
	var ms []manifest
	for _, o := range objs {
		ms = append(ms, manifest{obj: o.Object, raw: o.Object, document: o.Document})
	}
	kinds := crdKinds(ms)
	if diff := cmp.Diff(map[string]string{"Widget.example.com": "widgets.example.com"}, stringKeys(kinds)); diff != "" {
		t.Errorf("crdKinds mismatch (-want +got):\n%s", diff)
	}
}

func stringKeys[K interface {
	comparable
	String() string
}, V any](m map[K]V) map[string]V {
	out := map[string]V{}
	for k, v := range m {
		out[k.String()] = v
	}
	return out
}

// TestWriteExplanations: status --explain prints the rule, each expression, each field read
// and the verdict, with whatever the object holds escaped.
func TestWriteExplanations(t *testing.T) {
	rs := []kates.ObjectStatus{{
		Kind: "Widget", Namespace: "default", Name: "w", Status: kstatus.FailedStatus, Message: "disk \x1b[2Jfull",
		Explanation: &kstatus.Explanation{
			Rule: "cel:example/Widget", Step: `status rule "example/Widget" for Widget`,
			Expressions: []kstatus.RuleExpression{{Field: "failed", Expr: "status.phase == 'Spoilt'"}},
			Fields:      []kstatus.FieldValue{{Path: "status.phase", Value: "Spoilt"}, {Path: "status.note", Value: "a\x1b]0;title\x07b"}},
		},
	}, {Kind: "Widget", Name: "gone", Status: kstatus.NotFoundStatus, Reason: "NotFound"}}
	var b strings.Builder
	writeExplanations(&b, rs)
	want := `
Widget default/w
  rule:       cel:example/Widget (status rule "example/Widget" for Widget)
  failed:     status.phase == 'Spoilt'
  read:       status.phase = Spoilt
              status.note = a^[]0;title\ab
  verdict:    Failed: disk ^[[2Jfull

Widget gone
  rule:       none (NotFound)
  verdict:    NotFound
`
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("writeExplanations() mismatch (-want +got):\n%s", diff)
	}
}
