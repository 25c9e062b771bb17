package kates

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kates-dev/kates/kstatus"
)

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
		{"Failed stays Failed when not met", "Synced", ObjectStatus{Status: kstatus.FailedStatus, Message: "stalled"}, obj(1, ready("True", 1)),
			ObjectStatus{Status: kstatus.FailedStatus, Message: "stalled"}},
		{"met although Failed (a wait for a Job's Failed condition)", "Ready", ObjectStatus{Status: kstatus.FailedStatus, Message: "stalled"}, obj(1, ready("True", 1)),
			ObjectStatus{Status: kstatus.CurrentStatus, Reason: "ConditionMet", Message: "condition Ready is True: Checked: all good"}},
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

// TestJSONPathGoal: WaitOptions.JSONPath as kubectl wait --for=jsonpath=... takes it.
func TestJSONPathGoal(t *testing.T) {
	pod := func(phase string, ingress ...any) *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "v1", "kind": "Pod",
			"metadata": map[string]any{"name": "p", "namespace": "ns"},
			"status": map[string]any{"phase": phase, "restarts": int64(3), "ready": true,
				"conditions":   []any{map[string]any{"type": "Ready", "status": "True"}, map[string]any{"type": "Initialized", "status": "True"}},
				"loadBalancer": map[string]any{"ingress": ingress}},
		}}
	}
	inProgress := ObjectStatus{Status: kstatus.InProgressStatus, Message: "Pod is Pending"}
	tests := []struct {
		name, goal string
		st         ObjectStatus
		u          *unstructured.Unstructured
		want       ObjectStatus
	}{
		{"value met", "{.status.phase}=Running", inProgress, pod("Running"),
			ObjectStatus{Status: kstatus.CurrentStatus, Reason: "JSONPathMet", Message: "{.status.phase} is Running"}},
		{"without braces", ".status.phase=Running", inProgress, pod("Running"),
			ObjectStatus{Status: kstatus.CurrentStatus, Reason: "JSONPathMet", Message: "{.status.phase} is Running"}},
		{"without the leading dot", "{status.phase}=Running", inProgress, pod("Running"),
			ObjectStatus{Status: kstatus.CurrentStatus, Reason: "JSONPathMet", Message: "{.status.phase} is Running"}},
		{"value not met", "{.status.phase}=Running", inProgress, pod("Pending"),
			ObjectStatus{Status: kstatus.InProgressStatus, Reason: "JSONPathNotMet", Message: "{.status.phase} is Pending, want Running"}},
		{"a number as text", "{.status.restarts}=3", inProgress, pod("Pending"),
			ObjectStatus{Status: kstatus.CurrentStatus, Reason: "JSONPathMet", Message: "{.status.restarts} is 3"}},
		{"a bool as text", "{.status.ready}=true", inProgress, pod("Pending"),
			ObjectStatus{Status: kstatus.CurrentStatus, Reason: "JSONPathMet", Message: "{.status.ready} is true"}},
		{"a filter holding =", `{.status.conditions[?(@.type=="Ready")].status}=True`, inProgress, pod("Pending"),
			ObjectStatus{Status: kstatus.CurrentStatus, Reason: "JSONPathMet", Message: `{.status.conditions[?(@.type=="Ready")].status} is True`}},
		{"several values never equal one", "{.status.conditions[*].status}=True", inProgress, pod("Pending"),
			ObjectStatus{Status: kstatus.InProgressStatus, Reason: "JSONPathNotMet", Message: `{.status.conditions[*].status} is ["True","True"], want True`}},
		{"any value: set", "{.status.loadBalancer.ingress}", inProgress, pod("Running", map[string]any{"ip": "1.2.3.4"}),
			ObjectStatus{Status: kstatus.CurrentStatus, Reason: "JSONPathMet", Message: `{.status.loadBalancer.ingress} is [{"ip":"1.2.3.4"}]`}},
		{"any value: an empty list is not set", "{.status.loadBalancer.ingress}", inProgress, pod("Running"),
			ObjectStatus{Status: kstatus.InProgressStatus, Reason: "JSONPathMissing", Message: "{.status.loadBalancer.ingress} is not set; Pod is Pending"}},
		{"missing field", "{.status.podIP}", inProgress, pod("Running"),
			ObjectStatus{Status: kstatus.InProgressStatus, Reason: "JSONPathMissing", Message: "{.status.podIP} is not set; Pod is Pending"}},
		{"met although Failed", "{.status.phase}=Failed", ObjectStatus{Status: kstatus.FailedStatus, Message: "Pod failed"}, pod("Failed"),
			ObjectStatus{Status: kstatus.CurrentStatus, Reason: "JSONPathMet", Message: "{.status.phase} is Failed"}},
		{"Failed stays Failed when not met", "{.status.phase}=Running", ObjectStatus{Status: kstatus.FailedStatus, Message: "Pod failed"}, pod("Failed"),
			ObjectStatus{Status: kstatus.FailedStatus, Message: "Pod failed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := parseJSONPathGoal(tt.goal)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, g.judge(tt.st, tt.u)); diff != "" {
				t.Errorf("judge mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestWaitOptionsValidate: bad and conflicting goals are refused before anything is watched.
func TestWaitOptionsValidate(t *testing.T) {
	tests := []struct {
		name    string
		opts    WaitOptions
		wantErr string // "" for none
	}{
		{"zero", WaitOptions{}, ""},
		{"jsonpath", WaitOptions{JSONPath: "{.status.phase}=Running"}, ""},
		{"exists", WaitOptions{Exists: true}, ""},
		{"unclosed jsonpath", WaitOptions{JSONPath: "{.status.phase"}, "no closing brace"},
		{"empty jsonpath value", WaitOptions{JSONPath: "{.status.phase}="}, "empty value"},
		{"empty jsonpath", WaitOptions{JSONPath: "{}"}, "empty expression"},
		{"jsonpath that does not parse", WaitOptions{JSONPath: "{.status[}=x"}, "does not parse"},
		{"two goals", WaitOptions{Condition: "Ready", JSONPath: "{.a}"}, "a Condition and a JSONPath cannot be waited for together"},
		{"exists and deleted", WaitOptions{Exists: true, For: kstatus.NotFoundStatus}, "Exists cannot be waited for together with NotFound"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.opts.Validate()
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("Validate() = %v, want nil", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("Validate() = %v, want an error containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestExistsGoal(t *testing.T) {
	u := &unstructured.Unstructured{}
	got := existsGoal{}.judge(ObjectStatus{Status: kstatus.InProgressStatus, Message: "Available: 0/3"}, u)
	want := ObjectStatus{Status: kstatus.CurrentStatus, Reason: "Exists", Message: "exists; InProgress: Available: 0/3"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("judge mismatch (-want +got):\n%s", diff)
	}
	nf := ObjectStatus{Status: kstatus.NotFoundStatus, Message: "Not found"}
	if diff := cmp.Diff(nf, existsGoal{}.judge(nf, nil)); diff != "" {
		t.Errorf("judge of a missing object (-want +got):\n%s", diff)
	}
}
