package kstatus

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"time"
)

// FieldError reports a field kstatus reads whose value it cannot interpret, such as a
// status.observedGeneration of "two". Compute then returns an Unknown Result whose
// Message is the error's text.
type FieldError struct {
	Kind  string // the object's kind, e.g. "Deployment"
	Path  string // the field, dotted, e.g. "status.observedGeneration"
	Want  string // what kstatus expected, e.g. "an integer"
	Value any    // the value found
}

func (e *FieldError) Error() string {
	kind := e.Kind
	if kind == "" {
		kind = "object"
	}
	return fmt.Sprintf("%s %s: want %s, got %s", kind, e.Path, e.Want, describe(e.Value))
}

// Is reports whether target is a *FieldError, so errors.Is(err, &FieldError{}) matches
// any FieldError however deeply wrapped.
func (e *FieldError) Is(target error) bool {
	_, ok := target.(*FieldError)
	return ok
}

// IsMalformed reports whether err, or any error it wraps, is a *FieldError.
func IsMalformed(err error) bool {
	return errors.Is(err, &FieldError{})
}

// describe renders a decoded JSON value for an error message, briefly: a malformed
// object may hold a megabyte where a number belongs.
func describe(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		if len(v) > 40 {
			v = v[:40] + "..."
		}
		return strconv.Quote(v)
	case map[string]any:
		return "an object"
	case []any:
		return "a list"
	case bool, float64, float32, int, int64, int32, json.Number:
		return fmt.Sprint(v)
	}
	return fmt.Sprintf("a %T", v)
}

// Readers below walk decoded JSON directly: a map lookup per level, no copies and no
// allocation unless the value is malformed. They accept what the decoders in use produce
// (unstructured's int64 and float64, encoding/json's float64 or json.Number) and what
// people write by hand (int, int32, a numeric string).

// toInt converts a decoded JSON number to int64. It refuses fractions and values out of
// int64 range rather than rounding them, so a malformed count is reported, not guessed.
func toInt(v any) (int64, bool) {
	switch n := v.(type) {
	case int64:
		return n, true
	case int:
		return int64(n), true
	case int32:
		return int64(n), true
	case int16:
		return int64(n), true
	case int8:
		return int64(n), true
	case uint:
		return int64(n), n <= math.MaxInt64
	case uint64:
		return int64(n), n <= math.MaxInt64
	case uint32:
		return int64(n), true
	case uint16:
		return int64(n), true
	case uint8:
		return int64(n), true
	case float64:
		return floatToInt(n)
	case float32:
		return floatToInt(float64(n))
	case json.Number:
		return parseInt(string(n))
	case string:
		return parseInt(n)
	}
	return 0, false
}

func floatToInt(f float64) (int64, bool) {
	// -2^63 is exact in float64; 2^63 is the first value out of range. NaN fails both.
	if f != math.Trunc(f) || f < -(1<<63) || f >= 1<<63 {
		return 0, false
	}
	return int64(f), true
}

func parseInt(s string) (int64, bool) {
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return i, true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, false
	}
	return floatToInt(f)
}

// fields reads the fields of one object and keeps the first malformed one it meets, so a
// rule can read everything it needs and check for an error once.
type fields struct {
	kind string
	err  *FieldError
}

func (f *fields) fail(path, want string, v any) {
	if f.err == nil {
		f.err = &FieldError{Kind: f.kind, Path: path, Want: want, Value: v}
	}
}

// int returns m[key] as an integer, or def when absent or null. path names the field in
// an error.
func (f *fields) int(m map[string]any, key, path string, def int64) int64 {
	v, ok := m[key]
	if !ok || v == nil {
		return def
	}
	i, ok := toInt(v)
	if !ok {
		f.fail(path, "an integer", v)
		return def
	}
	return i
}

// intOK is int for fields whose absence means something: found is false when absent.
func (f *fields) intOK(m map[string]any, key, path string) (i int64, found bool) {
	v, ok := m[key]
	if !ok || v == nil {
		return 0, false
	}
	i, ok = toInt(v)
	if !ok {
		f.fail(path, "an integer", v)
		return 0, false
	}
	return i, true
}

// str returns m[key] as a string, or "" when absent or null.
func (f *fields) str(m map[string]any, key, path string) string {
	v, ok := m[key]
	if !ok || v == nil {
		return ""
	}
	s, ok := v.(string)
	if !ok {
		f.fail(path, "a string", v)
	}
	return s
}

// bool returns m[key] as a bool, or false when absent or null.
func (f *fields) bool(m map[string]any, key, path string) bool {
	v, ok := m[key]
	if !ok || v == nil {
		return false
	}
	b, ok := v.(bool)
	if !ok {
		f.fail(path, "a boolean", v)
	}
	return b
}

// obj returns m[key] as an object, or nil when absent or null.
func (f *fields) obj(m map[string]any, key, path string) map[string]any {
	v, ok := m[key]
	if !ok || v == nil {
		return nil
	}
	o, ok := v.(map[string]any)
	if !ok {
		f.fail(path, "an object", v)
	}
	return o
}

