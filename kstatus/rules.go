package kstatus

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/ext"
	"github.com/google/cel-go/interpreter"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Rule is the source of one status rule: CEL expressions that judge the objects of one kind.
// Rules are written by hand in YAML (see LoadRules) or built in Go and compiled with
// CompileRules.
//
// Each expression sees the object's top-level fields as variables, as Flux's
// healthCheckExprs do: apiVersion, kind, metadata, spec and status (the last three are
// empty maps when the object has none, so has(status.phase) works on a fresh object), and
// the whole object as self. Besides the CEL standard library they may use the strings,
// lists and sets extensions, optionals (status.?replicas.orValue(0)), cel.bind, and
// list.sum() (as in Kubernetes' CEL: the total of a list of numbers).
type Rule struct {
	// Name says which rule judged an object, in kates status -o wide and in messages.
	// Default: "group/Kind".
	Name string `json:"name,omitempty"`
	// APIVersion is "group/version" or "group" alone; it is the form Flux's healthCheckExprs
	// use. Either APIVersion or Group (with an optional Version) names the group.
	APIVersion string `json:"apiVersion,omitempty"`
	// Group is the kind's API group, "" for the core group. A group "*.suffix" is a
	// wildcard: it matches every group that ends in ".suffix" ("*.crossplane.io" matches
	// "rds.aws.crossplane.io" but not "crossplane.io" itself), for the operators that
	// generate a group per cloud service (Crossplane providers, Config Connector, ACK).
	Group string `json:"group,omitempty"`
	// Version, if set, limits the rule to that version of the kind. A rule with a version
	// wins over one without for objects of that version.
	Version string `json:"version,omitempty"`
	// Kind is the kind the rule judges, or "*" for every kind of the group. A "*" anywhere
	// else in Group, Kind or Version is an error.
	//
	// When several rules match an object, the most specific wins: an exact group before a
	// wildcard one, a longer wildcard suffix before a shorter one; then, for the same
	// group, an exact kind before "*"; then a rule for the object's version before one
	// for any version.
	Kind string `json:"kind"`
	// InProgress, Failed and Current are boolean CEL expressions, tried in that order: the
	// first that is true decides. InProgress comes first so that a controller still at work
	// is not reported Failed for a state it is leaving; this is the order Flux uses.
	InProgress string `json:"inProgress,omitempty"`
	Failed     string `json:"failed,omitempty"`
	// Current, when given, makes the rule decide every object of its kind: one that no
	// expression matches is InProgress. When Current is empty, an object the other
	// expressions do not match goes on to the generic condition rules (Ready and the rest),
	// so a rule may add only the failure a kind's Ready condition does not tell.
	Current string `json:"current,omitempty"`
	// Message, if given, is a string expression for the Result's Message. When it is empty,
	// or fails on an object, the message names the rule and the expression that matched.
	Message string `json:"message,omitempty"`
	// Paused, if given, is a boolean CEL expression that is true when the object tells its
	// controller to stand still: Flux's spec.suspend, Cluster API's spec.paused or paused
	// annotation. Such a controller does not observe new generations (suspending is itself
	// one), so the generic generation check would call the object InProgress until a person
	// resumes it, and a wait would hang. While Paused is true the rule decides even when
	// status.observedGeneration lags metadata.generation; if it then decides nothing, the
	// generation check applies as usual.
	Paused string `json:"paused,omitempty"`
	// Override makes the rule apply before the built-in rule for its kind (Pod, Deployment,
	// ...; see the package documentation). Without it, a rule for a kind that has a
	// built-in rule is never used.
	Override bool `json:"override,omitempty"`
}

// RuleSet is a compiled set of Rules, keyed by group and kind. A RuleSet is immutable and
// safe for concurrent use; build one with CompileRules or LoadRules, and combine sets with
// Merge.
type RuleSet struct {
	// byKind holds every rule under its key (see ruleKey): exact rules under their group
	// and kind, wildcard ones under ".suffix" (no real group starts with a dot) and "*",
	// so that each lookup is a map lookup on substrings of the object's own strings.
	byKind map[groupKind][]*compiledRule
	// suffixes are the distinct ".suffix" keys of wildcard groups, longest first, and
	// anyKind says whether some rule has kind "*": an object no exact rule matches is
	// tried against these only, so a set without wildcards costs a miss nothing more.
	suffixes []string
	anyKind  bool
}

