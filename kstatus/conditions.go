package kstatus

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Object knows how to report its generation and read and replace its status conditions.
// A typed API object whose status holds []metav1.Condition satisfies it with two short
// methods (GetGeneration comes with metav1.ObjectMeta); Unstructured adapts an object with
// no Go type.
type Object interface {
	GetGeneration() int64
	GetConditions() []metav1.Condition
	SetConditions([]metav1.Condition)
}

// GetCondition returns a copy of obj's condition of type conditionType, or nil if it has
// none.
func GetCondition(obj Object, conditionType string) *metav1.Condition {
	c, ok := editFor(obj, time.Time{}).get(conditionType)
	if !ok {
		return nil
	}
	return &c
}

// IsConditionTrue reports whether obj has a condition of type conditionType with status
// True.
func IsConditionTrue(obj Object, conditionType string) bool {
	c := GetCondition(obj, conditionType)
	return c != nil && c.Status == metav1.ConditionTrue
}

// SetCondition adds c to obj's conditions, or updates the one of the same type, and
// reports whether anything changed.
//
// The rules are those of the API conventions, which hand-written helpers often get wrong:
// lastTransitionTime changes only when the status flips (to c.LastTransitionTime, or now
// if that is zero), so it says how long the condition has been in its state; a zero
// c.ObservedGeneration is stamped with obj's metadata.generation, so a reader can tell a
// condition about the current spec from a stale one. Other conditions are left alone.
func SetCondition(obj Object, c metav1.Condition) bool {
	e := editFor(obj, time.Time{})
	changed := e.set(c)
	e.done()
	return changed
}

// RemoveCondition removes obj's condition of type conditionType and reports whether there
// was one.
func RemoveCondition(obj Object, conditionType string) bool {
	e := editFor(obj, time.Time{})
	removed := e.remove(conditionType)
	e.done()
	return removed
}

// MarkReconciling records that the controller is working on obj's latest generation:
// Reconciling True, Stalled removed, Ready Unknown, all with reason and message. Compute
// then reports InProgress with that message.
func MarkReconciling(obj Object, reason, message string) {
	mark(obj, ConditionReconciling, metav1.ConditionTrue, ConditionStalled, metav1.ConditionUnknown, reason, message)
}

// MarkStalled records that the controller cannot make progress on obj without outside
// help: Stalled True, Reconciling removed, Ready False. Compute then reports Failed with
// that message.
func MarkStalled(obj Object, reason, message string) {
	mark(obj, ConditionStalled, metav1.ConditionTrue, ConditionReconciling, metav1.ConditionFalse, reason, message)
}

// MarkReady records that obj's latest generation is fully reconciled: Ready True,
// Reconciling and Stalled removed. Compute then reports Current, provided
// status.observedGeneration is current too: the helpers write conditions only, and
// Compute reads observedGeneration first.
func MarkReady(obj Object, reason, message string) {
	e := editFor(obj, time.Time{})
	e.remove(string(ConditionReconciling))
	e.remove(string(ConditionStalled))
	e.set(metav1.Condition{Type: string(ConditionReady), Status: metav1.ConditionTrue, Reason: reason, Message: message})
	e.done()
}

// mark sets condition set True, removes condition clear, and sets Ready to ready: the
// abnormal-true pair are never both True, and Ready never contradicts them.
func mark(obj Object, set ConditionType, status metav1.ConditionStatus, clear ConditionType, ready metav1.ConditionStatus, reason, message string) {
	e := editFor(obj, time.Time{})
	e.remove(string(clear))
	e.set(metav1.Condition{Type: string(set), Status: status, Reason: reason, Message: message})
	e.set(metav1.Condition{Type: string(ConditionReady), Status: ready, Reason: reason, Message: message})
	e.done()
}

// editor is one batch of edits to an object's conditions. Each Object kind has its own:
// typed objects are edited as a slice and written back once, unstructured ones in place.
type editor interface {
	get(conditionType string) (metav1.Condition, bool)
	set(c metav1.Condition) (changed bool)
	remove(conditionType string) (removed bool)
	done()
}

func editFor(obj Object, now time.Time) editor {
	if u, ok := obj.(*unstructuredObject); ok {
		return &unstructuredEditor{u: u.u, now: now}
	}
	return &typedEditor{obj: obj, conds: obj.GetConditions(), now: now}
}

