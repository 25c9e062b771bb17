package luahealth_test

import (
	"fmt"
	"testing/fstest"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kates-dev/kates/kstatus"
	"github.com/kates-dev/kates/kstatus/luahealth"
)

// An Argo CD health check, laid out as Argo CD keeps them, judges a custom resource
// through kstatus.ComputeWith.
func Example() {
	fsys := fstest.MapFS{"example.com/Widget/health.lua": {Data: []byte(`
if obj.spec.paused then
  return {status = "Suspended", message = "paused by spec.paused"}
end
if obj.status ~= nil and obj.status.phase == "Ready" then
  return {status = "Healthy", message = "Widget is ready"}
end
return {status = "Progressing", message = "Waiting for phase Ready"}
`)}}
	checks, err := luahealth.LoadFS(fsys, luahealth.Options{})
	if err != nil {
		panic(err)
	}
	rules, err := luahealth.RuleSet(checks...)
	if err != nil {
		panic(err)
	}
	for _, obj := range []map[string]any{
		{"spec": map[string]any{}, "status": map[string]any{"phase": "Ready"}},
		{"spec": map[string]any{}},
		{"spec": map[string]any{"paused": true}},
	} {
		u := &unstructured.Unstructured{Object: obj}
		u.SetAPIVersion("example.com/v1")
		u.SetKind("Widget")
		res, rule, _ := kstatus.Explain(u, kstatus.Options{Rules: rules})
		fmt.Printf("%s: %s (%s)\n", res.Status, res.Message, rule)
	}
	// Output:
	// Current: Widget is ready (lua:example.com/Widget/health.lua)
	// InProgress: Waiting for phase Ready (lua:example.com/Widget/health.lua)
	// Failed: paused by spec.paused (lua:example.com/Widget/health.lua)
}

// A check that runs away is stopped and the object is Unknown.
func ExampleCheck_Eval() {
	c, err := luahealth.Compile("spin.lua", "example.com", "Widget", "while true do end", luahealth.Options{MaxSteps: 10000})
	if err != nil {
		panic(err)
	}
	res, err := c.Eval(&unstructured.Unstructured{Object: map[string]any{"kind": "Widget"}})
	fmt.Println(res.Status)
	fmt.Println(err)
	// Output:
	// Unknown
	// Lua health check stopped: it ran more than 10000 Lua instructions
}
