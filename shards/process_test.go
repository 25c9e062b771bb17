package shards_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/shards"
	"github.com/kates-dev/kates/testenv/katestest"
)

// The process test runs this test binary as each replica: TestMain calls replicaMain when
// replicaEnv names the replica.
const (
	replicaEnv     = "KATES_SHARDS_REPLICA"
	kubeconfigEnv  = "KATES_SHARDS_KUBECONFIG"
	procShards     = 6
	procLease      = 3 * time.Second
	procRenew      = 2 * time.Second
	procRetry      = 300 * time.Millisecond
	procGroup      = "writers"
	procWriteEvery = 25 * time.Millisecond
)

// objectName is the ConfigMap a replica writes while it owns shard i.
func objectName(i int) string { return "obj-" + strconv.Itoa(i) }

// replicaMain is one replica: a member of the group procGroup that, for each shard it owns,
// patches the shard's ConfigMap every procWriteEvery with its shard's fenced context, without
// a precondition, so that a write sent outside its term would land, and once more after the
// context ends. It stops, releasing its shards, on SIGTERM.
func replicaMain() int {
	id := os.Getenv(replicaEnv)
	client, err := kates.NewClient(kates.ClientConfig{Kubeconfig: os.Getenv(kubeconfigEnv)})
	if err != nil {
		fmt.Println(err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	err = shards.Run(ctx, client, shards.Options{Name: procGroup, Identity: id, Shards: procShards,
		LeaseDuration: procLease, RenewDeadline: procRenew, RetryPeriod: procRetry, Release: true, StampFences: true,
		Observe: func(s shards.State) {
			fmt.Printf("%s: members %v, assigned %v, held %v\n", id, s.Members, s.Assigned, s.Held)
		}}, func(ctx context.Context, shard int) error {
		for n := 0; ; n++ {
			patch := fmt.Sprintf(`{"data":{"writer":%q,"n":"%d"}}`, id, n)
			cm := &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: objectName(shard)}}
			if err := client.Patch(ctx, cm, kates.MergePatchType, []byte(patch), nil); errors.Is(err, kates.ErrLeaseLost) {
				fmt.Printf("%s: shard %d: %v\n", id, shard, err)
			}
			select {
			case <-ctx.Done():
				// One more write that ignores the cancellation but keeps the context's
				// values, as a write already under way when the shard was lost would: the
				// shard's fence must refuse it once the term is over.
				err := client.Patch(context.WithoutCancel(ctx), cm, kates.MergePatchType, []byte(patch), nil)
				fmt.Printf("%s: shard %d: stopped (%v); a last write: %v\n", id, shard, context.Cause(ctx), err)
				return nil
			case <-time.After(procWriteEvery):
			}
		}
	})
	if err != nil {
		fmt.Println(err)
		return 1
	}
	return 0
}

// proxied is one request a replica process sent, as its proxy saw it.
type proxied struct {
	replica string
	method  string
	path    string
	arrived time.Time // when the proxy received it
	status  int
	rv      int64     // the resourceVersion of the object a successful write returned
	holder  *string   // for a Lease write that succeeded: the holder it wrote
	checked time.Time // when the replica checked its fence (kates.FenceCheckedHeader), if sent
}

func (r proxied) write() bool {
	return r.method != http.MethodGet && r.method != http.MethodHead && r.method != http.MethodOptions
}

// shard returns the shard whose object r wrote, or -1.
func (r proxied) shard() int {
	i := strings.LastIndex(r.path, "/configmaps/"+objectName(0)[:4])
	if i < 0 {
		return -1
	}
	n, err := strconv.Atoi(r.path[i+len("/configmaps/obj-"):])
	if err != nil {
		return -1
	}
	return n
}

type requestLog struct {
	mu   sync.Mutex
	reqs []proxied
}

func (l *requestLog) add(r proxied) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.reqs = append(l.reqs, r)
}

func (l *requestLog) all() []proxied {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]proxied(nil), l.reqs...)
}

