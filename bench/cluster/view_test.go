package cluster_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"sync"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
	crcache "sigs.k8s.io/controller-runtime/pkg/cache"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/zstdcompact"
)

// viewSizes restricts BenchmarkView to some of its sizes, podsOnly and bootstrapSizes
// (hack/bench.sh runs one size and peer per process); empty: every size.
var viewSizes = flag.String("view-sizes", "", "comma-separated ConfigMap counts BenchmarkView runs, 0 for Pods only (default: 0 and all of bootstrapSizes)")

// heapProfile, if set, is where benchView writes a heap profile while the view is held: its
// inuse_space says what the view's bytes are.
var heapProfile = flag.String("view-heapprofile", "", "write a heap profile of the complete view to this file")

func writeHeapProfile(b *testing.B, path string) {
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := pprof.WriteHeapProfile(f); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkView measures what it takes each peer to hold a complete typed view of N realistic
// ConfigMaps and 3,000 realistic Pods (bootstrapSizes; fixture.RealisticConfigMap and
// RealisticPod, server-side applied), and of the 3,000 Pods alone (N=0: a view of Pods only,
// so that what Pods cost shows, which the ConfigMaps outnumber in the other sizes by 3 to 33
// to one): one op is one bootstrap from scratch, and hack/bench.sh
// runs each peer and size in a process of its own (-test.benchtime=1x), in an order that
// alternates from round to round, so that no peer inherits another's heap, connections or
// warm caches. Reported per op:
//
//   - ns/op, the time to the complete view: from starting to watch until the view holds every
//     object (for kates, until the first Update has filled the consumer's snapshot);
//   - cpu-ms, the process's user+system CPU time over the same span (the API server shares
//     the cores, so wall time alone hides what a client costs);
//   - B/object, the heap the view holds per object: HeapAlloc after two GCs once the view is
//     complete, minus the same before starting, over N+3,000;
//   - B/op and allocs/op, what the bootstrap allocated.
//
// Peers:
//
//   - kates: Client.Watch with its defaults and the first Update into
//     struct{ConfigMaps []*corev1.ConfigMap; Pods []*corev1.Pod}; the consumer holds it.
//   - kates-shared: the same with WatchOptions.SharedValues: objects share identical label
//     maps, owner references and Pod spec parts (a changed contract: see its doc).
//   - kates-compact: Client.WatchWith with WatchOptions.Snapshot naming
//     struct{ConfigMaps []kates.Compact[*corev1.ConfigMap]; Pods []kates.Compact[*corev1.Pod]}
//     and the first Update into it: objects held as their protobuf encoding (issue 37).
//   - kates-compressed: kates-compact with WatchOptions.Compressor set to zstdcompact.New(): each encoding kept
//     zstd-compressed against a per-query dictionary.
//   - controller-runtime: its cache with its defaults (typed, protobuf, managedFields kept).
//   - controller-runtime-strip: its cache with DefaultTransform set to
//     cache.TransformStripManagedFields(), as a memory-minded user runs it.
//   - floor: both LISTs sent at once, as protobuf (resourceVersion=0: from the API server's
//     watch cache, one response each), each response's bytes read and kept, decoded not at
//     all: what the API server and the wire take to hand the objects over.
//   - floor-watchlist: the same through the requests kates' and controller-runtime's
//     reflectors send (client-go's WatchList: a watch with sendInitialEvents=true, read
//     until the bookmark that ends the initial events), frames kept undecoded: what the API
//     server and the wire take on the path the peers use.
func BenchmarkView(b *testing.B) {
	for _, n := range append([]int{podsOnly}, bootstrapSizes...) {
		if !sizeSelected(n) {
			continue
		}
		kinds := []kind{configMaps, pods}
		if n == podsOnly {
			kinds = []kind{pods}
		}
		ns := fx.Bootstrap[n]
		objects := n + podsFor(n)
		runPeers(b, fmt.Sprintf("N=%d/", n),
			peer{"kates", func(b *testing.B) {
				var snap bootstrapSnapshot
				benchView(b, objects, katesSession(ns, kates.WatchOptions{}, &snap, kinds...))
				if got := len(snap.ConfigMaps) + len(snap.Pods); got < objects {
					b.Fatalf("snapshot holds %d objects, want at least %d", got, objects)
				}
			}},
			peer{"kates-shared", func(b *testing.B) {
				var snap bootstrapSnapshot
				benchView(b, objects, katesSession(ns, kates.WatchOptions{SharedValues: true}, &snap, kinds...))
				if got := len(snap.ConfigMaps) + len(snap.Pods); got < objects {
					b.Fatalf("snapshot holds %d objects, want at least %d", got, objects)
				}
			}},
			peer{"kates-compact", func(b *testing.B) {
				var snap compactSnapshot
				opts := kates.WatchOptions{Snapshot: (*compactSnapshot)(nil)}
				benchView(b, objects, katesSession(ns, opts, &snap, kinds...))
				if got := len(snap.ConfigMaps) + len(snap.Pods); got < objects {
					b.Fatalf("snapshot holds %d objects, want at least %d", got, objects)
				}
			}},
			peer{"kates-compressed", func(b *testing.B) {
				var snap compactSnapshot
				opts := kates.WatchOptions{Snapshot: (*compactSnapshot)(nil), Compressor: zstdcompact.New()}
				benchView(b, objects, katesSession(ns, opts, &snap, kinds...))
				if got := len(snap.ConfigMaps) + len(snap.Pods); got < objects {
					b.Fatalf("snapshot holds %d objects, want at least %d", got, objects)
				}
			}},
			peer{"controller-runtime", func(b *testing.B) {
				benchView(b, objects, controllerRuntimeSessionWith(ns, nil, crcache.Options{}, kinds...))
			}},
			peer{"controller-runtime-strip", func(b *testing.B) {
				opts := crcache.Options{DefaultTransform: crcache.TransformStripManagedFields()}
				benchView(b, objects, controllerRuntimeSessionWith(ns, nil, opts, kinds...))
			}},
			peer{"floor", func(b *testing.B) { benchView(b, objects, floorSession(ns, false, kinds...)) }},
			peer{"floor-watchlist", func(b *testing.B) { benchView(b, objects, floorSession(ns, true, kinds...)) }},
		)
	}
}

func sizeSelected(n int) bool {
	if *viewSizes == "" {
		return true
	}
	for _, s := range splitComma(*viewSizes) {
		if s == fmt.Sprint(n) {
			return true
		}
	}
	return false
}

func splitComma(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			if i > start {
				out = append(out, s[start:i])
			}
			start = i + 1
		}
	}
	return out
}

