package metrics_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ktypes "k8s.io/apimachinery/pkg/types"

	"github.com/kates-dev/kates/accumulator"
	"github.com/kates-dev/kates/metrics"
)

func TestResult(t *testing.T) {
	gr := schema.GroupResource{Resource: "configmaps"}
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"nil", nil, "success"},
		{"conflict", apierrors.NewConflict(gr, "x", errors.New("stale")), "conflict"},
		{"not found, wrapped", fmt.Errorf("kates: get: %w", apierrors.NewNotFound(gr, "x")), "not_found"},
		{"already exists", apierrors.NewAlreadyExists(gr, "x"), "already_exists"},
		{"forbidden", apierrors.NewForbidden(gr, "x", errors.New("no")), "forbidden"},
		{"unauthorized", apierrors.NewUnauthorized("who"), "unauthorized"},
		{"invalid", apierrors.NewInvalid(schema.GroupKind{Kind: "ConfigMap"}, "x", nil), "invalid"},
		{"bad request", apierrors.NewBadRequest("bad"), "bad_request"},
		{"method not allowed", apierrors.NewMethodNotSupported(gr, "patch"), "method_not_allowed"},
		{"too many requests", apierrors.NewTooManyRequests("slow down", 1), "too_many_requests"},
		{"timeout", apierrors.NewTimeoutError("slow", 1), "timeout"},
		{"server timeout", apierrors.NewServerTimeout(gr, "create", 1), "timeout"},
		{"gone", apierrors.NewResourceExpired("old"), "gone"},
		{"internal", apierrors.NewInternalError(errors.New("oops")), "server_error"},
		{"unavailable", apierrors.NewServiceUnavailable("down"), "server_error"},
		{"canceled", fmt.Errorf("x: %w", context.Canceled), "canceled"},
		{"deadline", context.DeadlineExceeded, "canceled"},
		{"connection", &net.OpError{Op: "dial", Err: errors.New("refused")}, "error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := metrics.Result(tt.err); got != tt.want {
				t.Errorf("Result(%v) = %q, want %q", tt.err, got, tt.want)
			}
		})
	}
}

func configMap(name, rv string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("v1")
	u.SetKind("ConfigMap")
	u.SetNamespace("ns")
	u.SetName(name)
	u.SetUID(ktypes.UID("uid-" + name))
	u.SetResourceVersion(rv)
	return u
}

var cmQuery = accumulator.QuerySpec{Name: "ConfigMaps", GVK: schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}}

// TestWatchFeedsCollectors drives an Accumulator observed by a Watch and reads the collectors.
func TestWatchFeedsCollectors(t *testing.T) {
	m := metrics.New(func() float64 { return 7 })
	reg := prometheus.NewRegistry()
	if err := m.Register(reg); err != nil {
		t.Fatal(err)
	}
	w := m.Watch([]string{"ConfigMaps"}, time.Now())
	acc, err := accumulator.New([]accumulator.QuerySpec{cmQuery}, accumulator.Options{Observer: w})
	if err != nil {
		t.Fatal(err)
	}
	defer acc.Stop()
	st := acc.Store("ConfigMaps")
	if err := st.Replace([]any{configMap("a", "1"), configMap("b", "2")}, "2"); err != nil {
		t.Fatal(err)
	}
	for _, rv := range []string{"3", "4"} {
		if err := st.Update(configMap("a", rv)); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Delete(configMap("b", "5")); err != nil {
		t.Fatal(err)
	}
	var snap struct{ ConfigMaps []*corev1.ConfigMap }
	if _, err := acc.Update(context.Background(), &snap); err != nil {
		t.Fatal(err)
	}
	if err := st.Replace([]any{configMap("a", "4")}, "6"); err != nil { // a relist
		t.Fatal(err)
	}
	w.ListWatchError("ConfigMaps")
	w.ListWatchError("NoSuchQuery") // ignored
	m.Write("create", nil)
	m.WaitObjects(3)
	m.WaitObjects(-1)

	want := `
# HELP kates_accumulator_objects Number of objects the stores of the Accumulators' queries hold, by query.
# TYPE kates_accumulator_objects gauge
kates_accumulator_objects{kind="ConfigMap",query="ConfigMaps"} 1
# HELP kates_accumulator_events_total Total number of events the stores of the Accumulators' queries received, by query and type (add, update, delete; replace for a complete list).
# TYPE kates_accumulator_events_total counter
kates_accumulator_events_total{kind="ConfigMap",query="ConfigMaps",type="add"} 0
kates_accumulator_events_total{kind="ConfigMap",query="ConfigMaps",type="delete"} 1
kates_accumulator_events_total{kind="ConfigMap",query="ConfigMaps",type="replace"} 2
kates_accumulator_events_total{kind="ConfigMap",query="ConfigMaps",type="update"} 2
# HELP kates_accumulator_coalesced_events_total Total number of events that changed an object whose previous change no Update had taken yet, so that no Update saw that change on its own (load shedding), by query.
# TYPE kates_accumulator_coalesced_events_total counter
kates_accumulator_coalesced_events_total{kind="ConfigMap",query="ConfigMaps"} 3
# HELP kates_accumulator_relists_total Total number of complete lists after the first (after a 410 Gone or a broken watch), by query.
# TYPE kates_accumulator_relists_total counter
kates_accumulator_relists_total{kind="ConfigMap",query="ConfigMaps"} 1
# HELP kates_accumulator_list_watch_errors_total Total number of list and watch requests of the Accumulators' queries that failed, by query.
# TYPE kates_accumulator_list_watch_errors_total counter
kates_accumulator_list_watch_errors_total{kind="ConfigMap",query="ConfigMaps"} 1
# HELP kates_client_writes_total Total number of write requests the Client sent, by verb and result.
# TYPE kates_client_writes_total counter
kates_client_writes_total{result="success",verb="create"} 1
# HELP kates_client_coherence_records Number of write records the Client holds so that its Accumulators show its writes before their watches deliver them.
# TYPE kates_client_coherence_records gauge
kates_client_coherence_records 7
# HELP kates_wait_objects Number of objects that the Client's Waits in progress wait for and that have not reached the status waited for yet.
# TYPE kates_wait_objects gauge
kates_wait_objects 2
`
	names := []string{metrics.ObjectsName, metrics.EventsName, metrics.CoalescedName, metrics.RelistsName,
		metrics.ListWatchErrorsName, metrics.WritesName, metrics.CoherenceName, metrics.WaitObjectsName}
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), names...); err != nil {
		t.Error(err)
	}
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	updates := -1
	for _, f := range families {
		if f.GetName() == metrics.UpdateDurationName && len(f.GetMetric()) == 1 &&
			f.GetMetric()[0].GetLabel()[0].GetValue() == "ConfigMaps" {
			updates = int(f.GetMetric()[0].GetHistogram().GetSampleCount())
		}
	}
	if updates != 1 {
		t.Errorf("Update histogram of queries=ConfigMaps counts %d, want 1 (one series)", updates)
	}

	// Stop gives the held objects back; the counters stay.
	w.Stop()
	after := `
# HELP kates_accumulator_objects Number of objects the stores of the Accumulators' queries hold, by query.
# TYPE kates_accumulator_objects gauge
kates_accumulator_objects{kind="ConfigMap",query="ConfigMaps"} 0
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(after), metrics.ObjectsName); err != nil {
		t.Errorf("after Stop: %v", err)
	}
}