// proxy forwards one replica's requests to the API server and logs its writes. It runs in
// the test process: a replica that is stopped cannot stop its recorder, so a write it sends
// after waking is seen when it arrives.
func proxy(t *testing.T, replica string, cfg *rest.Config, log *requestLog) *httptest.Server {
	t.Helper()
	rt, err := rest.TransportFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	target := strings.TrimSuffix(cfg.Host, "/")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, in *http.Request) {
		rec := proxied{replica: replica, method: in.Method, path: in.URL.Path, arrived: time.Now()}
		if s := in.Header.Get(kates.FenceCheckedHeader); s != "" {
			if ns, err := strconv.ParseInt(s, 10, 64); err == nil {
				rec.checked = time.Unix(0, ns)
			}
		}
		out, err := http.NewRequestWithContext(in.Context(), in.Method, target+in.URL.RequestURI(), in.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		out.ContentLength = in.ContentLength
		for k, vs := range in.Header {
			if k == "Authorization" || k == "Connection" || k == "Accept-Encoding" {
				continue
			}
			out.Header[k] = vs
		}
		resp, err := rt.RoundTrip(out)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		for k, vs := range resp.Header {
			w.Header()[k] = vs
		}
		if !rec.write() {
			w.WriteHeader(resp.StatusCode)
			flusher, _ := w.(http.Flusher)
			buf := make([]byte, 32<<10)
			for {
				n, err := resp.Body.Read(buf)
				if n > 0 {
					if _, werr := w.Write(buf[:n]); werr != nil {
						return
					}
					if flusher != nil {
						flusher.Flush()
					}
				}
				if err != nil {
					return
				}
			}
		}
		rec.status = resp.StatusCode
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			rec.status = http.StatusBadGateway
		}
		if rec.status < 300 && rec.method != http.MethodDelete {
			rec.rv, rec.holder = written(t, body, resp.Header.Get("Content-Type"))
		}
		log.add(rec)
		w.WriteHeader(resp.StatusCode)
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// written decodes what a successful write answered (protobuf: the kates Client's encoding for
// built-in kinds): its resourceVersion and, for a Lease, its holder ("" when released).
func written(t *testing.T, body []byte, contentType string) (int64, *string) {
	obj, _, err := clientgoscheme.Codecs.UniversalDeserializer().Decode(body, nil, nil)
	if err != nil {
		t.Errorf("a write's answer (%s) does not decode: %v", contentType, err)
		return 0, nil
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		t.Errorf("a write's answer %T has no metadata: %v", obj, err)
		return 0, nil
	}
	rv, err := strconv.ParseInt(m.GetResourceVersion(), 10, 64)
	if err != nil {
		t.Errorf("a write's answer has resourceVersion %q", m.GetResourceVersion())
	}
	l, ok := obj.(*coordinationv1.Lease)
	if !ok {
		return rv, nil
	}
	holder := ""
	if l.Spec.HolderIdentity != nil {
		holder = *l.Spec.HolderIdentity
	}
	return rv, &holder
}

// leaseVersion is one version of a Lease, as a watch outside the replicas saw it.
type leaseVersion struct {
	name   string
	rv     int64
	holder string
}

// watchLeases records every version of every Lease in ns from now on.
func watchLeases(t *testing.T, c *kates.Client, ns string) (versions func() []leaseVersion, stop func()) {
	t.Helper()
	w, err := katestest.Clientset(t, c).CoordinationV1().Leases(ns).Watch(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen []leaseVersion
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ev := range w.ResultChan() {
			l, ok := ev.Object.(*coordinationv1.Lease)
			if !ok {
				continue
			}
			v := leaseVersion{name: l.Name}
			v.rv, _ = strconv.ParseInt(l.ResourceVersion, 10, 64)
			if l.Spec.HolderIdentity != nil {
				v.holder = *l.Spec.HolderIdentity
			}
			mu.Lock()
			seen = append(seen, v)
			mu.Unlock()
		}
	}()
	return func() []leaseVersion {
			mu.Lock()
			defer mu.Unlock()
			return append([]leaseVersion(nil), seen...)
		}, func() {
			w.Stop()
			<-done
		}
}

// versionAt returns the version of Lease name in effect when the write of resourceVersion rv
// was made: the newest one written before it. One etcd's resourceVersions are its revisions,
// global across objects, so they order writes to different objects (clients must not rely on
// that in general; the test does, against the local cluster).
func versionAt(lease []leaseVersion, name string, rv int64) (leaseVersion, bool) {
	var at leaseVersion
	found := false
	for _, v := range lease {
		if v.name == name && v.rv < rv && v.rv >= at.rv {
			at, found = v, true
		}
	}
	return at, found
}

// processes starts and stops replica processes, each behind a proxy of the test's.
type processes struct {
	t     *testing.T
	dir   string
	ns    string
	cfg   *rest.Config
	log   *requestLog
	out   syncBuffer
	procs map[string]*process
	confs map[string]string // replica → its kubeconfig, through its proxy
}

type process struct {
	cmd  *exec.Cmd
	done chan struct{}
}

func (s *processes) start(id string) {
	s.t.Helper()
	kubeconfig, ok := s.confs[id]
	if !ok {
		srv := proxy(s.t, id, s.cfg, s.log)
		cfg := clientcmdapi.NewConfig()
		cfg.Clusters["proxy"] = &clientcmdapi.Cluster{Server: srv.URL}
		cfg.AuthInfos["proxy"] = &clientcmdapi.AuthInfo{}
		cfg.Contexts["proxy"] = &clientcmdapi.Context{Cluster: "proxy", AuthInfo: "proxy", Namespace: s.ns}
		cfg.CurrentContext = "proxy"
		kubeconfig = filepath.Join(s.dir, id+".kubeconfig")
		if err := clientcmd.WriteToFile(*cfg, kubeconfig); err != nil {
			s.t.Fatal(err)
		}
		s.confs[id] = kubeconfig
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), replicaEnv+"="+id, kubeconfigEnv+"="+kubeconfig)
	cmd.Stdout = &prefixWriter{w: &s.out}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	p := &process{cmd: cmd, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(p.done) }()
	s.t.Cleanup(func() { _ = cmd.Process.Signal(syscall.SIGKILL); <-p.done })
	s.procs[id] = p
}

