package kstatus

import (
	"bufio"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// fixtureStates are the states a kind's library fixtures can stand for (ruleFixture.State).
var fixtureStates = []string{"healthy", "progressing", "failed", "no-status", "paused"}

// minKindsWithEveryState is how many kinds must have a fixture for each of fixtureStates.
const minKindsWithEveryState = 100

// argoCDKinds reads testdata/kstatus/argocd/health-kinds.txt: the group/kind of each health
// check Argo CD ships, with "_" as its wildcard.
func argoCDKinds(t *testing.T) []groupKind {
	t.Helper()
	f, err := os.Open(filepath.Join(fixtureDir, "argocd", "health-kinds.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var gks []groupKind
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		g, k, ok := strings.Cut(line, "/")
		if !ok {
			t.Fatalf("health-kinds.txt: %q is not GROUP/KIND", line)
		}
		gks = append(gks, groupKind{g, k})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return gks
}

// ourPattern turns Argo CD's wildcard spelling into the library's: a group "_.x" is "*.x",
// a kind "_" is "*".
func ourPattern(gk groupKind) groupKind {
	if rest, ok := strings.CutPrefix(gk.group, "_."); ok {
		gk.group = "*." + rest
	}
	if gk.kind == "_" {
		gk.kind = "*"
	}
	return gk
}

// TestArgoCDKindsCovered fails for every kind Argo CD has a health check for that the library
// has no rule for (a built-in rule of this package, or a library rule for the same group
// and kind, wildcards spelt the same way), and for every such kind without at least a
// healthy and a not-healthy fixture. It also counts the kinds whose fixtures cover every one
// of fixtureStates.
func TestArgoCDKindsCovered(t *testing.T) {
	lib := map[groupKind]bool{}
	for _, r := range Library().Rules() {
		g := r.Group
		if g == "" && r.APIVersion != "" {
			g = group(r.APIVersion)
		}
		lib[groupKind{g, r.Kind}] = true
	}
	paths, fixtures := loadRuleFixtures(t)
	states := map[groupKind]map[string]bool{} // by the fixture object's group and kind
	for _, p := range paths {
		fx := fixtures[p]
		u := objectOf(t, fx.Object)
		gk := groupKind{group(u.GetAPIVersion()), u.GetKind()}
		if states[gk] == nil {
			states[gk] = map[string]bool{}
		}
		if fx.State != "" {
			states[gk][fx.State] = true
		}
		if fx.Expected.Status == CurrentStatus {
			states[gk]["healthy"] = true
		} else {
			states[gk]["not-healthy"] = true
		}
	}
	// statesOf gathers the states of every fixture kind a (possibly wildcard) pattern covers.
	statesOf := func(pat groupKind) map[string]bool {
		got := map[string]bool{}
		for gk, st := range states {
			if matchesPattern(pat, gk) {
				for s := range st {
					got[s] = true
				}
			}
		}
		return got
	}
	byGroup := map[string][]groupKind{}
	for _, gk := range argoCDKinds(t) {
		byGroup[gk.group] = append(byGroup[gk.group], gk)
	}
	groups := make([]string, 0, len(byGroup))
	for g := range byGroup {
		groups = append(groups, g)
	}
	sort.Strings(groups)
	complete := 0
	for _, g := range groups {
		t.Run(g, func(t *testing.T) {
			for _, gk := range byGroup[g] {
				pat := ourPattern(gk)
				if _, builtin := rules[pat]; !builtin && !lib[pat] {
					t.Errorf("%s/%s: no rule (want a library rule with group %q, kind %q)", gk.group, gk.kind, pat.group, pat.kind)
					continue
				}
				st := statesOf(pat)
				if !st["healthy"] || !st["not-healthy"] {
					t.Errorf("%s/%s: want a Current and a not-Current fixture in testdata/kstatus/rules, have %v", gk.group, gk.kind, st)
				}
				all := true
				for _, s := range fixtureStates {
					all = all && st[s]
				}
				if all {
					complete++
				}
			}
		})
	}
	t.Logf("%d kinds have fixtures for every state %v", complete, fixtureStates)
	if complete < minKindsWithEveryState {
		t.Errorf("%d kinds have fixtures for every state %v; want at least %d", complete, fixtureStates, minKindsWithEveryState)
	}
}

// matchesPattern reports whether gk is covered by pat, whose group may be "*.suffix" and
// whose kind may be "*".
func matchesPattern(pat, gk groupKind) bool {
	if pat.kind != "*" && pat.kind != gk.kind {
		return false
	}
	if suffix, ok := strings.CutPrefix(pat.group, "*"); ok {
		return strings.HasSuffix(gk.group, suffix) && len(gk.group) > len(suffix)
	}
	return pat.group == gk.group
}
