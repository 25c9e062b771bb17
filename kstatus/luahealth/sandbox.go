package luahealth

import (
	"errors"
	"fmt"
	"runtime/metrics"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	lua "github.com/yuin/gopher-lua"
)

// Interpreter bounds that are not Options: they keep every run's stack small.
const (
	callStackSize    = 200     // Lua call frames: deeper recursion is an error
	registrySize     = 1024    // value stack slots at start
	registryMaxSize  = 1 << 16 // and at most, 1 MiB of values
	registryGrowStep = 256
)

// budget is the context a run's LState checks before every instruction: gopher-lua calls
// Done once per instruction, so Done counts them, and reads a flag the run's watchdog
// raises (reading the clock itself per instruction would double the cost of a check, and
// reading it every so many instructions lets an instruction that doubles a string run that
// many times). A nil channel is never ready, so a run within its budget costs one call, a
// comparison and an atomic load per instruction.
type budget struct {
	steps, maxSteps int
	stop            atomic.Pointer[LimitError] // set by the watchdog
	err             error
	// slow is set by the watchdog's first firing: the run has lasted watchAfter, a
	// hundred times a real check. From then on Done looks, every fourth instruction,
	// for a string the run holds over maxHeld bytes in the running function's registers,
	// so that a string doubled with .. (which gopher-lua gives no hook on) is stopped
	// before the next join copies it, not after.
	slow    atomic.Bool
	L       *lua.LState
	maxHeld int
}

var closed = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

func (b *budget) Deadline() (time.Time, bool) { return time.Time{}, false }
func (b *budget) Value(any) any               { return nil }
func (b *budget) Err() error                  { return b.err }

func (b *budget) Done() <-chan struct{} {
	if b.err != nil {
		return closed
	}
	b.steps++
	if b.steps > b.maxSteps {
		b.err = &LimitError{What: fmt.Sprintf("ran more than %d Lua instructions", b.maxSteps)}
		return closed
	}
	if e := b.stop.Load(); e != nil {
		b.err = e
		return closed
	}
	if b.steps&3 == 0 && b.slow.Load() {
		if e := b.heldString(); e != nil {
			b.err = e
			return closed
		}
	}
	return nil
}

// heldString reports a string over maxHeld bytes among the running function's values.
func (b *budget) heldString() *LimitError {
	for i, top := 1, b.L.GetTop(); i <= top; i++ {
		if s, ok := b.L.Get(i).(lua.LString); ok && len(s) > b.maxHeld {
			return &LimitError{What: fmt.Sprintf("held a string of %d bytes, over the %d a run may hold", len(s), b.maxHeld)}
		}
	}
	return nil
}

// The watchdog of a run: a timer that first fires after watchAfter, then every
// watchEvery, until the run ends. A run of a real check ends long before it fires.
const (
	watchAfter = 1 * time.Millisecond
	watchEvery = 2 * time.Millisecond
)

// watchdog stops a run that outlasts its Timeout, or during which the process allocates
// more than MaxAllocBytes after the run's first watchAfter. Go counts allocation per
// process, not per goroutine, so the second bound reads the whole program; it applies only
// to runs that have already lasted watchAfter, a hundred times what a real check takes,
// where the likeliest cause of such allocation is the run.
type watchdog struct {
	b          *budget
	start      time.Time
	timeout    time.Duration
	maxAlloc   uint64
	firstAlloc uint64
	timer      *time.Timer
	fired      atomic.Bool
	allocs     []metrics.Sample
}

func (w *watchdog) check() {
	w.fired.Store(true)
	w.b.slow.Store(true)
	if took := time.Since(w.start); took >= w.timeout {
		w.b.stop.Store(&LimitError{What: fmt.Sprintf("ran longer than %s", w.timeout)})
		return
	}
	metrics.Read(w.allocs)
	now := w.allocs[0].Value.Uint64()
	if w.firstAlloc == 0 {
		w.firstAlloc = now
	} else if now-w.firstAlloc > w.maxAlloc {
		w.b.stop.Store(&LimitError{What: fmt.Sprintf("allocated more than %d bytes after its first %s (the process did, while it ran)", w.maxAlloc, watchAfter)})
		return
	}
	w.timer.Reset(min(watchEvery, w.timeout-time.Since(w.start)))
}

// LimitError reports a check stopped for running over one of its bounds (Options).
type LimitError struct {
	What string // "ran more than 1000000 Lua instructions", ...
}

func (e *LimitError) Error() string { return "Lua health check stopped: it " + e.What }

