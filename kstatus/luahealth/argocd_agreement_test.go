package luahealth

import (
	"archive/zip"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	lua "github.com/yuin/gopher-lua"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"

	"github.com/kates-dev/kates/kstatus"
)

var argoCDFill = flag.Bool("argocd-fill", false,
	"write what Argo CD's health check says (argocd.health) into each fixture of testdata/kstatus/rules that lacks it (review the diff)")

// The Argo CD release whose health checks the fixtures are compared with. Its module zip
// is read at test time; no script of it is kept in this repository.
const (
	argoCDModule  = "github.com/argoproj/argo-cd/v3"
	argoCDVersion = "v3.6.1"
)

var fixtureRoot = filepath.Join("..", "..", "testdata", "kstatus", "rules")

// ruleFixture is the part of kstatus' rule fixture format (kstatus/rules_test.go) this
// test reads.
type ruleFixture struct {
	Object   json.RawMessage `json:"object"`
	Expected struct {
		Status  kstatus.Status `json:"status"`
		Message string         `json:"message"`
	} `json:"expected"`
	State  string `json:"state,omitempty"`
	ArgoCD *struct {
		Health string `json:"health,omitempty"`
		Why    string `json:"why,omitempty"`
	} `json:"argocd,omitempty"`
}

// argoCDChecks loads every health.lua of Argo CD's resource_customizations from its
// module zip, fetching the zip into the module cache if it is not there. It skips the
// test when the zip cannot be had.
var argoCDChecks = sync.OnceValues(func() ([]*Check, error) {
	zr, err := openArgoCDZip()
	if err != nil {
		return nil, err
	}
	sub, err := fs.Sub(zr, argoCDModule+"@"+argoCDVersion+"/resource_customizations")
	if err != nil {
		return nil, err
	}
	return LoadFS(sub, Options{})
})

func openArgoCDZip() (*zip.Reader, error) {
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		return nil, fmt.Errorf("go env GOMODCACHE: %w", err)
	}
	path := filepath.Join(strings.TrimSpace(string(out)), "cache", "download", argoCDModule, "@v", argoCDVersion+".zip")
	if _, err := os.Stat(path); err != nil {
		// go mod download leaves the zip, then fails: the module asks for a newer Go
		// than it is built with. Only the zip matters here. Run it outside this module
		// so that go.mod and go.sum are not touched.
		cmd := exec.Command("go", "mod", "download", "-json", argoCDModule+"@"+argoCDVersion)
		cmd.Dir = os.TempDir()
		msg, _ := cmd.CombinedOutput()
		if _, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("no %s and go mod download did not fetch it: %s", path, strings.TrimSpace(string(msg)))
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	return zip.NewReader(f, st.Size())
}

func loadArgoCDChecks(t *testing.T) []*Check {
	t.Helper()
	checks, err := argoCDChecks()
	if checks == nil {
		t.Skipf("Argo CD %s's health checks cannot be read: %v", argoCDVersion, err)
	}
	if err != nil {
		t.Fatalf("Argo CD %s: scripts that do not compile: %v", argoCDVersion, err)
	}
	return checks
}

// findCheck returns the check Argo CD runs for group and kind: the script for that kind,
// else one whose wildcard folders match it.
func findCheck(checks []*Check, group, kind string) *Check {
	var wild *Check
	for _, c := range checks {
		switch {
		case c.Group == group && c.Kind == kind:
			return c
		case wild == nil && (c.Kind == kind || c.Kind == "*") &&
			(c.Group == "*" || strings.HasPrefix(c.Group, "*.") && strings.HasSuffix(group, c.Group[1:])):
			wild = c
		}
	}
	return wild
}

// mapped is the kstatus status an Argo CD health reads as (see Result).
func mapped(h HealthStatus) kstatus.Status {
	return Result(Health{Status: h}).Status
}

