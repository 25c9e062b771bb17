package kstatus

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"testing"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/ext"
	"github.com/stretchr/testify/require"
)

// TestObjectValuesBehaveAsCelGos evaluates expressions over one object twice: with the
// rules' environment, which reads the object through objectMap and objectList, and with an
// environment of the same functions but cel-go's own wrappers for Go maps and slices. Every
// result, error or not, must be the same: objectMap and objectList exist to be faster, not
// different. The expressions reach every method the two types implement or delegate.
func TestObjectValuesBehaveAsCelGos(t *testing.T) {
	obj := map[string]any{
		"apiVersion": "example.com/v1",
		"kind":       "Widget",
		"metadata": map[string]any{
			"name":       "w",
			"generation": int64(3),
			"labels":     map[string]any{"app": "web", "tier": "front"},
		},
		"spec": map[string]any{
			"replicas": int64(2),
			"items":    []any{"b", "a", "c", "a"},
			"numbers":  []any{int64(1), int64(2), float64(3.5)},
			"nested":   []any{[]any{"x"}, []any{"y", "z"}},
			"empty":    []any{},
			"emptyMap": map[string]any{},
			"paused":   true,
		},
		"status": map[string]any{
			"observedGeneration": int64(3),
			"conditions": []any{
				map[string]any{"type": "Ready", "status": "True", "observedGeneration": int64(3), "message": "ok"},
				map[string]any{"type": "Reconciling", "status": "False"},
			},
		},
	}
	stock, err := cel.NewEnv(ext.Strings(), ext.Lists(), ext.Sets(), ext.Bindings(), cel.OptionalTypes(), sumFunction,
		cel.CrossTypeNumericComparisons(true),
		cel.Variable("self", cel.DynType), cel.Variable("apiVersion", cel.DynType), cel.Variable("kind", cel.DynType),
		cel.Variable("metadata", cel.DynType), cel.Variable("spec", cel.DynType), cel.Variable("status", cel.DynType))
	require.NoError(t, err)
	ours := newActivation(obj, "example.com/v1", "Widget", obj["metadata"].(map[string]any), obj["status"].(map[string]any))
	native := map[string]any{"self": obj, "apiVersion": "example.com/v1", "kind": "Widget",
		"metadata": obj["metadata"], "spec": obj["spec"], "status": obj["status"]}

	for _, expr := range []string{
		// reads, presence and comprehensions: the fast paths
		`status.conditions.exists(c, c.type == 'Ready' && c.status == 'True' && c.observedGeneration == metadata.generation)`,
		`status.conditions.filter(c, c.status == 'True')[0].message`,
		`status.conditions.map(c, c.type)`,
		`status.conditions.all(c, has(c.status))`,
		`status.conditions.exists_one(c, has(c.message))`,
		`metadata.labels.all(k, k == 'app' || k == 'tier')`,
		`metadata.labels.map(k, metadata.labels[k]).sort()`, // sorted: a map's order is random in both
		`has(metadata.labels.app) && !has(metadata.labels.missing)`,
		`'app' in metadata.labels`, `1 in metadata.labels`, `size(metadata.labels)`, `size(spec.items)`,
		`spec.items[1]`, `spec.items[1.0]`, `spec.items[4]`, `spec.items[-1]`, `spec.items['x']`,
		`metadata.labels.missing`, `metadata.labels[1]`, `spec.numbers[2] > spec.numbers[0]`,
		`spec.?missing.orValue(3)`, `spec.items[?0].orValue('z')`, `metadata.labels[?'x'].hasValue()`,
		`optional.ofNonZeroValue(spec.empty).hasValue()`, `optional.ofNonZeroValue(spec.emptyMap).hasValue()`,
		`optional.ofNonZeroValue(spec.items).hasValue()`,
		// equality, membership, concatenation, conversion and formatting: the delegated methods
		`spec.items == ['b', 'a', 'c', 'a']`, `['b', 'a', 'c', 'a'] == spec.items`, `spec.items == spec.items`,
		`spec.items != ['a']`, `metadata.labels == {'app': 'web', 'tier': 'front'}`,
		`{'tier': 'front', 'app': 'web'} == metadata.labels`, `status.conditions[0] == status.conditions[0]`,
		`status.conditions[0] in status.conditions`, `'a' in spec.items`, `'q' in spec.items`,
		`spec.items + ['d']`, `['d'] + spec.items`, `size(status.conditions + status.conditions)`,
		`spec.empty == []`, `spec.emptyMap == {}`, `type(spec.items) == list`, `type(metadata.labels) == map`,
		`dyn(spec.items)`, `string(spec.replicas)`, `'%s'.format([spec.items])`, `'%s'.format([metadata.labels])`,
		`spec.items.sort()`, `spec.items.distinct()`, `spec.items.slice(1, 3)`, `spec.items.reverse()`,
		`spec.nested.flatten()`, `spec.numbers.sum()`, `spec.items.join('-')`,
		`sets.contains(spec.items, ['a', 'c'])`, `sets.intersects(spec.items, ['q', 'b'])`,
		`sets.equivalent(spec.items, ['a', 'b', 'c'])`,
		`cel.bind(r, status.conditions.filter(c, c.type == 'Ready'), size(r) == 1 && r[0].status == 'True')`,
		`self.spec.paused == true`, `self.metadata == metadata`,
	} {
		t.Run(expr, func(t *testing.T) {
			want := evalWith(t, stock, expr, native)
			got := evalWith(t, celEnv, expr, ours)
			require.Equal(t, want, got)
		})
	}
}

// evalWith evaluates expr in env and describes its result: the error, or the type and a
// rendering of the value that does not depend on how the value is wrapped.
func evalWith(t *testing.T, env *cel.Env, expr string, vars any) string {
	t.Helper()
	ast, iss := env.Compile(expr)
	require.NoError(t, iss.Err())
	prg, err := env.Program(ast, cel.EvalOptions(cel.OptOptimize))
	require.NoError(t, err)
	out, _, err := prg.Eval(vars)
	if err != nil {
		return "error: " + err.Error()
	}
	return out.Type().TypeName() + " " + render(out)
}

// render prints a CEL value by walking it, so that a list of objectMaps and a list of
// cel-go maps print alike.
func render(v ref.Val) string {
	switch v.Type() {
	case types.ListType:
		l := v.(interface {
			Size() ref.Val
			Get(ref.Val) ref.Val
		})
		s := "["
		for i := types.Int(0); i < l.Size().(types.Int); i++ {
			s += render(l.Get(i)) + ","
		}
		return s + "]"
	case types.MapType:
		m := v.(interface {
			Get(ref.Val) ref.Val
		})
		native, err := v.ConvertToNative(reflect.TypeFor[map[string]any]())
		if err != nil {
			return "unconvertible map: " + err.Error()
		}
		s := "{"
		for _, k := range slices.Sorted(maps.Keys(native.(map[string]any))) {
			s += k + ":" + render(m.Get(types.String(k))) + ","
		}
		return s + "}"
	}
	return fmt.Sprintf("%v", v.Value())
}
