package kates_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/kstatus"
)

// TestWaitFailsOnASpecTheControllerRejected plays a controller that validates a new spec before
// recording it as observed and, on an invalid one, writes the error and stops: status
// observedGeneration stays behind. Wait must fail at once, from the error written since the
// spec changed (the API server's managedFields say when), not wait for an observedGeneration
// that never comes; and an error from before the latest spec change must not fail it.
func TestWaitFailsOnASpecTheControllerRejected(t *testing.T) {
	c, ns := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	crd, group := crdFixture(t)
	require.NoError(t, c.Create(ctx, crd, crd))
	t.Cleanup(func() { _ = c.Delete(context.Background(), crd, nil) })
	require.NoError(t, c.WaitFor(ctx, "widgets."+group))

	w := kates.NewUnstructured(group+"/v1", "Widget", ns, "dc")
	require.NoError(t, unstructured.SetNestedField(w.Object, "10Gi", "spec", "storage"))
	require.NoError(t, c.Create(ctx, w, w))
	stamp := func(at time.Time) string { return at.UTC().Format(time.RFC3339) }
	started := stamp(time.Now().Add(-time.Minute))
	// The controller's status: Ready for generation 1.
	setStatus := func(obs int64, conds ...map[string]any) {
		t.Helper()
		list := make([]any, len(conds))
		for i, c := range conds {
			list[i] = c
		}
		w.Object["status"] = map[string]any{"observedGeneration": obs, "conditions": list}
		require.NoError(t, c.UpdateStatus(ctx, w, w))
	}
	ready := map[string]any{"type": "Ready", "status": "True", "reason": "Ready", "message": "", "lastTransitionTime": started}
	setStatus(1, ready)
	require.NoError(t, c.Wait(ctx, []any{w}, kates.WaitOptions{}), "a Widget Ready for its generation")

	// A person shrinks the storage; the controller rejects it without observing generation 2.
	require.NoError(t, unstructured.SetNestedField(w.Object, "5Gi", "spec", "storage"))
	require.NoError(t, c.Update(ctx, w, w))
	require.EqualValues(t, 2, w.GetGeneration())
	invalid := map[string]any{"type": "Valid", "status": "False", "reason": "ShrinkingNotSupported",
		"message": "shrinking the data volume is not supported", "lastTransitionTime": stamp(time.Now())}
	setStatus(1, ready, invalid)

	wctx, wcancel := context.WithTimeout(ctx, 20*time.Second)
	defer wcancel()
	begin := time.Now()
	err := c.Wait(wctx, []any{w}, kates.WaitOptions{})
	require.Truef(t, errors.Is(err, kates.ErrWaitFailed), "Wait on a rejected spec: %v, want it failed", err)
	var we *kates.WaitError
	require.True(t, errors.As(err, &we))
	require.Len(t, we.Failed(), 1)
	require.Contains(t, we.Failed()[0].Message, "shrinking the data volume is not supported")
	require.Contains(t, we.Failed()[0].Message, "reported after the spec changed")
	t.Logf("failed after %s: %s", time.Since(begin).Round(time.Millisecond), we.Failed()[0].Message)

	// The person fixes the spec; the error, from before, is still there while the controller has
	// not answered: that is a change not yet seen, never Failed.
	require.NoError(t, unstructured.SetNestedField(w.Object, "10Gi", "spec", "storage"))
	require.NoError(t, c.Update(ctx, w, w))
	invalid["lastTransitionTime"] = started // transitioned before the spec changed again
	setStatus(1, ready, invalid)
	st, err := c.Status(ctx, []any{w})
	require.NoError(t, err)
	require.Len(t, st, 1)
	require.Equal(t, kstatus.InProgressStatus, st[0].Status, "an error from before the latest spec: %s", st[0].Message)
	require.True(t, strings.Contains(st[0].Message, "latest observed generation"), st[0].Message)
}
