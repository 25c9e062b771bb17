package luahealth

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/kates-dev/kates/kstatus"
)

func object(t testing.TB, text string) *unstructured.Unstructured {
	t.Helper()
	u := &unstructured.Unstructured{}
	if err := yaml.Unmarshal([]byte(text), &u.Object); err != nil {
		t.Fatal(err)
	}
	return u
}

func compile(t testing.TB, script string) *Check {
	t.Helper()
	c, err := Compile("test.lua", "example.com", "Widget", script, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

const widget = `
apiVersion: example.com/v1
kind: Widget
metadata: {name: w, namespace: default, generation: 2}
spec: {size: 3}
status:
  phase: %s
  message: disk full
`

func widgetIn(t testing.TB, phase string) *unstructured.Unstructured {
	return object(t, strings.Replace(widget, "%s", phase, 1))
}

func TestLoadFS(t *testing.T) {
	checks, err := LoadFS(os.DirFS("testdata/checks"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range checks {
		got = append(got, c.Group+"|"+c.Kind+"|"+c.Name)
	}
	want := []string{
		"|Gadget|Gadget/health.lua",
		"*.example.org|*|_.example.org/_/health.lua",
		"example.com|Widget|example.com/Widget/health.lua",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("LoadFS() mismatch (-want +got):\n%s", diff)
	}
	// A group folder "_" alone would be any group, which kstatus cannot match.
	_, err = LoadFS(fstest.MapFS{"_/Widget/health.lua": {Data: []byte("return nil")}}, Options{})
	if err == nil || !strings.Contains(err.Error(), `_/Widget/health.lua: group "*"`) {
		t.Errorf("LoadFS() of a group folder _ error = %v, want one naming the script and the group", err)
	}
}

func TestCheckVerdicts(t *testing.T) {
	checks, err := LoadFS(os.DirFS("testdata/checks"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	byKind := map[string]*Check{}
	for _, c := range checks {
		byKind[c.Kind] = c
	}
	for _, tc := range []struct {
		name   string
		check  string
		obj    *unstructured.Unstructured
		health Health
		result *kstatus.Result // nil: no verdict
	}{
		{"ready", "Widget", widgetIn(t, "Ready"), Health{Healthy, "Ready: disk full"},
			&kstatus.Result{Status: kstatus.CurrentStatus, Message: "Ready: disk full"}},
		{"failed", "Widget", widgetIn(t, "Failed"), Health{Degraded, "Failed: disk full"},
			failedResult("Degraded", "Failed: disk full")},
		{"paused", "Widget", widgetIn(t, "Paused"), Health{Suspended, "Paused: disk full"},
			failedResult("Suspended", "Paused: disk full")},
		{"pending", "Widget", widgetIn(t, "Pending"), Health{Progressing, "Pending: disk full"},
			&kstatus.Result{Status: kstatus.InProgressStatus, Message: "Pending: disk full",
				Conditions: []kstatus.Condition{{Type: kstatus.ConditionReconciling, Status: "True", Reason: "Progressing", Message: "Pending: disk full"}}}},
		{"no status", "Widget", object(t, "{apiVersion: example.com/v1, kind: Widget, metadata: {name: w}}"),
			Health{Progressing, "No phase reported yet"},
			&kstatus.Result{Status: kstatus.InProgressStatus, Message: "No phase reported yet",
				Conditions: []kstatus.Condition{{Type: kstatus.ConditionReconciling, Status: "True", Reason: "Progressing", Message: "No phase reported yet"}}}},
		{"wildcard ready", "*", object(t, `{apiVersion: a.example.org/v1, kind: Thing, metadata: {name: x},
			status: {conditions: [{type: Synced, status: "True"}, {type: Ready, status: "True", message: all good}]}}`),
			Health{Healthy, "all good"}, &kstatus.Result{Status: kstatus.CurrentStatus, Message: "all good"}},
		{"missing", "Gadget", object(t, `{apiVersion: v1, kind: Gadget, metadata: {name: g, annotations: {example.com/gone: "true"}}}`),
			Health{Missing, "marked gone"}, &kstatus.Result{Status: kstatus.NotFoundStatus, Message: "marked gone"}},
		{"nil", "Gadget", object(t, `{apiVersion: v1, kind: Gadget, metadata: {name: g}}`), Health{}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := byKind[tc.check]
			h, err := c.Health(tc.obj)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.health, h); diff != "" {
				t.Errorf("Health() mismatch (-want +got):\n%s", diff)
			}
			res, err := c.Eval(tc.obj)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.result, res); diff != "" {
				t.Errorf("Eval() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func failedResult(reason, msg string) *kstatus.Result {
	return &kstatus.Result{Status: kstatus.FailedStatus, Message: msg,
		Conditions: []kstatus.Condition{{Type: kstatus.ConditionStalled, Status: "True", Reason: reason, Message: msg}}}
}

func TestLoadConfigMap(t *testing.T) {
	data, err := os.ReadFile("testdata/argocd-cm.yaml")
	if err != nil {
		t.Fatal(err)
	}
	checks, err := LoadConfigMap(data, "argocd-cm.yaml", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range checks {
		got = append(got, c.Group+"|"+c.Kind+"|"+c.Name)
	}
	want := []string{
		"db.example.net|Database|argocd-cm.yaml: resource.customizations.db.example.net/Database",
		"example.com|Widget|argocd-cm.yaml: resource.customizations.health.example.com_Widget",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("LoadConfigMap() mismatch (-want +got):\n%s", diff)
	}
	db := object(t, "{apiVersion: db.example.net/v1, kind: Database, metadata: {name: d}, spec: {suspend: true}}")
	if h, err := checks[0].Health(db); err != nil || h != (Health{Suspended, "suspended by spec.suspend"}) {
		t.Errorf("Database Health() = %+v, %v; want Suspended", h, err)
	}

	// Through kstatus.LoadRules, which this package taught to read the ConfigMap, and
	// ComputeWith: the ConfigMap's rule judges the Widget.
	rs, err := kstatus.LoadRules(data, "argocd-cm.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if rs.Len() != 2 {
		t.Errorf("LoadRules() has %d rules, want 2", rs.Len())
	}
	res, rule, err := kstatus.Explain(widgetIn(t, "Ready"), kstatus.Options{Rules: rs})
	if err != nil || res.Status != kstatus.CurrentStatus || res.Message != "ready" ||
		rule != "lua:argocd-cm.yaml: resource.customizations.health.example.com_Widget" {
		t.Errorf("Explain() = %+v, %q, %v; want Current by the ConfigMap's check", res, rule, err)
	}
	res, _, _ = kstatus.Explain(widgetIn(t, "Pending"), kstatus.Options{Rules: rs})
	if res.Status != kstatus.InProgressStatus || res.Message != "phase Pending" {
		t.Errorf("Explain(Pending) = %+v, want InProgress: phase Pending", res)
	}

	// A ConfigMap without health checks, and bad keys, are errors that say so.
	for _, tc := range []struct{ doc, want string }{
		{"{apiVersion: v1, kind: ConfigMap, metadata: {name: argocd-cm}, data: {url: x}}", "no health check"},
		{"{apiVersion: v1, kind: ConfigMap, metadata: {name: argocd-cm}, data: {resource.customizations.health.a_b_c: 'return nil'}}", "one underscore"},
		{"{apiVersion: v1, kind: ConfigMap, metadata: {name: argocd-cm}, data: {resource.customizations.health.ex*.com_W: 'return nil'}}", `group "ex*.com"`},
		{"{apiVersion: v1, kind: ConfigMap, metadata: {name: argocd-cm}, data: {resource.customizations.health.all: 'return nil'}}", `group "*"`},
		{"{apiVersion: v1, kind: ConfigMap, metadata: {name: argocd-cm}, data: {resource.customizations.health.example.com_W: 'if then'}}",
			"resource.customizations.health.example.com_W line:1"},
	} {
		if _, err := kstatus.LoadRules([]byte(tc.doc), "cm.yaml"); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("LoadRules(%s) error = %v, want one containing %q", tc.doc, err, tc.want)
		}
	}
}

func TestMalformed(t *testing.T) {
	_, err := LoadFS(os.DirFS("testdata/malformed"), Options{})
	var le *LoadError
	if !errors.As(err, &le) || !strings.Contains(err.Error(), "example.com/Broken/health.lua") || !strings.Contains(err.Error(), "line:5 (end of script)") {
		t.Fatalf("LoadFS() error = %v, want a LoadError naming the file and line", err)
	}
	t.Log(err)
}

// TestRunErrors: whatever a script does, the result is a verdict or an error, promptly.
func TestRunErrors(t *testing.T) {
	for _, tc := range []struct {
		name, script string
		want         string // in the error; "" for a verdict of Unknown
		limit        bool
	}{
		{"runtime error", "return {status = obj.status.nothing.here}", "test.lua:1: attempt to index", false},
		{"error call", "error('boom')", "boom", false},
		{"not a table", "return 'Healthy'", "returned a string", false},
		{"message a table", "return {status = 'Healthy', message = {}}", "message that is a table", false},
		{"unknown status", "return {status = 'Fine'}", "", false},
		{"runaway", "while true do end", "Lua health check stopped: it ran", true},
		{"runaway in pcall", "while true do pcall(function() while true do end end) end", "Lua health check stopped: it ran", true},
		{"recursion", "local function f() return 1 + f() end return f()", "stack overflow", false},
		{"memory hog", "local t={} while true do t[#t+1]=string.rep('x',1e6) end", "over the 1048576 bytes", false},
		{"memory hog by concatenation", "local s = ('x'):rep(1e6) while true do s = s .. s end", "Lua health check stopped: it", true},
		{"memory hog by concatenation into a table", "local s = ('x'):rep(1e6) local t = {} while true do t[#t+1] = s .. 'y' end", "Lua health check stopped: it", true},
		{"memory hog by method", "local t={} while true do t[#t+1]=('x'):rep(1e6) end", "over the 1048576 bytes", false},
		{"gsub growth", "local s = ('x'):rep(3000) return s:gsub('x', s)", "string.gsub", false},
		{"format width", "return string.format('%999999d', 1)", "width or precision too long", false},
		{"concat growth", "local t = {} for i = 1, 2000 do t[i] = ('y'):rep(1000) end return table.concat(t, ('z'):rep(100))", "over the", false},
		{"no os.execute", "os.execute('true')", "attempt to call a non-function", false},
		{"no io", "io.write('x')", "attempt to index a non-table object(nil)", false},
		{"no require", "require('os')", "attempt to call a non-function", false},
		{"no loadstring", "loadstring('return 1')()", "attempt to call a non-function", false},
		{"no dofile", "dofile('/etc/passwd')", "attempt to call a non-function", false},
		{"no debug", "debug.getinfo(1)", "attempt to index a non-table object(nil)", false},
		{"no setfenv", "setfenv(1, {})", "attempt to call a non-function", false},
		{"read-only string", "string.rep = nil", "read-only", false},
		{"protected string metatable", "getmetatable('').__index.rep = nil", "attempt to index a non-table object(nil)", false},
		{"string table not reachable", "('').__index.rep = nil", "attempt to index a non-table object(nil)", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := compile(t, tc.script)
			start := time.Now()
			h, err := c.Health(widgetIn(t, "Ready"))
			took := time.Since(start)
			t.Logf("Health() took %s", took)
			if took > 2*time.Second {
				t.Errorf("Health() took %s", took)
			}
			if tc.want == "" {
				if err != nil || h.Status != Unknown {
					t.Errorf("Health() = %+v, %v; want Unknown", h, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Health() = %+v, %v; want an error containing %q", h, err, tc.want)
			}
			var le *LimitError
			if errors.As(err, &le) != tc.limit {
				t.Errorf("Health() error %v: LimitError %v, want %v", err, !tc.limit, tc.limit)
			}
			res, rerr := c.Eval(widgetIn(t, "Ready"))
			if rerr == nil || res.Status != kstatus.UnknownStatus {
				t.Errorf("Eval() = %+v, %v; want Unknown and an error", res, rerr)
			}
			// Through kstatus: Unknown, with the error, never a panic.
			rs, err := RuleSet(c)
			if err != nil {
				t.Fatal(err)
			}
			kres, kerr := kstatus.ComputeWith(widgetIn(t, "Ready"), kstatus.Options{Rules: rs})
			if kerr == nil || kres.Status != kstatus.UnknownStatus || !strings.Contains(kres.Message, tc.want) {
				t.Errorf("ComputeWith() = %+v, %v; want Unknown naming %q", kres, kerr, tc.want)
			}
		})
	}
}

// TestTimeBound: a run that stays under its instruction count but not its time is
// stopped by the clock, and the interpreter it ran on does not stop the next run.
func TestTimeBound(t *testing.T) {
	c, err := Compile("slow.lua", "example.com", "Widget", "while true do end", Options{Timeout: 20 * time.Millisecond, MaxSteps: 1 << 60})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = c.Health(widgetIn(t, "Ready"))
	if took := time.Since(start); err == nil || !strings.Contains(err.Error(), "ran longer than 20ms") || took > time.Second {
		t.Errorf("Health() error = %v after %s, want it stopped by the 20ms bound", err, took)
	}
	quick, err := Compile("quick.lua", "example.com", "Widget", "return {status = 'Healthy'}", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for range 200 {
		if h, err := quick.Health(widgetIn(t, "Ready")); err != nil || h.Status != Healthy {
			t.Fatalf("Health() = %+v, %v; want Healthy", h, err)
		}
	}
}

// TestIsolation: what one run sets is not seen by the next on the same interpreter.
func TestIsolation(t *testing.T) {
	set := compile(t, "leaked = 'yes' _G.viaG = 'yes' obj.status.phase = 'Changed' return {status = 'Healthy'}")
	read := compile(t, "return {status = 'Healthy', message = tostring(leaked) .. ' ' .. tostring(viaG) .. ' ' .. obj.status.phase}")
	u := widgetIn(t, "Ready")
	for range 3 {
		if _, err := set.Health(u); err != nil {
			t.Fatal(err)
		}
		h, err := read.Health(u)
		if err != nil || h.Message != "nil nil Ready" {
			t.Fatalf("Health() = %+v, %v; want message \"nil nil Ready\"", h, err)
		}
	}
	if phase, _, _ := unstructured.NestedString(u.Object, "status", "phase"); phase != "Ready" {
		t.Errorf("the script changed the object: phase %q", phase)
	}
}

// TestObjectAsArgoCD: the object is a Lua table as Argo CD builds it: lists 1-based,
// pairs and next see every field, numbers are numbers, # counts a list.
func TestObjectAsArgoCD(t *testing.T) {
	c := compile(t, `
local keys = {}
for k, _ in pairs(obj.metadata.labels) do keys[#keys+1] = k end
table.sort(keys)
local first = next(obj.spec)
return {status = "Healthy", message = table.concat(keys, ",") .. " " .. #obj.status.items .. " " ..
  obj.status.items[1].name .. " " .. (obj.metadata.generation + 1) .. " " .. tostring(first) .. " " ..
  tostring(obj.spec.missing) .. " " .. type(obj.status.ok) .. " " .. string.format("%d", os.time({year=2026, month=1, day=2, hour=0})) }`)
	u := object(t, `{apiVersion: example.com/v1, kind: Widget, metadata: {name: w, generation: 4, labels: {b: "2", a: "1"}},
		spec: {only: x}, status: {ok: true, items: [{name: first}, {name: second}]}}`)
	h, err := c.Health(u)
	if err != nil {
		t.Fatal(err)
	}
	want := "a,b 2 first 5 only nil boolean "
	if !strings.HasPrefix(h.Message, want) {
		t.Errorf("message = %q, want it to start %q", h.Message, want)
	}
}

// TestStepBound: a run is stopped at its instruction count, exactly, whatever the time.
func TestStepBound(t *testing.T) {
	for _, tc := range []struct {
		script string
		ok     bool
	}{
		{"local n = 0 for i = 1, 100 do n = n + i end return {status = 'Healthy', message = tostring(n)}", true},
		{"local n = 0 for i = 1, 1000 do n = n + i end return {status = 'Healthy', message = tostring(n)}", false},
	} {
		c, err := Compile("steps.lua", "example.com", "Widget", tc.script, Options{MaxSteps: 1000, Timeout: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		h, err := c.Health(widgetIn(t, "Ready"))
		if tc.ok != (err == nil) || (!tc.ok && !strings.Contains(err.Error(), "ran more than 1000 Lua instructions")) {
			t.Errorf("%s: Health() = %+v, %v; want ok %v", tc.script, h, err, tc.ok)
		}
	}
}

// TestConcurrent: checks share pooled interpreters; runs on many goroutines, failing ones
// among them, each get their own verdict.
func TestConcurrent(t *testing.T) {
	good := compile(t, "return {status = 'Healthy', message = obj.status.phase}")
	bad := compile(t, "leaked = true error('boom')")
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				phase := fmt.Sprintf("p%d-%d", g, i)
				h, err := good.Health(widgetIn(t, phase))
				if err != nil || h.Message != phase {
					t.Errorf("Health() = %+v, %v; want message %s", h, err, phase)
					return
				}
				if _, err := bad.Health(widgetIn(t, phase)); err == nil {
					t.Error("Health() of a failing script: no error")
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestHeldStringBound: a run that has lasted past the watchdog's first firing may not hold
// a string over a quarter of MaxAllocBytes, however it built it: here five joins build 32
// MB (62 MB allocated, under the 64 MiB allocation bound) and the script then spins, so
// only the bound on strings held (or, far later, the Timeout) can stop it.
func TestHeldStringBound(t *testing.T) {
	c, err := Compile("held.lua", "example.com", "Widget",
		"local s = ('x'):rep(1e6) for i = 1, 5 do s = s .. s end while true do end",
		Options{MaxSteps: 1 << 40, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = c.Health(widgetIn(t, "Ready"))
	t.Logf("Health() took %s: %v", time.Since(start), err)
	var le *LimitError
	if !errors.As(err, &le) || !strings.Contains(err.Error(), "held a string of 32000000 bytes, over the 16777216") {
		t.Fatalf("Health() error = %v, want a LimitError for the string held", err)
	}
}
