package core_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"

	"github.com/kates-dev/kates/bench/internal/fixture"
	"github.com/kates-dev/kates/internal/ujson"
)

const (
	// throughputObjects is how many ConfigMaps the scripted watch lists first.
	throughputObjects = 1_000
	// throughputEvents is how many update events one op streams.
	throughputEvents = 10_000
)

// BenchmarkThroughput streams throughputEvents watch events (updates of throughputObjects
// ConfigMaps, managedFields and all, as an API server sends them) through a reflector to a
// consumer, and measures the time until the consumer has seen the last one. One op is one
// stream; events/s is the figure to compare.
//
//   - kates: the reflector fills an accumulator Store as kates.Watch does (managedFields
//     stripped); the consumer calls Update into []*corev1.ConfigMap each time Changed fires.
//     kates-unstructured: the same into []*unstructured.Unstructured, which spares the
//     conversion into typed objects (each changed object is deep-copied instead).
//   - informer: a bare dynamic informer (client-go), whose handler sees every event.
//
// In "predecoded" the events arrive as ready objects, so only the pipeline is measured; in
// "decode" they arrive as the raw JSON watch frames an API server sends ({"type":...,
// "object":...}), and each peer decodes them on the watch's goroutine through the path it
// really uses for a kind without protobuf (a custom resource): the informer as client-go's
// dynamic client does (the frame into a metav1.WatchEvent, then its object into
// unstructured), kates in one pass (internal/ujson, as kates.Watch does).
func BenchmarkThroughput(b *testing.B) {
	for _, decode := range []bool{false, true} {
		mode := "predecoded"
		if decode {
			mode = "decode"
		}
		runPeers(b, mode+"/",
			peer{"kates", func(b *testing.B) { benchThroughput(b, decode, katesConsumer[corev1.ConfigMap]) }},
			peer{"kates-unstructured", func(b *testing.B) {
				benchThroughput(b, decode, katesConsumer[unstructured.Unstructured])
			}},
			peer{"informer", func(b *testing.B) { benchThroughput(b, decode, informerConsumer) }},
		)
		b.Run(mode+"/paired", func(b *testing.B) { benchThroughputPaired(b, decode) })
	}
}

// consumer starts a peer on lw and returns expect, which tells it the last event of the next
// stream (version rv of scripted object last) and returns wait, which blocks until the peer
// has seen that event and reports how many times the peer woke up for the stream.
type consumer func(b *testing.B, lw *scriptedLW) (expect func(last, rv int) (wait func() int))

// stream feeds one consumer stream after stream of events.
type stream struct {
	lw     *scriptedLW
	expect func(last, rv int) func() int
	decode func(frame []byte) (watch.Event, error) // nil: predecoded
	rv     int
}

// dynamicEventDecoder and dynamicObjectDecoder are the decoders client-go's REST client uses for
// a dynamic client's watch (rest.Request.Watch with the dynamic client's negotiated serializer):
// the stream serializer decodes each frame into a metav1.WatchEvent whose object stays raw, and
// the object decoder decodes that.
var dynamicEventDecoder, dynamicObjectDecoder = func() (runtime.Decoder, runtime.Decoder) {
	ns := dynamic.ConfigFor(&rest.Config{}).NegotiatedSerializer
	info, ok := runtime.SerializerInfoForMediaType(ns.SupportedMediaTypes(), runtime.ContentTypeJSON)
	if !ok || info.StreamSerializer == nil {
		panic("dynamic client: no JSON stream serializer")
	}
	return info.StreamSerializer.Serializer, ns.DecoderToVersion(info.Serializer, schema.GroupVersion{})
}()

// decodeDynamic decodes a watch frame as client-go's dynamic client does, with the decoders
// its REST client uses (as restclient/watch.Decoder calls them).
func decodeDynamic(frame []byte) (watch.Event, error) {
	var ev metav1.WatchEvent
	if _, _, err := dynamicEventDecoder.Decode(frame, nil, &ev); err != nil {
		return watch.Event{}, err
	}
	obj, err := runtime.Decode(dynamicObjectDecoder, ev.Object.Raw)
	if err != nil {
		return watch.Event{}, err
	}
	return watch.Event{Type: watch.EventType(ev.Type), Object: obj}, nil
}

// decoderFor returns how the consumer start decodes a watch frame in "decode" mode.
func decoderFor(start consumer, decode bool) func([]byte) (watch.Event, error) {
	if !decode {
		return nil
	}
	if reflect.ValueOf(start).Pointer() == reflect.ValueOf(consumer(informerConsumer)).Pointer() {
		return decodeDynamic
	}
	return ujson.DecodeEvent
}

func newStream(b *testing.B, decode bool, start consumer) *stream {
	objs := make([]*unstructured.Unstructured, throughputObjects)
	for i := range objs {
		objs[i] = fixture.ConfigMap(i, 1+i, true)
	}
	s := &stream{lw: newScriptedLW(unstructuredList(objs, strconv.Itoa(throughputObjects))), decode: decoderFor(start, decode), rv: throughputObjects}
	s.expect = start(b, s.lw)
	return s
}

// prepare builds the next stream's events and returns run, which streams them from a goroutine
// of its own (the watch's) and returns once the consumer has seen the last, with the number of
// times the consumer woke up.
func (s *stream) prepare(b *testing.B) (run func() int) {
	first := s.rv + 1
	events := make([]*unstructured.Unstructured, throughputEvents)
	var raw [][]byte
	for e := range throughputEvents {
		s.rv++
		events[e] = fixture.ConfigMap((first+e)%throughputObjects, s.rv, true)
		if s.decode != nil {
			obj, err := json.Marshal(events[e])
			if err != nil {
				b.Fatal(err)
			}
			raw = append(raw, []byte(`{"type":"MODIFIED","object":`+string(obj)+`}`))
		}
	}
	if s.decode != nil {
		events = nil
	}
	wait := s.expect((first+throughputEvents-1)%throughputObjects, s.rv)
	return func() int {
		go func() {
			for e := range throughputEvents {
				if raw != nil {
					ev, err := s.decode(raw[e])
					if err != nil {
						panic(err)
					}
					s.lw.events <- ev
				} else {
					s.lw.events <- watch.Event{Type: watch.Modified, Object: events[e]}
				}
			}
		}()
		return wait()
	}
}

