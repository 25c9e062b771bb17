package luahealth

import (
	"fmt"
	"strings"
	"time"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/parse"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kates-dev/kates/kstatus"
)

// HealthStatus is a health an Argo CD health check returns.
type HealthStatus string

// The healths of Argo CD (gitops-engine's HealthStatusCode) and what kstatus reads them as.
const (
	Healthy     HealthStatus = "Healthy"     // Current
	Progressing HealthStatus = "Progressing" // InProgress, reason Progressing
	Degraded    HealthStatus = "Degraded"    // Failed, reason Degraded
	Suspended   HealthStatus = "Suspended"   // Failed, reason Suspended: only a person resumes it
	Missing     HealthStatus = "Missing"     // NotFound
	Unknown     HealthStatus = "Unknown"     // Unknown
)

var healthStatuses = []HealthStatus{Healthy, Progressing, Degraded, Suspended, Missing, Unknown}

// Health is what a check returned: the status and message fields of its table. A zero
// Health means the script returned nil: it has no opinion, and Argo CD then falls back
// to its built-in assessment of the kind.
type Health struct {
	Status  HealthStatus
	Message string
}

// Options bounds each run of a check. The zero value of a field means its default.
type Options struct {
	// Timeout is the wall-clock time a run may take. Default: 1s, as Argo CD allows. The
	// clock runs while the goroutine waits for a CPU too, which is why the default is
	// generous: MaxSteps stops a busy loop long before.
	Timeout time.Duration
	// MaxAllocBytes stops a run that has lasted 1ms once the process has allocated more
	// than this since then (read every 2ms), or once it holds a string of over a quarter
	// of it: what stops a loop that doubles a string with
	// .., which neither the step count (it takes a few instructions) nor the string budget
	// (it uses no library function) sees. Default: 64 MiB.
	MaxAllocBytes int
	// MaxSteps is the number of Lua instructions a run may execute. Default: 1,000,000
	// (Argo CD's own checks run a few hundred to a few thousand on real objects).
	MaxSteps int
	// MaxStringBytes is how many bytes the string functions (rep, format, gsub, upper,
	// lower, reverse, table.concat) may build in one run. Default: 1 MiB.
	MaxStringBytes int
}

func (o Options) withDefaults() Options {
	if o.Timeout <= 0 {
		o.Timeout = time.Second
	}
	if o.MaxAllocBytes <= 0 {
		o.MaxAllocBytes = 64 << 20
	}
	if o.MaxSteps <= 0 {
		o.MaxSteps = 1_000_000
	}
	if o.MaxStringBytes <= 0 {
		o.MaxStringBytes = 1 << 20
	}
	return o
}

// Check is one compiled health check for one group and kind. It is immutable and safe for
// concurrent use: each run takes a pooled interpreter of its own.
type Check struct {
	// Name names the check in messages and in kstatus.Explain ("lua:" + Name): the
	// script's path in its directory, or its ConfigMap key.
	Name string
	// Group and Kind are the group and kind the check judges, with kstatus' wildcards:
	// Group "*" or "*.suffix", Kind "*".
	Group, Kind string
	proto       *lua.FunctionProto
	script      string
	opts        Options
}

// Compile parses and compiles script once; name is used in errors, which give the line.
func Compile(name, group, kind, script string, opts Options) (*Check, error) {
	chunk, err := parse.Parse(strings.NewReader(script), name)
	if err != nil {
		return nil, &LoadError{Name: name, Err: err, lines: strings.Count(strings.TrimRight(script, "\n"), "\n") + 1}
	}
	proto, err := lua.Compile(chunk, name)
	if err != nil {
		return nil, &LoadError{Name: name, Err: err}
	}
	// The main chunk is a vararg function, for which gopher-lua builds Lua 5.0's arg
	// table on every call; a chunk cannot name it (arg is a local only in nested
	// functions), so the table is dropped: a tenth of the cost of a check.
	proto.IsVarArg &^= lua.VarArgNeedsArg
	return &Check{Name: name, Group: group, Kind: kind, proto: proto, script: script, opts: opts.withDefaults()}, nil
}

// LoadError reports a check that cannot be compiled, naming its file or key; the parser's
// message gives the line and column.
type LoadError struct {
	Name  string
	Err   error
	lines int
}

func (e *LoadError) Error() string {
	msg := e.Err.Error()
	if strings.Contains(msg, " at EOF") && e.lines > 0 {
		// The parser gives no line for an error at the end: name the last one.
		msg = strings.Replace(msg, " at EOF", fmt.Sprintf(" line:%d (end of script)", e.lines), 1)
	}
	if !strings.Contains(msg, e.Name) {
		msg = e.Name + ": " + msg
	}
	return "luahealth: " + msg
}

