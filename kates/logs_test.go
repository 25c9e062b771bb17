package kates_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/rand"

	"github.com/google/go-cmp/cmp"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/testenv"
)

func TestPodLogsMultiplexesPods(t *testing.T) {
	c, ns := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	names := []string{"talker-a", "talker-b"}
	for _, name := range names {
		pod := &kates.Pod{ObjectMeta: kates.ObjectMeta{Name: name, Namespace: ns},
			Spec: kates.PodSpec{Containers: []kates.Container{{Name: "main", Image: "example.com/app:1"}}}}
		if err := c.Create(ctx, pod, nil); err != nil {
			t.Fatal(err)
		}
	}
	// Logs exist once the pods run.
	for _, name := range names {
		waitRunning(t, ctx, c, ns, name)
	}

	events := make(chan kates.LogEvent, 100)
	errs := make(chan error, len(names))
	for _, name := range names {
		go func() {
			errs <- c.PodLogs(ctx, &kates.Pod{ObjectMeta: kates.ObjectMeta{Name: name, Namespace: ns}}, nil, events)
		}()
	}
	lines := map[string][]string{}
	closed := 0
	for closed < len(names) {
		select {
		case ev := <-events:
			if ev.Namespace != ns || ev.Container != "main" {
				t.Errorf("event with identity %s/%s[%s]", ev.Namespace, ev.Pod, ev.Container)
			}
			if ev.Closed {
				if ev.Err != nil {
					t.Errorf("stream of %s: %v", ev.Pod, ev.Err)
				}
				closed++
				continue
			}
			if ev.Time.IsZero() {
				t.Errorf("line %q of %s has no timestamp", ev.Line, ev.Pod)
			}
			lines[ev.Pod] = append(lines[ev.Pod], ev.Line)
		case <-ctx.Done():
			t.Fatalf("streams not closed; got %v", lines)
		}
	}
	for range names {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	for _, name := range names {
		if diff := cmp.Diff(testenv.ContainerLogLines, lines[name]); diff != "" {
			t.Errorf("logs of %s mismatch (-want +got):\n%s", name, diff)
		}
	}
	if err := c.PodLogs(ctx, &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: "x", Namespace: ns}}, nil, events); err == nil {
		t.Error("PodLogs of a ConfigMap: no error")
	}
}

// waitRunning waits until Pod ns/name is Running.
func waitRunning(t *testing.T, ctx context.Context, c *kates.Client, ns, name string) {
	t.Helper()
	for {
		var pod kates.Pod
		if err := c.Get(ctx, &kates.Pod{ObjectMeta: kates.ObjectMeta{Name: name, Namespace: ns}}, &pod); err != nil {
			t.Fatal(err)
		}
		if pod.Status.Phase == "Running" {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("pod %s never Running", name)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// TestPodLogsFollowsUntilCancelled: with Follow, a line the container writes after the stream
// started arrives, with its time, and cancelling the context ends PodLogs, after a Closed event.
// The cluster is private: the test writes to the log every fake container serves.
func TestPodLogsFollowsUntilCancelled(t *testing.T) {
	cl := privateCluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c, ns := newClientOn(t, cl)
	pod := &kates.Pod{ObjectMeta: kates.ObjectMeta{Name: "tail"},
		Spec: kates.PodSpec{Containers: []kates.Container{{Name: "main", Image: "example.com/app:1"}}}}
	if err := c.Create(ctx, pod, nil); err != nil {
		t.Fatal(err)
	}
	waitRunning(t, ctx, c, ns, "tail")

	streamCtx, stop := context.WithCancel(ctx)
	defer stop()
	events := make(chan kates.LogEvent, 100)
	done := make(chan error, 1)
	go func() { done <- c.PodLogs(streamCtx, pod, &kates.PodLogOptions{Follow: true}, events) }()
	next := func() kates.LogEvent {
		t.Helper()
		select {
		case ev := <-events:
			return ev
		case err := <-done:
			t.Fatalf("PodLogs returned while following: %v", err)
		case <-ctx.Done():
			t.Fatal("no log event")
		}
		return kates.LogEvent{}
	}
	for _, want := range testenv.ContainerLogLines {
		if ev := next(); ev.Line != want || ev.Closed {
			t.Fatalf("got %+v, want the line %q", ev, want)
		}
	}
	written := time.Now().Truncate(time.Millisecond)
	line := "kates test: written while followed " + rand.String(4)
	if err := cl.WriteContainerLog(written, line); err != nil {
		t.Fatal(err)
	}
	for {
		ev := next()
		if ev.Line == line {
			if !ev.Time.Equal(written) || ev.Pod != "tail" || ev.Namespace != ns {
				t.Errorf("followed line: %+v, want pod %s/tail at %s", ev, ns, written)
			}
			break
		}
		// Another test of this cluster may have written too; any other line is not ours.
	}

	stop()
	select {
	case err := <-done:
		if err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("PodLogs after cancel: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("PodLogs did not return within 10s of its context's end")
	}
	close(events) // PodLogs has returned: nothing sends any more
	closed := false
	for ev := range events {
		closed = closed || (ev.Closed && ev.Pod == "tail" && ev.Container == "main")
	}
	if !closed {
		t.Error("no Closed event for the followed stream, though events had room")
	}
}
