package kstatus

import (
	"os"
	"strings"
	"testing"
)

// servedKinds are the kinds a kube-apiserver 1.37 serves by default (kubectl
// api-resources on a plain API server, with the aggregator and apiextensions), by API
// group. Create-only kinds and subresources (Binding, TokenReview, Scale, Eviction, ...)
// are left out: nothing stored to judge.
var servedKinds = map[string][]string{
	"": {"Pod", "PodTemplate", "ReplicationController", "Service", "Endpoints", "Node", "Event",
		"LimitRange", "ResourceQuota", "Namespace", "Secret", "ServiceAccount", "PersistentVolume",
		"PersistentVolumeClaim", "ComponentStatus", "ConfigMap"},
	"admissionregistration.k8s.io": {"ValidatingWebhookConfiguration", "MutatingWebhookConfiguration",
		"ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding", "MutatingAdmissionPolicy",
		"MutatingAdmissionPolicyBinding"},
	"apiextensions.k8s.io":         {"CustomResourceDefinition"},
	"apiregistration.k8s.io":       {"APIService"},
	"apps":                         {"Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "ControllerRevision"},
	"autoscaling":                  {"HorizontalPodAutoscaler"},
	"batch":                        {"Job", "CronJob"},
	"certificates.k8s.io":          {"CertificateSigningRequest", "ClusterTrustBundle", "PodCertificateRequest"},
	"coordination.k8s.io":          {"Lease"},
	"discovery.k8s.io":             {"EndpointSlice"},
	"events.k8s.io":                {"Event"},
	"flowcontrol.apiserver.k8s.io": {"FlowSchema", "PriorityLevelConfiguration"},
	"networking.k8s.io":            {"Ingress", "IngressClass", "NetworkPolicy", "IPAddress", "ServiceCIDR"},
	"node.k8s.io":                  {"RuntimeClass"},
	"policy":                       {"PodDisruptionBudget"},
	"rbac.authorization.k8s.io":    {"Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding"},
	"resource.k8s.io":              {"DeviceClass", "DeviceTaintRule", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice"},
	"scheduling.k8s.io":            {"PriorityClass"},
	"storage.k8s.io": {"StorageClass", "VolumeAttachment", "CSINode", "CSIDriver", "CSIStorageCapacity",
		"VolumeAttributesClass"},
	"storagemigration.k8s.io": {"StorageVersionMigration"},
}

// TestEveryServedKindIsCovered keeps the promise of the package documentation: every
// kind served by default has a rule, or the documentation names it (with the reason the
// generic rules suit it) in its Kinds section.
func TestEveryServedKindIsCovered(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	start, end := strings.Index(text, "// # Kinds"), strings.Index(text, "// # Reasons callers match")
	if start < 0 || end < start {
		t.Fatalf("doc.go has no Kinds section before Reasons callers match")
	}
	section := strings.NewReplacer("//", " ", "\n", " ", ",", " ", ".", " ", ":", " ", ";", " ").Replace(text[start:end])
	words := map[string]bool{}
	for _, w := range strings.Fields(section) {
		words[w] = true
	}
	for group, kinds := range servedKinds {
		for _, kind := range kinds {
			if rules[groupKind{group, kind}] == nil && !words[kind] {
				t.Errorf("%s (group %q) has no rule and the Kinds section of doc.go does not name it", kind, group)
			}
		}
	}
}
