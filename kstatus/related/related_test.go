package related

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/yaml"

	"github.com/kates-dev/kates/kstatus"
)

// readRelatedFixture reads a file of testdata/related: the object to judge, then its
// related objects, each as the accumulator would hold it at now (status computed then).
func readRelatedFixture(t *testing.T, name string, now time.Time) (Entry, *Index) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "related", name))
	if err != nil {
		t.Fatal(err)
	}
	var entries []Entry
	dec := yaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	for {
		u := &unstructured.Unstructured{}
		err := dec.Decode(&u.Object)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if u.Object == nil {
			continue
		}
		res, err := kstatus.ComputeAt(u, now)
		if err != nil {
			t.Fatalf("%s: %s: %v", name, u.GetName(), err)
		}
		entries = append(entries, Entry{Object: u, Status: *res})
	}
	x := NewIndex()
	for _, e := range entries[1:] {
		x.Add(e.Object.GetKind(), e)
	}
	return entries[0], x
}

func TestJudgeObjectExplainsThroughRelatedObjects(t *testing.T) {
	t0 := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	type want struct {
		Status  kstatus.Status
		Reason  string
		Message string
		Related []string // names
		Recheck time.Time
	}
	tests := []struct {
		name    string
		fixture string
		at      time.Duration // after t0
		want    want
	}{
		{
			name: "crash loop of the latest revision fails a Deployment", fixture: "deployment-crashloop.yaml", at: 5 * time.Second,
			want: want{Status: kstatus.FailedStatus, Reason: "CrashLoopBackOff",
				Message: "Available: 2/3; pod web-new-b: Container web: CrashLoopBackOff: back-off 1m20s restarting failed container",
				Related: []string{"web-new-b"}},
		},
		{
			name: "a rollout names the new Pod and ignores the terminating one", fixture: "deployment-rollout.yaml", at: 5 * time.Second,
			want: want{Status: kstatus.InProgressStatus, Reason: "LessUpdated",
				Message: "Updated: 1/2; pod web-3-a is Pending: container web is ContainerCreating",
				Related: []string{"web-3-a"}},
		},
		{
			name: "unschedulable within the window is InProgress until it runs out", fixture: "deployment-unschedulable.yaml", at: 5 * time.Second,
			want: want{Status: kstatus.InProgressStatus, Reason: "LessAvailable",
				Message: "Available: 0/2; pod stuck-1-a: Unschedulable: 0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector. (and 1 more pod)",
				Related: []string{"stuck-1-a"}, Recheck: t0.Add(kstatus.ScheduleWindow)},
		},
		{
			name: "unschedulable past the window fails a Deployment", fixture: "deployment-unschedulable.yaml", at: 20 * time.Second,
			want: want{Status: kstatus.FailedStatus, Reason: "Unschedulable",
				Message: "Available: 0/2; pod stuck-1-a: Unschedulable: 0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector. (and 1 more pod)",
				Related: []string{"stuck-1-a"}},
		},
		{
			name: "a spec the controller has not seen is not judged by old Pods", fixture: "deployment-not-observed.yaml", at: 5 * time.Second,
			want: want{Status: kstatus.InProgressStatus, Reason: "LatestGenerationNotObserved",
				Message: "Deployment generation is 3, but latest observed generation is 2"},
		},
		{
			name: "image pull failure of the update revision fails a StatefulSet", fixture: "statefulset-imagepull.yaml", at: 5 * time.Second,
			want: want{Status: kstatus.FailedStatus, Reason: "ImagePullBackOff",
				Message: `Ready: 1/2; pod db-1: Container db: ImagePullBackOff: Back-off pulling image "example.com/db:nope"`,
				Related: []string{"db-1"}},
		},
		{
			name: "a Job's failed Pod is named but the Job retries", fixture: "job-failed-pod.yaml", at: 5 * time.Second,
			want: want{Status: kstatus.InProgressStatus, Reason: "JobRunning",
				Message: "Job running: succeeded 0/1, active 1, failed 1; pod migrate-a failed: container migrate: Error (exit code 1)",
				Related: []string{"migrate-a"}},
		},
		{
			name: "a Service counts its ready endpoints", fixture: "service-endpoints.yaml", at: 5 * time.Second,
			want: want{Status: kstatus.CurrentStatus, Message: "Service is ready; endpoints: 2/3 ready"},
		},
		{
			name: "a Service waits for a ready Pod to become its endpoint", fixture: "service-endpoints-lag.yaml", at: 5 * time.Second,
			want: want{Status: kstatus.InProgressStatus, Reason: "EndpointsNotReady",
				Message: "Endpoints: 1/1 ready; pod web-b is ready but not an endpoint yet"},
		},
		{
			name: "a Service is InProgress while a deleted Pod is still its ready endpoint", fixture: "service-endpoints-after-rollout.yaml", at: 5 * time.Second,
			want: want{Status: kstatus.InProgressStatus, Reason: "EndpointsOutdated",
				Message: "Endpoints: 3/3 ready; pod web-1-a is still a ready endpoint but no longer exists"},
		},
		{
			name: "a narrowed selector leaves endpoints the Service should no longer reach", fixture: "service-endpoints-narrowed.yaml", at: 5 * time.Second,
			want: want{Status: kstatus.InProgressStatus, Reason: "EndpointsOutdated",
				Message: "Endpoints: 4/4 ready; pod web-stable-a is still a ready endpoint but no longer matches the selector (and 1 more pod)"},
		},
		{
			name: "a terminating Pod still a ready endpoint holds the Service up", fixture: "service-endpoints-terminating.yaml", at: 5 * time.Second,
			want: want{Status: kstatus.InProgressStatus, Reason: "EndpointsOutdated",
				Message: "Endpoints: 2/2 ready; pod web-b is still a ready endpoint but is terminating"},
		},
		{
			name: "ready endpoints exactly the ready Pods is Current", fixture: "service-endpoints-exact.yaml", at: 5 * time.Second,
			want: want{Status: kstatus.CurrentStatus, Message: "Service is ready; endpoints: 2/4 ready"},
		},
		{
			name: "publishNotReadyAddresses wants every Pod with an address", fixture: "service-publish-not-ready.yaml", at: 5 * time.Second,
			want: want{Status: kstatus.InProgressStatus, Reason: "EndpointsNotReady",
				Message: "Endpoints: 2/2 ready; pod db-2 is not a ready endpoint yet"},
		},
		{
			name: "each address family of a dual-stack Service must reach every Pod", fixture: "service-dual-stack.yaml", at: 5 * time.Second,
			want: want{Status: kstatus.InProgressStatus, Reason: "EndpointsNotReady",
				Message: "Endpoints: 2/2 ready; pod web-b is ready but not an endpoint yet"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			now := t0.Add(tt.at)
			e, x := readRelatedFixture(t, tt.fixture, now)
			st, recheck := Judge(e, x, now)
			got := want{Status: st.Status, Reason: st.Reason, Message: st.Message, Recheck: recheck}
			for _, r := range st.Related {
				got.Related = append(got.Related, r.Name)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Judge mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestJudgeObjectWithoutRelatedIsKstatus(t *testing.T) {
	now := time.Date(2030, 1, 1, 0, 0, 5, 0, time.UTC)
	e, _ := readRelatedFixture(t, "deployment-crashloop.yaml", now)
	st, _ := Judge(e, nil, now)
	if st.Status != e.Status.Status || st.Message != e.Status.Message || st.Related != nil {
		t.Errorf("Judge without related = %v, want kstatus' %s: %s", st, e.Status.Status, e.Status.Message)
	}
}

func TestPodPhrase(t *testing.T) {
	tests := []struct {
		name string
		in   ObjectStatus
		want string
	}{
		{"unschedulable", ObjectStatus{Name: "p", Reason: "Unschedulable", Message: "Pod unschedulable: 0/2 nodes are available"}, "pod p: Unschedulable: 0/2 nodes are available"},
		{"not yet scheduled", ObjectStatus{Name: "p", Reason: "PodNotScheduled", Message: "Pod not yet scheduled: no node"}, "pod p: Unschedulable: no node"},
		{"sentence about the pod", ObjectStatus{Name: "p", Reason: "PodNotReady", Message: "Pod is Pending"}, "pod p is Pending"},
		{"container message", ObjectStatus{Name: "p", Reason: "ErrImagePull", Message: "Container c: ErrImagePull"}, "pod p: Container c: ErrImagePull"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := podPhrase(&tt.in); got != tt.want {
				t.Errorf("podPhrase() = %q, want %q", got, tt.want)
			}
		})
	}
}
