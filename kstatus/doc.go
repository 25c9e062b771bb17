// Package kstatus answers, for any Kubernetes object, whether its latest change has been
// fully reconciled, and if not, why. It reads only the object: it never talks to a
// cluster, so the object must be whole, status included, as a Get or a watch returns it.
//
//	res, err := kstatus.Compute(u)
//	if err != nil {
//		// A field kstatus reads is malformed; res is Unknown and says which.
//	}
//	switch res.Status {
//	case kstatus.CurrentStatus:
//		// done
//	case kstatus.FailedStatus:
//		return fmt.Errorf("%s %s: %s", u.GetKind(), u.GetName(), res.Message)
//	default:
//		// wait for the next version of u
//	}
//
// # Statuses
//
// Compute returns InProgress, Failed, Current, Terminating or Unknown. NotFound is for
// callers that look objects up: it is what a deleted object has. Failed is not final:
// a controller that retries may still bring the object to Current, but nothing in the
// object suggests waiting will, so a caller waiting for Current should stop and report.
//
// # Rules
//
// Compute applies these rules in order; the first that decides wins.
//
//  1. metadata.deletionTimestamp is set: Terminating.
//  2. status.observedGeneration is present and differs from metadata.generation:
//     InProgress. The controller has not seen the latest spec, so nothing else in status
//     describes it.
//  3. The standard conditions: Stalled True is Failed, Reconciling True is InProgress,
//     with the condition's reason and message. Stalled wins if both are True.
//  4. The kind's own rule, for built-in kinds whose controllers publish counts or
//     conditions of their own: Deployment, StatefulSet, DaemonSet, ReplicaSet,
//     ReplicationController, Pod, Job,
//     PersistentVolumeClaim, Service, Ingress, CustomResourceDefinition, APIService,
//     HorizontalPodAutoscaler and Namespace; ConfigMap, Secret, ServiceAccount, CronJob,
//     PodDisruptionBudget and the RBAC kinds are always Current. Each rule's comment says
//     what it checks and why. A kind with a rule never reaches rule 5.
//  5. The Ready condition: True is Current; False or Unknown is InProgress, with its
//     reason and message.
//  6. Otherwise Current.
//
// Numbers are read in any form a decoder or a person produces (int64, int32, float64,
// json.Number, a numeric string). A value that is not a whole number where one is needed
// makes the Result Unknown, with a *FieldError naming the field: Compute never panics on
// a malformed object, and never reports InProgress for one, which would leave a waiter
// hanging on an object that cannot change.
//
// # Why Ready is honoured
//
// The kstatus conventions ask controllers for abnormal-true conditions, Reconciling and
// Stalled, whose absence means all is well. Few controllers publish them; most publish
// Ready, which is normal-true. Ignoring Ready would make every such custom resource
// Current the moment it is created, so rule 5 honours it. The price: Ready False cannot
// say whether the controller is making progress or is stuck, so it is InProgress, and a
// wait on it ends only at the caller's timeout.
//
// # Why a running Job is InProgress
//
// The common use of a Job in a manifest is a migration or a setup step that what follows
// depends on. "Apply, then wait" must wait for it to finish. cli-utils' kstatus reports a
// running Job Current, so such waits return early; here it is InProgress until Complete,
// and Failed once the Job gives up. A suspended Job is Current: nothing will happen
// until someone resumes it. Suspended means the controller has set the Suspended
// condition True; a Job whose spec.suspend is set but not yet acted on may still be
// running its pods, and is InProgress (reason JobSuspending).
//
// # Why a paused Deployment is Failed
//
// A Deployment paused (spec.paused) before its rollout finished will not finish it until
// someone runs kubectl rollout resume: the controller creates no new ReplicaSet, scales
// no old one down, and stops the progress deadline clock, so no timeout inside the object
// will ever fire either. A caller waiting for it can only run out its own timeout; what it
// wants is to hear at once that the wait is blocked on a person, and on what. So Compute
// reports it Failed, reason DeploymentPaused (the controller's own reason for the pause),
// and Wait stops there naming it, as it does for any Failed object. kubectl rollout
// status waits on such a Deployment to its timeout without naming the pause; Helm's
// checker calls it never ready (ready, with its PausedAsReady option); Argo CD gives it a
// status of its own, Suspended. Only the rollout is blocked: a paused Deployment still
// scales and its pods still become ready, so a paused Deployment short of pods but with
// no old pods left is InProgress, and one with nothing left to do is Current. A suspended
// Job is different: its spec asks for no pods, and once the controller has stopped them
// the Job is exactly what its spec says, hence Current.
//
// # Limits
//
// Some states cannot be told apart from the object alone. Do not expect Compute to:
//   - wait for a custom resource whose controller has not acted yet (no status at all)
//     or that sets Ready only once it is True: nothing in it says there is anything to
//     wait for, so rule 6 says Current. Controllers should publish observedGeneration and
//     Ready False (or Reconciling True) while they work; MarkReconciling does both.
//   - see through to other objects: a Deployment is judged by its own counts, a Service
//     by its own load balancer status, not by its Pods or Endpoints.
//   - finish a wait on an Ingress whose controller never publishes an address, on a
//     LoadBalancer Service in a cluster with no load-balancer controller (kind, minikube,
//     most CI clusters; reason LoadBalancerPending says so), or on a claim whose storage
//     class binds on first use and that no Pod uses yet: all stay InProgress.
//
// # Messages
//
// A Result's Message is for a person deciding what to do. For InProgress it names the
// first count that is short as have/want ("Available: 1/3", "Updated: 2/4"); for Failed
// it quotes the controller's reason and message ("Progress deadline exceeded: ReplicaSet
// "web-5d9c7b8f4" has timed out progressing.", "Container web: CrashLoopBackOff: ...").
// Messages do not repeat the object's kind and name (except where the sentence needs the
// kind, as in rule 2's): every caller that shows a Result shows the object beside it. Do
// not match on messages; they may be improved. Match on Status, or on the Reason of the
// Result's condition.
//
// # Writing conditions
//
// Augment writes a computed status into an object as the standard conditions, for tools
// that read only those. Controller authors use SetCondition, RemoveCondition,
// MarkReconciling, MarkStalled and MarkReady, on typed objects (through the Object
// interface) or unstructured ones (through Unstructured). They apply the API conventions
// that hand-written helpers often miss: lastTransitionTime moves only when a status
// flips, observedGeneration is stamped from metadata.generation, and Reconciling,
// Stalled and Ready never contradict one another.
//
// # Cost
//
// Compute runs once per watched object per change, beside the decode of that object, so
// it is built to cost a small fraction of the decode: it walks the decoded maps in place,
// copies nothing, and formats a message only when the status is not Current. A Current
// Deployment costs one allocation, the Result. BenchmarkCompute and
// BenchmarkDecodeBaseline measure both.
package kstatus
