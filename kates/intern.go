package kates

import (
	"unique"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Interning.
//
// A controller's view of thousands of objects holds the same short strings thousands of times:
// namespaces, label and annotation keys and most label values, owner kinds, and in Pods the
// whole of a Deployment's template (images, container and volume names, env names and values,
// mount paths, probe paths) repeated for every replica. Every decoded object has its own copy
// of each. intern replaces them, once per object as it reaches the store, by one canonical copy
// (unique.Make: a concurrent map whose entries the GC reclaims once nothing uses them), so the
// view holds each such string once. Only strings up to maxInterned bytes are interned: longer
// ones (data, certificates) rarely repeat, and hashing them costs more than it saves.

const maxInterned = 128

func intern(s string) string {
	if s == "" || len(s) > maxInterned {
		return s
	}
	return unique.Make(s).Value()
}

// internT is intern for the string types of API enums (protocols, policies, phases).
func internT[T ~string](s T) T { return T(intern(string(s))) }

func internAll(ss []string) {
	for i := range ss {
		ss[i] = intern(ss[i])
	}
}

// internMap returns m with interned keys and values: a new map, since a Go map keeps the key
// it was first given.
func internMap(m map[string]string) map[string]string {
	if len(m) == 0 {
		return m
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[intern(k)] = intern(v)
	}
	return out
}

// internObject interns obj's metadata, and for the kinds whose objects repeat most (Pods, and
// the Pod templates of workloads) their spec and status strings.
func internObject(obj runtime.Object) {
	if m, ok := obj.(metav1.Object); ok {
		internMeta(m)
	}
	switch o := obj.(type) {
	case *corev1.Pod:
		internPodSpec(&o.Spec)
		internPodStatus(&o.Status)
	}
}

func internMeta(m metav1.Object) {
	m.SetNamespace(intern(m.GetNamespace()))
	m.SetGenerateName(intern(m.GetGenerateName()))
	if l := m.GetLabels(); len(l) > 0 {
		m.SetLabels(internMap(l))
	}
	if a := m.GetAnnotations(); len(a) > 0 {
		m.SetAnnotations(internMap(a))
	}
	if refs := m.GetOwnerReferences(); len(refs) > 0 {
		for i := range refs {
			refs[i].APIVersion, refs[i].Kind, refs[i].Name = intern(refs[i].APIVersion), intern(refs[i].Kind), intern(refs[i].Name)
		}
	}
	internAll(m.GetFinalizers())
}

func internPodSpec(s *corev1.PodSpec) {
	s.NodeName, s.ServiceAccountName, s.DeprecatedServiceAccount = intern(s.NodeName), intern(s.ServiceAccountName), intern(s.DeprecatedServiceAccount)
	s.SchedulerName, s.Hostname, s.Subdomain, s.PriorityClassName = intern(s.SchedulerName), intern(s.Hostname), intern(s.Subdomain), intern(s.PriorityClassName)
	for i := range s.InitContainers {
		internContainer(&s.InitContainers[i])
	}
	for i := range s.Containers {
		internContainer(&s.Containers[i])
	}
	for i := range s.Volumes {
		v := &s.Volumes[i]
		v.Name = intern(v.Name)
		switch {
		case v.ConfigMap != nil:
			v.ConfigMap.Name = intern(v.ConfigMap.Name)
		case v.Secret != nil:
			v.Secret.SecretName = intern(v.Secret.SecretName)
		case v.PersistentVolumeClaim != nil:
			v.PersistentVolumeClaim.ClaimName = intern(v.PersistentVolumeClaim.ClaimName)
		}
	}
	for i := range s.Tolerations {
		t := &s.Tolerations[i]
		t.Key, t.Value = intern(t.Key), intern(t.Value)
	}
	s.RestartPolicy, s.DNSPolicy = internT(s.RestartPolicy), internT(s.DNSPolicy)
	for i := range s.SchedulingGates {
		s.SchedulingGates[i].Name = intern(s.SchedulingGates[i].Name)
	}
	if len(s.NodeSelector) > 0 {
		s.NodeSelector = internMap(s.NodeSelector)
	}
}

func internContainer(c *corev1.Container) {
	c.Name, c.Image, c.WorkingDir = intern(c.Name), intern(c.Image), intern(c.WorkingDir)
	c.TerminationMessagePath = intern(c.TerminationMessagePath)
	internAll(c.Command)
	internAll(c.Args)
	c.ImagePullPolicy, c.TerminationMessagePolicy = internT(c.ImagePullPolicy), internT(c.TerminationMessagePolicy)
	for i := range c.Ports {
		c.Ports[i].Name, c.Ports[i].Protocol = intern(c.Ports[i].Name), internT(c.Ports[i].Protocol)
	}
	for i := range c.Env {
		e := &c.Env[i]
		e.Name, e.Value = intern(e.Name), intern(e.Value)
		if e.ValueFrom != nil && e.ValueFrom.FieldRef != nil {
			f := e.ValueFrom.FieldRef
			f.APIVersion, f.FieldPath = intern(f.APIVersion), intern(f.FieldPath)
		}
	}
	for i := range c.VolumeMounts {
		m := &c.VolumeMounts[i]
		m.Name, m.MountPath, m.SubPath = intern(m.Name), intern(m.MountPath), intern(m.SubPath)
	}
	for _, p := range []*corev1.Probe{c.LivenessProbe, c.ReadinessProbe, c.StartupProbe} {
		if p != nil && p.HTTPGet != nil {
			p.HTTPGet.Path, p.HTTPGet.Host, p.HTTPGet.Scheme = intern(p.HTTPGet.Path), intern(p.HTTPGet.Host), internT(p.HTTPGet.Scheme)
		}
	}
}

func internPodStatus(s *corev1.PodStatus) {
	s.HostIP, s.NominatedNodeName = intern(s.HostIP), intern(s.NominatedNodeName)
	s.Phase, s.QOSClass = internT(s.Phase), internT(s.QOSClass)
	for i := range s.HostIPs {
		s.HostIPs[i].IP = intern(s.HostIPs[i].IP)
	}
	for i := range s.Conditions {
		c := &s.Conditions[i]
		c.Type, c.Status, c.Reason, c.Message = internT(c.Type), internT(c.Status), intern(c.Reason), intern(c.Message)
	}
	for _, cs := range [][]corev1.ContainerStatus{s.InitContainerStatuses, s.ContainerStatuses} {
		for i := range cs {
			c := &cs[i]
			c.Name, c.Image, c.ImageID = intern(c.Name), intern(c.Image), intern(c.ImageID)
		}
	}
}
