// Package related judges an object through the objects related to it: a workload through the
// Pods (and, for a Deployment, the ReplicaSets) it controls, and a Service through its
// EndpointSlices and the Pods it selects.
//
// kstatus judges each object alone, so a Deployment stuck at "Available: 0/3" says nothing of
// why, and a Service is Current as soon as it exists. Here a workload that is not Current is
// explained by the Pod that blocks it, and made Failed when that Pod will not start without
// someone's help, so a wait stops at once instead of at its timeout; and a Service is Current
// only once its ready endpoints are exactly the Pods it should send traffic to.
//
// The package opens no connection: callers (kates' Wait, Status and WatchStatus) gather the
// related objects into an Index, from watches or from fresh reads, and call Judge. So every
// rule here is tested from fixtures alone (testdata/related).
//
// # A verdict across kinds
//
// A Service's verdict combines three kinds, each from its own watch, and watches of different
// kinds lag one another: a Deployment can read "5/5 available" while the Pod watch still shows
// two of those Pods unready, and then a Service looks done with three endpoints. Judge cannot
// see that lag; an Index is only as consistent as the reads that filled it. A caller that ends
// a wait on a Current Service must confirm the verdict on reads taken in causal order, after
// the verdict was reached: first the Pods, then the EndpointSlices (the effect of the Pods),
// each a consistent read. kates' Wait does this before it returns.
//
//	x := related.NewIndex()
//	for _, p := range pods { x.Add("Pod", related.Entry{Object: p}) }
//	for _, s := range slices { x.Add("EndpointSlice", related.Entry{Object: s}) }
//	st, _ := related.Judge(related.Entry{Object: svc, Status: *res}, x, time.Now())
package related
