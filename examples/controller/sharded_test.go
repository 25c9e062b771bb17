package main

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/shards"
	"github.com/kates-dev/kates/testenv/katestest"
)

// shardedWrite returns the WebApp a write of the controller's was for, by its path: the
// WebApp's status, or the Deployment or Service named after it; "" for any other.
func shardedWrite(path string) string {
	parts := strings.Split(path, "/")
	for i, p := range parts {
		if (p == "webapps" || p == "deployments" || p == "services") && i+1 < len(parts) {
			return parts[i+1]
		}
	}
	return ""
}

// shardTerms holds every successful write of the replicas for a WebApp against the history
// of the Lease of that WebApp's shard: each must have taken effect while its writer held it.
func shardTerms(t *testing.T, reqs []katestest.Request, leases katestest.LeaseHistory, shardOfApp map[string]int) {
	t.Helper()
	writes, noops := 0, katestest.NoOps(reqs)
	for n, r := range reqs {
		if !r.IsWrite() || r.Status >= 300 || r.IsLease() {
			continue
		}
		if noops[n] {
			// It changed nothing (an apply of what was there already, from a view that had
			// not shown the object): its resourceVersion is the earlier write's.
			t.Logf("%s's %s %s changed nothing (resourceVersion %d is an earlier write's)", r.Replica, r.Method, r.Path, r.ResourceVersion)
			continue
		}
		app := shardedWrite(r.Path)
		i, ok := shardOfApp[app]
		if !ok {
			continue
		}
		writes++
		at, found := leases.At(shards.ShardLeaseName("webapp", i), r.ResourceVersion)
		if !found || at.Holder != r.Replica {
			t.Errorf("%s's %s %s took effect at resourceVersion %d while %q held shard %d's Lease",
				r.Replica, r.Method, r.Path, r.ResourceVersion, at.Holder, i)
		}
	}
	if writes == 0 {
		t.Error("no writes recorded")
	}
	t.Logf("%d writes for WebApps held against their shards' Lease histories", writes)
}