// merge returns c as it should be stored over old (nil if absent), applying SetCondition's
// rules about lastTransitionTime and observedGeneration.
func merge(old *metav1.Condition, c metav1.Condition, generation int64, now time.Time) metav1.Condition {
	if c.ObservedGeneration == 0 {
		c.ObservedGeneration = generation
	}
	switch {
	case old != nil && old.Status == c.Status:
		c.LastTransitionTime = old.LastTransitionTime
	case c.LastTransitionTime.IsZero():
		if now.IsZero() {
			now = time.Now()
		}
		// Second precision: that is what the API server stores, so a condition set here
		// compares equal to itself after a round trip.
		c.LastTransitionTime = metav1.NewTime(now.Truncate(time.Second))
	}
	return c
}

type typedEditor struct {
	obj   Object
	conds []metav1.Condition
	now   time.Time
	dirty bool
}

func (e *typedEditor) find(t string) int {
	for i := range e.conds {
		if e.conds[i].Type == t {
			return i
		}
	}
	return -1
}

func (e *typedEditor) get(t string) (metav1.Condition, bool) {
	if i := e.find(t); i >= 0 {
		return e.conds[i], true
	}
	return metav1.Condition{}, false
}

func (e *typedEditor) set(c metav1.Condition) bool {
	i := e.find(c.Type)
	if i < 0 {
		// Copy before appending: the slice may share its array with the object.
		e.conds = append(e.conds[:len(e.conds):len(e.conds)], merge(nil, c, e.obj.GetGeneration(), e.now))
		e.dirty = true
		return true
	}
	m := merge(&e.conds[i], c, e.obj.GetGeneration(), e.now)
	if m == e.conds[i] {
		return false
	}
	conds := append([]metav1.Condition(nil), e.conds...)
	conds[i] = m
	e.conds, e.dirty = conds, true
	return true
}

func (e *typedEditor) remove(t string) bool {
	if e.find(t) < 0 {
		return false
	}
	conds := make([]metav1.Condition, 0, len(e.conds)-1)
	for _, c := range e.conds {
		if c.Type != t {
			conds = append(conds, c)
		}
	}
	e.conds, e.dirty = conds, true
	return true
}

func (e *typedEditor) done() {
	if e.dirty {
		e.obj.SetConditions(e.conds)
	}
}

// Unstructured adapts u to Object, so the condition helpers work on objects with no Go
// type. It fails if u's status or status.conditions has the wrong type: the helpers would
// otherwise have to overwrite data they do not understand.
//
// The helpers edit status.conditions in place: entries of other types are not touched,
// and keys a condition carries beyond metav1.Condition's (lastUpdateTime,
// lastHeartbeatTime) survive an update. The adapter's own SetConditions, by contrast,
// replaces the list with what it is given.
func Unstructured(u *unstructured.Unstructured) (Object, error) {
	if u == nil {
		return nil, errNilObject
	}
	if _, _, err := conditionList(u); err != nil {
		return nil, err
	}
	return &unstructuredObject{u}, nil
}

type unstructuredObject struct{ u *unstructured.Unstructured }

// GetGeneration reads metadata.generation in any numeric form, unlike
// unstructured.Unstructured's method, which reads only int64 and so returns 0 for an
// object decoded by encoding/json or sigs.k8s.io/yaml.
func (o *unstructuredObject) GetGeneration() int64 { return generation(o.u) }

func generation(u *unstructured.Unstructured) int64 {
	meta, _ := u.Object["metadata"].(map[string]any)
	g, _ := toInt(meta["generation"])
	return g
}

// GetConditions returns the entries of status.conditions that have a type; fields of the
// wrong type read as zero.
func (o *unstructuredObject) GetConditions() []metav1.Condition {
	_, list, _ := conditionList(o.u)
	var out []metav1.Condition
	for _, e := range list {
		if m, ok := e.(map[string]any); ok {
			if c, ok := fromMap(m); ok {
				out = append(out, c)
			}
		}
	}
	return out
}

// SetConditions replaces status.conditions with conds, reusing each existing entry of the
// same type so its extra keys survive.
func (o *unstructuredObject) SetConditions(conds []metav1.Condition) {
	status, list, err := conditionList(o.u)
	if err != nil {
		return
	}
	byType := map[string]map[string]any{}
	for _, e := range list {
		if m, ok := e.(map[string]any); ok {
			if t, ok := m["type"].(string); ok {
				byType[t] = m
			}
		}
	}
	out := make([]any, 0, len(conds))
	for _, c := range conds {
		m := byType[c.Type]
		if m == nil {
			m = map[string]any{}
		}
		toMap(m, c, true)
		out = append(out, m)
	}
	ensureStatus(o.u, status)["conditions"] = out
}