// list returns m[key] as a list, or nil when absent or null.
func (f *fields) list(m map[string]any, key, path string) []any {
	v, ok := m[key]
	if !ok || v == nil {
		return nil
	}
	l, ok := v.([]any)
	if !ok {
		f.fail(path, "a list", v)
	}
	return l
}

// time returns m[key] parsed as an RFC 3339 timestamp; found is false when absent.
func (f *fields) time(m map[string]any, key, path string) (t time.Time, found bool) {
	s := f.str(m, key, path)
	if s == "" {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		f.fail(path, "an RFC 3339 time", s)
		return time.Time{}, false
	}
	return t, true
}

// condition is one entry of status.conditions, as the rules read it.
type condition struct {
	found   bool
	status  string // "True", "False", "Unknown", or whatever the controller wrote
	reason  string
	message string
	raw     map[string]any
}

func (c condition) isTrue() bool  { return c.status == "True" }
func (c condition) isFalse() bool { return c.status == "False" }

// text returns the condition's message for a person, falling back to its reason and then
// to fallback when the controller left them empty.
func (c condition) text(fallback string) string {
	switch {
	case c.message != "":
		return c.message
	case c.reason != "":
		return c.reason
	}
	return fallback
}

// reasonOr returns the condition's reason, or fallback when it is empty.
func (c condition) reasonOr(fallback string) string {
	if c.reason != "" {
		return c.reason
	}
	return fallback
}

// cond finds the condition of type t in conds. Entries that are not objects or have no
// string type are skipped: they cannot be any condition kstatus reads, and failing on
// them would make one odd controller's extra data fatal. The entry found must have string
// fields.
func (f *fields) cond(conds []any, t string) condition {
	for _, e := range conds {
		m, ok := e.(map[string]any)
		if !ok {
			continue
		}
		if ty, _ := m["type"].(string); ty != t {
			continue
		}
		return f.condFrom(m, t)
	}
	return condition{}
}

// standardConds are the entries of the standard conditions in a list of conditions: the
// first of each type, or nil.
type standardConds struct {
	stalled, reconciling, ready map[string]any
}

// findStandard finds the standard conditions in conds in one pass. It reads no field but
// type: each is read by condAt where its rule comes.
func findStandard(conds []any) standardConds {
	var s standardConds
	for _, e := range conds {
		m, ok := e.(map[string]any)
		if !ok {
			continue
		}
		ty, _ := m["type"].(string)
		switch {
		case ty == string(ConditionReady) && s.ready == nil:
			s.ready = m
		case ty == string(ConditionStalled) && s.stalled == nil:
			s.stalled = m
		case ty == string(ConditionReconciling) && s.reconciling == nil:
			s.reconciling = m
		}
	}
	return s
}

// condAt reads the condition m of type t found by findStandard, as cond does; a nil m is a
// condition not found.
func (f *fields) condAt(m map[string]any, t string) condition {
	if m == nil {
		return condition{}
	}
	return f.condFrom(m, t)
}

// condFrom reads the condition m, of type t, as cond does.
func (f *fields) condFrom(m map[string]any, t string) condition {
	c := condition{found: true, raw: m}
	c.status = f.condStr(m, t, "status")
	c.reason = f.condStr(m, t, "reason")
	c.message = f.condStr(m, t, "message")
	switch c.status {
	case "True", "False", "Unknown":
	default:
		// Any other value (absent, "", "Yes", "true") cannot be read either way: it is
		// malformed, never InProgress, which would leave a waiter hanging on it.
		if f.err == nil {
			f.fail("status.conditions["+t+"].status", "True, False or Unknown", m["status"])
		}
	}
	return c
}

// condStr is str for a field of the condition of type t; it builds the path for the
// error only when there is one, keeping the common path free of allocation.
func (f *fields) condStr(m map[string]any, t, key string) string {
	v, ok := m[key]
	if !ok || v == nil {
		return ""
	}
	s, ok := v.(string)
	if !ok {
		f.fail("status.conditions["+t+"]."+key, "a string", v)
	}
	return s
}

// heldConditions returns the conditions a status keeps in an object rather than a list
// (status.conditions.tortoiseConditions): the entries, in key order, of each of its lists
// whose first entry has a type and a status, and each member that is one condition keyed
// by the part it is about (Function Mesh's status.conditions.StatefulSet, {condition:
// StatefulSetReady, status: "False", action: Create}). Other lists there
// (recommendations, records) are not conditions.
func heldConditions(held map[string]any, field string) []any {
	keys := make([]string, 0, len(held))
	for k, v := range held {
		switch v := v.(type) {
		case []any:
			if len(v) > 0 {
				if m, ok := v[0].(map[string]any); ok && m["type"] != nil && m["status"] != nil {
					keys = append(keys, k)
				}
			}
		case map[string]any:
			if conditionShaped(v) {
				keys = append(keys, k)
			}
		}
	}
	sort.Strings(keys)
	var conds []any
	for _, k := range keys {
		switch v := held[k].(type) {
		case []any:
			conds = append(conds, v...)
		case map[string]any:
			conds = append(conds, partCondition(v, field+"."+k))
		}
	}
	return worstOfEachType(conds)
}

