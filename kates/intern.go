package kates

import (
	"sync"
	"sync/atomic"

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
// of each. An interner replaces them, once per object as it reaches the store, by one canonical
// copy, so the view holds each such string once. Each Watch has its own interner, which goes
// with it. A plain map under a read-write lock costs a few tens of nanoseconds a string, several
// times less than unique.Make, which matters at a hundred strings a Pod; the map is bounded
// (maxInternedStrings), after which new strings are left alone. Only strings up to maxInterned
// bytes are interned: longer ones (data, certificates) rarely repeat, and hashing them costs
// more than it saves.

const (
	maxInterned        = 128
	maxInternedStrings = 1 << 17
)

// Annotation values.
//
// Whether an annotation's values repeat depends on its key: a checksum or a revision is one of a
// kind, while a source repository, a change cause or a scrape port is the same on every object a
// tool deploys. So the interner learns it per key: the values of a key are interned while at
// least half of them are found already; once a key's first valueTrials values have been looked
// up, a key below that stops being interned (and stops adding its values to the interner).

const valueTrials = 256

// valueStats counts, for one annotation key, the values looked up and the ones found.
type valueStats struct{ looked, found atomic.Int32 }

// repeats reports whether the key's values are worth interning.
func (v *valueStats) repeats() bool {
	looked := v.looked.Load()
	return looked < valueTrials || v.found.Load()*2 >= looked
}

// interner holds the canonical copies of one Watch's strings. It is safe for concurrent use.
type interner struct {
	mu sync.RWMutex
	m  map[string]string
	// values holds, by annotation key, how often its values were found interned.
	values map[string]*valueStats
}

func newInterner() *interner {
	return &interner{m: make(map[string]string, 4096), values: map[string]*valueStats{}}
}

// internBatch interns the strings of one object under one read lock of its interner, rather
// than taking the lock for each string (a hundred times a Pod, from two reflectors at once):
// strings it does not find are noted and added under one write lock at the end.
type internBatch struct {
	in     *interner
	misses []string
	// newKeys are annotation keys values has no stats for yet.
	newKeys []string
	// shared is set when the object's shared parts are to be left alone.
	shared bool
}

// intern returns the canonical copy of s, or s, noting it to be added. The read lock is held.
func (b *internBatch) intern(s string) string {
	if s == "" || len(s) > maxInterned {
		return s
	}
	if c, ok := b.in.m[s]; ok {
		return c
	}
	if len(b.in.m) < maxInternedStrings {
		b.misses = append(b.misses, s)
	}
	return s
}

// add makes the strings intern did not find canonical, the first copy of each winning.
func (b *internBatch) add() {
	if len(b.misses) == 0 && len(b.newKeys) == 0 {
		return
	}
	b.in.mu.Lock()
	defer b.in.mu.Unlock()
	for _, k := range b.newKeys {
		if _, ok := b.in.values[k]; !ok && len(b.in.values) < maxValueKeys {
			b.in.values[k] = &valueStats{}
		}
	}
	for _, s := range b.misses {
		if _, ok := b.in.m[s]; !ok && len(b.in.m) < maxInternedStrings {
			b.in.m[s] = s
		}
	}
}

// maxValueKeys bounds how many annotation keys an interner keeps stats for; the values of
// keys past it are not interned.
const maxValueKeys = 4096

// annotationValue is v, the value of the interned annotation key k, interned if k's values
// repeat (see valueStats), else v itself.
func (in *internBatch) annotationValue(k, v string) string {
	if v == "" || len(v) > maxInterned {
		return v
	}
	st := in.in.values[k]
	switch {
	case st == nil:
		if len(in.in.values) < maxValueKeys {
			in.newKeys = append(in.newKeys, k)
			return in.intern(v)
		}
	case st.repeats():
		c, found := in.in.m[v]
		st.looked.Add(1)
		if found {
			st.found.Add(1)
			return c
		}
		if len(in.in.m) < maxInternedStrings {
			in.misses = append(in.misses, v)
		}
	}
	return v
}

// internT is intern for the string types of API enums (protocols, policies, phases).
func internT[T ~string](in *internBatch, s T) T { return T(in.intern(string(s))) }

func (in *internBatch) internAll(ss []string) {
	for i := range ss {
		ss[i] = in.intern(ss[i])
	}
}

// mapValues says what internMap does with a map's values.
type mapValues int

const (
	keepValues       mapValues = iota // values are left as they are
	internValues                      // values are interned as keys are
	annotationValues                  // values are interned while their key's repeat (annotationValue)
)

// internMap interns m's keys, and its values as values says. A Go map keeps the key it was
// first given, so the entries are taken out (onto the stack, for the usual small maps) and put
// back with interned keys: clear keeps the map's storage, so this allocates nothing, where
// building a new map would allocate as much as the decode did.
func (in *internBatch) internMap(m map[string]string, values mapValues) {
	if len(m) == 0 {
		return
	}
	var buf [16][2]string
	kv := buf[:0]
	for k, v := range m {
		kv = append(kv, [2]string{k, v})
	}
	clear(m)
	for _, e := range kv {
		k := in.intern(e[0])
		switch values {
		case internValues:
			e[1] = in.intern(e[1])
		case annotationValues:
			e[1] = in.annotationValue(k, e[1])
		}
		m[k] = e[1]
	}
}

// internObject interns obj's metadata, and for the kinds whose objects repeat most (Pods, and
// the Pod templates of workloads) their spec and status strings. With shared set (objects
// decoded with a protodecode.Sharer), it leaves alone the parts a Sharer decodes: internPart
// interned them as they were decoded, and with SharedValues other objects read them meanwhile.
func (in *interner) internObject(obj runtime.Object, shared bool) {
	b := &internBatch{in: in, shared: shared}
	in.mu.RLock()
	if m, ok := obj.(metav1.Object); ok {
		b.internMeta(m)
	}
	switch o := obj.(type) {
	case *corev1.Pod:
		b.internPodSpec(&o.Spec)
		b.internPodStatus(&o.Status)
	case *corev1.ConfigMap:
		// The keys of an application's configuration repeat across its ConfigMaps; the
		// values are mostly its own.
		b.internMap(o.Data, keepValues)
	}
	in.mu.RUnlock()
	b.add()
}

func (in *internBatch) internMeta(m metav1.Object) {
	m.SetNamespace(in.intern(m.GetNamespace()))
	m.SetGenerateName(in.intern(m.GetGenerateName()))
	if !in.shared {
		in.internMap(m.GetLabels(), internValues)
	}
	// Annotation values are interned by key, as far as they repeat (see valueStats):
	// checksums, revisions, timestamps and JSON are one of a kind.
	in.internMap(m.GetAnnotations(), annotationValues)
	if !in.shared {
		in.internOwnerReferences(m.GetOwnerReferences())
	}
	in.internAll(m.GetFinalizers())
}

func (in *internBatch) internPodSpec(s *corev1.PodSpec) {
	s.NodeName, s.ServiceAccountName, s.DeprecatedServiceAccount = in.intern(s.NodeName), in.intern(s.ServiceAccountName), in.intern(s.DeprecatedServiceAccount)
	s.SchedulerName, s.Hostname, s.Subdomain, s.PriorityClassName = in.intern(s.SchedulerName), in.intern(s.Hostname), in.intern(s.Subdomain), in.intern(s.PriorityClassName)
	in.internMap(s.NodeSelector, internValues)
	s.RestartPolicy, s.DNSPolicy = internT(in, s.RestartPolicy), internT(in, s.DNSPolicy)
	for i := range s.SchedulingGates {
		s.SchedulingGates[i].Name = in.intern(s.SchedulingGates[i].Name)
	}
	if in.shared {
		return // containers, volumes and tolerations are shared
	}
	in.internContainers(s.InitContainers)
	in.internContainers(s.Containers)
	in.internVolumes(s.Volumes)
	in.internTolerations(s.Tolerations)
}

func (in *internBatch) internContainers(cs []corev1.Container) {
	for i := range cs {
		in.internContainer(&cs[i])
	}
}

func (in *internBatch) internVolumes(vs []corev1.Volume) {
	for i := range vs {
		v := &vs[i]
		v.Name = in.intern(v.Name)
		switch {
		case v.ConfigMap != nil:
			v.ConfigMap.Name = in.intern(v.ConfigMap.Name)
		case v.Secret != nil:
			v.Secret.SecretName = in.intern(v.Secret.SecretName)
		case v.PersistentVolumeClaim != nil:
			v.PersistentVolumeClaim.ClaimName = in.intern(v.PersistentVolumeClaim.ClaimName)
		}
	}
}

func (in *internBatch) internTolerations(ts []corev1.Toleration) {
	for i := range ts {
		t := &ts[i]
		t.Key, t.Value = in.intern(t.Key), in.intern(t.Value)
	}
}

func (in *internBatch) internOwnerReferences(refs []metav1.OwnerReference) {
	for i := range refs {
		refs[i].APIVersion, refs[i].Kind, refs[i].Name = in.intern(refs[i].APIVersion), in.intern(refs[i].Kind), in.intern(refs[i].Name)
	}
}

// internPart interns a part protodecode.Sharer decoded (see Sharer.SetIntern), before any
// object holds it: the parts internObject leaves alone in typed objects. Parts of other types
// (affinity, security context) are left as they are.
func (in *interner) internPart(v any) {
	b := &internBatch{in: in}
	in.mu.RLock()
	switch p := v.(type) {
	case map[string]string: // labels
		b.internMap(p, internValues)
	case []metav1.OwnerReference:
		b.internOwnerReferences(p)
	case []corev1.Container:
		b.internContainers(p)
	case []corev1.Volume:
		b.internVolumes(p)
	case []corev1.Toleration:
		b.internTolerations(p)
	}
	in.mu.RUnlock()
	b.add()
}

func (in *internBatch) internContainer(c *corev1.Container) {
	c.Name, c.Image, c.WorkingDir = in.intern(c.Name), in.intern(c.Image), in.intern(c.WorkingDir)
	c.TerminationMessagePath = in.intern(c.TerminationMessagePath)
	in.internAll(c.Command)
	in.internAll(c.Args)
	c.ImagePullPolicy, c.TerminationMessagePolicy = internT(in, c.ImagePullPolicy), internT(in, c.TerminationMessagePolicy)
	for i := range c.Ports {
		c.Ports[i].Name, c.Ports[i].Protocol = in.intern(c.Ports[i].Name), internT(in, c.Ports[i].Protocol)
	}
	for i := range c.Env {
		e := &c.Env[i]
		e.Name, e.Value = in.intern(e.Name), in.intern(e.Value)
		if e.ValueFrom != nil && e.ValueFrom.FieldRef != nil {
			f := e.ValueFrom.FieldRef
			f.APIVersion, f.FieldPath = in.intern(f.APIVersion), in.intern(f.FieldPath)
		}
	}
	for i := range c.VolumeMounts {
		m := &c.VolumeMounts[i]
		m.Name, m.MountPath, m.SubPath = in.intern(m.Name), in.intern(m.MountPath), in.intern(m.SubPath)
	}
	for _, p := range []*corev1.Probe{c.LivenessProbe, c.ReadinessProbe, c.StartupProbe} {
		if p != nil && p.HTTPGet != nil {
			p.HTTPGet.Path, p.HTTPGet.Host, p.HTTPGet.Scheme = in.intern(p.HTTPGet.Path), in.intern(p.HTTPGet.Host), internT(in, p.HTTPGet.Scheme)
		}
	}
}

func (in *internBatch) internPodStatus(s *corev1.PodStatus) {
	s.HostIP, s.NominatedNodeName = in.intern(s.HostIP), in.intern(s.NominatedNodeName)
	s.Phase, s.QOSClass = internT(in, s.Phase), internT(in, s.QOSClass)
	for i := range s.HostIPs {
		s.HostIPs[i].IP = in.intern(s.HostIPs[i].IP)
	}
	for i := range s.Conditions {
		c := &s.Conditions[i]
		c.Type, c.Status, c.Reason, c.Message = internT(in, c.Type), internT(in, c.Status), in.intern(c.Reason), in.intern(c.Message)
	}
	for _, cs := range [][]corev1.ContainerStatus{s.InitContainerStatuses, s.ContainerStatuses} {
		for i := range cs {
			c := &cs[i]
			c.Name, c.Image, c.ImageID = in.intern(c.Name), in.intern(c.Image), in.intern(c.ImageID)
		}
	}
}
