package kstatus

import (
	"errors"
	"fmt"

	celast "github.com/google/cel-go/common/ast"
)

// CheckSchema checks the rules of s for group and kind, those for any version and those
// for version, against that version's structural schema (a CustomResourceDefinition
// version's schema.openAPIV3Schema, decoded as JSON):
// every field an expression selects under spec, status or self must be one the schema
// declares. Objects are untyped when rules compile, so a misspelt field ("status.phse")
// would otherwise surface only as an evaluation error on a live object. Fields under
// x-kubernetes-preserve-unknown-fields, additionalProperties or a schema without
// properties are not checked; has() tests are checked like any other selection. Wildcard
// rules ("*.suffix" groups, "*" kinds) are not checked: they are written for many kinds and
// may read a field only some of them have.
func (s *RuleSet) CheckSchema(group, version, kind string, openAPIV3Schema map[string]any) error {
	if s == nil {
		return nil
	}
	var errs []error
	for _, r := range s.byKind[groupKind{group, kind}] {
		if r.version != "" && r.version != version {
			continue
		}
		for _, e := range r.exprs() {
			ast, iss := celEnv.Compile(e.expr)
			if iss.Err() != nil {
				continue // cannot happen: the rule compiled
			}
			c := schemaChecker{root: openAPIV3Schema}
			c.walk(ast.NativeRep().Expr(), nil)
			if c.err != nil {
				errs = append(errs, &RuleError{Rule: r.name, Field: e.field, Expr: e.expr, Err: c.err})
			}
		}
	}
	return errors.Join(errs...)
}

type namedExpr struct{ field, expr string }

func (r *compiledRule) exprs() []namedExpr {
	var out []namedExpr
	for _, e := range []namedExpr{{"inProgress", r.src.InProgress}, {"failed", r.src.Failed},
		{"current", r.src.Current}, {"message", r.src.Message}} {
		if e.expr != "" {
			out = append(out, e)
		}
	}
	return out
}

// schemaChecker walks an expression and returns, for each sub-expression, the schema of
// its value when it is known (nil otherwise), recording the first unknown field.
type schemaChecker struct {
	root map[string]any
	err  error
}

func (c *schemaChecker) walk(e celast.Expr, scope map[string]map[string]any) map[string]any {
	switch e.Kind() {
	case celast.IdentKind:
		name := e.AsIdent()
		if s, ok := scope[name]; ok {
			return s
		}
		switch name {
		case "self":
			return c.root
		case "spec", "status":
			return c.field(c.root, name)
		}
	case celast.SelectKind:
		sel := e.AsSelect()
		s := c.walk(sel.Operand(), scope)
		if s == nil {
			return nil
		}
		return c.field(s, sel.FieldName())
	case celast.CallKind:
		call := e.AsCall()
		if call.IsMemberFunction() {
			c.walk(call.Target(), scope)
		}
		var args []map[string]any
		for _, a := range call.Args() {
			args = append(args, c.walk(a, scope))
		}
		if call.FunctionName() == "_[_]" && len(args) == 2 && args[0] != nil {
			if items, ok := args[0]["items"].(map[string]any); ok {
				return items
			}
		}
	case celast.ComprehensionKind:
		comp := e.AsComprehension()
		r := c.walk(comp.IterRange(), scope)
		c.walk(comp.AccuInit(), scope)
		inner := map[string]map[string]any{}
		for k, v := range scope {
			inner[k] = v
		}
		inner[comp.AccuVar()] = nil
		inner[comp.IterVar()] = nil
		if items, ok := r["items"].(map[string]any); ok && !comp.HasIterVar2() {
			inner[comp.IterVar()] = items
		}
		if comp.HasIterVar2() {
			inner[comp.IterVar2()] = nil
		}
		c.walk(comp.LoopCondition(), inner)
		c.walk(comp.LoopStep(), inner)
		res := map[string]map[string]any{}
		for k, v := range scope {
			res[k] = v
		}
		res[comp.AccuVar()] = nil
		c.walk(comp.Result(), res)
	case celast.ListKind:
		for _, el := range e.AsList().Elements() {
			c.walk(el, scope)
		}
	case celast.MapKind:
		for _, en := range e.AsMap().Entries() {
			me := en.AsMapEntry()
			c.walk(me.Key(), scope)
			c.walk(me.Value(), scope)
		}
	}
	return nil
}

// field returns the schema of s's field name, nil when s does not say, and records an
// error when s lists its properties and name is not one of them.
func (c *schemaChecker) field(s map[string]any, name string) map[string]any {
	if pu, _ := s["x-kubernetes-preserve-unknown-fields"].(bool); pu {
		return nil
	}
	if ap, ok := s["additionalProperties"].(map[string]any); ok {
		return ap
	}
	props, ok := s["properties"].(map[string]any)
	if !ok {
		return nil
	}
	f, ok := props[name].(map[string]any)
	if !ok {
		if c.err == nil {
			c.err = fmt.Errorf("no field %q in the kind's schema", name)
		}
		return nil
	}
	return f
}
