package kstatus

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestExplainDetail(t *testing.T) {
	rs, err := LoadRules([]byte(phaseRules), "phase.yaml")
	if err != nil {
		t.Fatal(err)
	}
	finishes := &KindInfo{HasStatus: true, PhaseValues: []string{"Pending", "Running", "Succeeded"}}
	for _, tc := range []struct {
		name   string
		obj    map[string]any
		opts   Options
		want   Explanation
		result Status
	}{{
		name: "status rule",
		obj:  widget(t, "{phase: Spoilt, message: disk full}"),
		opts: Options{Rules: rs},
		want: Explanation{
			Rule: "cel:example/Widget",
			Step: `status rule "example/Widget" for Widget`,
			Expressions: []RuleExpression{
				{"inProgress", "!has(status.phase) || status.phase == 'Mash'"},
				{"failed", "status.phase == 'Spoilt'"},
				{"current", "status.phase == 'Served'"},
				{"message", "has(status.message) ? status.message : ''"},
			},
			Fields: []FieldValue{{"status.phase", "Spoilt"}, {"status.message", "disk full"}},
		},
		result: FailedStatus,
	}, {
		name: "running phase of a kind that finishes",
		obj:  widget(t, "{phase: Running}"),
		opts: Options{NoLibrary: true, Kinds: func(string, string) *KindInfo { return finishes }},
		want: Explanation{
			Rule: "infer:phase",
			Step: "rule 6c, the phases and states of status",
			Fields: []FieldValue{
				{"status.phase", "Running"},
				{"(definition) status.phase values", "Pending, Running, Succeeded"},
			},
		},
		result: InProgressStatus,
	}, {
		// A job-like kind with no condition yet but Created: the object's own spec marks it
		// as a run (backoffLimit), so rule 6f holds it InProgress and says why.
		name: "run begun, not finished",
		obj: map[string]any{"apiVersion": "example.com/v1", "kind": "Training", "metadata": map[string]any{"name": "t", "generation": int64(1)},
			"spec":   map[string]any{"backoffLimit": int64(3)},
			"status": map[string]any{"conditions": []any{map[string]any{"type": "Created", "status": "True", "reason": "TrainingCreated"}}}},
		opts: Options{NoLibrary: true},
		want: Explanation{
			Rule: "infer:finishes",
			Step: "rule 6f, a kind that finishes, not finished",
			Fields: []FieldValue{
				{"status.conditions[Created]", "True (TrainingCreated)"},
				{"(kind) finishes", "spec has backoffLimit"},
			},
		},
		result: InProgressStatus,
	}, {
		name: "stale Ready",
		obj:  withGeneration(widget(t, "{conditions: [{type: Ready, status: 'True', reason: Done, observedGeneration: 1}]}"), 2),
		want: Explanation{
			Rule: "ready",
			Step: "rule 5, the Ready condition",
			Fields: []FieldValue{
				{"status.conditions[Ready]", "True (Done)"},
				{"status.conditions[Ready].observedGeneration", "1"},
				{"metadata.generation", "2"},
			},
		},
		result: InProgressStatus,
	}, {
		name: "built-in rule",
		obj: map[string]any{"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": map[string]any{"name": "data", "generation": int64(2)},
			"spec":   map[string]any{"storageClassName": "fast", "resources": map[string]any{}},
			"status": map[string]any{"phase": "Pending", "observedGeneration": int64(2)}},
		want: Explanation{
			Rule: "kind:PersistentVolumeClaim",
			Step: "rule 4, the built-in rule for PersistentVolumeClaim",
			// Each field once, though rule 2 read observedGeneration first.
			Fields: []FieldValue{{"metadata.generation", "2"}, {"status.observedGeneration", "2"},
				{"spec.storageClassName", "fast"}, {"status.phase", "Pending"}},
		},
		result: InProgressStatus,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ExplainDetail(objectFromMap(tc.obj), tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			res, _ := ComputeWith(objectFromMap(tc.obj), tc.opts)
			if diff := cmp.Diff(res, got.Result); diff != "" || res.Status != tc.result {
				t.Errorf("ExplainDetail().Result = %+v, want %s and ComputeWith's (-want +got):\n%s", got.Result, tc.result, diff)
			}
			got.Result = nil
			if diff := cmp.Diff(&tc.want, got); diff != "" {
				t.Errorf("ExplainDetail() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestKindInfoFromCRD(t *testing.T) {
	crd := objectFromMap(map[string]any{"spec": map[string]any{"versions": []any{
		map[string]any{"name": "v1", "storage": false, "schema": map[string]any{"openAPIV3Schema": map[string]any{
			"properties": map[string]any{"status": map[string]any{"properties": map[string]any{
				"state": map[string]any{"type": "string", "enum": []any{"Up", "Down"}}}}}}}},
		map[string]any{"name": "v2", "storage": true, "schema": map[string]any{"openAPIV3Schema": map[string]any{
			"properties": map[string]any{"status": map[string]any{"properties": map[string]any{
				"health": map[string]any{"properties": map[string]any{
					"status": map[string]any{"type": "string", "enum": []any{"Healthy", "Degraded"}}}}}}}}}},
		map[string]any{"name": "v3", "storage": false},
		map[string]any{"name": "v4", "storage": false, "subresources": map[string]any{"status": map[string]any{},
			"scale": map[string]any{"specReplicasPath": ".spec.size", "statusReplicasPath": ".status.members.ready", "labelSelectorPath": ".status.selector"}}},
	}}})
	for _, tc := range []struct {
		version string
		want    *KindInfo
		ok      bool
	}{
		{"v1", &KindInfo{HasStatus: true, PhaseValues: []string{"Up", "Down"}}, true},
		{"", &KindInfo{HasStatus: true, PhaseValues: []string{"Healthy", "Degraded"}}, true}, // the storage version
		{"v3", &KindInfo{}, true},
		{"v4", &KindInfo{HasStatus: true, ScaleSpecReplicas: ".spec.size", ScaleStatusReplicas: ".status.members.ready", ScaleSelector: ".status.selector"}, true},
		{"v9", nil, false},
	} {
		got, ok := KindInfoFromCRD(crd, tc.version)
		if diff := cmp.Diff(tc.want, got); diff != "" || ok != tc.ok {
			t.Errorf("KindInfoFromCRD(%q) = %v (-want +got):\n%s", tc.version, ok, diff)
		}
	}
	if _, ok := KindInfoFromCRD(nil, "v1"); ok {
		t.Errorf("KindInfoFromCRD(nil) ok")
	}
}

func TestScaleShort(t *testing.T) {
	info := &KindInfo{ScaleSpecReplicas: ".spec.size", ScaleStatusReplicas: ".status.members.ready"}
	obj := func(size, ready any) map[string]any {
		return map[string]any{"spec": map[string]any{"size": size}, "status": map[string]any{"members": map[string]any{"ready": ready}}}
	}
	withSelector := &KindInfo{ScaleSpecReplicas: ".spec.size", ScaleStatusReplicas: ".status.members.ready", ScaleSelector: ".status.selector"}
	selected := func(m map[string]any, sel string) map[string]any {
		m["status"].(map[string]any)["selector"] = sel
		return m
	}
	stopped := func(m map[string]any) map[string]any {
		m["spec"].(map[string]any)["shutdown"] = true
		return m
	}
	for _, tc := range []struct {
		name  string
		info  *KindInfo
		m     map[string]any
		short bool
	}{
		{"short", info, obj(int64(3), int64(1)), true},
		{"met", info, obj(int64(3), int64(3)), false},
		{"more than asked", info, obj(int64(3), int64(4)), false},
		{"status count absent", info, obj(int64(3), nil), false},
		// Absent beside the scale's selector written: 0, as the scale subresource reads it.
		{"status count absent, selector written", withSelector, selected(obj(int64(3), nil), "app=x"), true},
		{"status count absent, selector empty", withSelector, selected(obj(int64(3), nil), ""), false},
		{"status count absent, nothing asked", withSelector, selected(obj(int64(0), nil), "app=x"), false},
		// A stop asked (rpaas-operator's spec.shutdown) wants none, whatever spec.size says.
		{"stop asked", info, stopped(obj(int64(3), int64(1))), false},
		// Beside the replicas asked (kf's App: spec.instances.stopped beside
		// spec.instances.replicas).
		{"stop asked beside the replicas", &KindInfo{ScaleSpecReplicas: ".spec.app.size", ScaleStatusReplicas: ".status.members.ready"},
			map[string]any{"spec": map[string]any{"app": map[string]any{"size": int64(3), "stopped": true}},
				"status": map[string]any{"members": map[string]any{"ready": int64(1)}}}, false},
		{"not a number", info, obj("three", int64(1)), false},
		{"no scale subresource", &KindInfo{}, obj(int64(3), int64(1)), false},
		{"not a plain path", &KindInfo{ScaleSpecReplicas: ".spec.size", ScaleStatusReplicas: ".status.members[0]"}, obj(int64(3), int64(1)), false},
	} {
		sp, st, want, have, short := scaleShort(tc.info, tc.m)
		if short != tc.short {
			t.Errorf("%s: scaleShort = %v, want %v", tc.name, short, tc.short)
		}
		wantHave := int64(1)
		if tc.m["status"].(map[string]any)["members"].(map[string]any)["ready"] == nil {
			wantHave = 0
		}
		if short && (sp != "spec.size" || st != "status.members.ready" || want != 3 || have != wantHave) {
			t.Errorf("%s: scaleShort = %q %q %d %d", tc.name, sp, st, want, have)
		}
	}
}

// withGeneration sets obj's metadata.generation to gen, and returns obj.
func withGeneration(obj map[string]any, gen int64) map[string]any {
	obj["metadata"].(map[string]any)["generation"] = gen
	return obj
}
