package testenv

import (
	"strings"
	"testing"
)

func TestWithSimulatedFailuresNarrowsPodReady(t *testing.T) {
	in := []byte(`apiVersion: kwok.x-k8s.io/v1alpha1
kind: Stage
metadata: {name: node-initialize}
spec: {selector: {matchExpressions: [{key: .status.phase, operator: DoesNotExist}]}}
---
apiVersion: kwok.x-k8s.io/v1alpha1
kind: Stage
metadata: {name: pod-ready}
spec: {selector: {matchExpressions: [{key: .status.phase, operator: In, values: [Pending]}]}}
`)
	out, err := withSimulatedFailures(in)
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	if n := strings.Count(s, "kind: Stage"); n != 3 {
		t.Errorf("%d stages, want kwok's two and testenv's own:\n%s", n, s)
	}
	if !strings.Contains(s, `key: .metadata.labels["kates.dev/simulate"]`+"\n      operator: DoesNotExist") {
		t.Errorf("pod-ready not narrowed to Pods without %s:\n%s", SimulateLabel, s)
	}
	if strings.Count(s, "DoesNotExist") != 2+strings.Count(string(simulateStage), "DoesNotExist") {
		t.Errorf("a stage other than pod-ready was edited:\n%s", s)
	}

	if _, err := withSimulatedFailures([]byte("kind: Stage\nmetadata: {name: node-initialize}\n")); err == nil ||
		!strings.Contains(err.Error(), "pod-ready") {
		t.Errorf("stages without pod-ready: got %v, want an error naming pod-ready", err)
	}
}