// ruleKey is where c is kept in RuleSet.byKind: its group, or the ".suffix" of a
// wildcard group, and its kind.
func ruleKey(c *compiledRule) groupKind {
	return groupKind{strings.TrimPrefix(c.group, "*"), c.src.Kind}
}

// newRuleSet returns an empty set; fill byKind, then call index.
func newRuleSet() *RuleSet {
	return &RuleSet{byKind: map[groupKind][]*compiledRule{}}
}

// index fills the wildcard fields from byKind.
func (s *RuleSet) index() {
	s.suffixes, s.anyKind = nil, false
	for k := range s.byKind {
		if strings.HasPrefix(k.group, ".") && !slices.Contains(s.suffixes, k.group) {
			s.suffixes = append(s.suffixes, k.group)
		}
		s.anyKind = s.anyKind || k.kind == "*"
	}
	sort.Slice(s.suffixes, func(i, j int) bool {
		a, b := s.suffixes[i], s.suffixes[j]
		if len(a) != len(b) {
			return len(a) > len(b)
		}
		return a < b
	})
}

// compiledRule is a Rule with its programs. A nil program means the expression is absent.
//
// The programs of a rule loaded lazily (the library's) are compiled on the rule's first
// use, once, by compile; until then they are nil. A rule set's users call compile before
// reading them (apply does).
type compiledRule struct {
	src                                   Rule
	name, group, version                  string
	by                                    string // "cel:" + name
	inProgress, failed, current, messageP cel.Program
	paused                                cel.Program
	// custom is the Eval of a CustomRule, which has no programs.
	custom func(*unstructured.Unstructured) (*Result, error)

	once sync.Once
	cerr *RuleError // compile's error, if any
}

// compile compiles r's expressions, once; it is safe for concurrent use.
func (r *compiledRule) compile() *RuleError {
	r.once.Do(func() {
		r.cerr = r.compilePrograms()
	})
	return r.cerr
}

// RuleError reports a rule that cannot be used: an expression that does not parse or
// type-check, a result of the wrong type, a missing kind. It names the rule, the field and
// the expression.
type RuleError struct {
	Source string // the file or other origin given to LoadRules, if any
	Rule   string // the rule's name
	Field  string // "current", "failed", "inProgress", "message", or "" for the rule itself
	Expr   string // the expression, if the error is in one
	Err    error
}

func (e *RuleError) Error() string {
	var b strings.Builder
	b.WriteString("kstatus: ")
	if e.Source != "" {
		b.WriteString(e.Source + ": ")
	}
	fmt.Fprintf(&b, "status rule %q", e.Rule)
	if e.Field != "" {
		fmt.Fprintf(&b, ", %s expression %q", e.Field, e.Expr)
	}
	return b.String() + ": " + e.Err.Error()
}

func (e *RuleError) Unwrap() error { return e.Err }

// IsRuleError reports whether err, or any error it wraps, is a *RuleError.
func IsRuleError(err error) bool {
	var re *RuleError
	return errors.As(err, &re)
}

// ruleVars are the variables every expression may use.
var ruleVars = [...]string{"self", "apiVersion", "kind", "metadata", "spec", "status"}

// celEnv is built once: building an environment costs far more than compiling a rule.
//
// Numbers: an object's numbers reach a rule as int64 (client-go's decoder), float64
// (encoding/json) or json.Number (a decoder with UseNumber). numberAdapter turns a
// json.Number into an int or a double as it is read, and CrossTypeNumericComparisons
// lets an int and a double be compared (<, <=, >, >=) where the checker knows their
// types, as in size(list) >= 2.0; at run time CEL already compares them by value, and
// == holds between 3 and 3.0. So a rule needs no int() or double() around a field.
var celEnv = func() *cel.Env {
	opts := []cel.EnvOption{ext.Strings(), ext.Lists(), ext.Sets(), ext.Bindings(), cel.OptionalTypes(), sumFunction,
		cel.CrossTypeNumericComparisons(true), cel.CustomTypeAdapter(celAdapter)}
	for _, v := range ruleVars {
		opts = append(opts, cel.Variable(v, cel.DynType))
	}
	env, err := cel.NewEnv(opts...)
	if err != nil {
		panic(err) // the options above are fixed; this cannot fail at run time
	}
	return env
}()

// numberAdapter is the environment's types.Adapter: the registry's, but a json.Number
// becomes an int when it is one and a double otherwise (a string when it is neither, so
// that a comparison with it is an evaluation error, as for any non-number). Maps and lists
// of the object become objectMap and objectList (celvalues.go), which convert the values
// read from them the same way; nothing is copied, values are converted as they are read.
type numberAdapter struct{ types.Adapter }

