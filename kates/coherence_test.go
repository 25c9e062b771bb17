package kates

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kates-dev/kates/accumulator"
)

var cmGVK = schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}

func cmAt(name, rv string) *unstructured.Unstructured {
	u := NewUnstructured("v1", "ConfigMap", "ns", name)
	u.SetResourceVersion(rv)
	return u
}

// accAt returns an accumulator whose ConfigMaps store has seen resource version rv.
func accAt(t *testing.T, rv string) *accumulator.Accumulator {
	t.Helper()
	acc, err := accumulator.New([]accumulator.QuerySpec{{Name: "ConfigMaps", GVK: cmGVK}}, accumulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := acc.Store("ConfigMaps").Replace(nil, rv); err != nil {
		t.Fatal(err)
	}
	return acc
}

func TestWriteLogKeepsNothingForUnwatchedKinds(t *testing.T) {
	l := newWriteLog()
	l.recordWrite(cmGVK, cmAt("a", "5"))
	l.recordDelete(cmGVK, "ns", "b", "", "")
	if n := l.pending(); n != 0 {
		t.Fatalf("%d records for a kind nobody watches, want 0", n)
	}
	acc := accAt(t, "1")
	l.register(cmGVK, acc, "ConfigMaps")
	l.recordWrite(cmGVK, cmAt("a", "5"))
	if n := l.pending(); n != 1 {
		t.Fatalf("%d records with a watcher, want 1", n)
	}
	l.unregister(acc)
	if n := l.pending(); n != 0 {
		t.Fatalf("%d records after the last watcher left, want 0", n)
	}
}

func TestWriteLogDropsWhatEveryWatcherHasSeen(t *testing.T) {
	l := newWriteLog()
	behind, ahead := accAt(t, "3"), accAt(t, "10")
	l.register(cmGVK, behind, "ConfigMaps")
	l.register(cmGVK, ahead, "ConfigMaps")
	l.recordWrite(cmGVK, cmAt("a", "5"))
	if got := l.Writes(cmGVK); len(got) != 1 {
		t.Fatalf("one watcher behind: %d records, want 1", len(got))
	}
	// The lagging accumulator catches up (a bookmark, say): nobody needs the record any more.
	if err := behind.Store("ConfigMaps").Bookmark("7"); err != nil {
		t.Fatal(err)
	}
	if got := l.Writes(cmGVK); len(got) != 0 {
		t.Fatalf("every watcher past the write: %d records, want 0", len(got))
	}
	// Resource versions compare as numbers, not strings: "10" is newer than "9".
	l.recordWrite(cmGVK, cmAt("b", "9"))
	if got := l.Writes(cmGVK); len(got) != 1 || got[0].Name != "b" {
		t.Fatalf("watchers at 7 and 10, write at 9: records %+v, want b's (7 < 9)", got)
	}
}

func TestWriteLogExpiresRecords(t *testing.T) {
	l := newWriteLog()
	now := time.Unix(1000, 0)
	l.now = func() time.Time { return now }
	l.register(cmGVK, accAt(t, "1"), "ConfigMaps")
	l.recordDelete(cmGVK, "ns", "gone", "", "")
	if got := l.Writes(cmGVK); len(got) != 1 || !got[0].Deleted {
		t.Fatalf("delete record missing: %+v", got)
	}
	now = now.Add(recordTTL + time.Second)
	if got := l.Writes(cmGVK); len(got) != 0 {
		t.Fatalf("record older than the TTL still served: %+v", got)
	}
}

func TestWriteLogKeepsTheNewestOfRacingWrites(t *testing.T) {
	l := newWriteLog()
	l.register(cmGVK, accAt(t, "1"), "ConfigMaps")
	var wg sync.WaitGroup
	for i := 2; i < 100; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l.recordWrite(cmGVK, cmAt("a", fmt.Sprint(i)))
		}()
	}
	wg.Wait()
	got := l.Writes(cmGVK)
	if len(got) != 1 || got[0].ResourceVersion != "99" {
		t.Fatalf("records %+v, want the one at resource version 99", got)
	}
}
