package kates

import (
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/version"
)

// The aliases below let a program name the common kinds, and the machinery around them, through
// kates alone. They are aliases, not new types: a *kates.Pod is a *corev1.Pod.

// Objects and metadata.
type (
	// Object is any Kubernetes object: metadata plus a kind.
	Object = interface {
		metav1.Object
		runtime.Object
	}
	Unstructured         = unstructured.Unstructured
	ObjectMeta           = metav1.ObjectMeta
	TypeMeta             = metav1.TypeMeta
	ListMeta             = metav1.ListMeta
	OwnerReference       = metav1.OwnerReference
	LabelSelector        = metav1.LabelSelector
	Time                 = metav1.Time
	Condition            = metav1.Condition
	Quantity             = resource.Quantity
	IntOrString          = intstr.IntOrString
	UID                  = types.UID
	GroupVersionKind     = schema.GroupVersionKind
	GroupVersionResource = schema.GroupVersionResource
	VersionInfo          = version.Info
)

// Per-call options and patch types.
type (
	CreateOptions = metav1.CreateOptions
	GetOptions    = metav1.GetOptions
	UpdateOptions = metav1.UpdateOptions
	PatchOptions  = metav1.PatchOptions
	DeleteOptions = metav1.DeleteOptions
	ListOptions   = metav1.ListOptions
	ApplyOptions  = metav1.ApplyOptions
	PatchType     = types.PatchType
	PodLogOptions = corev1.PodLogOptions
)

// Patch types accepted by Client.Patch.
const (
	JSONPatchType           = types.JSONPatchType
	MergePatchType          = types.MergePatchType
	StrategicMergePatchType = types.StrategicMergePatchType
	ApplyPatchType          = types.ApplyPatchType
)

// Core kinds.
type (
	Pod                   = corev1.Pod
	PodSpec               = corev1.PodSpec
	PodTemplateSpec       = corev1.PodTemplateSpec
	Container             = corev1.Container
	Service               = corev1.Service
	ServiceSpec           = corev1.ServiceSpec
	ServicePort           = corev1.ServicePort
	ConfigMap             = corev1.ConfigMap
	Secret                = corev1.Secret
	Namespace             = corev1.Namespace
	Node                  = corev1.Node
	ServiceAccount        = corev1.ServiceAccount
	Event                 = corev1.Event
	Endpoints             = corev1.Endpoints
	PersistentVolume      = corev1.PersistentVolume
	PersistentVolumeClaim = corev1.PersistentVolumeClaim
	EndpointSlice         = discoveryv1.EndpointSlice
)

// Workload, networking, policy, RBAC and extension kinds.
type (
	Deployment                     = appsv1.Deployment
	DeploymentSpec                 = appsv1.DeploymentSpec
	ReplicaSet                     = appsv1.ReplicaSet
	StatefulSet                    = appsv1.StatefulSet
	DaemonSet                      = appsv1.DaemonSet
	Job                            = batchv1.Job
	CronJob                        = batchv1.CronJob
	HorizontalPodAutoscaler        = autoscalingv2.HorizontalPodAutoscaler
	Ingress                        = networkingv1.Ingress
	IngressClass                   = networkingv1.IngressClass
	NetworkPolicy                  = networkingv1.NetworkPolicy
	PodDisruptionBudget            = policyv1.PodDisruptionBudget
	Role                           = rbacv1.Role
	RoleBinding                    = rbacv1.RoleBinding
	ClusterRole                    = rbacv1.ClusterRole
	ClusterRoleBinding             = rbacv1.ClusterRoleBinding
	Lease                          = coordinationv1.Lease
	ValidatingWebhookConfiguration = admissionregistrationv1.ValidatingWebhookConfiguration
	MutatingWebhookConfiguration   = admissionregistrationv1.MutatingWebhookConfiguration
)
