package luahealth

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// FuzzLuaHealth runs arbitrary script text on arbitrary objects: a check must compile or
// fail with a LoadError, and a run must return a verdict or an error within its bounds,
// never panic or hang.
func FuzzLuaHealth(f *testing.F) {
	for _, s := range []struct{ script, obj string }{
		{"return {status = 'Healthy', message = obj.metadata.name}", `{"metadata":{"name":"a"}}`},
		{"if obj.status.phase == 'Ready' then return {status='Healthy'} end return {status='Progressing'}", `{"status":{"phase":"Ready"}}`},
		{"for _, c in ipairs(obj.status.conditions) do if c.type == 'Ready' then return {status = c.status == 'True' and 'Healthy' or 'Degraded', message = c.message} end end", `{"status":{"conditions":[{"type":"Ready","status":"True","message":"ok"}]}}`},
		{"local n = 0 for k, v in pairs(obj) do n = n + 1 end return {status = 'Healthy', message = tostring(n)}", `{"a":1,"b":[1,2,{"c":null}]}`},
		{"while true do end", `{}`},
		{"local t={} while true do t[#t+1]=string.rep('x',1e6) end", `{}`},
		{"return obj.spec.x:find('^a.-b')", `{"spec":{"x":"aaab"}}`},
		{"return string.format('%5.2f %s %d', 1.5, 'x', 3)", `{}`},
		{"error({})", `{}`},
		{"return setmetatable({}, {__index = function(t, k) return k end})", `{}`},
		{"local s = obj.kind:gsub('%w', '%0%0') return {status = 'Unknown', message = s}", `{"kind":"Widget"}`},
		{"return {status = 'Suspended', message = os.date('!%Y', os.time{year=2020, month=1, day=1})}", `{}`},
	} {
		f.Add(s.script, s.obj)
	}
	f.Fuzz(func(t *testing.T, script, objJSON string) {
		var obj map[string]any
		if json.Unmarshal([]byte(objJSON), &obj) != nil {
			obj = map[string]any{}
		}
		c, err := Compile("fuzz.lua", "example.com", "Widget", script, Options{Timeout: 50 * time.Millisecond, MaxSteps: 100_000})
		if err != nil {
			if !strings.HasPrefix(err.Error(), "luahealth: ") {
				t.Fatalf("Compile() error %q is not a LoadError", err)
			}
			return
		}
		start := time.Now()
		res, err := c.Eval(&unstructured.Unstructured{Object: obj})
		if took := time.Since(start); took > 5*time.Second {
			t.Fatalf("Eval() took %s", took)
		}
		if err != nil && res == nil {
			t.Fatalf("Eval() = nil, %v: an error must come with an Unknown result", err)
		}
	})
}
