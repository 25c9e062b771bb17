package kates

import (
	"bufio"
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
)

// LogEvent is one line of a container's log, or the end of a stream.
type LogEvent struct {
	Namespace, Pod, Container string
	// Time is when the container wrote the line, as the kubelet recorded it.
	Time time.Time
	// Line is the text, without its newline.
	Line string
	// Closed marks the end of this container's stream (Line is empty then); Err says why, if it
	// ended with an error.
	Closed bool
	Err    error
}

// PodLogs streams the logs of pod (anything naming a Pod: a *kates.Pod, or kind, namespace and
// name) into events, one LogEvent per line, each carrying the pod's and container's identity and
// the line's timestamp, so several pods can share one channel (call PodLogs for each, in
// goroutines). With no container in opts, every container of the pod is streamed. opts.Follow
// keeps streaming until ctx ends. PodLogs returns when every stream has ended, after a Closed
// event for each (once ctx has ended, only if events has room); it never closes events. It
// blocks while events is full, until ctx ends.
func (c *Client) PodLogs(ctx context.Context, pod any, opts *PodLogOptions, events chan<- LogEvent) error {
	t, err := c.resolve(pod, true)
	if err != nil {
		return err
	}
	if t.mapping.GroupVersionKind.Kind != "Pod" {
		return fmt.Errorf("kates: PodLogs needs a Pod, not a %s", t.mapping.GroupVersionKind.Kind)
	}
	ns, name := t.obj.GetNamespace(), t.obj.GetName()
	var o corev1.PodLogOptions
	if opts != nil {
		o = *opts
	}
	o.Timestamps = true // every event carries its time
	containers := []string{o.Container}
	if o.Container == "" {
		var p corev1.Pod
		if err := c.Get(ctx, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}, &p); err != nil {
			return t.wrap("get logs of", err)
		}
		containers = containers[:0]
		for _, ctr := range p.Spec.Containers {
			containers = append(containers, ctr.Name)
		}
	}
	var wg sync.WaitGroup
	errs := make([]error, len(containers))
	for i, ctr := range containers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			co := o
			co.Container = ctr
			errs[i] = c.streamLogs(ctx, ns, name, &co, events)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return t.wrap("get logs of", err)
		}
	}
	return nil
}

func (c *Client) streamLogs(ctx context.Context, ns, pod string, opts *corev1.PodLogOptions, events chan<- LogEvent) (err error) {
	send := func(ev LogEvent) bool {
		ev.Namespace, ev.Pod, ev.Container = ns, pod, opts.Container
		select {
		case events <- ev:
			return true
		case <-ctx.Done():
			return false
		}
	}
	defer func() {
		closed := LogEvent{Namespace: ns, Pod: pod, Container: opts.Container, Closed: true, Err: err}
		if ctx.Err() == nil {
			send(closed)
			return
		}
		// ctx has ended: the Closed event still goes out if events has room, but PodLogs
		// must not block on a reader that may be gone.
		select {
		case events <- closed:
		default:
		}
	}()
	// The log subresource of the Pod, with opts as its query (what client-go's typed
	// Pods(ns).GetLogs sends, without linking the typed clientset).
	stream, err := c.rest.Get().AbsPath("/api/v1/namespaces", ns, "pods", pod, "log").
		SpecificallyVersionedParams(opts, clientgoscheme.ParameterCodec, corev1.SchemeGroupVersion).Stream(ctx)
	if err != nil {
		return err
	}
	defer stream.Close()
	sc := bufio.NewScanner(stream)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		ts, line, _ := strings.Cut(sc.Text(), " ")
		when, perr := time.Parse(time.RFC3339Nano, ts)
		if perr != nil {
			line = sc.Text() // no timestamp prefix: keep the line whole
		}
		if !send(LogEvent{Time: when, Line: line}) {
			return ctx.Err()
		}
	}
	if err := sc.Err(); err != nil && ctx.Err() == nil {
		return err
	}
	return nil
}
