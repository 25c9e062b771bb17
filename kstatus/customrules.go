package kstatus

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// CustomRule is a status rule judged by Go code instead of CEL: the hook through which
// rules written in another language (Argo CD's Lua health checks, in package
// kstatus/luahealth) join a RuleSet. It is tried where a CEL rule for its kind would be,
// and the same way: after rules 1 and 2 of the package documentation, before the built-in
// kind rule only with Override.
type CustomRule struct {
	// Name says which rule judged an object. Required.
	Name string
	// Language prefixes Name in what Explain reports ("lua:argocd/apps/Widget"). Default:
	// "custom".
	Language string
	// Group is the kind's API group, "" for the core group, or a wildcard "*.suffix"
	// matching every group that ends in ".suffix", as Rule.Group.
	Group string
	// Version, if set, limits the rule to that version of the kind.
	Version string
	// Kind is the kind the rule judges; "*" matches every kind of Group.
	Kind string
	// Override makes the rule apply before the built-in rule for its kind, as Rule.Override.
	Override bool
	// Eval judges one object. It must not modify the object, must be safe for concurrent
	// use, and must return: a Result, which decides (its first Condition's Reason, if
	// any, becomes the Reconciling or Stalled reason); nil and nil, which decides nothing
	// and leaves the object to the generic rules 3–6; or an error, which makes the object
	// Unknown with the error's text (and the Result's Message, if one is given, instead).
	Eval func(u *unstructured.Unstructured) (*Result, error)
}

// NewCustomRules returns a RuleSet of custom rules, to Merge with CEL rules. A rule
// without a name, a kind or Eval, a malformed group or kind pattern, and two rules for the
// same group, kind and version are errors.
func NewCustomRules(rules ...CustomRule) (*RuleSet, error) {
	rs := newRuleSet()
	var errs []error
	for _, r := range rules {
		if err := checkCustomRule(r); err != nil {
			errs = append(errs, &RuleError{Rule: r.Name, Err: err})
			continue
		}
		lang := r.Language
		if lang == "" {
			lang = "custom"
		}
		c := &compiledRule{src: Rule{Name: r.Name, Group: r.Group, Version: r.Version, Kind: r.Kind, Override: r.Override},
			name: r.Name, group: r.Group, version: r.Version, by: lang + ":" + r.Name, custom: r.Eval}
		key := ruleKey(c)
		for _, o := range rs.byKind[key] {
			if o.version == c.version {
				errs = append(errs, &RuleError{Rule: c.name,
					Err: fmt.Errorf("another rule, %q, is for the same kind and version", o.name)})
			}
		}
		rs.byKind[key] = append(rs.byKind[key], c)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	rs.index()
	return rs, nil
}

func checkCustomRule(r CustomRule) error {
	switch {
	case r.Name == "":
		return errors.New("no name")
	case r.Kind == "":
		return errors.New("no kind")
	case r.Eval == nil:
		return errors.New("no Eval function")
	case strings.Contains(r.Kind, "*") && r.Kind != "*":
		return fmt.Errorf("kind %q: the only kind pattern is \"*\"", r.Kind)
	case strings.Contains(r.Group, "*") && !validSuffixPattern(r.Group):
		return fmt.Errorf("group %q: the only group pattern is \"*.suffix\"", r.Group)
	}
	return nil
}

// validSuffixPattern reports whether g is "*." followed by a group suffix without
// wildcards or empty labels at its ends.
func validSuffixPattern(g string) bool {
	suffix, ok := strings.CutPrefix(g, "*.")
	return ok && suffix != "" && !strings.HasPrefix(suffix, ".") && !strings.HasSuffix(suffix, ".") && !strings.Contains(suffix, "*")
}

// applyCustom evaluates a custom rule on the object m.
func (r *compiledRule) applyCustom(m map[string]any, kind string) (v verdict, decided bool) {
	res, err := r.custom(&unstructured.Unstructured{Object: m})
	if err != nil {
		fe := &FieldError{Kind: kind, Path: fmt.Sprintf("(status rule %q)", r.name),
			Want: "an object the rule can evaluate", Value: err.Error()}
		msg := fmt.Sprintf("status rule %q: %v", r.name, err)
		if res != nil && res.Message != "" {
			msg = res.Message
		}
		return verdict{status: UnknownStatus, err: fe, by: r.by, message: msg}, true
	}
	if res == nil {
		return verdict{}, false
	}
	v = verdict{status: res.Status, message: res.Message, by: r.by}
	if len(res.Conditions) > 0 {
		v.reason = res.Conditions[0].Reason
	}
	return v, true
}

// RuleDecoder reads status rules from one YAML or JSON document of a format LoadRules
// does not know itself. It returns ok false, and no error, for a document that is not of
// its format.
type RuleDecoder func(doc []byte, source string) (rs *RuleSet, ok bool, err error)

var ruleDecoders struct {
	sync.RWMutex
	list []RuleDecoder
}

// RegisterRuleDecoder makes LoadRules also accept the documents d knows. Packages that
// read rules in another language register their format when imported (an
// `import _ "github.com/kates-dev/kates/kstatus/luahealth"` makes LoadRules read
// Argo CD's argocd-cm ConfigMap), so a program that does not import them does not link
// their interpreter. Call it from an init function.
func RegisterRuleDecoder(d RuleDecoder) {
	ruleDecoders.Lock()
	defer ruleDecoders.Unlock()
	ruleDecoders.list = append(ruleDecoders.list, d)
}

// decodeRegistered offers doc to the registered decoders; ok is false when none knows it.
func decodeRegistered(doc []byte, source string) (rs *RuleSet, ok bool, err error) {
	ruleDecoders.RLock()
	list := ruleDecoders.list
	ruleDecoders.RUnlock()
	doc = bytes.TrimSpace(doc)
	for _, d := range list {
		if rs, ok, err := d(doc, source); ok || err != nil {
			return rs, true, err
		}
	}
	return nil, false, nil
}
