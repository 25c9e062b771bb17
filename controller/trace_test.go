package controller_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/kates-dev/kates/kates"
)

// TestReconcileSpans: with a Tracer, each reconcile is a span naming its key, and the client's
// requests made with the reconcile's context are its children when the client's transport is
// instrumented (otelhttp).
func TestReconcileSpans(t *testing.T) {
	h := newHarness(t, 1)
	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	defer func() { _ = tp.Shutdown(context.Background()) }()
	cfg := h.client.RESTConfig()
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return otelhttp.NewTransport(rt, otelhttp.WithTracerProvider(tp))
	})
	traced, err := kates.NewClientFromRESTConfig(cfg, h.ns)
	require.NoError(t, err)
	h.client = traced // the reconcile's apply goes through the instrumented transport
	opts := h.options()
	opts.Tracer = tp.Tracer("controller-test")
	_, stop := h.start(opts)
	h.settle(1, 300*time.Millisecond)
	require.NoError(t, stop())

	var reconcile sdktrace.ReadOnlySpan
	ids := map[string]bool{}
	for _, s := range spans.Ended() {
		if s.Name() == "Reconcile test" {
			reconcile = s
			ids[s.SpanContext().SpanID().String()] = true
		}
	}
	require.NotNil(t, reconcile, "no reconcile span")
	attrs := map[string]string{}
	for _, a := range reconcile.Attributes() {
		attrs[string(a.Key)] = a.Value.Emit()
	}
	assert.Equal(t, map[string]string{"controller": "test", "k8s.namespace.name": h.ns, "k8s.object.name": "app-0"}, attrs)
	children := 0
	for _, s := range spans.Ended() {
		if ids[s.Parent().SpanID().String()] {
			children++
		}
	}
	assert.Positive(t, children, "the reconcile's apply made no child span")
}
