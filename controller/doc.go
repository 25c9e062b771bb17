// Package controller runs a controller on a kates view: the user declares the view (queries
// and a snapshot struct, as for kates.Client.Watch) and a Reconcile for the primary kind, and
// the Controller does the rest — which objects to reconcile and when, workers, retries,
// election or shards, metrics, probes and shutdown.
//
//	type Snapshot struct {
//		WebApps     map[string]*WebApp
//		Deployments map[string]*kates.Deployment
//	}
//
//	ctrl, err := controller.New(client, controller.Options[Snapshot]{
//		Name:    "webapp",
//		Queries: []kates.Query{{Name: "WebApps", Kind: "webapps.example.com"}, {Name: "Deployments", Kind: "deployments.apps"}},
//		For:     "WebApps",
//		Reconcile: func(ctx context.Context, req controller.Request[Snapshot]) (controller.Result, error) {
//			var app *WebApp
//			req.View(func(s *Snapshot) { app = s.WebApps[req.Key.String()] })
//			...
//		},
//		Election: &election.Options{Lease: "webapp-controller", Release: true},
//	})
//	err = ctrl.Run(ctx)
//
// # What is reconciled, and when
//
// Reconciles are per key (a primary object's namespace and name) and driven by the view's
// deltas (Accumulator.UpdateWithDeltas): a change to a primary object queues its key; a change
// to another query's object queues the key of its controller owner reference of the primary
// kind, or the keys Options.Map returns for it. Objects that did not change are not
// reconciled: a change costs its own reconcile, not a pass over every object. When the view
// first becomes complete, and at each new term or shard, every key in it is queued once.
//
// Load shedding stays: a key is queued once however many changes arrive while it waits, and
// a key that changes while it is reconciled is queued again once it returns — one reconcile
// running and one waiting at most, each of the latest view, and never two of one key at once.
// Options.Workers reconcile different keys at once. Fresh changes go ahead of retries,
// requeues and resyncs.
//
// A reconcile that fails (returns an error or panics) is retried for that key after a
// jittered exponential backoff (Options.BackoffBase to BackoffMax), without holding up other
// keys; a fresh change to the key reconciles it at once. A reconcile may ask to run again
// after a delay (Result.RequeueAfter); Options.Resync queues every key periodically.
//
// # The view
//
// A reconcile reads the view through Request.View, which holds a read lock for as long as
// its function runs: the view's maps are updated in place between reconciles, and the
// objects in it never change once handed out, so take what you need and let go. The view is
// at least as new as the change that queued the key.
//
// # Election and shards
//
// With Options.Election, replicas elect one leader (election.Run, fenced: no write of a
// reconcile reaches the API server outside its term) and the others stand by with a complete,
// current view, taking over without listing. With Options.Shards, every replica reconciles the
// keys of the virtual shards it owns (shards.Run), each with its shard's fenced context; a
// shard handed away leaves the view as moved, which reconciles nothing. Choose election for up
// to tens of thousands of objects or when reconciles must see everything; shards when one
// replica's memory or reconcile rate is not enough.
//
// # Shutdown
//
// When Run's context ends the controller takes no more keys, lets the reconciles in flight
// finish with their contexts intact (up to Options.ShutdownTimeout, then cancels them), gives
// the Lease or shards up (when their Release is set) and returns once every goroutine it
// started has.
//
// # Metrics, probes, logs and traces
//
// Options.Metrics receives metrics shaped as controller-runtime's, labelled with the
// controller's name: kates_controller_reconcile_total{result} (success, error,
// requeue_after, panic), kates_controller_reconcile_errors_total,
// kates_controller_reconcile_time_seconds, kates_controller_queue_depth,
// kates_controller_queue_wait_seconds, kates_controller_active_workers,
// kates_controller_max_concurrent_reconciles, kates_controller_leader and
// kates_controller_shards_owned (with metrics.ShardHandovers' when sharded). Register
// metrics.Register(client, reg) beside them for the view's own.
//
// Options.Serve serves /metrics over HTTPS to callers whose bearer token a TokenReview
// authenticates and a SubjectAccessReview allows to get the non-resource URL /metrics (as
// kubebuilder's scaffold does), with a reloaded or self-signed certificate, or in plain HTTP
// on the loopback interface when asked; and /healthz and /readyz (Controller.Ready) in plain
// HTTP for the kubelet.
//
// Each reconcile's context carries a logr.Logger (logr.FromContextOrDiscard) with the key and
// a reconcile ID, and, with Options.Tracer, an OpenTelemetry span, the parent of the spans of
// the client's requests when its transport is instrumented.
package controller
