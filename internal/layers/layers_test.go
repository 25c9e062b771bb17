package layers

import (
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/kates-dev/kates"

// layers lists the module's packages from the bottom up; a package may import packages of
// lower layers only. A path ending in "/..." covers every package under it. Packages named
// here that do not exist (yet) are ignored.
var layers = [][]string{
	// Leaves: imports nothing of ours. testenv starts clusters for kates' own tests, so it
	// must not import kates; testenv/katestest, which does, sits above kates.
	{"internal/protodecode", "internal/ujson", "internal/managedfields", "internal/linksize", "internal/layers", "testenv"},
	// Pure status computation.
	{"kstatus"},
	{"kstatus/related", "kstatus/luahealth"},
	// The core, no network.
	{"accumulator"},
	// Compression for compact views, linked only by the programs that compress.
	{"zstdcompact"},
	// The I/O shell: Client, Watch, Wait.
	{"kates"},
	// The fenced Lease protocol, kept out of kates: only election and shards link it.
	{"internal/lease"},
	// One concept per package, each linked only by the programs that use it.
	{"validate", "applyset", "election", "shards", "metrics", "testenv/katestest"},
	// Apply-and-wait, over validation and ApplySets; the controller runtime, over election,
	// shards and metrics.
	{"apply", "controller"},
	// Programs.
	{"cmd/...", "examples", "examples/...", "hack/..."},
}

// layerOf returns pkg's layer (relative to the module), or -1 if the table has none.
func layerOf(pkg string) int {
	for i, ps := range layers {
		for _, p := range ps {
			if p == pkg {
				return i
			}
			if prefix, ok := strings.CutSuffix(p, "..."); ok && strings.HasPrefix(pkg, prefix) {
				return i
			}
		}
	}
	return -1
}

// imports returns, for each package of the module, the packages of the module it imports
// (non-test imports, and those of its in-package test files, which compile into it).
func imports(t *testing.T) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-e", "-f",
		`{{.ImportPath}} {{join .Imports " "}} {{join .TestImports " "}}{{if .Error}} ERROR:{{.Error}}{{end}}`,
		module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	graph := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if i := strings.Index(line, " ERROR:"); i >= 0 {
			t.Errorf("go list: %s", line[i+len(" ERROR:"):])
			line = line[:i]
		}
		fields := strings.Fields(line)
		pkg := rel(fields[0])
		var deps []string
		for _, d := range fields[1:] {
			if strings.HasPrefix(d, module+"/") && !slices.Contains(deps, rel(d)) {
				deps = append(deps, rel(d))
			}
		}
		graph[pkg] = deps
	}
	return graph
}

func rel(p string) string { return strings.TrimPrefix(p, module+"/") }

// upward lists the imports of graph that do not point down, and the packages with no layer.
func upward(graph map[string][]string) []string {
	var out []string
	for pkg, deps := range graph {
		l := layerOf(pkg)
		if l < 0 {
			out = append(out, fmt.Sprintf("package %s has no layer: add it to the table in layers_test.go (and the README's Layout)", pkg))
			continue
		}
		for _, d := range deps {
			if dl := layerOf(d); dl >= l {
				out = append(out, fmt.Sprintf("%s (layer %d) imports %s (layer %d): imports point down only", pkg, l, d, dl))
			}
		}
	}
	slices.Sort(out)
	return out
}

// cycles lists the import cycles of graph, each from the first package on it that a walk in
// sorted order meets.
func cycles(graph map[string][]string) []string {
	const (
		unvisited = iota
		onPath
		done
	)
	var out []string
	state := map[string]int{}
	var path []string
	var visit func(p string)
	visit = func(p string) {
		switch state[p] {
		case onPath:
			i := slices.Index(path, p)
			out = append(out, strings.Join(append(slices.Clone(path[i:]), p), " -> "))
			return
		case done:
			return
		}
		state[p] = onPath
		path = append(path, p)
		for _, d := range graph[p] {
			visit(d)
		}
		path = path[:len(path)-1]
		state[p] = done
	}
	pkgs := make([]string, 0, len(graph))
	for p := range graph {
		pkgs = append(pkgs, p)
	}
	slices.Sort(pkgs)
	for _, p := range pkgs {
		visit(p)
	}
	return out
}

func TestImportsPointDown(t *testing.T) {
	for _, v := range upward(imports(t)) {
		t.Error(v)
	}
}

func TestNoImportCycles(t *testing.T) {
	for _, c := range cycles(imports(t)) {
		t.Errorf("import cycle: %s", c)
	}
}

// The checks themselves fail on what they are there to catch.
func TestChecksCatchWhatTheyShould(t *testing.T) {
	tests := []struct {
		name       string
		graph      map[string][]string
		wantUpward int
		wantCycles []string
	}{
		{"down only", map[string][]string{"kates": {"accumulator", "kstatus"}, "metrics": {"kates"}}, 0, nil},
		{"kates imports metrics", map[string][]string{"kates": {"metrics"}, "metrics": {}}, 1, nil},
		{"same layer", map[string][]string{"validate": {"election"}, "election": {}}, 1, nil},
		{"internal imports kates", map[string][]string{"internal/ujson": {"kates"}, "kates": {}}, 1, nil},
		{"unlisted package", map[string][]string{"internal/exampletest": {}}, 1, nil},
		{"cycle", map[string][]string{"a": {"b"}, "b": {"c"}, "c": {"a"}}, 3, []string{"a -> b -> c -> a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := upward(tt.graph); len(got) != tt.wantUpward {
				t.Errorf("upward() = %q, want %d findings", got, tt.wantUpward)
			}
			if diff := fmt.Sprint(cycles(tt.graph)); diff != fmt.Sprint(tt.wantCycles) {
				t.Errorf("cycles() = %s, want %s", diff, fmt.Sprint(tt.wantCycles))
			}
		})
	}
}
