package kates

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kates-dev/kates/accumulator"
)

// movingFeed is the feed of a query placed by owner label. Its reflector's requests leave out
// the objects stamped with shards held elsewhere, so an object whose OwnerShardLabel changes
// to such a shard leaves the server's selection, and the server reports that as a deletion
// (a watch event carrying the object as it was before the change). movingFeed tells the two
// apart by asking the server: an object that still exists, still in the query's own label
// selector, has moved to another replica's shard and leaves the view as moved (it is stored
// with its live labels and owners, which place it outside the shards held); anything else is
// deleted, as before.
//
// The cost is one metadata GET per deletion the query's watch reports, made on the
// reflector's goroutine before the deletion is stored (TestOwnerLabelMoved measures it).
type movingFeed struct {
	*accumulator.Feed
	ctx context.Context
	c   *Client
	rq  *resolvedQuery
	// narrowed reports whether the reflector's selection leaves any shard out now: when it
	// does not, no object can leave it but by a deletion or the query's own selector.
	narrowed func() bool
}

// moveCheckTimeout bounds the GET of an object reported deleted.
const moveCheckTimeout = 5 * time.Second

// Delete stores a deletion, or, for an object that still exists and has moved to another
// shard, its move.
func (f *movingFeed) Delete(obj any) error {
	if moved := f.moved(obj); moved != nil {
		return f.Feed.Update(moved)
	}
	return f.Feed.Delete(obj)
}

// moved returns obj with the live object's labels and owners if it still exists with obj's UID
// and in the query's own label selector; nil otherwise. It keeps the event's resourceVersion
// (the change that took the object out of the selection): the feed's version must not pass
// events its watch has not delivered yet.
func (f *movingFeed) moved(obj any) runtime.Object {
	o, ok := obj.(runtime.Object)
	if !ok || !f.narrowed() {
		return nil // a tombstone of a relist, or nothing to leave
	}
	m, err := meta.Accessor(o)
	if err != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(f.ctx, moveCheckTimeout)
	defer cancel()
	ri := f.c.metadata.Resource(f.rq.mapping.Resource)
	var live *metav1.PartialObjectMetadata
	if ns := m.GetNamespace(); ns != "" {
		live, err = ri.Namespace(ns).Get(ctx, m.GetName(), metav1.GetOptions{})
	} else {
		live, err = ri.Get(ctx, m.GetName(), metav1.GetOptions{})
	}
	if err != nil || live.UID != m.GetUID() || live.DeletionTimestamp != nil ||
		f.rq.labels != nil && !f.rq.labels.Matches(labels.Set(live.Labels)) {
		return nil
	}
	moved := o.DeepCopyObject()
	mm, _ := meta.Accessor(moved)
	mm.SetLabels(live.Labels)
	mm.SetOwnerReferences(live.OwnerReferences)
	return moved
}
