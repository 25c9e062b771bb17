package accumulator

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
)

// overlayRecord is a write record in effect for one key of one query's view, as the last
// Update found it. Its item is built once per record (a transformed private copy with its
// status), so a record that stays in effect across Updates keeps the same item pointer and is
// not a change.
type overlayRecord struct {
	object  *unstructured.Unstructured // Write.Object, the identity of the record
	deleted bool
	rv      string
	// it is the object the record puts in the view; nil when the record hides the key (a
	// delete, or a write whose object no longer matches the query).
	it *item
	// inShards: the written object is in the view's shards (always, for an unsharded query).
	inShards bool
}

func (r *overlayRecord) sameRecord(w *Write) bool {
	return r.object == w.Object && r.deleted == w.Deleted && r.rv == w.ResourceVersion
}

// superseded reports whether the store has caught up with write w: stored is the store's item
// for w's object (nil if none), watermark the store's resource version.
//
// A write other than a delete is superseded once the store holds its object at w's resource
// version or newer, or once the store has seen every event up to w's resource version (then
// whatever the store holds, or not, is at least as new: for example an object whose labels
// stopped matching was deleted from the store). A delete is superseded once the store no
// longer holds the object, holds another object of that name (another UID) or a newer version
// of it (one that is still terminating, say). The store's watermark says nothing about a
// delete, whose recorded resource version is the object's last, not the deletion's.
func superseded(w *Write, stored *item, watermark string) bool {
	if w.Deleted {
		switch {
		case stored == nil:
			return true
		case w.UID != "" && stored.uid != "" && stored.uid != w.UID:
			return true
		case w.ResourceVersion != "" && rvNewer(stored.rv, w.ResourceVersion):
			return true
		}
		return false
	}
	if w.ResourceVersion == "" {
		return false
	}
	if watermark != "" && rvAtLeast(watermark, w.ResourceVersion) {
		return true
	}
	return stored != nil && rvAtLeast(stored.rv, w.ResourceVersion)
}

// matches reports whether u belongs to query q's view: its namespace, labels and fields.
func (q *query) matches(u *unstructured.Unstructured) bool {
	if q.spec.Namespace != "" && u.GetNamespace() != q.spec.Namespace {
		return false
	}
	if !q.inShards(u) {
		return false // the client wrote an object of a shard this view does not hold
	}
	if sel := q.spec.LabelSelector; sel != nil && !sel.Empty() && !sel.Matches(labels.Set(u.GetLabels())) {
		return false
	}
	if sel := q.spec.FieldSelector; sel != nil && !sel.Empty() && !sel.Matches(fieldSet(u, sel)) {
		return false
	}
	return true
}

// inShards reports whether u is in a shard q's view holds; true for an unsharded query.
func (q *query) inShards(u *unstructured.Unstructured) bool {
	return q.spec.ShardOf == nil || q.store.Owns(q.spec.ShardOf(u))
}

// fieldSet builds the fields.Set that sel needs from u: each of sel's field paths
// ("metadata.name", "status.phase", ...) read from u. A missing field reads as the API server
// reads it from its typed object: "" for a string, and for the few non-string fields it
// supports in selectors, their zero value (see unsetFields).
func fieldSet(u *unstructured.Unstructured, sel fields.Selector) fields.Set {
	reqs := sel.Requirements()
	set := make(fields.Set, len(reqs))
	for _, r := range reqs {
		set[r.Field] = fieldValue(u, r.Field)
	}
	return set
}

// unsetFields holds the values the API server gives unset non-string fields that its field
// selectors support (Node spec.unschedulable, Pod spec.hostNetwork, ReplicaSet
// status.replicas, Job status.successful, Event count).
var unsetFields = map[string]string{
	"spec.unschedulable": "false",
	"spec.hostNetwork":   "false",
	"status.replicas":    "0",
	"status.successful":  "0",
	"count":              "0",
}

func fieldValue(u *unstructured.Unstructured, path string) string {
	switch path {
	case "metadata.name":
		return u.GetName()
	case "metadata.namespace":
		return u.GetNamespace()
	}
	v, found, err := unstructured.NestedFieldNoCopy(u.Object, strings.Split(path, ".")...)
	if err != nil || !found || v == nil {
		return unsetFields[path]
	}
	switch v := v.(type) {
	case string:
		return v
	case bool, int64, float64, int:
		return fmt.Sprint(v)
	}
	return ""
}
