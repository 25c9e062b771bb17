package kates

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kates-dev/kates/kstatus"
)

// readRelatedFixture reads a file of testdata/wait/related: the object to judge, then its
// related objects, each as the accumulator would hold it at now (status computed then).
func readRelatedFixture(t *testing.T, name string, now time.Time) (Entry[*unstructured.Unstructured], *relatedIndex) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "wait", "related", name))
	if err != nil {
		t.Fatal(err)
	}
	docs, err := splitDocuments(string(data))
	if err != nil {
		t.Fatal(err)
	}
	var entries []Entry[*unstructured.Unstructured]
	for _, doc := range docs {
		if doc == nil {
			continue
		}
		u := &unstructured.Unstructured{}
		if err := json.Unmarshal(doc, &u.Object); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		res, _ := kstatus.ComputeAt(u, now)
		entries = append(entries, Entry[*unstructured.Unstructured]{Object: u, Status: *res})
	}
	x := newRelatedIndex()
	for _, e := range entries[1:] {
		x.add(e.Object.GetKind(), e)
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
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			now := t0.Add(tt.at)
			e, x := readRelatedFixture(t, tt.fixture, now)
			st, recheck := judgeObject(e, x, now)
			got := want{Status: st.Status, Reason: st.Reason, Message: st.Message, Recheck: recheck}
			for _, r := range st.Related {
				got.Related = append(got.Related, r.Name)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("judgeObject mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestJudgeObjectWithoutRelatedIsKstatus(t *testing.T) {
	now := time.Date(2030, 1, 1, 0, 0, 5, 0, time.UTC)
	e, _ := readRelatedFixture(t, "deployment-crashloop.yaml", now)
	st, _ := judgeObject(e, nil, now)
	if st.Status != e.Status.Status || st.Message != e.Status.Message || st.Related != nil {
		t.Errorf("judgeObject without related = %v, want kstatus' %s: %s", st, e.Status.Status, e.Status.Message)
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

// TestConditionGoalJudges: how a condition wait judges one object, including a condition of an
// older generation and the statuses it leaves alone.
func TestConditionGoalJudges(t *testing.T) {
	obj := func(generation int64, conds ...map[string]any) *unstructured.Unstructured {
		list := make([]any, len(conds))
		for i, c := range conds {
			list[i] = c
		}
		return &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "example.com/v1", "kind": "Widget",
			"metadata": map[string]any{"name": "w", "namespace": "ns", "generation": generation},
			"status":   map[string]any{"conditions": list},
		}}
	}
	ready := func(status string, observed int64) map[string]any {
		return map[string]any{"type": "Ready", "status": status, "reason": "Checked", "message": "all good", "observedGeneration": observed}
	}
	current := ObjectStatus{Status: kstatus.CurrentStatus, Message: "Resource is current"}
	tests := []struct {
		name, goal string
		st         ObjectStatus
		u          *unstructured.Unstructured
		want       ObjectStatus
	}{
		{"met", "ready", current, obj(2, ready("True", 2)),
			ObjectStatus{Status: kstatus.CurrentStatus, Reason: "ConditionMet", Message: "condition Ready is True: Checked: all good"}},
		{"met with a status asked for", "Ready=false", current, obj(2, ready("False", 0)),
			ObjectStatus{Status: kstatus.CurrentStatus, Reason: "ConditionMet", Message: "condition Ready is False: Checked: all good"}},
		{"another status", "Ready", current, obj(2, ready("False", 2)),
			ObjectStatus{Status: kstatus.InProgressStatus, Reason: "ConditionNotMet", Message: "condition Ready is False, want True: Checked: all good"}},
		{"of an older generation", "Ready", current, obj(3, ready("True", 2)),
			ObjectStatus{Status: kstatus.InProgressStatus, Reason: "ConditionStale", Message: "condition Ready is of generation 2, the object's is 3"}},
		{"missing", "Synced", current, obj(1, ready("True", 1)),
			ObjectStatus{Status: kstatus.InProgressStatus, Reason: "ConditionMissing", Message: "no condition Synced yet; Resource is current"}},
		{"Failed stays Failed", "Ready", ObjectStatus{Status: kstatus.FailedStatus, Message: "stalled"}, obj(1, ready("True", 1)),
			ObjectStatus{Status: kstatus.FailedStatus, Message: "stalled"}},
		{"NotFound stays NotFound", "Ready", ObjectStatus{Status: kstatus.NotFoundStatus, Message: "Not found"}, obj(1),
			ObjectStatus{Status: kstatus.NotFoundStatus, Message: "Not found"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := parseCondition(tt.goal)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, g.judge(tt.st, tt.u)); diff != "" {
				t.Errorf("judge mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
