package kates_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/kates-dev/kates/kates"
)

// slowServer answers each request once release is closed, or fails it when its context ends;
// it reports on arrived the context of each request it receives.
type slowServer struct {
	arrived chan context.Context
	release chan struct{}
}

func (s *slowServer) RoundTrip(req *http.Request) (*http.Response, error) {
	s.arrived <- req.Context()
	select {
	case <-s.release:
		return &http.Response{StatusCode: http.StatusOK, Body: io.NopCloser(strings.NewReader("{}")), Request: req}, nil
	case <-req.Context().Done():
		return nil, req.Context().Err()
	}
}

// TestFenceSettle: a fenced write whose caller gives up is not cut off: the call returns at
// once with its context's error, the request goes on, counted in flight, and Settle returns
// true once it is answered. A write never answered makes Settle give up after its timeout,
// report false, and cancel the request. A write whose context has ended before it is sent is
// not sent at all.
func TestFenceSettle(t *testing.T) {
	fence := kates.NewFence()
	fence.Hold(time.Now().Add(time.Minute))
	server := &slowServer{arrived: make(chan context.Context, 1), release: make(chan struct{})}
	rt := fence.WrapTransport(server)
	send := func(ctx context.Context) error {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://server/api/v1/namespaces/ns/configmaps", nil)
		resp, err := rt.RoundTrip(req)
		if err == nil {
			_ = resp.Body.Close()
		}
		return err
	}

	ctx, cancel := context.WithCancel(context.Background())
	returned := make(chan error, 1)
	go func() { returned <- send(ctx) }()
	sent := <-server.arrived
	cancel()
	if err := <-returned; !errors.Is(err, context.Canceled) {
		t.Errorf("the write given up on returned %v, want context.Canceled", err)
	}
	if sent.Err() != nil {
		t.Errorf("the request was cut off when its caller gave up: %v", sent.Err())
	}
	if n := fence.InFlight(); n != 1 {
		t.Errorf("InFlight() = %d with the write unanswered, want 1", n)
	}
	fence.Drop()
	settled := make(chan bool, 1)
	go func() { settled <- fence.Settle(context.Background(), time.Minute) }()
	select {
	case <-settled:
		t.Fatal("Settle returned before the write was answered")
	case <-time.After(50 * time.Millisecond):
	}
	close(server.release)
	if !<-settled {
		t.Error("Settle = false after the write was answered, want true")
	}
	if n := fence.InFlight(); n != 0 {
		t.Errorf("InFlight() = %d after the answer, want 0", n)
	}

	// Never answered: Settle gives up and cancels it.
	fence.Hold(time.Now().Add(time.Minute))
	server.release = make(chan struct{})
	ctx, cancel = context.WithCancel(context.Background())
	go func() { returned <- send(ctx) }()
	sent = <-server.arrived
	cancel()
	<-returned
	fence.Drop()
	if fence.Settle(context.Background(), 50*time.Millisecond) {
		t.Error("Settle = true with a write unanswered past its timeout, want false")
	}
	select {
	case <-sent.Done():
	case <-time.After(5 * time.Second):
		t.Error("the write Settle gave up on was not cancelled")
	}

	// Given up on before it was sent: not sent.
	fence.Hold(time.Now().Add(time.Minute))
	done, stop := context.WithCancel(context.Background())
	stop()
	if err := send(done); !errors.Is(err, context.Canceled) {
		t.Errorf("a write whose context had ended = %v, want context.Canceled", err)
	}
	select {
	case <-server.arrived:
		t.Error("a write whose context had ended was sent")
	default:
	}
}
