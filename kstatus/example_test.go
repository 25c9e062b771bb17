package kstatus_test

import (
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/kates-dev/kates/kstatus"
)

// decode turns a manifest into an unstructured object, as a program that reads files
// would.
func decode(manifest string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	if err := yaml.Unmarshal([]byte(manifest), &u.Object); err != nil {
		panic(err)
	}
	return u
}

// A Deployment part way through a rollout: InProgress, naming the count that is short.
func ExampleCompute() {
	u := decode(`
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default, generation: 2}
spec: {replicas: 3}
status:
  observedGeneration: 2
  replicas: 3
  updatedReplicas: 3
  readyReplicas: 1
  availableReplicas: 1
`)
	res, err := kstatus.Compute(u)
	if err != nil {
		fmt.Println("malformed:", err)
		return
	}
	fmt.Println(res.Status, "-", res.Message)
	for _, c := range res.Conditions {
		fmt.Println(c.Type, c.Status, c.Reason)
	}
	// Output:
	// InProgress - Available: 1/3
	// Reconciling True LessAvailable
}

// A Job that is still running is InProgress, so "apply, then wait" waits for it.
func ExampleCompute_job() {
	u := decode(`
apiVersion: batch/v1
kind: Job
metadata: {name: migrate, generation: 1}
spec: {completions: 1}
status: {startTime: "2026-03-01T10:00:00Z", active: 1}
`)
	res, _ := kstatus.Compute(u)
	fmt.Println(res.Status, "-", res.Message)
	// Output:
	// InProgress - Job running: succeeded 0/1, active 1
}

// A wait that cannot end without a person says so in its Reason, which programs match
// to decide what to do: here a Deployment paused mid-rollout, and a LoadBalancer Service
// on a cluster that may have no load-balancer controller.
func ExampleCompute_reasons() {
	for _, manifest := range []string{`
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, generation: 3, annotations: {deployment.kubernetes.io/revision: "2"}}
spec: {replicas: 3, paused: true}
status: {observedGeneration: 3, replicas: 3, updatedReplicas: 1, readyReplicas: 3, availableReplicas: 3}
`, `
apiVersion: v1
kind: Service
metadata: {name: web}
spec: {type: LoadBalancer}
status: {loadBalancer: {}}
`} {
		res, _ := kstatus.Compute(decode(manifest))
		fmt.Println(res.Status, res.Conditions[0].Reason)
	}
	// Output:
	// Failed DeploymentPaused
	// InProgress LoadBalancerPending
}

// Augment writes the computed status as the standard conditions, next to the
// controller's own, which it leaves alone.
func ExampleAugment() {
	u := decode(`
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, generation: 4}
spec: {replicas: 2}
status:
  observedGeneration: 4
  replicas: 2
  updatedReplicas: 2
  availableReplicas: 2
  readyReplicas: 2
  conditions:
  - {type: Available, status: "True", reason: MinimumReplicasAvailable}
  - type: Progressing
    status: "False"
    reason: ProgressDeadlineExceeded
    message: ReplicaSet "web-5d9c7b8f4" has timed out progressing.
`)
	// AugmentAt fixes the clock for the example; programs call Augment.
	if err := kstatus.AugmentAt(u, time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)); err != nil {
		fmt.Println(err)
		return
	}
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, c := range conds {
		c := c.(map[string]any)
		fmt.Println(c["type"], c["status"], c["reason"], c["lastTransitionTime"])
	}
	// Output:
	// Available True MinimumReplicasAvailable <nil>
	// Progressing False ProgressDeadlineExceeded <nil>
	// Stalled True ProgressDeadlineExceeded 2026-03-01T10:00:00Z
}

// A controller reports progress with the Mark helpers; Compute, in any tool watching
// the object, reads it back. Unstructured adapts an object with no Go type.
func ExampleMarkStalled() {
	u := decode(`
apiVersion: example.com/v1
kind: Widget
metadata: {name: w, generation: 3}
`)
	obj, err := kstatus.Unstructured(u)
	if err != nil {
		fmt.Println(err)
		return
	}
	kstatus.MarkReconciling(obj, "Provisioning", "creating volume")
	kstatus.MarkStalled(obj, "QuotaExceeded", "volume quota exceeded")
	for _, c := range obj.GetConditions() {
		fmt.Println(c.Type, c.Status, c.Reason, "generation", c.ObservedGeneration)
	}
	res, _ := kstatus.Compute(u)
	fmt.Println(res.Status, "-", res.Message)
	// Output:
	// Ready False QuotaExceeded generation 3
	// Stalled True QuotaExceeded generation 3
	// Failed - volume quota exceeded
}