func (e *LoadError) Unwrap() error { return e.Err }

// ScriptError reports a check that failed while it ran: a runtime error (the message
// names the script and line), a result that is not a table, or a field of the wrong
// type.
type ScriptError struct {
	Err error
}

func (e *ScriptError) Error() string { return "Lua health check: " + e.Err.Error() }
func (e *ScriptError) Unwrap() error { return e.Err }

// Health runs the check on u and returns what the script said. A script that fails, runs
// over a bound, or returns something other than a table or nil is an error (a
// *ScriptError or a *LimitError); a table whose status is none of Argo CD's is Unknown, as
// Argo CD reads it.
func (c *Check) Health(u *unstructured.Unstructured) (h Health, err error) {
	v := pool.Get().(*vm)
	defer func() {
		if r := recover(); r != nil {
			// gopher-lua raises Go panics only for bugs; a check must still not take the
			// caller down.
			err = &ScriptError{Err: fmt.Errorf("interpreter panic: %v", r)}
		}
		if err != nil || v.spent {
			v.L.Close()
			return
		}
		pool.Put(v)
	}()
	var obj map[string]any
	if u != nil {
		obj = u.Object
	}
	return v.run(c.proto, obj, &c.opts)
}

// health reads a script's return value.
func (v *vm) health(ret lua.LValue) (Health, error) {
	switch ret.Type() {
	case lua.LTNil:
		return Health{}, nil
	case lua.LTTable:
	default:
		return Health{}, &ScriptError{Err: fmt.Errorf("returned a %s, want a table with status and message", ret.Type())}
	}
	L := v.L
	var h Health
	switch m := L.GetField(ret, "message").(type) {
	case lua.LString:
		h.Message = string(m)
	case lua.LNumber:
		h.Message = m.String()
	case *lua.LNilType:
	default:
		return Health{}, &ScriptError{Err: fmt.Errorf("returned a message that is a %s, want a string", m.Type())}
	}
	st, _ := L.GetField(ret, "status").(lua.LString)
	for _, s := range healthStatuses {
		if string(st) == string(s) {
			h.Status = s
			return h, nil
		}
	}
	return Health{Status: Unknown, Message: fmt.Sprintf("the health check returned status %q, which is none of %v", lua.LVAsString(L.GetField(ret, "status")), healthStatuses)}, nil
}

// Eval runs the check and reads its health as kstatus does: see the package
// documentation. A check that fails is Unknown, with the error. A nil return decides
// nothing (nil, nil): kstatus then judges the object by its generic rules.
func (c *Check) Eval(u *unstructured.Unstructured) (*kstatus.Result, error) {
	h, err := c.Health(u)
	if err != nil {
		return &kstatus.Result{Status: kstatus.UnknownStatus, Message: err.Error()}, err
	}
	if h.Status == "" {
		return nil, nil
	}
	return Result(h), nil
}

// Result maps an Argo CD health onto a kstatus Result.
func Result(h Health) *kstatus.Result {
	msg := h.Message
	if msg == "" {
		msg = "Argo CD health check says " + string(h.Status) + ", with no message"
	}
	r := &kstatus.Result{Message: msg}
	var t kstatus.ConditionType
	switch h.Status {
	case Healthy:
		r.Status = kstatus.CurrentStatus
	case Progressing:
		r.Status, t = kstatus.InProgressStatus, kstatus.ConditionReconciling
	case Degraded, Suspended:
		r.Status, t = kstatus.FailedStatus, kstatus.ConditionStalled
	case Missing:
		r.Status = kstatus.NotFoundStatus
	default:
		r.Status = kstatus.UnknownStatus
	}
	if t != "" {
		r.Conditions = []kstatus.Condition{{Type: t, Status: corev1.ConditionTrue, Reason: string(h.Status), Message: msg}}
	}
	return r
}

// Rule returns c as a kstatus custom rule.
func (c *Check) Rule() kstatus.CustomRule {
	return kstatus.CustomRule{Name: c.Name, Language: "lua", Group: c.Group, Kind: c.Kind, Eval: c.Eval}
}

// RuleSet returns a RuleSet of checks, for kstatus.Options.Rules.
func RuleSet(checks ...*Check) (*kstatus.RuleSet, error) {
	rules := make([]kstatus.CustomRule, len(checks))
	for i, c := range checks {
		rules[i] = c.Rule()
	}
	return kstatus.NewCustomRules(rules...)
}
