package accumulator

import (
	"context"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// lastView is what the consumer last saw of one query: the per-accumulator record of the
// previous successful Update. It holds the handed-out objects themselves (shared with the
// caller's snapshot, not copies), which is what lets Update carry unchanged objects over.
type lastView struct {
	// entries holds every object in the view, with the item it was made from.
	entries map[objKey]viewEntry
	// fieldType and elemType are the field type the outs were made for. An Update into a
	// field of another element type converts everything again.
	fieldType reflect.Type
	elemType  reflect.Type
	// overlay holds the write records that were in effect.
	overlay map[objKey]*overlayRecord
	// rejected holds the versions the predicate refused.
	rejected map[objKey]*item

	// For a slice field: order holds the keys of entries, sorted, and vals the outs in that
	// order, in a private slice of fieldType that is never handed out (a caller may write to
	// the slices it holds).
	order []objKey
	vals  reflect.Value
	// handed is the slice or map handed out last.
	handed reflect.Value
}

type viewEntry struct {
	src *item
	out reflect.Value
}

// change is a difference between the last view and the new one for one key.
type change struct {
	key        objKey
	prev, next *item // nil: not in the view
	// src is next's object to convert, and owned says whether it is the store's own, which
	// the hand-out may take (see item).
	src   any
	owned bool
	out   reflect.Value // the converted next
	took  bool          // out is src itself: commit clears next.obj
	// keepPrev: prev leaves the view but the store still holds it, and its object was taken;
	// commit gives it a copy back (see keepLeaving).
	keepPrev bool
	// moved: prev leaves the view because its shard moved away, not because it was deleted.
	moved bool
	// prevOut is prev's element in the last view, kept by commit when prev leaves it, for
	// its Delta's Object.
	prevOut reflect.Value
}

// pending is one query's part of an Update between its two phases.
type pending struct {
	q  *query
	fp *fieldPlan
	// dirty is what was taken from the store, to give back if the Update fails; moved, the
	// keys of it that left the view because their shard moved (Store.MoveOut).
	dirty map[objKey]struct{}
	moved map[objKey]struct{}
	// changes are sorted by key.
	changes []change
	// swaps are keys whose item changed to another item of the same version: the view keeps
	// its out, only the source changes.
	swaps []change
	// overlay is the new overlay state; nil if there is none, before and now.
	overlay map[objKey]*overlayRecord
	// rejected holds verdict updates: a nil item clears one.
	rejected map[objKey]*item
	// reconverted holds new outs for unchanged entries when the element type changed.
	reconverted map[objKey]reflect.Value
}

// mergeThreshold is the number of changes above which a slice field's order is rebuilt in one
// merge pass rather than by one binary-search insert or delete per change.
const mergeThreshold = 16

// prepare is phase 1 of an Update for q. On error it returns what it took from the store (for
// rollback) with the error. Its steps: take the changed keys and items from the store
// (takeChanges), judge the client's own writes into overlay records (judgeWrites), decide
// each key's next version and record the changes (judgeKeys), give each change its source
// (sourceChanges), convert them to the snapshot's element type (convertChanges), and convert
// unchanged entries again if that type changed (reconvertUnchanged).
func (a *Accumulator) prepare(ctx context.Context, q *query, fp *fieldPlan, predicate func(*unstructured.Unstructured) bool) (*pending, error) {
	var writes []Write
	if a.overlay != nil {
		writes = a.overlay.Writes(q.spec.GVK)
	}
	taken := q.takeChanges(writes)
	pd := &pending{q: q, fp: fp, dirty: taken.dirty, moved: taken.moved}
	check := &ctxCheck{ctx: ctx}
	a.judgeWrites(q, pd, writes, taken)
	if err := a.judgeKeys(q, pd, taken, predicate, check); err != nil {
		return pd, err
	}
	if err := q.sourceChanges(pd); err != nil {
		return pd, err
	}
	if err := convertChanges(ctx, fp, q.spec.GVK, pd.changes); err != nil {
		return pd, fmt.Errorf("accumulator: query %q: %w", q.spec.Name, err)
	}
	if err := q.reconvertUnchanged(pd, check); err != nil {
		return pd, err
	}
	if err := ctx.Err(); err != nil {
		return pd, err
	}
	return pd, nil
}

// ctxCheck reports ctx's error every 64th call: often enough for a long loop to stop soon
// after ctx ends, rarely enough to cost nothing.
type ctxCheck struct {
	ctx context.Context
	n   int
}

func (c *ctxCheck) err() error {
	c.n++
	if c.n%64 == 0 {
		return c.ctx.Err()
	}
	return nil
}

// taken is what prepare takes from a query's store in one critical section: the changed
// keys, those of them the store moved to another shard, and every stored item the decision
// needs (changed keys, the view's overlay records, the client's recent writes).
type taken struct {
	dirty, moved map[objKey]struct{}
	stored       map[objKey]*item
	watermark    string
}

// takeChanges takes the changed keys and every stored item the decision needs, in one short
// critical section: after it, reflectors carry on while prepare converts.
func (q *query) takeChanges(writes []Write) taken {
	lv := &q.view
	s := q.store
	s.mu.Lock()
	defer s.mu.Unlock()
	var t taken
	if len(s.dirty) > 0 {
		t.dirty, s.dirty = s.dirty, make(map[objKey]struct{})
	}
	t.watermark = s.watermarkLocked()
	t.stored = make(map[objKey]*item, len(t.dirty)+len(writes)+len(lv.overlay))
	for k := range t.dirty {
		t.stored[k] = s.objects[k]
		if _, ok := s.moved[k]; ok {
			if t.moved == nil {
				t.moved = map[objKey]struct{}{}
			}
			t.moved[k] = struct{}{}
			delete(s.moved, k)
		}
	}
	for k := range lv.overlay {
		t.stored[k] = s.objects[k]
	}
	for i := range writes {
		k := objKey{namespace: writes[i].Namespace, name: writes[i].Name}
		t.stored[k] = s.objects[k]
	}
	return t
}

// judgeWrites turns the client's recent writes of q's kind into pd's overlay records: each
// write the store has not caught up with yet, kept from the last Update where it is the same
// record and its shard placement has not changed.
func (a *Accumulator) judgeWrites(q *query, pd *pending, writes []Write, t taken) {
	lv := &q.view
	if len(writes) == 0 && len(lv.overlay) == 0 {
		return
	}
	pd.overlay = make(map[objKey]*overlayRecord, len(writes))
	for i := range writes {
		w := &writes[i]
		if q.spec.Namespace != "" && w.Namespace != q.spec.Namespace {
			continue // could never be in this view
		}
		if !w.Deleted && w.Object == nil {
			continue // not a record this package understands
		}
		k := objKey{namespace: w.Namespace, name: w.Name}
		if superseded(w, t.stored[k], t.watermark) {
			continue
		}
		rec := lv.overlay[k]
		if rec != nil && q.spec.ShardOf != nil && !w.Deleted && rec.sameRecord(w) && rec.inShards != q.inShards(w.Object) {
			rec = nil // the view's shards changed since: judge the record again
		}
		if rec == nil || !rec.sameRecord(w) {
			rec = &overlayRecord{object: w.Object, deleted: w.Deleted, rv: w.ResourceVersion}
			if !w.Deleted {
				rec.inShards = q.inShards(w.Object)
				if q.matches(w.Object) {
					rec.it = a.newItem(q.spec.GVK, w.Object.DeepCopy())
				}
			}
		}
		pd.overlay[k] = rec
	}
}

// judgeKeys decides, for each key taken, what the view holds next: the overlay's record or
// the store's item, unless the predicate refuses that version; and records a change (a new
// version), a swap (the same version, a new item) or nothing in pd.
func (a *Accumulator) judgeKeys(q *query, pd *pending, t taken, predicate func(*unstructured.Unstructured) bool, check *ctxCheck) error {
	lv := &q.view
	for k, eff := range t.stored {
		if err := check.err(); err != nil {
			return err
		}
		inStore := eff
		if rec, ok := pd.overlay[k]; ok {
			eff = rec.it
		}
		prev := lv.entries[k].src

		if eff != nil {
			rej := lv.rejected[k]
			switch {
			case rej != nil && (rej == eff || sameItemVersion(rej, eff)):
				// Still the refused version.
				if rej != eff {
					pd.setRejected(k, eff)
				}
				eff = nil
			case prev == nil || (prev != eff && !sameItemVersion(prev, eff)):
				// A new version: judge it.
				ok := true
				if predicate != nil {
					var err error
					if ok, err = q.admit(k, eff, predicate); err != nil {
						return err
					}
				}
				switch {
				case !ok:
					pd.setRejected(k, eff)
					eff = nil
				case rej != nil:
					pd.setRejected(k, nil)
				}
			}
		} else if lv.rejected[k] != nil {
			pd.setRejected(k, nil)
		}

		switch {
		case eff == prev:
		case prev != nil && eff != nil && sameItemVersion(prev, eff):
			pd.swaps = append(pd.swaps, change{key: k, prev: prev, next: eff})
		default:
			// Moved, not deleted: the store moved the shard away, or the client's own
			// write placed the object in a shard this view does not hold.
			_, wasMoved := t.moved[k]
			rec := pd.overlay[k]
			pd.changes = append(pd.changes, change{key: k, prev: prev, next: eff,
				keepPrev: prev != nil && prev == inStore && prev.obj == nil,
				moved: eff == nil && ((wasMoved && inStore == nil) ||
					(rec != nil && !rec.deleted && !rec.inShards))})
		}
	}
	return nil
}

// admit asks predicate whether the view takes version eff of key k.
func (q *query) admit(k objKey, eff *item, predicate func(*unstructured.Unstructured) bool) (bool, error) {
	src, _, err := q.source(k, eff)
	if err != nil {
		return false, err
	}
	u, err := asUnstructured(src, q.spec.GVK)
	if err != nil {
		return false, fmt.Errorf("accumulator: query %q: predicate: %s: %w", q.spec.Name, describeObject(q.spec.GVK.Kind, src), err)
	}
	return callPredicate(predicate, u)
}

// sourceChanges sorts pd's changes by key and gives each new version its source object.
func (q *query) sourceChanges(pd *pending) error {
	slices.SortFunc(pd.changes, func(x, y change) int { return compareKeys(x.key, y.key) })
	for i := range pd.changes {
		c := &pd.changes[i]
		if c.next == nil {
			continue
		}
		var err error
		if c.src, c.owned, err = q.source(c.key, c.next); err != nil {
			return err
		}
	}
	return nil
}

// reconvertUnchanged converts every entry the Update does not change again when the caller's
// snapshot field now wants another element type than the view last filled.
func (q *query) reconvertUnchanged(pd *pending, check *ctxCheck) error {
	lv, fp := &q.view, pd.fp
	if lv.elemType == nil || lv.elemType == fp.elemType || len(lv.entries) == 0 {
		return nil
	}
	pd.reconverted = make(map[objKey]reflect.Value, len(lv.entries))
	src := make(map[objKey]*item, len(pd.swaps))
	for _, c := range pd.swaps {
		src[c.key] = c.next
	}
	changed := make(map[objKey]bool, len(pd.changes))
	for _, c := range pd.changes {
		changed[c.key] = true
	}
	for k, e := range lv.entries {
		if changed[k] {
			continue
		}
		it := e.src
		if s := src[k]; s != nil {
			it = s
		}
		if err := check.err(); err != nil {
			return err
		}
		// The view's object is the one copy of this version (the store gave its own up
		// when it was handed out): convert a copy of it.
		out, _, err := fp.convert(outObject(e.out), false, it, q.spec.GVK)
		if err != nil {
			return fmt.Errorf("accumulator: query %q: %w", q.spec.Name, err)
		}
		pd.reconverted[k] = out
	}
	return nil
}

// parallelConvertMin is the number of changed objects from which an Update converts them on
// several goroutines. Below it, goroutines cost more than they save.
const parallelConvertMin = 512

// convertChanges converts the new version of every changed object into a snapshot element. Big
// change sets — a bootstrap, a relist — are split over GOMAXPROCS goroutines: conversion is
// most of such an Update, the consumer is waiting for it, and the reflectors are idle by then
// (a bootstrap's lists are complete). The first error in key order wins, so the error an Update
// reports does not depend on scheduling.
func convertChanges(ctx context.Context, fp *fieldPlan, gvk schema.GroupVersionKind, changes []change) error {
	convertRange := func(part []change) error {
		for i := range part {
			c := &part[i]
			if c.next == nil {
				continue
			}
			if i%64 == 63 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			out, took, err := fp.convert(c.src, c.owned, c.next, gvk)
			if err != nil {
				return err
			}
			c.out, c.took = out, took
		}
		return nil
	}
	workers := min(runtime.GOMAXPROCS(0), len(changes)/(parallelConvertMin/2))
	if len(changes) < parallelConvertMin || workers < 2 {
		return convertRange(changes)
	}
	errs := make([]error, workers)
	var wg sync.WaitGroup
	size := (len(changes) + workers - 1) / workers
	for w := range workers {
		part := changes[min(w*size, len(changes)):min((w+1)*size, len(changes))]
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[w] = convertRange(part)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// source returns the object of version it of key k, to convert or to judge: the item's own
// object while the store holds it (owned), and once a hand-out took it, the view's copy of that
// version. commit keeps it so that every version the view may need again has one of the two.
func (q *query) source(k objKey, it *item) (obj any, owned bool, err error) {
	if it.obj != nil {
		return it.obj, true, nil
	}
	if e, ok := q.view.entries[k]; ok && (e.src == it || sameItemVersion(e.src, it)) {
		return outObject(e.out), false, nil
	}
	return nil, false, fmt.Errorf("accumulator: query %q: %s %s: version %s is held neither by the store nor by the view (a bug)", q.spec.Name, q.spec.GVK.Kind, k, it.rv)
}

func (pd *pending) setRejected(k objKey, it *item) {
	if pd.rejected == nil {
		pd.rejected = make(map[objKey]*item)
	}
	pd.rejected[k] = it
}

// callPredicate calls predicate, turning a panic into an error.
func callPredicate(predicate func(*unstructured.Unstructured) bool, u *unstructured.Unstructured) (ok bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("accumulator: predicate panicked on %s %s: %v", u.GetKind(), keyOf(u), r)
		}
	}()
	return predicate(u), nil
}

// rollback gives the store back the changed keys phase 1 took, for the next Update.
func (pd *pending) rollback() {
	s := pd.q.store
	s.mu.Lock()
	for k := range pd.dirty {
		s.dirty[k] = struct{}{}
	}
	for k := range pd.moved {
		if _, back := s.objects[k]; !back {
			if s.moved == nil {
				s.moved = map[objKey]struct{}{}
			}
			s.moved[k] = struct{}{}
		}
	}
	s.mu.Unlock()
}

// commit is phase 2 of an Update for one query: it applies the changes to the last view and
// fills the field of target (a struct value). It reports whether it wrote to target.
func (pd *pending) commit(target reflect.Value) bool {
	lv, fp := &pd.q.view, pd.fp
	if lv.entries == nil {
		lv.entries = make(map[objKey]viewEntry)
	}
	lv.overlay = pd.overlay
	for k, it := range pd.rejected {
		if it == nil {
			delete(lv.rejected, k)
			continue
		}
		if lv.rejected == nil {
			lv.rejected = make(map[objKey]*item)
		}
		lv.rejected[k] = it
	}
	for _, c := range pd.swaps {
		e := lv.entries[c.key]
		e.src = c.next
		lv.entries[c.key] = e
		// The view's object stands for this version: the store need not keep another copy.
		c.next.obj = nil
	}
	for i := range pd.changes {
		c := &pd.changes[i]
		if c.keepPrev {
			keepLeaving(c.prev, lv.entries[c.key].out, pd.q.spec.GVK)
		}
		if c.next == nil {
			c.prevOut = lv.entries[c.key].out
			delete(lv.entries, c.key)
		} else {
			lv.entries[c.key] = viewEntry{src: c.next, out: c.out}
			// The view's object now stands for this version: the store keeps no second copy.
			// For a kind the scheme registers, the view holds the registered struct or
			// unstructured, and either converts into the other without loss; a custom
			// resource's own struct may drop fields, so the store keeps its object then,
			// unless the view took it.
			if c.took || pd.q.schemeType != nil {
				c.next.obj = nil
			}
		}
	}
	for k, out := range pd.reconverted {
		e := lv.entries[k]
		e.out = out
		lv.entries[k] = e
	}

	retyped := lv.fieldType != fp.fieldType
	outsRetyped := lv.elemType != fp.elemType
	lv.fieldType, lv.elemType = fp.fieldType, fp.elemType
	field := target.FieldByIndex(fp.index)
	if fp.isMap {
		lv.order, lv.vals = nil, reflect.Value{}
		return pd.fillMap(field, retyped)
	}
	return pd.fillSlice(field, retyped || outsRetyped)
}

// keepLeaving gives item it, whose object a hand-out took, a copy of that object back from out,
// the view's element for it, as it leaves the view while the store still holds it (an overlay
// record hides or replaces it, say): should it come back, it must be converted from something.
// An item the store no longer holds is never needed again, and gets no copy.
func keepLeaving(it *item, out reflect.Value, gvk schema.GroupVersionKind) {
	if !out.IsValid() {
		return
	}
	obj := outObject(out)
	if co, ok := obj.(*compactObject); ok {
		it.obj = co // immutable: shared
		return
	}
	if c, err := convertObject(obj, reflect.TypeOf(obj).Elem(), gvk); err == nil {
		it.obj = c.Interface()
	}
}

// fillSlice brings the private sorted slice up to date and hands out a copy of it if anything
// changed, or if field does not hold the last one.
func (pd *pending) fillSlice(field reflect.Value, retyped bool) bool {
	lv, fp := &pd.q.view, pd.fp
	switch {
	case retyped || !lv.vals.IsValid():
		lv.order = make([]objKey, 0, len(lv.entries))
		for _, c := range pd.changes { // sorted already: the first fill's changes are usually all
			if c.next != nil {
				lv.order = append(lv.order, c.key)
			}
		}
		if len(lv.order) != len(lv.entries) {
			lv.order = lv.order[:0]
			for k := range lv.entries {
				lv.order = append(lv.order, k)
			}
			slices.SortFunc(lv.order, compareKeys)
		}
		lv.vals = reflect.MakeSlice(fp.fieldType, len(lv.order), len(lv.order))
		for i, k := range lv.order {
			lv.vals.Index(i).Set(lv.entries[k].out)
		}
	case len(pd.changes) > mergeThreshold:
		pd.mergeChanges()
	default:
		for _, c := range pd.changes {
			i, found := slices.BinarySearchFunc(lv.order, c.key, compareKeys)
			switch {
			case c.next == nil:
				if found {
					lv.order = slices.Delete(lv.order, i, i+1)
					n := lv.vals.Len()
					reflect.Copy(lv.vals.Slice(i, n-1), lv.vals.Slice(i+1, n))
					lv.vals.Index(n - 1).SetZero()
					lv.vals = lv.vals.Slice(0, n-1)
				}
			case found:
				lv.vals.Index(i).Set(c.out)
			default:
				lv.order = slices.Insert(lv.order, i, c.key)
				n := lv.vals.Len()
				lv.vals = reflect.Append(lv.vals, c.out)
				reflect.Copy(lv.vals.Slice(i+1, n+1), lv.vals.Slice(i, n))
				lv.vals.Index(i).Set(c.out)
			}
		}
	}

	if !retyped && len(pd.changes) == 0 && pd.reconverted == nil && lv.handed.IsValid() && holdsSlice(field, lv.handed) {
		return false
	}
	switch {
	case pd.q.reuseSlices:
		// The private slice is the one handed out: later changes are written into it.
		lv.handed = lv.vals
	case len(pd.changes) > 0 || retyped || !lv.handed.IsValid() || pd.reconverted != nil:
		n := lv.vals.Len()
		handed := reflect.MakeSlice(fp.fieldType, n, n)
		reflect.Copy(handed, lv.vals)
		lv.handed = handed
	}
	// Otherwise the last handed-out slice is still the view, and the Accumulator never
	// writes to it: share it.
	field.Set(lv.handed)
	return true
}

// mergeChanges rebuilds order and vals from the old ones and the sorted changes in one pass,
// copying runs of unchanged elements at once.
func (pd *pending) mergeChanges() {
	lv, fp := &pd.q.view, pd.fp
	oldOrder, oldVals := lv.order, lv.vals
	n := len(lv.entries)
	order := make([]objKey, 0, n)
	vals := reflect.MakeSlice(fp.fieldType, n, n)
	i := 0 // next unconsumed element of the old order
	for _, c := range pd.changes {
		j, found := slices.BinarySearchFunc(oldOrder[i:], c.key, compareKeys)
		j += i
		reflect.Copy(vals.Slice(len(order), len(order)+j-i), oldVals.Slice(i, j))
		order = append(order, oldOrder[i:j]...)
		i = j
		if found {
			i++
		}
		if c.next != nil {
			vals.Index(len(order)).Set(c.out)
			order = append(order, c.key)
		}
	}
	reflect.Copy(vals.Slice(len(order), len(order)+len(oldOrder)-i), oldVals.Slice(i, len(oldOrder)))
	order = append(order, oldOrder[i:]...)
	lv.order, lv.vals = order, vals.Slice(0, len(order))
}

// holdsSlice reports whether field holds the slice handed out last. Empty slices are all
// the same view.
func holdsSlice(field, handed reflect.Value) bool {
	if field.Len() != handed.Len() {
		return false
	}
	return field.Len() == 0 || field.Pointer() == handed.Pointer()
}

// fillMap updates field in place if it holds the map handed out last, and fills a new map
// otherwise.
func (pd *pending) fillMap(field reflect.Value, retyped bool) bool {
	lv, fp := &pd.q.view, pd.fp
	keyType := fp.fieldType.Key()
	mapKey := func(k objKey) reflect.Value { return reflect.ValueOf(k.String()).Convert(keyType) }
	inPlace := !retyped && pd.reconverted == nil && lv.handed.IsValid() && lv.handed.Kind() == reflect.Map &&
		!field.IsNil() && field.Pointer() == lv.handed.Pointer()
	if inPlace {
		for _, c := range pd.changes {
			if c.next == nil {
				field.SetMapIndex(mapKey(c.key), reflect.Value{})
			} else {
				field.SetMapIndex(mapKey(c.key), c.out)
			}
		}
		return len(pd.changes) > 0
	}
	m := reflect.MakeMapWithSize(fp.fieldType, len(lv.entries))
	for k, e := range lv.entries {
		m.SetMapIndex(mapKey(k), e.out)
	}
	lv.handed = m
	field.Set(m)
	return true
}

// appendDeltas appends one Delta per change, in key order.
func (pd *pending) appendDeltas(ds []*Delta) []*Delta {
	q := pd.q
	for _, c := range pd.changes {
		d := &Delta{
			Query:      q.spec.Name,
			APIVersion: q.apiVersion,
			Kind:       q.spec.GVK.Kind,
			Namespace:  c.key.namespace,
			Name:       c.key.name,
		}
		if c.next != nil {
			d.Object = metaOf(c.out)
		} else {
			d.Object = metaOf(c.prevOut)
		}
		switch {
		case c.prev == nil:
			d.DeltaType, d.ResourceVersion = ObjectAdd, c.next.rv
		case c.next == nil && c.moved:
			d.DeltaType, d.ResourceVersion = ObjectMoved, c.prev.rv
		case c.next == nil:
			d.DeltaType, d.ResourceVersion = ObjectDelete, c.prev.rv
		default:
			d.DeltaType, d.ResourceVersion = ObjectUpdate, c.next.rv
		}
		ds = append(ds, d)
	}
	return ds
}

// metaOf returns the metadata of a view element (a *T or an Entry[*T]): the object itself, or
// the Entry's Object; nil for an invalid Value or a nil object.
func metaOf(v reflect.Value) metav1.Object {
	if !v.IsValid() {
		return nil
	}
	if isEntryType(v.Type()) {
		v = v.Field(0)
	}
	if v.Kind() == reflect.Struct && v.Type().Implements(compactValueType) {
		co := v.Interface().(compactValue).held()
		if co == nil {
			return nil
		}
		m, _ := co.meta() // on error, what could be read
		return m
	}
	if v.Kind() == reflect.Interface {
		v = v.Elem()
	}
	if !v.IsValid() || v.Kind() != reflect.Pointer || v.IsNil() || !v.CanInterface() {
		return nil
	}
	m, _ := v.Interface().(metav1.Object)
	return m
}
