package kates

import (
	"fmt"
	"os"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kates-dev/kates/kstatus"
)

// LoadStatusRules reads and compiles the status rule files at paths (the format is
// kstatus.LoadRules', so an argocd-cm ConfigMap of Lua health checks too in a program that
// imports kstatus/luahealth), merged in order: for a kind in two files, the first file's
// rule wins. An error names the file, the rule and the expression.
func LoadStatusRules(paths ...string) (*kstatus.RuleSet, error) {
	var sets []*kstatus.RuleSet
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("kates: status rules: %w", err)
		}
		rs, err := kstatus.LoadRules(data, p)
		if err != nil {
			return nil, err
		}
		sets = append(sets, rs)
	}
	if len(sets) == 0 {
		return nil, nil
	}
	return sets[0].Merge(sets[1:]...), nil
}

// StatusRules says which status rules judge objects, beside kstatus' built-in rules for
// Kubernetes' own kinds. It is the one way to pass them: WatchOptions (each Entry's Status),
// WaitOptions and StatusOptions embed it. The zero value uses kstatus' built-in library.
type StatusRules struct {
	// Rules are status rules for custom resources (CEL, or Argo CD Lua health checks in a
	// program that imports kstatus/luahealth), tried before kstatus' built-in library; see
	// kstatus.RuleSet and LoadStatusRules. Default: none.
	Rules *kstatus.RuleSet
	// NoLibrary turns off kstatus' built-in library of status rules. Default false.
	NoLibrary bool
}

// StatusOptions changes how Client.StatusWith and WatchStatusWith judge objects.
type StatusOptions struct {
	StatusRules
	// Explain fills each ObjectStatus' Explanation: the rule that judged, its expressions,
	// the fields it read and their values (kstatus.ExplainDetail). Default false.
	Explain bool
}

// judge is what the options of Watch, Wait and Status say about status rules, and what
// CRDs say of their kinds.
type judge struct {
	StatusRules
	// kinds, set by the tracker, is what CRDs say of their kinds (Client.knownKind).
	kinds func(apiVersion, kind string) *kstatus.KindInfo
}

func (r judge) options() kstatus.Options {
	return kstatus.Options{Rules: r.Rules, NoLibrary: r.NoLibrary, Kinds: r.kinds}
}

func (r judge) watchOptions() WatchOptions {
	return WatchOptions{StatusRules: r.StatusRules}
}

// judgedBy names the rule that judges u (kstatus.Explain). It computes u's status again:
// only Status and WatchStatus ask, for a person reading why.
func (r judge) judgedBy(u *unstructured.Unstructured) string {
	_, rule, _ := kstatus.Explain(u, r.options())
	return rule
}

// explain is kstatus.ExplainDetail under these options, for a person asking why.
func (r judge) explain(u *unstructured.Unstructured) *kstatus.Explanation {
	e, _ := kstatus.ExplainDetail(u, r.options())
	return e
}

// statusFunc is the accumulator's status computation for these options; nil (kstatus.Compute,
// the library included) when they ask for nothing else. kinds is what CRDs say of the kinds
// watched (kstatus.Options.Kinds).
func statusFunc(rules StatusRules, kinds func(apiVersion, kind string) *kstatus.KindInfo) func(*unstructured.Unstructured) (*kstatus.Result, error) {
	if rules.Rules == nil && !rules.NoLibrary && kinds == nil {
		return nil
	}
	opts := kstatus.Options{Rules: rules.Rules, NoLibrary: rules.NoLibrary, Kinds: kinds}
	return func(u *unstructured.Unstructured) (*kstatus.Result, error) {
		return kstatus.ComputeWith(u, opts)
	}
}