func benchThroughput(b *testing.B, decode bool, start consumer) {
	s := newStream(b, decode, start)
	wakeups := 0
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		run := s.prepare(b)
		b.StartTimer()
		wakeups += run()
	}
	b.StopTimer()
	b.ReportMetric(float64(throughputEvents)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(wakeups)/float64(b.N), "wakeups/op")
}

// benchThroughputPaired runs one stream through each peer per op, in an order that rotates
// from op to op, and reports each kates peer's throughput as a ratio to the informer's: the
// median over ops of the informer's time for a stream over the peer's. Streams of one op run
// within a fraction of a second of each other, so the ratios see the same machine load.
func benchThroughputPaired(b *testing.B, decode bool) {
	names := []string{"informer", "kates", "kates-unstructured"}
	streams := []*stream{
		newStream(b, decode, informerConsumer),
		newStream(b, decode, katesConsumer[corev1.ConfigMap]),
		newStream(b, decode, katesConsumer[unstructured.Unstructured]),
	}
	times := make([][]time.Duration, len(streams))
	b.ResetTimer()
	for i := range b.N {
		for k := range streams {
			j := (i + k) % len(streams)
			b.StopTimer()
			run := streams[j].prepare(b)
			b.StartTimer()
			start := time.Now()
			run()
			times[j] = append(times[j], time.Since(start))
		}
	}
	b.StopTimer()
	for j := range streams {
		ts := slices.Clone(times[j])
		slices.Sort(ts)
		b.ReportMetric(float64(throughputEvents)/ts[len(ts)/2].Seconds(), "events/s-"+names[j])
		if j == 0 {
			continue
		}
		ratios := make([]float64, b.N)
		for i := range ratios {
			ratios[i] = times[0][i].Seconds() / times[j][i].Seconds()
		}
		slices.Sort(ratios)
		b.ReportMetric(ratios[len(ratios)/2], "x-informer-"+names[j])
	}
}

// object is what a snapshot of ConfigMaps can hold.
type object interface {
	corev1.ConfigMap | unstructured.Unstructured
}

// katesConsumer is the kates consumer, filling a []*T snapshot field.
func katesConsumer[T object](b *testing.B, lw *scriptedLW) func(last, rv int) func() int {
	acc := newAccumulator(b)
	runReflector(b, lw, acc.Store("ConfigMaps"))
	var snap struct{ ConfigMaps []*T }
	ctx := context.Background()
	for len(snap.ConfigMaps) == 0 {
		<-acc.Changed()
		if _, err := acc.Update(ctx, &snap); err != nil {
			b.Fatal(err)
		}
	}
	return func(last, rv int) func() int {
		ns, name := fixture.ConfigMapName(last)
		key, want := ns+"/"+name, strconv.Itoa(rv)
		return func() int {
			for n := 1; ; n++ {
				<-acc.Changed()
				if _, err := acc.Update(ctx, &snap); err != nil {
					b.Fatal(err)
				}
				i, ok := slices.BinarySearchFunc(snap.ConfigMaps, key, func(cm *T, key string) int {
					m := objMeta(cm)
					return strings.Compare(m.GetNamespace()+"/"+m.GetName(), key)
				})
				if ok && objMeta(snap.ConfigMaps[i]).GetResourceVersion() == want {
					return n
				}
			}
		}
	}
}

func informerConsumer(b *testing.B, lw *scriptedLW) func(last, rv int) func() int {
	inf := dynamicInformer(lw)
	var (
		target  atomic.Pointer[string] // "ns/name@rv" of the event to report
		wakeups atomic.Int64
		seen    = make(chan struct{}, 1)
	)
	_, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		UpdateFunc: func(_, obj any) {
			wakeups.Add(1)
			u := obj.(*unstructured.Unstructured)
			if t := target.Load(); t != nil && u.GetNamespace()+"/"+u.GetName()+"@"+u.GetResourceVersion() == *t {
				target.Store(nil)
				seen <- struct{}{}
			}
		},
	})
	if err != nil {
		b.Fatal(err)
	}
	startInformer(b, inf)
	return func(last, rv int) func() int {
		ns, name := fixture.ConfigMapName(last)
		want := fmt.Sprintf("%s/%s@%d", ns, name, rv)
		wakeups.Store(0)
		target.Store(&want)
		return func() int {
			<-seen
			return int(wakeups.Load())
		}
	}
}

func objMeta(o any) metav1.Object {
	m, err := apimeta.Accessor(o)
	if err != nil {
		panic(err)
	}
	return m
}

// TestDecodersAgree: the two decode paths of BenchmarkThroughput give the same event.
func TestDecodersAgree(t *testing.T) {
	obj, err := json.Marshal(fixture.ConfigMap(7, 42, true))
	if err != nil {
		t.Fatal(err)
	}
	frame := []byte(`{"type":"MODIFIED","object":` + string(obj) + `}`)
	want, err := decodeDynamic(frame)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ujson.DecodeEvent(frame)
	if err != nil {
		t.Fatal(err)
	}
	if !apiequality.Semantic.DeepEqual(want, got) {
		t.Errorf("ujson.DecodeEvent = %#v\nwant (dynamic client) %#v", got, want)
	}
}
