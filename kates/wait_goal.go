package kates

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kates-dev/kates/kstatus"
)

// jsonPathGoal is a parsed WaitOptions.JSONPath.
type jsonPathGoal struct {
	expr string // the expression, in braces
	path *JSONPath
	// value is the value waited for; hasValue is false when any value will do.
	value    string
	hasValue bool
}

// parseJSONPathGoal reads "{.status.phase}=Running", "{.status.phase}", or the same without
// braces, as kubectl wait --for=jsonpath=... does.
func parseJSONPathGoal(s string) (*jsonPathGoal, error) {
	bad := func(why string, err error) error {
		msg := fmt.Sprintf("kates: wait: jsonpath %q: %s; want {.path}=VALUE or {.path}, as in {.status.phase}=Running", s, why)
		if err != nil {
			return fmt.Errorf("%s: %w", msg, err)
		}
		return fmt.Errorf("%s", msg)
	}
	expr, value, hasValue := s, "", false
	if strings.HasPrefix(s, "{") {
		// The expression ends at the first "}" that the value or the end follows; a filter
		// such as [?(@.type=="Ready")] holds "=" but never right after "}".
		end := -1
		for i := range len(s) {
			if s[i] == '}' && (i == len(s)-1 || s[i+1] == '=') {
				end = i
				break
			}
		}
		if end < 0 {
			return nil, bad("no closing brace", nil)
		}
		expr = s[:end+1]
		if end < len(s)-1 {
			value, hasValue = s[end+2:], true
		}
	} else {
		expr, value, hasValue = strings.Cut(s, "=")
		expr = "{" + expr + "}"
	}
	if strings.TrimSpace(strings.Trim(expr, "{}")) == "" {
		return nil, bad("empty expression", nil)
	}
	if !strings.HasPrefix(strings.TrimSpace(strings.TrimPrefix(expr, "{")), ".") {
		expr = "{." + strings.TrimPrefix(expr, "{")
	}
	if hasValue && value == "" {
		return nil, bad("empty value", nil)
	}
	// Strictly: a missing key is a value not there yet (eval), not an empty text.
	p, err := ParseJSONPath(expr)
	if err != nil {
		return nil, bad("does not parse", errors.Unwrap(err))
	}
	p.path.AllowMissingKeys(false)
	return &jsonPathGoal{expr: expr, path: p, value: value, hasValue: hasValue}, nil
}

// judge turns st into whether u's expression gives the value waited for (any value, when
// none is given): Current if it does, whatever u's status. If it does not, Failed (for
// fail-fast), Terminating and NotFound stay as they are, and anything else is InProgress with
// what the expression gives instead.
func (g *jsonPathGoal) judge(st ObjectStatus, u *unstructured.Unstructured) ObjectStatus {
	if st.Status == kstatus.NotFoundStatus {
		return st
	}
	got, found := g.eval(u)
	met := found && (!g.hasValue || got == g.value)
	if !met && (st.Status == kstatus.FailedStatus || st.Status == kstatus.TerminatingStatus) {
		return st
	}
	switch {
	case met:
		st.Status, st.Reason = kstatus.CurrentStatus, "JSONPathMet"
		st.Message = fmt.Sprintf("%s is %s", g.expr, got)
	case !found:
		st.Status, st.Reason = kstatus.InProgressStatus, "JSONPathMissing"
		st.Message = fmt.Sprintf("%s is not set; %s", g.expr, st.Message)
	default:
		st.Status, st.Reason = kstatus.InProgressStatus, "JSONPathNotMet"
		st.Message = fmt.Sprintf("%s is %s, want %s", g.expr, got, g.value)
	}
	return st
}

// eval returns what the expression gives on u as text, and whether it gives anything. A
// single scalar is its text ("Running", "3", "true"); several results, lists and objects are
// their JSON, which a value is never compared equal to unless written so.
func (g *jsonPathGoal) eval(u *unstructured.Unstructured) (string, bool) {
	vals, err := g.path.values(u.Object)
	if err != nil {
		return "", false // a missing key: not there yet
	}
	switch {
	case len(vals) == 0:
		return "", false
	case len(vals) == 1:
		if empty(vals[0]) {
			return "", false // null, [] or {}: not set, as far as a wait goes
		}
		if s, ok := scalarText(vals[0]); ok {
			return s, true
		}
		return jsonText(vals[0]), true
	}
	return jsonText(vals), true
}

func scalarText(v any) (string, bool) {
	switch reflect.TypeOf(v).Kind() {
	case reflect.Map, reflect.Slice, reflect.Array, reflect.Struct:
		return "", false
	}
	return fmt.Sprint(v), true
}

func jsonText(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSpace(b.String())
}

func empty(v any) bool {
	if v == nil {
		return true
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Map, reflect.Slice, reflect.Array:
		return rv.Len() == 0
	}
	return false
}

// pendingLoadBalancer reports whether u is a Service of type LoadBalancer without an address
// yet: what WaitOptions.SkipLoadBalancers does not wait for.
func pendingLoadBalancer(u *unstructured.Unstructured) bool {
	typ, _, _ := unstructured.NestedString(u.Object, "spec", "type")
	ingress, _, _ := unstructured.NestedSlice(u.Object, "status", "loadBalancer", "ingress")
	return typ == "LoadBalancer" && len(ingress) == 0
}