// Gadget is a typed custom resource. Two methods make it an Object; GetGeneration comes
// with metav1.ObjectMeta.
type Gadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            struct {
		Conditions []metav1.Condition `json:"conditions,omitempty"`
	} `json:"status,omitempty"`
}

func (g *Gadget) GetConditions() []metav1.Condition  { return g.Status.Conditions }
func (g *Gadget) SetConditions(c []metav1.Condition) { g.Status.Conditions = c }

// SetCondition keeps lastTransitionTime while the status stays the same, and stamps
// observedGeneration.
func ExampleSetCondition() {
	g := &Gadget{}
	g.Generation = 5
	since := metav1.NewTime(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
	kstatus.SetCondition(g, metav1.Condition{Type: "Synced", Status: metav1.ConditionTrue, Reason: "Applied", LastTransitionTime: since})

	changed := kstatus.SetCondition(g, metav1.Condition{Type: "Synced", Status: metav1.ConditionTrue, Reason: "Reapplied"})
	c := kstatus.GetCondition(g, "Synced")
	fmt.Println(changed, c.Reason, c.ObservedGeneration, c.LastTransitionTime.UTC().Format(time.RFC3339))
	// Output:
	// true Reapplied 5 2026-03-01T09:00:00Z
}

// Aggregate folds the statuses of a set of objects for a caller waiting on all of them.
func ExampleAggregate() {
	fmt.Println(kstatus.Aggregate([]kstatus.Status{kstatus.CurrentStatus, kstatus.InProgressStatus}, kstatus.CurrentStatus))
	fmt.Println(kstatus.Aggregate([]kstatus.Status{kstatus.InProgressStatus, kstatus.FailedStatus}, kstatus.CurrentStatus))
	fmt.Println(kstatus.Aggregate([]kstatus.Status{kstatus.NotFoundStatus}, kstatus.NotFoundStatus))
	// Output:
	// InProgress
	// Failed
	// NotFound
}

// ParseStatus accepts every status, in any case, as a command-line flag would carry it.
func ExampleParseStatus() {
	s, err := kstatus.ParseStatus("notfound")
	fmt.Println(s, err)
	// Output:
	// NotFound <nil>
}

// A status rule for a kind that reports only a phase: without it the object would be
// Current as soon as it exists.
func ExampleComputeWith() {
	rules, err := kstatus.LoadRules([]byte(`
rules:
- name: example/Backup
  apiVersion: example.com/v1
  kind: Backup
  inProgress: "!has(status.phase) || status.phase in ['Pending', 'Running']"
  failed: status.phase == 'Failed'
  current: status.phase == 'Done'
  message: "has(status.message) ? status.message : ''"
`), "rules.yaml")
	if err != nil {
		panic(err)
	}
	for _, phase := range []string{"Running", "Failed"} {
		u := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "example.com/v1", "kind": "Backup",
			"metadata": map[string]any{"name": "nightly"},
			"status":   map[string]any{"phase": phase, "message": "phase " + phase},
		}}
		res, rule, _ := kstatus.Explain(u, kstatus.Options{Rules: rules})
		fmt.Println(res.Status, res.Message, rule)
	}
	// Output:
	// InProgress phase Running cel:example/Backup
	// Failed phase Failed cel:example/Backup
}

// A kind no rule covers is judged from what it publishes; its CRD says whether an object
// with no status is still waiting for its controller, and whether Running means done.
func ExampleKindInfoFromCRD() {
	crd := decode(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: voyages.example.com}
spec:
  group: example.com
  names: {kind: Voyage, plural: voyages}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          status:
            type: object
            properties:
              phase: {type: string, enum: [Pending, Running, Succeeded, Failed]}
`)
	info, _ := kstatus.KindInfoFromCRD(crd, "v1")
	opts := kstatus.Options{Kinds: func(apiVersion, kind string) *kstatus.KindInfo {
		if apiVersion == "example.com/v1" && kind == "Voyage" {
			return info
		}
		return nil
	}}
	for _, status := range []string{"", "status: {phase: Running}", "status: {phase: Succeeded}"} {
		u := decode("apiVersion: example.com/v1\nkind: Voyage\nmetadata: {name: v}\n" + status)
		res, _ := kstatus.ComputeWith(u, opts)
		fmt.Printf("%s: %s\n", res.Status, res.Message)
	}
	// Output:
	// InProgress: No status reported yet by the controller
	// InProgress: phase is Running (the kind's phases include a terminal success)
	// Current: phase is Succeeded
}