func (s *processes) signal(id string, sig syscall.Signal) { _ = s.procs[id].cmd.Process.Signal(sig) }

// syncBuffer collects the replicas' output.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

type prefixWriter struct{ w io.Writer }

func (p *prefixWriter) Write(b []byte) (int, error) {
	_, err := p.w.Write(append([]byte(time.Now().Format("15:04:05.000 ")), b...))
	return len(b), err
}

// holders returns each shard's Lease holder now ("" when released or absent).
func holders(t *testing.T, c *kates.Client, ns string) []string {
	t.Helper()
	out := make([]string, procShards)
	for i := range out {
		l, err := katestest.Clientset(t, c).CoordinationV1().Leases(ns).Get(context.Background(), shards.ShardLeaseName(procGroup, i), metav1.GetOptions{})
		if err == nil && l.Spec.HolderIdentity != nil {
			out[i] = *l.Spec.HolderIdentity
		}
	}
	return out
}

// waitWritten waits until every shard in which has a successful write, arrived after since, by
// a replica other than not, and returns how long after since the last of them arrived.
func waitWritten(t *testing.T, log *requestLog, which []int, not string, since time.Time) time.Duration {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		var last time.Time
		missing := []int{}
		for _, i := range which {
			var first time.Time
			for _, r := range log.all() {
				if r.shard() == i && r.status < 300 && r.replica != not && r.arrived.After(since) {
					first = r.arrived
					break
				}
			}
			if first.IsZero() {
				missing = append(missing, i)
			} else if first.After(last) {
				last = first
			}
		}
		if len(missing) == 0 {
			return last.Sub(since)
		}
		if time.Now().After(deadline) {
			t.Fatalf("shards %v have no write by a replica other than %q within %s of %s", missing, not, within, since.Format(time.StampMilli))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// heldBy returns the shards whose Lease names id in hs.
func heldBy(hs []string, id string) []int {
	var out []int
	for i, h := range hs {
		if h == id {
			out = append(out, i)
		}
	}
	return out
}

// TestNoTwoWritersOfAShard runs the group as three processes, each behind a proxy of the test's
// that records every write when it arrives, each patching its shards' ConfigMaps every 25 ms
// without a precondition. It kills one (SIGKILL), restarts it (a join), pauses one past its
// leases (SIGSTOP until others have written its shards, then SIGCONT) and stops one gracefully
// (SIGTERM, releasing), and asserts, against every shard Lease's history, that:
//
//   - every write to a shard's object took effect (by its resourceVersion) while its writer
//     held that shard's Lease, unless it had passed its fence check before the Lease record in
//     effect was sent (a write on the wire when the process was paused: the documented limit);
//   - a replica writes a shard Lease only over a record of its own, a released one, or (taking
//     it) one that ran out;
//
// and measures how long each event leaves the moved shards without a writer.
func TestNoTwoWritersOfAShard(t *testing.T) {
	if testing.Short() {
		t.Skip("runs replicas as processes")
	}
	ns := newNamespace(t)
	base, err := kates.NewClientFromRESTConfig(cluster.RESTConfig(), ns)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i := range procShards {
		if err := base.Create(ctx, &kates.ConfigMap{ObjectMeta: kates.ObjectMeta{Name: objectName(i)}}, nil); err != nil {
			t.Fatal(err)
		}
	}
	versions, stopWatch := watchLeases(t, base, ns)
	s := &processes{t: t, dir: t.TempDir(), ns: ns, cfg: cluster.RESTConfig(), log: &requestLog{},
		procs: map[string]*process{}, confs: map[string]string{}}
	defer func() {
		if t.Failed() {
			t.Logf("replicas' output:\n%s", s.out.String())
		}
	}()
	ids := []string{"r0", "r1", "r2"}
	begin := time.Now()
	for _, id := range ids {
		s.start(id)
	}
	all := []int{}
	for i := range procShards {
		all = append(all, i)
	}
	waitWritten(t, s.log, all, "", begin)
	t.Logf("start: every shard written %s after the processes started", time.Since(begin).Round(time.Millisecond))

	// Wait for the three to settle on Assign's owners, so that each has shards to lose.
	want := shards.Assign(ids, procShards)
	deadline := time.Now().Add(within)
	for hs := holders(t, base, ns); strings.Join(hs, ",") != strings.Join(want, ","); hs = holders(t, base, ns) {
		if time.Now().After(deadline) {
			t.Fatalf("shard holders %v, want %v", hs, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
	timings := map[string]time.Duration{}

	// Kill: r0's shards run out and are written by the others.
	lost := heldBy(holders(t, base, ns), "r0")
	at := time.Now()
	s.signal("r0", syscall.SIGKILL)
	<-s.procs["r0"].done
	timings["kill"] = waitWritten(t, s.log, lost, "r0", at)

	// Join: r0 comes back and takes its share again.
	at = time.Now()
	s.start("r0")
	rejoined := shards.Owned(want, "r0")
	for _, i := range rejoined {
		waitWrittenBy(t, s.log, i, "r0", at)
	}
	timings["join"] = time.Since(at)

	// Pause: r1 is stopped until the others have written its shards, then woken.
	paused := heldBy(holders(t, base, ns), "r1")
	at = time.Now()
	s.signal("r1", syscall.SIGSTOP)
	timings["pause"] = waitWritten(t, s.log, paused, "r1", at)
	s.signal("r1", syscall.SIGCONT)
	for _, i := range shards.Owned(want, "r1") {
		waitWrittenBy(t, s.log, i, "r1", at)
	}

	// Graceful stop: r2 releases its shards once its writers have returned.
	stopped := heldBy(holders(t, base, ns), "r2")
	at = time.Now()
	s.signal("r2", syscall.SIGTERM)
	timings["graceful"] = waitWritten(t, s.log, stopped, "r2", at)
	<-s.procs["r2"].done

	for _, id := range []string{"r0", "r1"} {
		s.signal(id, syscall.SIGTERM)
		<-s.procs[id].done
	}
	stopWatch()
	checkShardTerms(t, s.log.all(), versions())
	for _, what := range []string{"kill", "join", "pause", "graceful"} {
		t.Logf("%s: the moved shards were written by their new owner within %s (lease %s, retry %s)",
			what, timings[what].Round(time.Millisecond), procLease, procRetry)
	}
	if d := timings["kill"]; d < procLease-procRetry || d > procLease+3*procRetry+2*time.Second {
		t.Errorf("kill: a new owner wrote after %s, want about the lease duration %s plus a retry period %s", d, procLease, procRetry)
	}
	if d := timings["graceful"]; d >= procLease {
		t.Errorf("graceful stop: a new owner wrote after %s, want less than the lease duration %s (released)", d, procLease)
	}
}

// waitWrittenBy waits until replica has a successful write to shard i's object after since.
func waitWrittenBy(t *testing.T, log *requestLog, i int, replica string, since time.Time) {
	t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		for _, r := range log.all() {
			if r.shard() == i && r.status < 300 && r.replica == replica && r.arrived.After(since) {
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("shard %d: no write by %s within %s", i, replica, within)
}

// checkShardTerms holds every successful write against its shard Lease's history.
func checkShardTerms(t *testing.T, reqs []proxied, leases []leaseVersion) {
	t.Helper()
	sort.Slice(leases, func(i, j int) bool { return leases[i].rv < leases[j].rv })
	// began is when the proxies saw each Lease write arrive, by the resourceVersion it made.
	began := map[int64]time.Time{}
	for _, r := range reqs {
		if strings.Contains(r.path, "/leases/") && r.write() && r.status < 300 {
			began[r.rv] = r.arrived
		}
	}
	writes, excused := 0, 0
	writers := map[int]map[string]bool{}
	for _, r := range reqs {
		if !r.write() || r.status >= 300 {
			continue
		}
		if r.holder != nil {
			name := r.path[strings.LastIndex(r.path, "/")+1:]
			if !strings.HasPrefix(name, procGroup+"-shard-") {
				continue // member Leases are announcements, not terms
			}
			prev, ok := versionAt(leases, name, r.rv)
			if ok && prev.holder != "" && prev.holder != r.replica && *r.holder != r.replica {
				t.Errorf("%s wrote Lease %s with holder %q over %s's record (resourceVersion %d)", r.replica, name, *r.holder, prev.holder, r.rv)
			}
			continue
		}
		i := r.shard()
		if i < 0 {
			continue
		}
		writes++
		if writers[i] == nil {
			writers[i] = map[string]bool{}
		}
		writers[i][r.replica] = true
		at, ok := versionAt(leases, shards.ShardLeaseName(procGroup, i), r.rv)
		if ok && at.holder == r.replica {
			continue
		}
		if start, seen := began[at.rv]; ok && seen && !r.checked.IsZero() && r.checked.Before(start) {
			excused++
			t.Logf("%s's write to shard %d took effect at resourceVersion %d in %s's term: it passed its fence at %s, before that record was sent at %s (on the wire when paused)",
				r.replica, i, r.rv, at.holder, r.checked.Format(time.StampMicro), start.Format(time.StampMicro))
			continue
		}
		t.Errorf("%s's write to shard %d (arrived %s, fence checked %s) took effect at resourceVersion %d while %q held its Lease",
			r.replica, i, r.arrived.Format(time.StampMicro), r.checked.Format(time.StampMicro), r.rv, at.holder)
	}
	for i := range procShards {
		if len(writers[i]) < 2 {
			t.Errorf("shard %d was written by %d replicas, want its handovers to show", i, len(writers[i]))
		}
	}
	t.Logf("%d writes held against %d shard Lease versions; %d on the wire across a pause", writes, len(leases), excused)
}