// benchView runs s's bootstrap b.N times (hack/bench.sh: once per process) and reports time,
// CPU, and the heap held per object once the view is complete.
func benchView(b *testing.B, objects int, s *session) {
	b.ReportAllocs()
	b.StopTimer()
	var cpu, snapshotTime time.Duration
	var held float64
	for range b.N {
		s.prepare(b)
		before := heapAlloc()
		cpuBefore := cpuTime()
		b.StartTimer()
		stop := s.run(b)
		b.StopTimer()
		cpu += cpuTime() - cpuBefore
		snapshotTime += s.snapshotTime
		after := heapAlloc()
		if *heapProfile != "" {
			writeHeapProfile(b, *heapProfile)
		}
		runtime.KeepAlive(s.view())
		held += (float64(after) - float64(before)) / float64(objects)
		stop()
	}
	b.ReportMetric(cpu.Seconds()*1000/float64(b.N), "cpu-ms")
	b.ReportMetric(held/float64(b.N), "B/object")
	if snapshotTime > 0 {
		b.ReportMetric(snapshotTime.Seconds()*1000/float64(b.N), "snapshot-ms")
	}
}

// floorSession sends one LIST per kind at once, asking for protobuf, and keeps each response's
// bytes as they came (gzip undone by net/http, as for every peer): the least a client can do
// to receive the objects. With watchList, it sends the WatchList requests of client-go's
// reflectors instead and keeps the frames up to the end of the initial events.
func floorSession(ns string, watchList bool, kinds ...kind) *session {
	var (
		hc     *http.Client
		host   string
		bodies [][]byte
	)
	s := &session{}
	s.prepare = func(b *testing.B) {
		cfg := config()
		var err error
		if hc, err = rest.HTTPClientFor(cfg); err != nil {
			b.Fatal(err)
		}
		host = cfg.Host
		bodies = nil
	}
	s.start = func(ctx context.Context) error {
		out := make([][]byte, len(kinds))
		errs := make([]error, len(kinds))
		var wg sync.WaitGroup
		for i, k := range kinds {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if watchList {
					out[i], errs[i] = floorWatchList(ctx, hc, host, ns, k.gvr)
				} else {
					out[i], errs[i] = floorList(ctx, hc, host, ns, k.gvr)
				}
			}()
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				return err
			}
		}
		bodies = out
		return nil
	}
	s.view = func() any { return bodies }
	s.stop = func() {}
	return s
}

func floorList(ctx context.Context, hc *http.Client, host, ns string, gvr schema.GroupVersionResource) ([]byte, error) {
	prefix := "/api/"
	if gvr.Group != "" {
		prefix = "/apis/" + gvr.Group + "/"
	}
	url := fmt.Sprintf("%s%s%s/namespaces/%s/%s?resourceVersion=0", host, prefix, gvr.Version, ns, gvr.Resource)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/vnd.kubernetes.protobuf")
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("list %s: %s: %.200s", gvr.Resource, resp.Status, data)
	}
	// ReadAll's buffer grew by doubling: keep the bytes as sent, not its spare capacity.
	return bytes.Clone(data), nil
}

// floorWatchList sends the WatchList request of a client-go reflector and reads the protobuf
// watch frames (a 4-byte big-endian length, then a WatchEvent) until the first BOOKMARK, the
// one that ends the initial events, keeping the frames' bytes undecoded.
func floorWatchList(ctx context.Context, hc *http.Client, host, ns string, gvr schema.GroupVersionResource) ([]byte, error) {
	prefix := "/api/"
	if gvr.Group != "" {
		prefix = "/apis/" + gvr.Group + "/"
	}
	url := fmt.Sprintf("%s%s%s/namespaces/%s/%s?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=600",
		host, prefix, gvr.Version, ns, gvr.Resource)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/vnd.kubernetes.protobuf;stream=watch")
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		data, _ := io.ReadAll(resp.Body)
		return nil, fmt.Errorf("watch-list %s: %s: %.200s", gvr.Resource, resp.Status, data)
	}
	r := bufio.NewReaderSize(resp.Body, 64<<10)
	var out []byte
	var size [4]byte
	for {
		if _, err := io.ReadFull(r, size[:]); err != nil {
			return nil, fmt.Errorf("watch-list %s: %w", gvr.Resource, err)
		}
		n := int(binary.BigEndian.Uint32(size[:]))
		start := len(out)
		out = slices.Grow(out, n)[:start+n]
		if _, err := io.ReadFull(r, out[start:]); err != nil {
			return nil, fmt.Errorf("watch-list %s: %w", gvr.Resource, err)
		}
		if bytes.Contains(out[start:min(start+16, len(out))], []byte("BOOKMARK")) {
			return bytes.Clone(out), nil
		}
	}
}