// TestArgoCDAgreement runs Argo CD's own health check on the object of each rule
// fixture whose kind it has one for, and holds the fixture to it: a recorded
// argocd.health must be what the script says, and where the status Argo CD's verdict maps
// to differs from ours (Suspended agrees with a fixture of state paused), the fixture
// must say why in argocd.why — and must not where they agree. A script that fails on an
// object is Unknown, as Argo CD reads a failing check.
func TestArgoCDAgreement(t *testing.T) {
	checks := loadArgoCDChecks(t)
	paths, _ := filepath.Glob(filepath.Join(fixtureRoot, "*", "*.yaml"))
	if len(paths) == 0 {
		t.Fatal("no fixtures in testdata/kstatus/rules")
	}
	sort.Strings(paths)
	var compared, agree, explained, filled int
	var failing []string
	for _, p := range paths {
		name := strings.TrimSuffix(strings.TrimPrefix(p, fixtureRoot+string(filepath.Separator)), ".yaml")
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		fx := &ruleFixture{}
		if err := yaml.Unmarshal(data, fx); err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		var obj map[string]any
		if err := utiljson.Unmarshal(fx.Object, &obj); err != nil {
			t.Errorf("%s: object: %v", name, err)
			continue
		}
		u := &unstructured.Unstructured{Object: obj}
		gv := u.GetAPIVersion()
		group := ""
		if i := strings.IndexByte(gv, '/'); i >= 0 {
			group = gv[:i]
		}
		c := findCheck(checks, group, u.GetKind())
		if c == nil {
			continue
		}
		h, err := c.Health(u)
		if err != nil {
			failing = append(failing, fmt.Sprintf("%s (%s): %v", name, c.Name, err))
			h = Health{Status: Unknown, Message: err.Error()}
		}
		if h.Status == "" {
			// The script has no opinion; Argo CD falls back to its own built-in checks,
			// which this test does not run.
			t.Logf("%s: %s returns nil", name, c.Name)
			continue
		}
		compared++
		var recorded, why string
		if fx.ArgoCD != nil {
			recorded, why = fx.ArgoCD.Health, fx.ArgoCD.Why
		}
		if recorded == "" && *argoCDFill {
			if err := fillHealth(p, data, h.Status); err != nil {
				t.Fatal(err)
			}
			recorded = string(h.Status)
			filled++
		}
		if recorded != "" && recorded != string(h.Status) {
			t.Errorf("%s: argocd.health is %s, but Argo CD's %s says %s: %q", name, recorded, c.Name, h.Status, h.Message)
		}
		same := mapped(h.Status) == fx.Expected.Status
		if h.Status == Suspended {
			same = fx.State == "paused"
		}
		switch {
		case same && why != "":
			t.Errorf("%s: argocd.why is given, but Argo CD's %s (%s: %q) agrees with ours (%s: %q): drop it",
				name, c.Name, h.Status, h.Message, fx.Expected.Status, fx.Expected.Message)
		case same:
			agree++
		case why == "":
			t.Errorf("%s: Argo CD's %s says %s (%s): %q; ours is %s: %q; add argocd.why saying why ours differs",
				name, c.Name, h.Status, mapped(h.Status), h.Message, fx.Expected.Status, fx.Expected.Message)
		default:
			explained++
		}
	}
	sort.Strings(failing)
	for _, f := range failing {
		t.Logf("script failed (read as Unknown): %s", f)
	}
	t.Logf("Argo CD %s: %d fixtures compared, %d agree, %d explained disagreements, %d scripts failed on a fixture, %d records filled",
		argoCDVersion, compared, agree, explained, len(failing), filled)
	if compared == 0 {
		t.Error("no fixture is of a kind Argo CD has a health check for: the lookup is broken")
	}
}

// fillHealth writes argocd.health into a fixture file, leaving the rest of it alone.
func fillHealth(path string, data []byte, h HealthStatus) error {
	text := string(data)
	line := "  health: " + string(h) + "\n"
	if i := strings.Index(text, "\nargocd:\n"); i >= 0 {
		j := i + len("\nargocd:\n")
		text = text[:j] + line + text[j:]
	} else if strings.HasPrefix(text, "argocd:\n") {
		text = "argocd:\n" + line + text[len("argocd:\n"):]
	} else {
		if !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		text += "argocd:\n" + line
	}
	return os.WriteFile(path, []byte(text), 0o644)
}

