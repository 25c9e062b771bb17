package kates

import (
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/resourceversion"

	"github.com/kates-dev/kates/accumulator"
)

// recordTTL bounds how long a write record lives when some accumulator never catches up with it
// (its watch is broken, say). After that the snapshot shows what the watch shows.
const recordTTL = 2 * time.Minute

// writeLog holds the client's recent writes, per kind, for the accumulators built from the
// client: the coherence overlay. It records writes only for kinds some accumulator watches, and
// drops a record once every such accumulator's store has seen a resource version at least as
// new, or after recordTTL. Its lock is never held across a network call.
type writeLog struct {
	mu       sync.Mutex
	records  map[schema.GroupVersionKind]map[recordKey]*record
	watchers map[schema.GroupVersionKind][]watcher
	now      func() time.Time
}

type recordKey struct{ namespace, name string }

type record struct {
	write accumulator.Write
	at    time.Time
}

// watcher is one query of one accumulator: its store's resource version tells how far it got.
type watcher struct {
	acc   *accumulator.Accumulator
	query string
}

func newWriteLog() *writeLog {
	return &writeLog{
		records:  map[schema.GroupVersionKind]map[recordKey]*record{},
		watchers: map[schema.GroupVersionKind][]watcher{},
		now:      time.Now,
	}
}

// register makes the log keep records of gvk for acc's query until unregister.
func (l *writeLog) register(gvk schema.GroupVersionKind, acc *accumulator.Accumulator, query string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.watchers[gvk] = append(l.watchers[gvk], watcher{acc, query})
}

// unregister forgets acc; kinds nobody watches any more lose their records.
func (l *writeLog) unregister(acc *accumulator.Accumulator) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for gvk, ws := range l.watchers {
		kept := ws[:0]
		for _, w := range ws {
			if w.acc != acc {
				kept = append(kept, w)
			}
		}
		if len(kept) == 0 {
			delete(l.watchers, gvk)
			delete(l.records, gvk)
		} else {
			l.watchers[gvk] = kept
		}
	}
}

// recordWrite records the server's answer to a create, update, patch, apply or status update.
// The caller owns obj, and may change it: the record is a copy.
func (l *writeLog) recordWrite(gvk schema.GroupVersionKind, obj *unstructured.Unstructured) {
	l.recordOwned(gvk, obj.DeepCopy())
}

// recordAnswer records out, the server's answer to a write, which is about to be stored into the
// caller's target: without a copy when there is no target, since then nothing else holds out
// (a controller's apply that discards the answer saves a deep copy per write); with one
// otherwise, as converting into target may share out's maps with the caller.
func (l *writeLog) recordAnswer(gvk schema.GroupVersionKind, out *unstructured.Unstructured, target any) {
	if target != nil {
		l.recordWrite(gvk, out)
		return
	}
	l.recordOwned(gvk, out)
}

// recordOwned records obj, which nothing else holds or will change.
func (l *writeLog) recordOwned(gvk schema.GroupVersionKind, obj *unstructured.Unstructured) {
	l.put(gvk, accumulator.Write{
		Namespace:       obj.GetNamespace(),
		Name:            obj.GetName(),
		Object:          obj,
		ResourceVersion: obj.GetResourceVersion(),
	})
}

// recordDelete records a delete by kind, namespace and name; rv and uid are the deleted object's
// last resource version and UID when the server said, else "".
func (l *writeLog) recordDelete(gvk schema.GroupVersionKind, namespace, name, rv string, uid types.UID) {
	l.put(gvk, accumulator.Write{Namespace: namespace, Name: name, Deleted: true, ResourceVersion: rv, UID: uid})
}

func (l *writeLog) put(gvk schema.GroupVersionKind, w accumulator.Write) {
	watchers := l.putLocked(gvk, w)
	// Wake the consumers, outside the lock: a snapshot taken now shows the write.
	for _, wt := range watchers {
		wt.acc.Notify()
	}
}

func (l *writeLog) putLocked(gvk schema.GroupVersionKind, w accumulator.Write) []watcher {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.watchers[gvk]) == 0 {
		return nil // nobody watches this kind: a record would only accumulate
	}
	recs := l.records[gvk]
	if recs == nil {
		recs = map[recordKey]*record{}
		l.records[gvk] = recs
	}
	key := recordKey{w.Namespace, w.Name}
	// Concurrent writers can return out of order; keep the newer of two records of one object.
	if old, ok := recs[key]; ok && !old.write.Deleted && !w.Deleted && newer(old.write.ResourceVersion, w.ResourceVersion) {
		return nil
	}
	recs[key] = &record{write: w, at: l.now()}
	return append([]watcher(nil), l.watchers[gvk]...)
}

// Writes implements accumulator.Overlay. It also drops the records of gvk that every watcher has
// caught up with, so pruning costs nothing when nobody reads.
func (l *writeLog) Writes(gvk schema.GroupVersionKind) []accumulator.Write {
	l.mu.Lock()
	recs := l.records[gvk]
	if len(recs) == 0 {
		l.mu.Unlock()
		return nil
	}
	watchers := append([]watcher(nil), l.watchers[gvk]...)
	l.mu.Unlock()

	// Read the watermarks outside the lock: they take the accumulators' own locks.
	marks := make([]string, 0, len(watchers))
	for _, w := range watchers {
		marks = append(marks, w.acc.ResourceVersion(w.query))
	}

	l.mu.Lock()
	defer l.mu.Unlock()
	recs = l.records[gvk]
	now := l.now()
	out := make([]accumulator.Write, 0, len(recs))
	for key, r := range recs {
		if now.Sub(r.at) > recordTTL || (!r.write.Deleted && allCaughtUp(marks, r.write.ResourceVersion)) {
			delete(recs, key)
			continue
		}
		out = append(out, r.write)
	}
	return out
}

// pending counts the records held, for tests.
func (l *writeLog) pending() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, recs := range l.records {
		n += len(recs)
	}
	return n
}

// allCaughtUp reports whether every watermark is at rv or beyond. A delete's record carries the
// object's last resource version, not the deletion's, so deletes are left to the accumulator
// (which sees the object gone) and to the TTL.
func allCaughtUp(marks []string, rv string) bool {
	if rv == "" || len(marks) == 0 {
		return false
	}
	for _, m := range marks {
		if m == "" {
			return false
		}
		c, err := resourceversion.CompareResourceVersion(m, rv)
		if err != nil || c < 0 {
			return false
		}
	}
	return true
}

// newer reports whether resource version a is newer than b; unparseable versions are not.
func newer(a, b string) bool {
	c, err := resourceversion.CompareResourceVersion(a, b)
	return err == nil && c > 0
}
