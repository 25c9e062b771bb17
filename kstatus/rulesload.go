package kstatus

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"sync"

	"sigs.k8s.io/yaml"
)

// ruleFile is the hand-written format LoadRules reads:
//
//	rules:
//	- kind: Widget
//	  apiVersion: example.com/v1   # or group: example.com (and version: v1)
//	  inProgress: "!has(status.phase) || status.phase == 'Pending'"
//	  failed: status.phase == 'Failed'
//	  current: status.phase == 'Ready'
//	  message: "has(status.message) ? status.message : ''"
type ruleFile struct {
	Rules []Rule `json:"rules"`
}

// LoadRules reads status rules from YAML (or JSON) and compiles them. source names the
// file in errors. It accepts, in one or more documents separated by "---":
//
//   - the hand-written format, a document with a rules list (see the README);
//   - Flux's healthCheckExprs: a bare list of entries with apiVersion, kind, current,
//     failed and inProgress, a document with a healthCheckExprs list, or a whole Flux
//     Kustomization, whose spec.healthCheckExprs is read.
//
// Unknown keys are errors, so a misspelt "inprogress" does not silently do nothing.
//
// A package imported for its side effect may teach it more formats (RegisterRuleDecoder):
// kstatus/luahealth adds Argo CD's argocd-cm ConfigMap of Lua health checks. The rules of
// such documents come after the CEL rules of the same data when the sets merge.
func LoadRules(data []byte, source string) (*RuleSet, error) {
	return loadRules(data, source, false)
}

// loadRules is LoadRules; lazy defers compiling each rule's expressions to its first use
// (see compileRules).
func loadRules(data []byte, source string, lazy bool) (*RuleSet, error) {
	var all []Rule
	var others []*RuleSet
	for i, doc := range splitDocuments(data) {
		rs, ok, err := decodeRegistered(doc, source)
		if ok && err == nil {
			others = append(others, rs)
			continue
		}
		var rules []Rule
		if !ok {
			rules, err = decodeRules(doc)
		}
		if err != nil {
			if source == "" {
				source = "rules"
			}
			return nil, fmt.Errorf("kstatus: %s: document %d: %w", source, i+1, err)
		}
		all = append(all, rules...)
	}
	rs, err := compileRules(all, source, lazy)
	if err != nil || len(others) == 0 {
		return rs, err
	}
	return rs.Merge(others...), nil
}

// splitDocuments splits a YAML stream at "---" lines and drops empty documents.
func splitDocuments(data []byte) [][]byte {
	var docs [][]byte
	var cur bytes.Buffer
	flush := func() {
		if len(bytes.TrimSpace(stripComments(cur.Bytes()))) > 0 {
			docs = append(docs, append([]byte(nil), cur.Bytes()...))
		}
		cur.Reset()
	}
	for _, line := range bytes.SplitAfter(data, []byte("\n")) {
		if t := bytes.TrimRight(line, " \t\r\n"); bytes.Equal(t, []byte("---")) {
			flush()
			continue
		}
		cur.Write(line)
	}
	flush()
	return docs
}

func stripComments(b []byte) []byte {
	var out []byte
	for _, line := range bytes.Split(b, []byte("\n")) {
		if t := bytes.TrimSpace(line); len(t) > 0 && t[0] != '#' {
			out = append(out, t...)
		}
	}
	return out
}

func decodeRules(doc []byte) ([]Rule, error) {
	j, err := yaml.YAMLToJSON(doc)
	if err != nil {
		return nil, err
	}
	j = bytes.TrimSpace(j)
	if len(j) > 0 && j[0] == '[' {
		var rules []Rule
		return rules, strictJSON(j, &rules)
	}
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(j, &probe); err != nil {
		return nil, err
	}
	switch {
	case probe["rules"] != nil:
		var f ruleFile
		return f.Rules, strictJSON(j, &f)
	case probe["healthCheckExprs"] != nil:
		var f struct {
			HealthCheckExprs []Rule `json:"healthCheckExprs"`
		}
		return f.HealthCheckExprs, strictJSON(j, &f)
	case probe["spec"] != nil && probe["kind"] != nil:
		// A Flux Kustomization: only spec.healthCheckExprs matters here.
		var k struct {
			Spec struct {
				HealthCheckExprs []Rule `json:"healthCheckExprs"`
			} `json:"spec"`
		}
		if err := json.Unmarshal(j, &k); err != nil {
			return nil, err
		}
		if len(k.Spec.HealthCheckExprs) == 0 {
			return nil, errors.New("an object without spec.healthCheckExprs")
		}
		for _, r := range k.Spec.HealthCheckExprs {
			if err := strictJSON(mustJSON(r), &Rule{}); err != nil {
				return nil, err
			}
		}
		return k.Spec.HealthCheckExprs, nil
	}
	return nil, errors.New(`want a "rules" list, a "healthCheckExprs" list, or a list of rules`)
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

func strictJSON(data []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	return d.Decode(v)
}

//go:embed library/*.yaml
var libraryFS embed.FS

// Library returns the built-in status rules: rules for widely deployed custom resources
// (Argo, Flux, cert-manager, ...) whose status the standard conditions do not cover; the
// README lists the kinds. Compute uses it; ComputeWith unless Options.NoLibrary. The set is
// read once, on first use, and each rule's expressions are compiled on the first lookup of
// its kind, so a program pays only for the kinds it judges.
func Library() *RuleSet {
	return library()
}

var library = sync.OnceValue(func() *RuleSet {
	rs, err := loadLibrary(libraryFS)
	if err != nil {
		// The library is tested; a broken one is a bug in this package, not a state a
		// caller can handle.
		panic(err)
	}
	return rs
})

func loadLibrary(fsys fs.FS) (*RuleSet, error) {
	names, err := fs.Glob(fsys, "library/*.yaml")
	if err != nil {
		return nil, err
	}
	var sets []*RuleSet
	for _, n := range names {
		data, err := fs.ReadFile(fsys, n)
		if err != nil {
			return nil, err
		}
		rs, err := loadRules(data, path.Base(n), true)
		if err != nil {
			return nil, err
		}
		for _, r := range rs.Rules() {
			if !strings.Contains(r.Name, "/") {
				return nil, fmt.Errorf("%s: library rule %q must be named project/Kind", n, r.Name)
			}
		}
		sets = append(sets, rs)
	}
	if len(sets) == 0 {
		return &RuleSet{byKind: map[groupKind][]*compiledRule{}}, nil
	}
	return sets[0].Merge(sets[1:]...), nil
}