// vm is one sandboxed interpreter. It is used by one run at a time and pooled between runs.
type vm struct {
	L *lua.LState
	// envMeta is the metatable of a run's globals (env): reads fall through to the
	// shared, read-only base; writes stay in env, which is emptied after the run, so
	// nothing a script sets is seen by the next run.
	envMeta *lua.LTable
	// lazyMeta is the metatable of the tables that stand for the object's maps: a field is
	// converted from Go when first read (see index), so a check that reads five fields of
	// an object with managedFields converts five fields, not the whole object.
	lazyMeta *lua.LTable
	lazy     map[*lua.LTable]map[string]any
	// read holds the fields of lazy tables read so far in this run. Keeping them here
	// rather than in the tables spares each table gopher-lua's 32-slot hash; the map is
	// cleared, not freed, between runs.
	read map[lazyField]lua.LValue
	// env is the globals of a run, emptied after it.
	env     *lua.LTable
	next    *lua.LFunction
	budget  budget
	watch   watchdog
	spent   bool // not to be pooled again
	strLeft int  // bytes the string functions may still build in this run
	strMax  int
}

var pool = sync.Pool{New: func() any { return newVM() }}

// protected is what getmetatable returns for the sandbox's own metatables, and what stops
// setmetatable from replacing them.
const protected = lua.LString("protected")

func newVM() *vm {
	L := lua.NewState(lua.Options{SkipOpenLibs: true, CallStackSize: callStackSize,
		RegistrySize: registrySize, RegistryMaxSize: registryMaxSize, RegistryGrowStep: registryGrowStep})
	v := &vm{L: L, lazy: map[*lua.LTable]map[string]any{}, read: map[lazyField]lua.LValue{}}
	for _, lib := range []struct {
		name string
		open lua.LGFunction
	}{
		{lua.BaseLibName, lua.OpenBase}, {lua.TabLibName, lua.OpenTable},
		{lua.StringLibName, lua.OpenString}, {lua.MathLibName, lua.OpenMath}, {lua.OsLibName, lua.OpenOs},
	} {
		L.Push(L.NewFunction(lib.open))
		L.Push(lua.LString(lib.name))
		L.Call(1, 0)
	}
	g := L.G.Global
	// Base: no loading of code, no files, no environments, no raw writes (which would
	// bypass the read-only libraries), no collector control, no output.
	for _, name := range []string{"dofile", "loadfile", "load", "loadstring", "require", "module",
		"collectgarbage", "getfenv", "setfenv", "rawset", "newproxy", "_printregs", "gcinfo"} {
		g.RawSetString(name, lua.LNil)
	}
	g.RawSetString("print", L.NewFunction(func(*lua.LState) int { return 0 }))
	v.next = L.NewFunction(v.nextFn)
	g.RawSetString("next", v.next)
	g.RawSetString("pairs", L.NewFunction(v.pairsFn))
	g.RawSetString("rawget", L.NewFunction(v.rawgetFn))

	// string: the table the string metatable indexes, so ("x"):rep(n) is the bounded rep too.
	str := g.RawGetString("string").(*lua.LTable)
	str.RawSetString("dump", lua.LNil)
	v.wrapPre(str, "rep", func(L *lua.LState) int {
		return len(L.CheckString(1)) * max(L.OptInt(2, 0), 0)
	})
	for _, name := range []string{"upper", "lower", "reverse"} {
		v.wrapPre(str, name, func(L *lua.LState) int { return len(L.CheckString(1)) })
	}
	v.wrapPre(str, "gsub", gsubBound)
	v.wrapPre(str, "format", formatBound)
	// gopher-lua makes the string table its own __index and the strings' metatable, so
	// ("").__index would hand a script the shared table itself: strings get a metatable
	// of their own instead, reading through a read-only proxy.
	str.RawSetString("__index", lua.LNil)
	strMeta := L.NewTable()
	strMeta.RawSetString("__index", readOnly(L, str, "string"))
	strMeta.RawSetString("__metatable", protected)
	L.SetMetatable(lua.LString(""), strMeta)
	// table.concat builds a string from the table's strings; bound it the same way.
	v.wrapPre(g.RawGetString("table").(*lua.LTable), "concat", concatBound)
	// os: the clock only, as Argo CD's own sandbox gives its checks.
	osAll := g.RawGetString("os").(*lua.LTable)
	os := L.NewTable()
	for _, name := range []string{"time", "date", "clock", "difftime"} {
		os.RawSetString(name, osAll.RawGetString(name))
	}
	g.RawSetString("os", os)
	// The libraries are shared by every run of this vm: scripts read them through
	// read-only proxies.
	for _, name := range []string{"string", "table", "math", "os"} {
		g.RawSetString(name, readOnly(L, g.RawGetString(name).(*lua.LTable), name))
	}

	v.envMeta = L.NewTable()
	v.envMeta.RawSetString("__index", g)
	v.envMeta.RawSetString("__metatable", protected)
	v.lazyMeta = L.NewTable()
	v.lazyMeta.RawSetString("__index", L.NewFunction(v.index))
	v.lazyMeta.RawSetString("__metatable", protected)
	v.watch.b = &v.budget
	v.budget.L = L
	v.watch.allocs = []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	v.watch.timer = time.AfterFunc(time.Hour, v.watch.check)
	v.watch.timer.Stop() // each run arms it
	v.env = L.NewTable()
	v.env.Metatable = v.envMeta
	L.SetContext(&v.budget) // from here on every instruction counts
	return v
}

