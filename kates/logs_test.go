package kates_test

import (
	"context"
	"testing"
	"time"

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
		for {
			var pod kates.Pod
			if err := c.Get(ctx, &kates.Pod{ObjectMeta: kates.ObjectMeta{Name: name, Namespace: ns}}, &pod); err != nil {
				t.Fatal(err)
			}
			if pod.Status.Phase == "Running" {
				break
			}
			select {
			case <-ctx.Done():
				t.Fatalf("pod %s never Running", name)
			case <-time.After(100 * time.Millisecond):
			}
		}
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