// celAdapter is the one numberAdapter, over cel-go's default registry.
var celAdapter = func() *numberAdapter {
	reg, err := types.NewRegistry()
	if err != nil {
		panic(err) // no types are registered: this cannot fail
	}
	return &numberAdapter{reg}
}()

func (a *numberAdapter) NativeToValue(v any) ref.Val {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return types.Int(i)
		}
		if f, err := x.Float64(); err == nil {
			return types.Double(f)
		}
		return types.String(x)
	case string:
		if len(x) <= maxCommonString {
			if v, ok := commonStrings[x]; ok {
				return v
			}
		}
		return types.String(x)
	case map[string]any:
		return objectMap(x)
	case []any:
		return &objectList{x}
	}
	return a.Adapter.NativeToValue(v)
}

// CompileRules compiles rules. Every expression is parsed and type-checked now, so a rule
// that cannot work is an error here, naming the rule and the expression, and never at
// evaluation. Two rules for the same group, kind and version are an error too.
func CompileRules(rules []Rule) (*RuleSet, error) {
	return compileRules(rules, "", false)
}

// compileRules builds a set from rules. Each rule's group, kind and version are checked
// now; its expressions are compiled now too unless lazy, when they are compiled on the
// rule's first use (see compiledRule.compile). Only the library is lazy: its expressions
// are checked by its tests, and compiling some 300 rules up front made every program's
// first Compute pay for all of them. A user's rules are compiled here, so that their
// errors appear when they are loaded.
func compileRules(rules []Rule, source string, lazy bool) (*RuleSet, error) {
	rs := newRuleSet()
	var errs []error
	for _, r := range rules {
		c, err := compileRule(r)
		if err == nil && !lazy {
			err = c.compile()
		}
		if err != nil {
			err.Source = source
			errs = append(errs, err)
			continue
		}
		key := ruleKey(c)
		for _, o := range rs.byKind[key] {
			if o.version == c.version {
				errs = append(errs, &RuleError{Source: source, Rule: c.name,
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

func compileRule(r Rule) (*compiledRule, *RuleError) {
	c := &compiledRule{src: r, group: r.Group, version: r.Version}
	if r.APIVersion != "" {
		if r.Group != "" || r.Version != "" {
			return nil, &RuleError{Rule: ruleName(r), Err: errors.New("give apiVersion or group and version, not both")}
		}
		c.group = group(r.APIVersion)
		if i := strings.IndexByte(r.APIVersion, '/'); i >= 0 {
			c.version = r.APIVersion[i+1:]
		} else if !strings.Contains(r.APIVersion, ".") && r.APIVersion != "" {
			// "v1" alone is the core group's version, as in an object's apiVersion.
			c.group, c.version = "", r.APIVersion
		} else {
			c.group = r.APIVersion
		}
	}
	r.Group, r.Version = c.group, c.version
	c.name = ruleName(r)
	c.by = "cel:" + c.name
	if r.Kind == "" {
		return nil, &RuleError{Rule: c.name, Err: errors.New("no kind")}
	}
	if err := checkPattern(c.group, r.Kind, c.version); err != nil {
		return nil, &RuleError{Rule: c.name, Err: err}
	}
	if r.InProgress == "" && r.Failed == "" && r.Current == "" {
		return nil, &RuleError{Rule: c.name, Err: errors.New("no expression: give at least one of current, failed, inProgress")}
	}
	return c, nil
}

// compilePrograms compiles c's expressions into its programs.
func (c *compiledRule) compilePrograms() *RuleError {
	r := c.src
	for _, e := range []struct {
		field, expr string
		want        *cel.Type
		prg         *cel.Program
	}{
		{"inProgress", r.InProgress, cel.BoolType, &c.inProgress},
		{"failed", r.Failed, cel.BoolType, &c.failed},
		{"current", r.Current, cel.BoolType, &c.current},
		{"message", r.Message, cel.StringType, &c.messageP},
		{"paused", r.Paused, cel.BoolType, &c.paused},
	} {
		if strings.TrimSpace(e.expr) == "" {
			continue
		}
		prg, err := compileExpr(e.expr, e.want)
		if err != nil {
			return &RuleError{Rule: c.name, Field: e.field, Expr: e.expr, Err: err}
		}
		*e.prg = prg
	}
	return nil
}

// checkPattern allows a "*" only where Rule documents one: a group "*.suffix" with a
// suffix free of wildcards, and a kind "*".
func checkPattern(group, kind, version string) error {
	if suffix, ok := strings.CutPrefix(group, "*."); ok {
		if suffix == "" || strings.HasPrefix(suffix, ".") || strings.HasSuffix(suffix, ".") || strings.Contains(suffix, "*") {
			return fmt.Errorf("group %q: a wildcard group is \"*.\" and a suffix such as \"crossplane.io\"", group)
		}
	} else if strings.Contains(group, "*") {
		return fmt.Errorf("group %q: a \"*\" may only begin a group, as in \"*.crossplane.io\"", group)
	}
	if kind != "*" && strings.Contains(kind, "*") {
		return fmt.Errorf("kind %q: a wildcard kind is \"*\" alone", kind)
	}
	if strings.Contains(version, "*") {
		return fmt.Errorf("version %q: versions take no wildcard", version)
	}
	return nil
}

func ruleName(r Rule) string {
	if r.Name != "" {
		return r.Name
	}
	g := r.Group
	if g == "" {
		g = group(r.APIVersion)
	}
	if g == "" {
		return r.Kind
	}
	return g + "/" + r.Kind
}

// compileExpr parses and checks expr, which must give want (or dyn, decided at run time
// since objects are untyped; a dyn that is not want is then an evaluation error).
func compileExpr(expr string, want *cel.Type) (cel.Program, error) {
	ast, iss := celEnv.Compile(expr)
	if iss.Err() != nil {
		return nil, iss.Err()
	}
	if out := ast.OutputType(); !out.IsExactType(want) && !out.IsExactType(cel.DynType) {
		return nil, fmt.Errorf("gives %s, want %s", out, want)
	}
	// No cost limit: tracking cost more than doubled the price of evaluating a rule (see
	// BenchmarkComputeRule), and a rule's cost is bounded by the object it reads, since
	// CEL has no unbounded loops; a comprehension nested in another over a long list is
	// the one way to make a rule slow, and the README warns against it.
	return celEnv.Program(ast, cel.EvalOptions(cel.OptOptimize))
}

// Merge returns a set with the rules of s and of others; for a kind and version in more
// than one, the first set's rule wins, so user rules put first shadow the library's. Nil
// sets are skipped.
func (s *RuleSet) Merge(others ...*RuleSet) *RuleSet {
	out := newRuleSet()
	for _, set := range append([]*RuleSet{s}, others...) {
		if set == nil {
			continue
		}
		for k, rs := range set.byKind {
			for _, r := range rs {
				if !slices.ContainsFunc(out.byKind[k], func(o *compiledRule) bool { return o.version == r.version }) {
					out.byKind[k] = append(out.byKind[k], r)
				}
			}
		}
	}
	out.index()
	return out
}

// Rules returns the source of every CEL rule in s, sorted by group and kind. Custom
// rules (NewCustomRules) have no CEL source and are left out; Len counts them.
func (s *RuleSet) Rules() []Rule {
	if s == nil {
		return nil
	}
	var out []Rule
	for _, rs := range s.byKind {
		for _, r := range rs {
			if r.custom != nil {
				continue
			}
			src := r.src
			src.Name, src.Group, src.Version, src.APIVersion = r.name, r.group, r.version, ""
			out = append(out, src)
		}
	}
	sortRules(out)
	return out
}

// Len returns the number of rules in s.
func (s *RuleSet) Len() int {
	if s == nil {
		return 0
	}
	n := 0
	for _, rs := range s.byKind {
		n += len(rs)
	}
	return n
}

// lookup returns the rule for an object of group g, apiVersion and kind, or nil, in the
// order Rule documents: exact group, then wildcard groups longest suffix first; within a
// group the exact kind, then "*"; within those the object's version, then any version.
// An object an exact rule matches costs one map lookup, as before wildcards.
func (s *RuleSet) lookup(g, apiVersion, kind string) *compiledRule {
	if s == nil || len(s.byKind) == 0 {
		return nil
	}
	if r := pickVersion(s.byKind[groupKind{g, kind}], g, apiVersion); r != nil {
		return r
	}
	if s.anyKind {
		if r := pickVersion(s.byKind[groupKind{g, "*"}], g, apiVersion); r != nil {
			return r
		}
	}
	for _, suffix := range s.suffixes {
		if len(g) <= len(suffix) || g[len(g)-len(suffix):] != suffix {
			continue
		}
		if r := pickVersion(s.byKind[groupKind{suffix, kind}], g, apiVersion); r != nil {
			return r
		}
		if s.anyKind {
			if r := pickVersion(s.byKind[groupKind{suffix, "*"}], g, apiVersion); r != nil {
				return r
			}
		}
	}
	return nil
}

// pickVersion returns the rule of rs for apiVersion (whose group is g), else the one for
// any version, else nil.
func pickVersion(rs []*compiledRule, g, apiVersion string) *compiledRule {
	var any *compiledRule
	for _, r := range rs {
		switch {
		case r.version == "":
			any = r
		case strings.HasSuffix(apiVersion, r.version) && len(apiVersion)-len(r.version) == len(g)+min(len(g), 1):
			return r
		}
	}
	return any
}

// Options changes how ComputeWith judges an object. The zero value is Compute's behaviour.
type Options struct {
	// Rules are status rules for custom resources, tried before the built-in library's.
	// Default: none.
	Rules *RuleSet
	// NoLibrary turns off the built-in library of rules (see Library). Default false: the
	// library is used.
	NoLibrary bool
	// Now stops the clock, as for ComputeAt. Default: time.Now.
	Now time.Time
	// Kinds tells what the definition of a kind no rule judges says about its status (see
	// KindInfo, KindInfoFromCRD), or nil when it is not known. Compute calls it only for an
	// object that reaches rule 6 and has no status or a Running phase, so it should be a
	// lookup in facts computed once per kind. Default: nothing is known (see rule 6).
	Kinds func(apiVersion, kind string) *KindInfo

	// trace, set by ExplainDetail, records the fields the generic rules read.
	trace *trace
}

// kindInfo returns what o.Kinds says of the kind, or nil.
func (o *Options) kindInfo(apiVersion, kind string) *KindInfo {
	if o == nil || o.Kinds == nil {
		return nil
	}
	return o.Kinds(apiVersion, kind)
}

// tracer returns the trace Explain asked for, or nil.
func (o *Options) tracer() *trace {
	if o == nil {
		return nil
	}
	return o.trace
}

// rules returns the rule sets opts asks for, in the order they are tried.
func (o *Options) ruleSets() (user, lib *RuleSet) {
	if o == nil {
		return nil, Library()
	}
	if !o.NoLibrary {
		lib = Library()
	}
	return o.Rules, lib
}

// ComputeWith is Compute with options: user status rules, the library turned off, a
// stopped clock. Compute(u) is ComputeWith(u, Options{}).
func ComputeWith(u *unstructured.Unstructured, opts Options) (*Result, error) {
	res, _, err := Explain(u, opts)
	return res, err
}

// Explain is ComputeWith that also says which rule judged u, for a person asking why:
// "deletion", "generation", "conditions" (Stalled or Reconciling), "kind:Deployment" (a
// built-in kind rule), "ready" (the Ready condition), "infer:conditions",
// "infer:succeeded", "infer:parents" (or ancestors, listeners, components),
// "infer:phase", "infer:no-status" (the steps of rule 6), "default" (rule 6e),
// "malformed", or "cel:<name>" for a status rule. Do not match on it beyond the "cel:"
// prefix; the names may be refined. ExplainDetail also gives the fields read.
func Explain(u *unstructured.Unstructured, opts Options) (*Result, string, error) {
	if u == nil {
		return &Result{Status: UnknownStatus, Message: errNilObject.Error()}, "malformed", errNilObject
	}
	v := evaluate(u.Object, opts.Now, false, &opts)
	res, err := v.result()
	by := v.judge()
	if by == byKindRule {
		by += u.GetKind()
	}
	return res, by, err
}

// judge names the rule that decided v.
func (v verdict) judge() string {
	if v.by == "" {
		return "default"
	}
	return v.by
}

// activation hands an object's fields to a program without building a map per call.
type activation struct {
	self                   map[string]any
	apiVersion, kind       string
	metadata, spec, status map[string]any
}

func (a *activation) ResolveName(name string) (any, bool) {
	switch name {
	case "self":
		return a.self, true
	case "apiVersion":
		return a.apiVersion, true
	case "kind":
		return a.kind, true
	case "metadata":
		return a.metadata, true
	case "spec":
		return a.spec, true
	case "status":
		return a.status, true
	}
	return nil, false
}

func (a *activation) Parent() interpreter.Activation { return nil }

// newActivation gives a rule's expressions the object m, whose metadata and status the
// caller has already read.
func newActivation(m map[string]any, apiVersion, kind string, meta, status map[string]any) *activation {
	spec, _ := m["spec"].(map[string]any)
	return &activation{self: m, apiVersion: apiVersion, kind: kind,
		metadata: orEmpty(meta), spec: orEmpty(spec), status: orEmpty(status)}
}

var emptyMap = map[string]any{}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return emptyMap
	}
	return m
}

// isPaused reports whether r has a paused expression and it is true of the object. An
// expression that fails on the object is an Unknown verdict naming it, as in apply.
func (r *compiledRule) isPaused(m map[string]any, apiVersion, kind string, meta, status map[string]any) (paused bool, v verdict) {
	if r.custom != nil || r.src.Paused == "" {
		return false, verdict{}
	}
	if err := r.compile(); err != nil {
		return false, r.evalError(kind, err.Field, err.Err)
	}
	act := newActivation(m, apiVersion, kind, meta, status)
	ok, err := evalBool(r.paused, act)
	if err != nil {
		return false, r.evalError(kind, "paused", err)
	}
	return ok, verdict{}
}

// apply evaluates r on the object. decided is false when r has no current expression and
// none of the others matched: the generic rules then decide.
func (r *compiledRule) apply(m map[string]any, apiVersion, kind string, meta, status map[string]any) (v verdict, decided bool) {
	if r.custom != nil {
		return r.applyCustom(m, kind)
	}
	if err := r.compile(); err != nil {
		// Only a lazily compiled rule can get here: the library's, whose expressions
		// TestLibraryCompiles checks. Unknown, naming the rule, rather than a panic.
		return r.evalError(kind, err.Field, err.Err), true
	}
	act := newActivation(m, apiVersion, kind, meta, status)
	by := r.by
	for _, e := range [...]struct {
		field  string
		prg    cel.Program
		status Status
	}{
		{"inProgress", r.inProgress, InProgressStatus},
		{"failed", r.failed, FailedStatus},
		{"current", r.current, CurrentStatus},
	} {
		if e.prg == nil {
			continue
		}
		ok, err := evalBool(e.prg, act)
		if err != nil {
			return r.evalError(kind, e.field, err), true
		}
		if !ok {
			continue
		}
		v = verdict{status: e.status, message: r.message(act, e.field), by: by}
		switch e.status {
		case InProgressStatus:
			v.reason = "RuleInProgress"
		case FailedStatus:
			v.reason = "RuleFailed"
		}
		return v, true
	}
	if r.current == nil {
		return verdict{}, false
	}
	return verdict{status: InProgressStatus, reason: "RuleNotCurrent", message: r.message(act, ""), by: by}, true
}

// evalError is the Unknown verdict for an expression that failed on this object, most
// often because it reads a field the object does not have (use has() to test for one).
func (r *compiledRule) evalError(kind, field string, err error) verdict {
	fe := &FieldError{Kind: kind, Path: fmt.Sprintf("(status rule %q, %s)", r.name, field),
		Want: "an object the expression can evaluate", Value: err.Error()}
	return verdict{status: UnknownStatus, err: fe, by: r.by,
		message: fmt.Sprintf("status rule %q: %s expression: %v", r.name, field, err)}
}

func evalBool(prg cel.Program, act *activation) (bool, error) {
	out, _, err := prg.Eval(act)
	if err != nil {
		return false, err
	}
	b, ok := out.(types.Bool)
	if !ok {
		return false, fmt.Errorf("gives %s, want bool", typeName(out))
	}
	return bool(b), nil
}

func typeName(v ref.Val) string {
	if v == nil {
		return "nothing"
	}
	return v.Type().TypeName()
}

// message is the Result's Message: the message expression's value if it gives a non-empty
// string, else a sentence naming the rule and what matched.
func (r *compiledRule) message(act *activation, field string) string {
	if r.messageP != nil {
		if out, _, err := r.messageP.Eval(act); err == nil {
			if s, ok := out.(types.String); ok && s != "" {
				return string(s)
			}
		}
	}
	// The default depends on the status alone, not on which expression decided, so that
	// Augment's Reconciling and Stalled, which a rule may read, do not change it.
	switch field {
	case "current":
		return fmt.Sprintf("Resource is current (status rule %q)", r.name)
	case "failed":
		return fmt.Sprintf("Resource failed (status rule %q)", r.name)
	}
	return fmt.Sprintf("Resource is in progress (status rule %q)", r.name)
}

func sortRules(rs []Rule) {
	sort.Slice(rs, func(i, j int) bool {
		a, b := rs[i], rs[j]
		if a.Group != b.Group {
			return a.Group < b.Group
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return a.Version < b.Version
	})
}