// reset forgets a run: its stack, its object and every global it set.
func (v *vm) reset() {
	v.L.SetTop(0)
	clear(v.lazy)
	clear(v.read)
	var keys []lua.LValue
	for k, _ := v.env.Next(lua.LNil); k != lua.LNil; k, _ = v.env.Next(k) {
		keys = append(keys, k)
	}
	for _, k := range keys {
		v.env.RawSet(k, lua.LNil)
	}
	v.env.Metatable = v.envMeta // a script cannot replace it (protected), but be sure
}

// readOnly returns a proxy of t that reads through to t and refuses writes.
func readOnly(L *lua.LState, t *lua.LTable, name string) *lua.LTable {
	p := L.NewTable()
	mt := L.NewTable()
	mt.RawSetString("__index", t)
	mt.RawSetString("__newindex", L.NewFunction(func(L *lua.LState) int {
		L.RaiseError("the %s library is read-only", name)
		return 0
	}))
	mt.RawSetString("__metatable", protected)
	p.Metatable = mt
	return p
}

// wrapPre replaces the Go function t[name] by one that first charges the run's string
// budget with what bound says the call may build, and fails if that is over it.
func (v *vm) wrapPre(t *lua.LTable, name string, bound func(*lua.LState) int) {
	orig := t.RawGetString(name).(*lua.LFunction).GFunction
	lib := "string."
	if name == "concat" {
		lib = "table."
	}
	t.RawSetString(name, v.L.NewFunction(func(L *lua.LState) int {
		if n := bound(L); n > v.strLeft || n < 0 {
			L.RaiseError("Lua health check stopped: %s%s would build %d bytes, over the %d bytes of strings a check may build", lib, name, n, v.strMax)
		} else {
			v.strLeft -= n
		}
		return orig(L)
	}))
}

// gsubBound is the most gsub can build with a string replacement: the subject plus the
// replacement at each of at most len(subject)+1 matches. A function or table replacement
// returns strings that exist already, so the bound counts the subject twice for them.
func gsubBound(L *lua.LState) int {
	s := L.CheckString(1)
	n := len(s) + 1
	if lim, ok := L.Get(4).(lua.LNumber); ok && int(lim) < n {
		n = max(int(lim), 0)
	}
	out := 2 * len(s)
	if r, ok := L.Get(3).(lua.LString); ok {
		out = len(s) + n*len(r)
	}
	// gopher-lua copies the whole result once per match: refuse what would copy more
	// than maxGsubCopy bytes in all, a quarter of a second or so, as one call cannot be
	// interrupted.
	if n > 0 && out > maxGsubCopy/n {
		L.RaiseError("Lua health check stopped: string.gsub of %d bytes with up to %d matches would copy more than %d bytes", len(s), n, maxGsubCopy)
	}
	return out
}

const maxGsubCopy = 1 << 28

// formatBound refuses a width or precision of more than two digits, as Lua 5.1 does, and
// counts the format and every string argument.
func formatBound(L *lua.LState) int {
	f := L.CheckString(1)
	n := len(f)
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		j := i + 1
		for j < len(f) && (f[j] == '-' || f[j] == '+' || f[j] == ' ' || f[j] == '#' || f[j] == '0') {
			j++
		}
		for _, part := range [2]bool{false, true} {
			if part {
				if j >= len(f) || f[j] != '.' {
					break
				}
				j++
			}
			d := j
			for j < len(f) && f[j] >= '0' && f[j] <= '9' {
				j++
			}
			if j-d > 2 {
				L.RaiseError("invalid format (width or precision too long)")
			}
			if w, _ := strconv.Atoi(f[d:j]); w > 0 {
				n += w
			}
		}
		i = j
	}
	for i := 2; i <= L.GetTop(); i++ {
		n += len(lua.LVAsString(L.Get(i))) + 24
	}
	return n
}

// concatBound is the length of table.concat's result.
func concatBound(L *lua.LState) int {
	t := L.CheckTable(1)
	sep := L.OptString(2, "")
	i, j := L.OptInt(3, 1), L.OptInt(4, t.Len())
	n := 0
	for k := i; k <= j && k-i <= registryMaxSize*16; k++ {
		n += len(lua.LVAsString(t.RawGetInt(k))) + len(sep)
	}
	return n
}