// conditionList returns u's status and status.conditions, either nil if absent.
func conditionList(u *unstructured.Unstructured) (map[string]any, []any, error) {
	f := fields{kind: u.GetKind()}
	status := f.obj(u.Object, "status", "status")
	list := f.list(status, "conditions", "status.conditions")
	if f.err != nil {
		return nil, nil, f.err
	}
	return status, list, nil
}

// ensureStatus returns status, creating it in u if it is nil.
func ensureStatus(u *unstructured.Unstructured, status map[string]any) map[string]any {
	if status != nil {
		return status
	}
	if u.Object == nil {
		u.Object = map[string]any{}
	}
	status = map[string]any{}
	u.Object["status"] = status
	return status
}

// fromMap reads a condition entry; ok is false if it has no type.
func fromMap(m map[string]any) (metav1.Condition, bool) {
	t, _ := m["type"].(string)
	if t == "" {
		return metav1.Condition{}, false
	}
	c := metav1.Condition{Type: t}
	s, _ := m["status"].(string)
	c.Status = metav1.ConditionStatus(s)
	c.Reason, _ = m["reason"].(string)
	c.Message, _ = m["message"].(string)
	c.ObservedGeneration, _ = toInt(m["observedGeneration"])
	if s, _ := m["lastTransitionTime"].(string); s != "" {
		if t, err := time.Parse(time.RFC3339, s); err == nil {
			c.LastTransitionTime = metav1.NewTime(t)
		}
	}
	return c, true
}

// toMap writes c's fields into m. lastTransitionTime is written only when ltt is set, so
// an unchanged time keeps its original spelling.
func toMap(m map[string]any, c metav1.Condition, ltt bool) {
	m["type"] = c.Type
	m["status"] = string(c.Status)
	m["reason"] = c.Reason
	m["message"] = c.Message
	if c.ObservedGeneration != 0 {
		m["observedGeneration"] = c.ObservedGeneration
	} else {
		delete(m, "observedGeneration")
	}
	if ltt {
		m["lastTransitionTime"] = c.LastTransitionTime.UTC().Format(time.RFC3339)
	}
}

type unstructuredEditor struct {
	u   *unstructured.Unstructured
	now time.Time
}

// entry returns the index and map of the entry of type t in list, or -1.
func entry(list []any, t string) (int, map[string]any) {
	for i, e := range list {
		if m, ok := e.(map[string]any); ok {
			if ty, _ := m["type"].(string); ty == t {
				return i, m
			}
		}
	}
	return -1, nil
}

func (e *unstructuredEditor) get(t string) (metav1.Condition, bool) {
	_, list, _ := conditionList(e.u)
	if _, m := entry(list, t); m != nil {
		return fromMap(m)
	}
	return metav1.Condition{}, false
}

func (e *unstructuredEditor) set(c metav1.Condition) bool {
	status, list, err := conditionList(e.u)
	if err != nil {
		return false
	}
	gen := generation(e.u)
	i, m := entry(list, c.Type)
	if i < 0 {
		m = map[string]any{}
		toMap(m, merge(nil, c, gen, e.now), true)
		ensureStatus(e.u, status)["conditions"] = append(list, m)
		return true
	}
	old, _ := fromMap(m)
	rawStatus, _ := m["status"].(string)
	flip := rawStatus != string(c.Status)
	merged := merge(&old, c, gen, e.now)
	if !flip && merged == old && rawLTT(m) {
		return false
	}
	toMap(m, merged, flip || !rawLTT(m))
	return true
}

// rawLTT reports whether entry m has a lastTransitionTime string; one it cannot parse is
// kept as written rather than replaced by a guess.
func rawLTT(m map[string]any) bool {
	s, _ := m["lastTransitionTime"].(string)
	return s != ""
}

// remove removes every entry of type t: a list with duplicates would otherwise keep
// answering with the one left behind.
func (e *unstructuredEditor) remove(t string) bool {
	status, list, err := conditionList(e.u)
	if err != nil {
		return false
	}
	if i, _ := entry(list, t); i < 0 {
		return false
	}
	out := make([]any, 0, len(list)-1)
	for _, el := range list {
		if m, ok := el.(map[string]any); ok {
			if ty, _ := m["type"].(string); ty == t {
				continue
			}
		}
		out = append(out, el)
	}
	status["conditions"] = out
	return true
}

func (e *unstructuredEditor) done() {}