// TestShardedReplicas runs the controller sharded (-shards) as three processes, each behind a
// recording proxy, over 24 WebApps:
//
//   - together they reconcile every WebApp, and a change to every WebApp is applied exactly
//     once, by the replica that owns its shard;
//   - a killed replica's WebApps are reconciled again within about LeaseDuration, plus
//     RetryPeriod, plus the shard's bootstrap (measured);
//   - WebApps whose shard is handed away (to a replica that joins, or as one stops) leave the
//     view as moved, and none is ever seen deleted;
//   - no write for a WebApp takes effect while another replica holds its shard's Lease.
func TestShardedReplicas(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the controller as processes")
	}
	bin, err := buildController()
	if err != nil {
		t.Fatal(err)
	}
	const nShards, nApps = 8, 24
	base, ns := katestest.NewClient(t, katestest.Start(t), "kates-sharded-")
	installCRD(t, base)
	ctx := context.Background()
	s := &processSet{t: t, bin: bin, ns: ns, rec: katestest.NewRecorder(base.RESTConfig()), release: true, shards: nShards}
	defer func() {
		if t.Failed() {
			t.Logf("controller log:\n%s", s.out.String())
		}
	}()
	space := kates.ShardSpace{Key: kates.ShardByUID, Count: nShards}
	shardOfApp := map[string]int{}
	var names []string
	for i := range nApps {
		name := fmt.Sprintf("web-%d", i)
		app := newWebApp(ns, name, 1, "nginx:1.27")
		app.Spec.Headless = true
		if err := base.Create(ctx, app, app); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
		shardOfApp[name] = space.ShardOf(app)
	}
	leaseHistory, stopLeaseWatch := katestest.WatchLeases(t, base, ns)
	allReady := func(what string, replicas int32) {
		t.Helper()
		for _, name := range names {
			eventually(t, time.Minute, what, func() error { return readyAt(base, ns, name, replicas, "nginx:1.27") })
		}
	}

	procs := map[string]*process{}
	began := time.Now()
	for _, id := range []string{"r0", "r1", "r2"} {
		procs[id] = s.start(id)
	}
	allReady("WebApps ready", 1)
	t.Logf("start: %d WebApps ready %s after the first replica started", nApps, time.Since(began).Round(time.Millisecond))
	// Each WebApp's Deployment and Service carry its shard, so that the API server sends each
	// replica only its own shards' (kates.PlaceByOwnerLabel).
	for _, name := range names {
		want := space.OwnerShardLabelValue(shardOfApp[name])
		dep := &kates.Deployment{ObjectMeta: kates.ObjectMeta{Name: name, Namespace: ns}}
		svc := &kates.Service{ObjectMeta: kates.ObjectMeta{Name: name, Namespace: ns}}
		for _, obj := range []interface {
			GetName() string
			GetLabels() map[string]string
		}{dep, svc} {
			if err := base.Get(ctx, obj, obj); err != nil {
				t.Fatal(err)
			}
			if got := obj.GetLabels()[kates.OwnerShardLabel]; got != want {
				t.Errorf("%T %s: %s=%q, want %q (its WebApp's shard)", obj, name, kates.OwnerShardLabel, got, want)
			}
		}
	}
	// Wait for the three to hold Assign's shards, then change every WebApp.
	owners := shards.Assign([]string{"r0", "r1", "r2"}, nShards)
	eventually(t, 30*time.Second, "shards settled", func() error {
		for i := range nShards {
			if h := currentHolder(t, base, ns, i); h != owners[i] {
				return fmt.Errorf("shard %d held by %q, want %q", i, h, owners[i])
			}
		}
		return nil
	})
	changedAt := time.Now()
	for _, name := range names {
		patchReplicas(t, base, ns, name, 2)
	}
	allReady("WebApps ready after the change", 2)
	// Each change is applied once. A write cut short when its shard's term ended (a renewal
	// that did not make it within RenewDeadline on a loaded machine) may have landed without
	// its answer (the proxy records it as abandoned, 502); its owner then finds the Deployment
	// applied and does not apply it again.
	applies, abandoned := map[string][]string{}, map[string]int{} // WebApp → replicas that applied its Deployment
	for _, r := range s.rec.Requests() {
		if r.Method == http.MethodPatch && strings.Contains(r.Path, "/deployments/") && r.Arrived.After(changedAt) {
			app := shardedWrite(r.Path)
			switch {
			case r.Status < 300:
				applies[app] = append(applies[app], r.Replica)
			case r.Status == http.StatusBadGateway:
				abandoned[app]++
			}
		}
	}
	once := 0
	for _, name := range names {
		switch got := applies[name]; {
		case len(got) == 1 && got[0] == owners[shardOfApp[name]]:
			once++
		case len(got) == 0 && abandoned[name] > 0:
			t.Logf("WebApp %s: its one apply was abandoned on the wire when its shard's term ended", name)
		default:
			t.Errorf("WebApp %s (shard %d, owned by %s): Deployment applied by %v, want once, by its owner", name,
				shardOfApp[name], owners[shardOfApp[name]], got)
		}
	}
	t.Logf("change: %d of %d WebApps' Deployments applied exactly once, by their shard's owner", once, nApps)

	// Kill r0, then change its WebApps: the replicas that take its shards over reconcile them.
	var orphans []string
	for _, name := range names {
		if owners[shardOfApp[name]] == "r0" {
			orphans = append(orphans, name)
		}
	}
	killedAt := time.Now()
	// Every Deployment and Service exists by now, and the change above has settled (its log
	// drained): a replica that finds one missing after this reconciled a shard it took over
	// from a view that did not hold the shard whole yet.
	createdUpTo := len(s.out.String())
	procs["r0"].signal(syscall.SIGKILL)
	<-procs["r0"].done
	for _, name := range orphans {
		patchReplicas(t, base, ns, name, 3)
	}
	// Reconciled again: the new owner applied the Deployment (the rollout that follows is
	// kwok's, not the controller's).
	var took time.Duration
	for _, name := range orphans {
		eventually(t, time.Minute, "the killed replica's WebApps reconciled", func() error {
			for _, r := range s.rec.Requests() {
				if r.Method == http.MethodPatch && r.Status < 300 && r.Arrived.After(killedAt) &&
					strings.HasSuffix(r.Path, "/deployments/"+name) {
					took = max(took, r.Arrived.Sub(killedAt))
					return nil
				}
			}
			return fmt.Errorf("no apply of Deployment %s since the kill", name)
		})
	}
	for _, name := range orphans {
		eventually(t, time.Minute, "the killed replica's WebApps ready", func() error { return readyAt(base, ns, name, 3, "nginx:1.27") })
	}
	bootstrap := bootstrapsAfter(s.out.String(), killedAt)
	t.Logf("kill: r0's %d WebApps (shards %v) reconciled %s after the kill; the shards' bootstraps took %v (lease %s, retry %s)",
		len(orphans), shards.Owned(owners, "r0"), took.Round(time.Millisecond), bootstrap, procLease, procRetry)
	longest := time.Duration(0)
	for _, b := range bootstrap {
		longest = max(longest, b)
	}
	if limit := procLease + 3*procRetry + longest + time.Second; took > limit {
		t.Errorf("kill: r0's WebApps reconciled after %s, want within about LeaseDuration + RetryPeriod + bootstrap (%s with slack)", took, limit)
	}

	// A join: r0 comes back, and r1 and r2, running steadily, hand it its shards, whose
	// WebApps leave their views as moved.
	movedBefore := strings.Count(s.out.String(), `"moved to another replica"`)
	at := time.Now()
	procs["r0"] = s.start("r0")
	eventually(t, 30*time.Second, "shards settled after the join", func() error {
		for i := range nShards {
			if h := currentHolder(t, base, ns, i); h != owners[i] {
				return fmt.Errorf("shard %d held by %q, want %q", i, h, owners[i])
			}
		}
		return nil
	})
	t.Logf("join: every shard held by its owner again %s after r0 restarted", time.Since(at).Round(time.Millisecond))
	eventually(t, 30*time.Second, "moved WebApps seen", func() error {
		if strings.Count(s.out.String(), `"moved to another replica"`) == movedBefore {
			return fmt.Errorf("none since r0 restarted")
		}
		return nil
	})

	// A graceful stop: r1 hands its shards to the others at once.
	at = time.Now()
	procs["r1"].signal(syscall.SIGTERM)
	<-procs["r1"].done
	for _, name := range names {
		patchReplicas(t, base, ns, name, 1)
	}
	allReady("WebApps ready under two replicas", 1)
	t.Logf("graceful stop: every WebApp reconciled by r0 and r2 %s after r1 was told to stop", time.Since(at).Round(time.Millisecond))
	for _, id := range []string{"r0", "r2"} {
		procs[id].signal(syscall.SIGTERM)
		<-procs[id].done
	}

	out := s.out.String()
	if n := strings.Count(out[createdUpTo:], " (missing)\n"); n > 0 {
		t.Errorf("%d Deployments or Services applied as missing after all were created: a shard reconciled before its view held it whole", n)
	}
	if n := strings.Count(out, " deleted\n"); n > 0 {
		t.Errorf("%d WebApps seen deleted, none was", n)
	}
	moved := strings.Count(out, `"moved to another replica"`)
	if moved == 0 {
		t.Error("no WebApp seen moved, though shards were handed over")
	}
	t.Logf("%d WebApps left a replica's view as moved, none as deleted", moved)
	stopLeaseWatch()
	shardTerms(t, s.rec.Requests(), leaseHistory(), shardOfApp)
}

