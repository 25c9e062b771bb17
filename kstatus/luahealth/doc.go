// Package luahealth runs Argo CD health checks written in Lua as kstatus status rules, so
// that people who already keep their checks in Argo CD's layout or in an argocd-cm
// ConfigMap bring them along. CEL stays kstatus' own rule language; this package is the
// bridge, and it is a package of its own so that a program using kstatus alone does not
// link a Lua interpreter.
//
//	checks, err := luahealth.LoadFS(os.DirFS("resource_customizations"), luahealth.Options{})
//	if err != nil {
//		return err // names the script and the line
//	}
//	rules, err := luahealth.RuleSet(checks...)
//	...
//	res, err := kstatus.ComputeWith(u, kstatus.Options{Rules: rules})
//
// Importing the package for its side effect also makes kstatus.LoadRules (and so the
// kates CLI's --status-rules) read an argocd-cm ConfigMap:
//
//	import _ "github.com/kates-dev/kates/kstatus/luahealth"
//
// # Where checks come from
//
// LoadFS reads a directory laid out as Argo CD's resource_customizations:
// GROUP/KIND/health.lua, KIND/health.lua for the core group, with Argo CD's wildcard
// folders: a group "_.example.com" is kstatus' group pattern "*.example.com", a kind "_"
// is "*" (kstatus has no any-group pattern, so a group folder "_" alone is an error; Argo
// CD ships none). LoadConfigMap reads the
// resource.customizations.health.GROUP_KIND keys of an argocd-cm ConfigMap and the
// health.lua entries of its older resource.customizations key. A check is compiled once,
// when it is loaded: a script that does not parse is an error there, naming the file or
// key and the line.
//
// # What a check sees and returns
//
// As in Argo CD, the object is the global obj, a Lua table of the object's fields, lists
// as 1-based tables and numbers as Lua numbers, and the script returns a table with status
// and message. The statuses map onto kstatus:
//
//	Healthy      Current
//	Progressing  InProgress, reason Progressing
//	Degraded     Failed, reason Degraded
//	Suspended    Failed, reason Suspended, with the script's message
//	Missing      NotFound
//	Unknown      Unknown
//
// Suspended is Failed because a suspended object waits on a person: kstatus treats a paused
// Deployment the same way, so that a wait on it ends at once and says why, instead of
// running to its timeout. A script that returns nil has no opinion; Argo CD then falls
// back to its own built-in assessment, and kstatus to its generic rules (conditions, Ready)
// for the kind. A status string that is none of the six is Unknown, as in Argo CD. A check
// that fails — a runtime error, a result that is not a table, a message that is not a
// string, a run over its bounds — makes the object Unknown, with the error in the message
// and returned (kstatus wraps it in a FieldError, as it does a failing CEL expression).
//
// Fields of obj are converted from the decoded object when the script first reads them,
// so a check that reads five fields of an object with managedFields pays for five. pairs,
// next and rawget see every field. Scripts may assign to obj; the caller's object is never
// changed.
//
// # Sandbox
//
// A check runs in gopher-lua (a pure-Go Lua 5.1) with the base library less everything
// that loads code or reaches outside (dofile, loadfile, load, loadstring, require, module,
// getfenv, setfenv, rawset, newproxy, collectgarbage; print does nothing), and the table,
// string, math libraries and, of os, only the clock: time, date, clock and difftime, which
// Argo CD's own sandbox gives its checks too (apps.kruise.io/AdvancedCronJob uses
// os.time). There is no io, os.execute, package, debug or coroutine. The libraries are
// read-only and their metatables protected; each run has globals of its own, emptied after
// it, so nothing one run sets is seen by the next. Interpreters are pooled (sync.Pool)
// and reused; one whose run failed is dropped.
//
// # Bounds
//
// Each run is bounded by Options:
//
//   - MaxSteps: Lua instructions, counted exactly (gopher-lua checks its context before
//     each instruction, and the context counts the calls). Default 1,000,000, which a tight
//     loop runs through in 30 to 200ms; Argo CD's checks take hundreds to a few thousand.
//     This is the bound on CPU.
//   - Timeout: wall-clock time, default 1s as in Argo CD. A watchdog timer, which fires
//     only in a run that has lasted 1ms, raises a flag read before each instruction. The
//     clock runs while the goroutine waits for a CPU too, hence the generous default.
//   - MaxAllocBytes: a run that has lasted 1ms is stopped once the process has
//     allocated this much more (default 64 MiB; read every 2ms). Go counts allocation per
//     process, not per goroutine, so this reads the whole program; it applies only to runs
//     a hundred times longer than a real check (10–20µs), where the run is the likeliest
//     cause. Once the watchdog has fired (a run that has lasted 1ms), a run also may not
//     hold a string over a quarter of MaxAllocBytes (16 MiB by default) in the running
//     function's values, checked every fourth instruction: a string doubled with ..
//     is stopped before the join that would copy it, where the allocation bound alone
//     stopped it only after (a join under way cannot be interrupted, and on a loaded
//     2-core machine the one in flight took up to 2.7 s in CI).
//   - MaxStringBytes: the bytes the string library (rep, format, gsub, upper, lower,
//     reverse) and table.concat may build in one run, checked before each call. Default
//     1 MiB, so a loop piling up string.rep('x', 1e6) stops at its second call. A format
//     width or precision of more than two digits is refused, as in Lua 5.1; a gsub that
//     would copy more than 256 MiB (gopher-lua copies the result once per match) too.
//   - The value stack is at most 65,536 slots (1 MiB) and the call stack 200 frames:
//     deeper recursion is an error.
//
// Memory a script builds without the library — tables it fills, strings it joins with
// the .. operator, on which gopher-lua gives no hook — is bounded by the steps and the
// allocation watchdog and the bound on strings held: measured here, a loop doubling a
// string with s = s .. s is stopped holding a 32 MB string (20–150 ms on a quiet machine,
// at most 250 ms in 40 runs beside go test -race and a CI run), one appending 1 MB strings
// to a table after about 70 MiB, one filling a table with numbers at its step
// bound after 23 MiB. The Go collector frees it when the run ends.
//
// A single library call is not interrupted, and the bounds are checked between
// instructions: Lua pattern matching (find, match, gmatch, gsub) backtracks, so a pattern
// with a repeated item that cannot match a long subject is quadratic in its length, and
// worse with several (string.find(s, ".-.-y") on a 100 kB s without a "y" runs for hours),
// as in Argo CD. Checks match patterns on short fields (a phase, a reason, a timestamp);
// do not match open-ended patterns on long ones.
//
// # Where it differs from Argo CD
//
//   - A nil return leaves the object to kstatus' generic rules, where Argo CD uses its
//     built-in assessment of the kind (for custom resources, none).
//   - Until pairs, next or rawget reads one whole, each map of obj carries a protected
//     metatable (the lazy conversion): getmetatable returns "protected" and setmetatable
//     on it is an error. Argo CD's tables have none.
//   - There is no rawset, and print discards its arguments.
//   - os.time reads numeric strings in its table argument, as stock gopher-lua does;
//     Argo CD's own os.time treats them as absent.
//   - A status that is not a string is Unknown; Argo CD reports the decoding error.
//
// # Cost
//
// BenchmarkLuaHealth runs a Flux GitRepository check on a Ready object beside decoding the
// same object's JSON, the cost every watched object pays already. A check costs about 0.6
// of the decode (0.58 to 0.91 on a loaded machine, interleaved; issue 23's bar is 1), with
// 52 allocations and 2 KB against the decode's 133 and 5 KB; Argo CD's own script for the
// kind costs about the same (45 allocations). Most of it is gopher-lua's: a call frame
// and a boxed key per field read, a hash map per table the script builds. A CEL rule on
// the same object costs about 0.6 of the decode too.
package luahealth
