// Package ujson decodes the JSON an API server sends for kinds without Go types (custom
// resources) into unstructured objects in one pass per frame.
//
// client-go's dynamic client decodes each watch frame three times: into a metav1.WatchEvent
// whose object stays raw, then the raw object once only to read its apiVersion and kind
// (SimpleMetaFactory.Interpret), then again into a map. A watch's kind is known from the query,
// so ujson decodes the whole frame once, with sigs.k8s.io/json (the decoder apimachinery's
// unstructured decoding uses, with the same int64-preserving options), straight into the map an
// Unstructured wraps. The result is what the dynamic client gives, built in a third of the time.
package ujson

import (
	"errors"
	"fmt"
	"io"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	jsonserializer "k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/util/net"
	"k8s.io/apimachinery/pkg/watch"
	kjson "sigs.k8s.io/json"
)

// event is a watch frame: {"type": "ADDED", "object": {...}}.
type event struct {
	Type   watch.EventType `json:"type"`
	Object map[string]any  `json:"object"`
}

// DecodeEvent decodes one watch frame. The object of an ERROR event is a *metav1.Status, as
// client-go's watch decoder makes it, so that apierrors.FromObject recognises it; every other
// object is an *unstructured.Unstructured.
func DecodeEvent(frame []byte) (watch.Event, error) {
	var ev event
	if err := kjson.UnmarshalCaseSensitivePreserveInts(frame, &ev); err != nil {
		return watch.Event{}, fmt.Errorf("decode watch event: %w", err)
	}
	if ev.Object == nil {
		return watch.Event{}, fmt.Errorf("decode watch event: %s event without an object", ev.Type)
	}
	switch ev.Type {
	case watch.Added, watch.Modified, watch.Deleted, watch.Bookmark:
		return watch.Event{Type: ev.Type, Object: &unstructured.Unstructured{Object: ev.Object}}, nil
	case watch.Error:
		st := &metav1.Status{}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(ev.Object, st); err != nil {
			return watch.Event{}, fmt.Errorf("decode watch error event: %w", err)
		}
		return watch.Event{Type: watch.Error, Object: st}, nil
	}
	return watch.Event{}, fmt.Errorf("decode watch event: unknown type %q", ev.Type)
}

// list is a list response.
type list struct {
	APIVersion string           `json:"apiVersion"`
	Kind       string           `json:"kind"`
	Metadata   map[string]any   `json:"metadata"`
	Items      []map[string]any `json:"items"`
}

// DecodeList decodes a list response into an UnstructuredList in one pass. Items that lack
// apiVersion and kind (API servers leave them out of list items) get the list's, less "List",
// as the dynamic client does.
func DecodeList(data []byte) (*unstructured.UnstructuredList, error) {
	var l list
	if err := kjson.UnmarshalCaseSensitivePreserveInts(data, &l); err != nil {
		return nil, fmt.Errorf("decode list: %w", err)
	}
	out := &unstructured.UnstructuredList{Object: map[string]any{"apiVersion": l.APIVersion, "kind": l.Kind}}
	if l.Metadata != nil {
		out.Object["metadata"] = l.Metadata
	}
	itemKind := l.Kind
	if len(itemKind) > 4 && itemKind[len(itemKind)-4:] == "List" {
		itemKind = itemKind[:len(itemKind)-4]
	}
	out.Items = make([]unstructured.Unstructured, len(l.Items))
	for i, m := range l.Items {
		if m == nil {
			m = map[string]any{}
		}
		if _, ok := m["apiVersion"]; !ok {
			m["apiVersion"] = l.APIVersion
		}
		if _, ok := m["kind"]; !ok {
			m["kind"] = itemKind
		}
		out.Items[i].Object = m
	}
	return out, nil
}

// maxFrame bounds one watch frame, as client-go bounds it.
const maxFrame = 16 * 1024 * 1024

// Watcher is a watch.Interface over a JSON watch response body.
type Watcher struct {
	body   io.ReadCloser
	frames io.ReadCloser
	result chan watch.Event
	done   chan struct{}
	once   sync.Once
}

// NewWatcher decodes the watch stream body with DecodeEvent until it ends, fails, or Stop is
// called; then it closes body and ResultChan. A stream that ends or breaks ends the watch
// silently (the reflector watches again from the last version it saw); a frame that cannot be
// decoded ends it with an ERROR event, as client-go's StreamWatcher does.
func NewWatcher(body io.ReadCloser) *Watcher {
	w := &Watcher{
		body:   body,
		frames: jsonserializer.Framer.NewFrameReader(body),
		result: make(chan watch.Event),
		done:   make(chan struct{}),
	}
	go w.receive()
	return w
}

// ResultChan returns the events; it is closed when the watch ends.
func (w *Watcher) ResultChan() <-chan watch.Event { return w.result }

// Stop ends the watch and closes the body. It is safe to call more than once.
func (w *Watcher) Stop() {
	w.once.Do(func() {
		close(w.done)
		_ = w.body.Close()
	})
}

func (w *Watcher) receive() {
	defer close(w.result)
	defer w.Stop()
	buf := make([]byte, 32*1024)
	for {
		frame, err := readFrame(w.frames, &buf)
		if err != nil {
			select {
			case <-w.done:
				return
			default:
			}
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || net.IsProbableEOF(err) {
				return
			}
			w.send(watch.Event{Type: watch.Error, Object: &metav1.Status{
				Status: metav1.StatusFailure, Reason: metav1.StatusReasonInternalError, Code: 500,
				Message: fmt.Sprintf("unable to decode an event from the watch stream: %v", err),
			}})
			return
		}
		ev, err := DecodeEvent(frame)
		if err != nil {
			w.send(watch.Event{Type: watch.Error, Object: &metav1.Status{
				Status: metav1.StatusFailure, Reason: metav1.StatusReasonInternalError, Code: 500,
				Message: err.Error(),
			}})
			return
		}
		if !w.send(ev) {
			return
		}
	}
}

// send delivers ev unless the watch was stopped.
func (w *Watcher) send(ev watch.Event) bool {
	select {
	case w.result <- ev:
		return true
	case <-w.done:
		return false
	}
}

// readFrame reads one whole frame from frames into *buf, growing it as needed.
func readFrame(frames io.Reader, buf *[]byte) ([]byte, error) {
	base := 0
	for {
		n, err := frames.Read((*buf)[base:])
		if errors.Is(err, io.ErrShortBuffer) {
			if n == 0 {
				return nil, fmt.Errorf("watch frame: short buffer with nothing read")
			}
			base += n
			if len(*buf) >= maxFrame {
				return nil, fmt.Errorf("watch frame larger than %d bytes", maxFrame)
			}
			*buf = append(*buf, make([]byte, len(*buf))...)
			continue
		}
		if err != nil {
			return nil, err
		}
		return (*buf)[:base+n], nil
	}
}