// currentHolder returns the holder of shard i's Lease of the group "webapp".
func currentHolder(t *testing.T, c *kates.Client, ns string, i int) string {
	t.Helper()
	var l kates.Unstructured
	err := c.Get(context.Background(), &kates.Unstructured{Object: map[string]any{
		"apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
		"metadata": map[string]any{"namespace": ns, "name": shards.ShardLeaseName("webapp", i)}}}, &l)
	if err != nil {
		return ""
	}
	h, _, _ := unstructuredString(l.Object, "spec", "holderIdentity")
	return h
}

func unstructuredString(obj map[string]any, fields ...string) (string, bool, error) {
	var cur any = obj
	for _, f := range fields {
		m, ok := cur.(map[string]any)
		if !ok {
			return "", false, nil
		}
		cur = m[f]
	}
	s, ok := cur.(string)
	return s, ok, nil
}

var bootstrapLine = regexp.MustCompile(`(?m)^(\d\d:\d\d:\d\d\.\d{3}) .*"shard in the view; reconciling it" .* shard=(\d+) listed="([^"]+)"`)

// bootstrapsAfter returns, by shard, how long AddShard took for each shard a replica began to
// hold after since, as the replicas logged it.
func bootstrapsAfter(out string, since time.Time) map[int]time.Duration {
	got := map[int]time.Duration{}
	for _, m := range bootstrapLine.FindAllStringSubmatch(out, -1) {
		at, err := time.ParseInLocation("15:04:05.000", m[1], time.Local)
		if err != nil {
			continue
		}
		now := time.Now()
		at = time.Date(now.Year(), now.Month(), now.Day(), at.Hour(), at.Minute(), at.Second(), at.Nanosecond(), time.Local)
		if at.Before(since.Truncate(time.Millisecond)) {
			continue
		}
		d, err := time.ParseDuration(m[3])
		if err != nil {
			continue
		}
		var i int
		fmt.Sscan(m[2], &i)
		got[i] = d
	}
	return got
}
