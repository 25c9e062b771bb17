package testenv

import (
	"bufio"
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// SimulateLabel, set on a Pod (in a workload's Pod template, say), makes kwok play a container
// that cannot start, as a kubelet would show it, instead of a Ready one: with the value
// "CrashLoopBackOff" the Pod runs, its containers restarted three times and waiting in
// CrashLoopBackOff; with any other value, such as "ImagePullBackOff" or "ErrImagePull", the Pod
// stays Pending, its containers waiting with that reason. Tests of failure explanations use it
// to run against the real controllers. See stages/pod-container-waiting.yaml.
const SimulateLabel = "kates.dev/simulate"

//go:embed stages/pod-container-waiting.yaml
var simulateStage []byte

// withSimulatedFailures returns kwok's stages (a multi-document file) with testenv's own
// appended, and with kwok's pod-ready stage told to leave alone the Pods that SimulateLabel
// marks: a Pod whose image cannot be pulled stays Pending and not Ready, which is just what
// pod-ready would otherwise pick up and make Ready. The edit is made on the parsed stage, so it
// holds whatever order kwok writes its selector in.
func withSimulatedFailures(stages []byte) ([]byte, error) {
	var out bytes.Buffer
	edited := false
	docs := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(stages)))
	for {
		doc, err := docs.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("testenv: kwok stages: %w", err)
		}
		var stage map[string]any
		if err := yaml.Unmarshal(doc, &stage); err != nil {
			return nil, fmt.Errorf("testenv: kwok stage: %w", err)
		}
		if stage == nil {
			continue // an empty document
		}
		if name, _, _ := unstructured.NestedString(stage, "metadata", "name"); name == "pod-ready" {
			if err := excludeSimulated(stage); err != nil {
				return nil, err
			}
			b, err := yaml.Marshal(stage)
			if err != nil {
				return nil, err
			}
			doc, edited = b, true
		}
		out.WriteString("---\n")
		out.Write(bytes.TrimSpace(doc))
		out.WriteString("\n")
	}
	if !edited {
		return nil, fmt.Errorf("testenv: kwok's stages have no pod-ready stage to exempt simulated Pods from")
	}
	out.WriteString("---\n")
	out.Write(bytes.TrimSpace(simulateStage))
	out.WriteString("\n")
	return out.Bytes(), nil
}

// excludeSimulated adds "the Pod has no SimulateLabel" to a stage's selector.
func excludeSimulated(stage map[string]any) error {
	exprs, found, err := unstructured.NestedSlice(stage, "spec", "selector", "matchExpressions")
	if err != nil || !found {
		return fmt.Errorf("testenv: kwok stage pod-ready has no selector to narrow (%v)", err)
	}
	exprs = append(exprs, map[string]any{
		"key":      fmt.Sprintf(".metadata.labels[%q]", SimulateLabel),
		"operator": "DoesNotExist",
	})
	return unstructured.SetNestedSlice(stage, exprs, "spec", "selector", "matchExpressions")
}
