// Package examples holds runnable programs that show kates at work against a real cluster. Each
// is a main package taking the cluster from --kubeconfig (default $KUBECONFIG, then
// ~/.kube/config); `make demo` starts a local cluster and runs them, and each has a test that runs
// it against the test cluster.
//
//   - crud: create, read, update, patch, apply, list and delete, typed and unstructured.
//   - snapshot: a controller's loop over Deployments, Services and ConfigMaps, with statuses.
//   - loadshedding: a slow consumer that always gets the latest view of a fast-changing object.
//   - wait: apply objects and wait until they are reconciled, with progress.
//   - validate: check rendered objects against the cluster's schemas, apply only the valid ones.
//   - controller: a complete controller for a custom resource, elected among warm standbys,
//     with status conditions and metrics.
package examples
