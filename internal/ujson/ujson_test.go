package ujson

import (
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/watch"
)

const widget = `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"a","resourceVersion":"12","generation":3,"labels":{"app":"x"}},` +
	`"spec":{"size":5,"ratio":0.5,"big":9007199254740993,"tags":["a","b"],"nested":{"ok":true,"none":null}},"status":{"observedGeneration":3}}`

// dynamicDecode decodes an object as client-go's dynamic client does.
func dynamicDecode(t *testing.T, data []byte) *unstructured.Unstructured {
	t.Helper()
	obj, _, err := unstructured.UnstructuredJSONScheme.Decode(data, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return obj.(*unstructured.Unstructured)
}

func TestDecodeEventMatchesTheDynamicClient(t *testing.T) {
	ev, err := DecodeEvent([]byte(`{"type":"MODIFIED","object":` + widget + `}`))
	if err != nil {
		t.Fatal(err)
	}
	if ev.Type != watch.Modified {
		t.Errorf("type %q, want MODIFIED", ev.Type)
	}
	want := dynamicDecode(t, []byte(widget))
	if diff := cmp.Diff(want, ev.Object); diff != "" {
		t.Errorf("DecodeEvent mismatch (-dynamic client +ujson):\n%s", diff)
	}
}

func TestDecodeEventErrors(t *testing.T) {
	ev, err := DecodeEvent([]byte(`{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Expired","code":410,"message":"too old"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if ev.Type != watch.Error || !apierrors.IsResourceExpired(apierrors.FromObject(ev.Object)) {
		t.Errorf("ERROR event = %v %#v, want a 410 Expired status", ev.Type, ev.Object)
	}
	for _, bad := range []string{`{`, `{"type":"ADDED"}`, `{"type":"WHAT","object":{}}`, `[]`, `{"type":"ADDED","object":[1]}`} {
		if _, err := DecodeEvent([]byte(bad)); err == nil {
			t.Errorf("DecodeEvent(%s): no error", bad)
		}
	}
}

func TestDecodeListMatchesTheDynamicClient(t *testing.T) {
	data := `{"apiVersion":"example.com/v1","kind":"WidgetList","metadata":{"resourceVersion":"20","continue":"abc"},"items":[` +
		widget + `,{"metadata":{"name":"bare"}}]}`
	got, err := DecodeList([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	obj, _, err := unstructured.UnstructuredJSONScheme.Decode([]byte(data), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := obj.(*unstructured.UnstructuredList)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("DecodeList mismatch (-dynamic client +ujson):\n%s", diff)
	}
}

func TestWatcherStreamsFrames(t *testing.T) {
	big := strings.Repeat("x", 100_000) // larger than the first buffer
	frames := []string{
		`{"type":"ADDED","object":` + widget + `}`,
		`{"type":"MODIFIED","object":{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"big"},"spec":{"blob":"` + big + `"}}}`,
		`{"type":"BOOKMARK","object":{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"resourceVersion":"30","annotations":{"k8s.io/initial-events-end":"true"}}}}`,
	}
	w := NewWatcher(io.NopCloser(strings.NewReader(strings.Join(frames, "\n") + "\n")))
	var got []string
	for ev := range w.ResultChan() {
		u := ev.Object.(*unstructured.Unstructured)
		got = append(got, string(ev.Type)+" "+u.GetName()+" "+u.GetResourceVersion())
		if u.GetName() == "big" {
			if blob, _, _ := unstructured.NestedString(u.Object, "spec", "blob"); blob != big {
				t.Errorf("big frame: blob of %d bytes, want %d", len(blob), len(big))
			}
		}
	}
	want := []string{"ADDED w 12", "MODIFIED big ", "BOOKMARK  30"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events mismatch (-want +got):\n%s", diff)
	}
}

func TestWatcherReportsABrokenFrame(t *testing.T) {
	w := NewWatcher(io.NopCloser(strings.NewReader(`{"type":"ADDED","object":"not an object"} {"type":"ADDED","object":` + widget + `}`)))
	var evs []watch.Event
	for ev := range w.ResultChan() {
		evs = append(evs, ev)
	}
	if len(evs) != 1 || evs[0].Type != watch.Error {
		t.Fatalf("events %v, want one ERROR", evs)
	}
	if st, ok := evs[0].Object.(*metav1.Status); !ok || st.Code != 500 {
		t.Errorf("error object %#v, want an internal error status", evs[0].Object)
	}
}

func TestWatcherStopEndsIt(t *testing.T) {
	r, pw := io.Pipe()
	w := NewWatcher(r)
	go func() { _, _ = pw.Write([]byte(`{"type":"ADDED","object":` + widget + `}`)) }()
	<-w.ResultChan()
	w.Stop()
	w.Stop()
	for range w.ResultChan() {
	}
}
