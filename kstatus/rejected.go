package kstatus

import (
	"strconv"
	"strings"
	"time"

	"github.com/kates-dev/kates/internal/managedfields"
)

// A spec the controller rejected without observing it (rule 2's exception, doc.go).
//
// Many operators validate a new spec before they record that they observed it, and on an
// invalid one write the error and return: status.observedGeneration stays at the generation
// before (cass-operator's Valid False "shrinking PVC ... is not supported", Quay's
// RolloutBlocked ConfigInvalid, AMD's DeviceConfig Error ValidationError). Rule 2 reads that
// as a change not yet seen, InProgress, and a wait for it lasts until its timeout, although
// nothing will change until a person edits the spec.
//
// What tells the two apart is time: the API server records in metadata.managedFields when
// each manager last changed the fields it owns, so the latest time among the entries that
// own spec fields (the main resource, not the status subresource) is when the spec last
// changed. A condition whose lastTransitionTime is not before that was written after the
// controller saw the change; judged alone (as rules 3 to 6 judge a status of only those
// conditions), if it is a failure, the controller rejected the spec.
//
// Conservative where time cannot tell: managedFields times are whole seconds and a
// condition that transitioned in the same second counts as after (controllers answer within
// the second), a condition whose own observedGeneration is older does not count, a failure
// is taken only from dated conditions (never from a phase or an error field, which carry no
// time), and without managedFields (Watch strips them unless KeepManagedFields; Wait keeps
// the times it needs) rule 2 stands, except for conditions that say themselves which
// generation they were set from (metav1.Condition.observedGeneration): one set from this
// generation is the controller's answer to this spec, whatever the time.

// specChangedAt returns when the object's spec last changed, from metadata.managedFields:
// the latest time of an entry of the main resource whose fields include spec.
func specChangedAt(meta map[string]any) (time.Time, bool) {
	entries, _ := meta["managedFields"].([]any)
	var latest time.Time
	found := false
	for _, e := range entries {
		entry, ok := managedfields.SpecEntry(e)
		if !ok {
			continue
		}
		s, _ := entry["time"].(string)
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			continue
		}
		if !found || t.After(latest) {
			latest, found = t, true
		}
	}
	return latest, found
}

// rejectedSpec judges the conditions written since the spec last changed, alone; it returns
// a Failed verdict if they say the controller failed on the spec it has not recorded as
// observed. m is the object, gen its generation and obs status.observedGeneration.
func rejectedSpec(m, meta, status map[string]any, conds []any, gen, obs int64, now time.Time, opts *Options) (verdict, bool) {
	changed, dated := specChangedAt(meta)
	var fresh []any
	for _, c := range conds {
		cond, _ := c.(map[string]any)
		if cond == nil {
			continue
		}
		if og, ok := cond["observedGeneration"]; ok && og != nil && og != int64(0) && og != float64(0) {
			n, ok := toInt(og)
			if !ok || n < gen {
				continue
			}
			if n == gen {
				// The condition says itself which generation it was set from
				// (metav1.Condition.observedGeneration): this one.
				fresh = append(fresh, c)
				continue
			}
		}
		if !dated {
			continue
		}
		s, _ := cond["lastTransitionTime"].(string)
		t, err := time.Parse(time.RFC3339, s)
		if err != nil || t.Truncate(time.Second).Before(changed) {
			continue
		}
		fresh = append(fresh, c)
	}
	if len(fresh) == 0 {
		return verdict{}, false
	}
	// The same object with a status of those conditions alone: without observedGeneration
	// rule 2 does not apply again.
	alone := make(map[string]any, len(m))
	for k, v := range m {
		alone[k] = v
	}
	alone["status"] = map[string]any{"conditions": fresh}
	v := evaluateRules(alone, now, false, opts)
	if v.status != FailedStatus {
		return verdict{}, false
	}
	// Said once: a Stalled condition Augment wrote from this verdict already says it, and
	// is read back as one of the fresh conditions.
	if note := " (reported after the spec changed; observedGeneration " + strconv.FormatInt(obs, 10) + ", generation " + strconv.FormatInt(gen, 10) + ")"; !strings.HasSuffix(v.message, note) {
		v.message += note
	}
	v.by = "generation:rejected"
	return v, true
}
