package kates

import (
	"context"
	"net/http"

	utilnet "k8s.io/apimachinery/pkg/util/net"
)

// warningsKey is the context key under which WithWarnings keeps its recorder.
type warningsKey struct{}

// WithWarnings returns a copy of ctx under which every response a Client receives hands each
// warning the API server sent with it (a deprecated API version, a field dropped, a value it
// will refuse one day) to record, in the order received. The client's own warning handler
// (rest.Config.WarningHandler) still gets them. Warnings are per request, so this is how a
// caller tells which object a warning was about: one context per object. record is called
// from the goroutine that sent the request.
func WithWarnings(ctx context.Context, record func(warning string)) context.Context {
	return context.WithValue(ctx, warningsKey{}, record)
}

// warningTransport hands the warnings of each response to the recorder its request's context
// carries (see WithWarnings), and passes everything through unchanged.
type warningTransport struct{ next http.RoundTripper }

func (t *warningTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	record, _ := req.Context().Value(warningsKey{}).(func(string))
	if record == nil || resp == nil {
		return resp, err
	}
	warnings, _ := utilnet.ParseWarningHeaders(resp.Header["Warning"])
	for _, w := range warnings {
		record(w.Text)
	}
	return resp, err
}