// value converts a decoded JSON value to Lua: maps become lazy tables, lists 1-based
// tables, numbers Lua numbers.
func (v *vm) value(x any) lua.LValue {
	switch x := x.(type) {
	case nil:
		return lua.LNil
	case string:
		return lua.LString(x)
	case bool:
		return lua.LBool(x)
	case int64:
		return lua.LNumber(x)
	case float64:
		return lua.LNumber(x)
	case int:
		return lua.LNumber(x)
	case int32:
		return lua.LNumber(x)
	case map[string]any:
		t := v.L.CreateTable(0, 0)
		t.Metatable = v.lazyMeta
		v.lazy[t] = x
		return t
	case []any:
		t := v.L.CreateTable(len(x), 0)
		for i, e := range x {
			t.RawSetInt(i+1, v.value(e))
		}
		return t
	}
	return lua.LString(fmt.Sprint(x))
}

type lazyField struct {
	t *lua.LTable
	k string
}

// index is the lazy tables' __index: it converts the field on first read and keeps it.
// A field the script assigns is in the table itself, and never reaches here.
func (v *vm) index(L *lua.LState) int {
	t := L.CheckTable(1)
	k, ok := L.Get(2).(lua.LString)
	if !ok {
		L.Push(lua.LNil)
		return 1
	}
	f := lazyField{t, string(k)}
	if val, ok := v.read[f]; ok {
		L.Push(val)
		return 1
	}
	val := lua.LValue(lua.LNil)
	if src := v.lazy[t]; src != nil {
		if x, ok := src[f.k]; ok {
			val = v.value(x)
			v.read[f] = val
		}
	}
	L.Push(val)
	return 1
}

// materialize converts every field of a lazy table not yet read, so that next and pairs
// see them all, and makes it a plain table.
func (v *vm) materialize(t *lua.LTable) {
	src, ok := v.lazy[t]
	if !ok {
		return
	}
	for k, x := range src {
		if t.RawGetString(k) == lua.LNil {
			val, ok := v.read[lazyField{t, k}]
			if !ok {
				val = v.value(x)
			}
			t.RawSetString(k, val)
		}
	}
	delete(v.lazy, t)
	t.Metatable = lua.LNil
}

func (v *vm) nextFn(L *lua.LState) int {
	t := L.CheckTable(1)
	v.materialize(t)
	k, val := t.Next(L.Get(2))
	if k == lua.LNil {
		L.Push(lua.LNil)
		return 1
	}
	L.Push(k)
	L.Push(val)
	return 2
}

func (v *vm) pairsFn(L *lua.LState) int {
	t := L.CheckTable(1)
	v.materialize(t)
	L.Push(v.next)
	L.Push(t)
	L.Push(lua.LNil)
	return 3
}

func (v *vm) rawgetFn(L *lua.LState) int {
	t := L.CheckTable(1)
	v.materialize(t)
	L.Push(t.RawGet(L.CheckAny(2)))
	return 1
}

// run runs proto with obj as the global obj and reads the table it returns. A vm whose
// run failed is not to be pooled again: Check.Health closes it.
func (v *vm) run(proto *lua.FunctionProto, obj map[string]any, lim *Options) (h Health, err error) {
	L := v.L
	v.budget.steps, v.budget.maxSteps, v.budget.err = 0, lim.MaxSteps, nil
	v.budget.stop.Store(nil)
	v.budget.slow.Store(false)
	v.budget.maxHeld = lim.MaxAllocBytes / 4
	v.strLeft, v.strMax = lim.MaxStringBytes, lim.MaxStringBytes
	w := &v.watch
	w.start, w.timeout, w.maxAlloc, w.firstAlloc = time.Now(), lim.Timeout, uint64(lim.MaxAllocBytes), 0
	w.timer.Reset(min(watchAfter, lim.Timeout))
	defer func() {
		// A watchdog that fired may fire again, or still be setting its flag: drop
		// this vm rather than let that stop its next run.
		if !w.timer.Stop() || w.fired.Load() {
			v.spent = true
		}
	}()
	env := v.env
	env.RawSetString("_G", env)
	env.RawSetString("obj", v.value(obj))
	defer v.reset()
	fn := L.NewFunctionFromProto(proto)
	fn.Env = env
	L.Push(fn)
	err = L.PCall(0, 1, nil)
	if err == nil {
		h, err = v.health(L.Get(-1)) // before clear: the result may be a lazy table
	}
	if err != nil {
		if v.budget.err != nil {
			return Health{}, v.budget.err
		}
		var ae *lua.ApiError
		if errors.As(err, &ae) {
			ae.StackTrace = ""
			err = &ScriptError{Err: ae}
		}
	}
	return h, err
}