// TestArgoCDScriptsRun checks every Argo CD health check against the sandbox: each
// compiles, and each global and library function it names is one the sandbox gives. It
// logs the scripts that name something the sandbox leaves out, and fails if one does.
func TestArgoCDScriptsRun(t *testing.T) {
	checks := loadArgoCDChecks(t)
	if len(checks) < 250 {
		t.Errorf("loaded %d of Argo CD's health checks, want the ~293 of %s", len(checks), argoCDVersion)
	}
	v := newVM()
	defer v.L.Close()
	have := func(name string) bool {
		return name == "obj" || name == "_G" || v.L.GetField(v.L.G.Global, name) != lua.LNil
	}
	// Argo CD runs its own checks with every library open: a name only that has is one
	// the sandbox leaves out; a name neither has is a bug of the script's.
	full := lua.NewState()
	defer full.Close()
	libCall := regexp.MustCompile(`\b(string|table|math|os|io|debug|coroutine|package|channel)\.([a-zA-Z_]+)`)
	var missing []string
	for _, c := range checks {
		read, set := map[string]bool{}, map[string]bool{}
		globals(c.proto, read, set)
		var bad []string
		for n := range read {
			switch {
			case have(n) || set[n]:
			case full.GetField(full.G.Global, n) == lua.LNil:
				t.Logf("%s reads global %q, which nothing defines: Argo CD's script fails where it reads it", c.Name, n)
			default:
				bad = append(bad, n)
			}
		}
		for _, m := range libCall.FindAllStringSubmatch(c.script, -1) {
			lib, ok := v.L.GetField(v.L.G.Global, m[1]).(*lua.LTable)
			if !ok || v.L.GetField(lib, m[2]) == lua.LNil {
				bad = append(bad, m[0])
			}
		}
		if len(bad) > 0 {
			sort.Strings(bad)
			missing = append(missing, fmt.Sprintf("%s: %s", c.Name, strings.Join(bad, ", ")))
		}
	}
	for _, m := range missing {
		t.Errorf("names what the sandbox does not give: %s", m)
	}
	t.Logf("%d Argo CD health checks compile; %d name something the sandbox leaves out", len(checks), len(missing))
}

// globals adds the global names p and its nested functions read and set.
func globals(p *lua.FunctionProto, read, set map[string]bool) {
	for _, inst := range p.Code {
		names := read
		switch int(inst >> 26) {
		case lua.OP_GETGLOBAL:
		case lua.OP_SETGLOBAL:
			names = set
		default:
			continue
		}
		if s, ok := p.Constants[int(inst&0x3ffff)].(lua.LString); ok {
			names[string(s)] = true
		}
	}
	for _, f := range p.FunctionPrototypes {
		globals(f, read, set)
	}
}

// TestFillHealth: -argocd-fill adds the record to a fixture with no argocd section and to
// one whose section has only a why, and leaves the rest of the file as it was.
func TestFillHealth(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"# comment\nobject:\n  kind: X\nexpected:\n  status: Current\n",
			"# comment\nobject:\n  kind: X\nexpected:\n  status: Current\nargocd:\n  health: Healthy\n"},
		{"object:\n  kind: X\nargocd:\n  why: ours reads the condition\nexpected:\n  status: Current",
			"object:\n  kind: X\nargocd:\n  health: Healthy\n  why: ours reads the condition\nexpected:\n  status: Current"},
	} {
		p := filepath.Join(t.TempDir(), "f.yaml")
		if err := fillHealth(p, []byte(tc.in), Healthy); err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(p)
		if string(got) != tc.want {
			t.Errorf("fillHealth(%q) wrote %q, want %q", tc.in, got, tc.want)
		}
		fx := &ruleFixture{}
		if err := yaml.UnmarshalStrict(got, fx); err != nil || fx.ArgoCD == nil || fx.ArgoCD.Health != "Healthy" {
			t.Errorf("filled fixture reads as %+v, %v; want argocd.health Healthy", fx.ArgoCD, err)
		}
	}
}