// worstOfEachType returns conds with one condition of each type: when parts each report a
// condition of one type (Liqo's Ready per remote cluster, Function Mesh's FunctionReady
// per function), the object's is the worst of them, False before Unknown before True, the
// first in key order among equals: all the parts are ready only if each is.
func worstOfEachType(conds []any) []any {
	if len(conds) < 2 {
		return conds
	}
	rank := func(c any) int {
		m, _ := c.(map[string]any)
		switch m["status"] {
		case "False":
			return 2
		case "Unknown":
			return 1
		}
		return 0
	}
	out := conds[:0:0]
	at := make(map[string]int, len(conds))
	for _, c := range conds {
		m, _ := c.(map[string]any)
		t, _ := m["type"].(string)
		i, seen := at[t]
		if !seen || t == "" {
			at[t] = len(out)
			out = append(out, c)
			continue
		}
		if rank(c) > rank(out[i]) {
			out[i] = c
		}
	}
	return out
}

// conditionShaped reports an object that is one condition under another name: a status
// of "True", "False" or "Unknown" and a type, in a field named type or condition.
func conditionShaped(m map[string]any) bool {
	switch m["status"] {
	case "True", "False", "Unknown":
		return shapedType(m) != ""
	}
	return false
}

// shapedType is the type of a condition-shaped object: its type field, else its condition
// field.
func shapedType(m map[string]any) string {
	if t, _ := m["type"].(string); t != "" {
		return t
	}
	t, _ := m["condition"].(string)
	return t
}

// partCondition returns the condition-shaped object m, kept at status.<at>, as a condition
// of the object: its type from its type or condition field, and, without a message of its
// own, a message naming where it was read, so that a verdict on it says which part.
func partCondition(m map[string]any, at string) map[string]any {
	t := shapedType(m)
	c := make(map[string]any, len(m)+1)
	for k, v := range m {
		c[k] = v
	}
	c["type"] = t
	if msg, _ := m["message"].(string); msg == "" {
		where := "status"
		if at != "" {
			where += "." + at
		}
		c["message"] = t + " is " + m["status"].(string) + " (" + where + ")"
	}
	return c
}

// partConditions returns the conditions a status without a list of conditions keeps
// elsewhere: status itself when it is condition-shaped with a type field (fabric-operator's
// IBPPeer), the conditions by type of parts one object down (ClusterLink's
// status.dataplane.conditions), one condition-shaped object in status.condition (Function Mesh's
// FunctionMesh, {condition: MeshReady, status: "False"}), condition-shaped objects with a type
// under names of their own (status.create, kopf-style), and those of objects named for
// the conditions of parts (status.functionConditions, one per function, keyed by its name).
func partConditions(status map[string]any) []any {
	var conds []any
	// One walk of status: its own type and condition fields are met in it too (a lookup
	// of each costs as much as the walk of a small status).
	var keys, parts, single []string
	self, condition := false, map[string]any(nil)
	for k, v := range status {
		if k == "type" {
			t, _ := v.(string)
			self = t != ""
			continue
		}
		held, ok := v.(map[string]any)
		if !ok || len(held) == 0 {
			continue
		}
		if k == "condition" {
			condition = held
		}
		if hasWordSuffix(k, "Conditions") {
			keys = append(keys, k)
		} else if t, _ := held["type"].(string); t != "" && k != "condition" && conditionShaped(held) {
			// A condition kept under a name of its own (kopf handlers' results, as
			// Rubin's gafaelfawr writes them: status.create {type: ResourceCreated,
			// status: "False", reason: Failed}).
			single = append(single, k)
		} else if pc, ok := held["conditions"].(map[string]any); ok && len(pc) > 0 {
			// A part's conditions one object down, kept by type (ClusterLink's Instance:
			// status.dataplane.conditions.DeploymentReady).
			parts = append(parts, k)
		}
	}
	if self && conditionShaped(status) {
		// Status that is one condition itself (Hyperledger Labs' fabric-operator:
		// status {type: Deploying, status: "True", reason: waitingForPods}).
		conds = append(conds, partCondition(status, ""))
	}
	if condition != nil && conditionShaped(condition) {
		conds = append(conds, partCondition(condition, "condition"))
	}
	if len(single) > 1 {
		sort.Strings(single)
	}
	for _, k := range single {
		conds = append(conds, partCondition(status[k].(map[string]any), k))
	}
	if len(keys) > 1 {
		sort.Strings(keys)
	}
	for _, k := range keys {
		conds = append(conds, heldConditions(status[k].(map[string]any), k)...)
	}
	if len(parts) > 0 {
		sort.Strings(parts)
		var partConds []any
		for _, k := range parts {
			pc := status[k].(map[string]any)["conditions"].(map[string]any)
			partConds = append(partConds, heldConditions(pc, k+".conditions")...)
		}
		conds = append(conds, worstOfEachType(partConds)...)
	}
	return conds
}
