package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
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
	"k8s.io/apimachinery/pkg/util/wait"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"k8s.io/client-go/util/retry"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/testenv/katestest"
)

// The election timings of the process tests: a crashed leader is replaced within about three
// seconds, and a term ends a second before a successor can begin.
const (
	procLease = 3 * time.Second
	procRenew = 2 * time.Second
	procRetry = 300 * time.Millisecond
)

// intruder is the holder the test writes into the Lease under a leader.
const intruder = "intruder"

// proxied is one request a replica process sent, as its proxy saw it.
type proxied struct {
	replica string
	method  string
	path    string
	query   string
	arrived time.Time // when the proxy received it
	answer  time.Time // when the proxy had the API server's answer
	status  int
	rv      int64     // the resourceVersion of the object a successful write returned
	holder  *string   // for a Lease write that succeeded: the holder it wrote
	checked time.Time // when the replica checked its fence (kates.FenceCheckedHeader), if sent
}

func (r proxied) lease() bool {
	return strings.Contains(r.path, "/leases/") || strings.HasSuffix(r.path, "/leases")
}

func (r proxied) write() bool {
	return r.method != http.MethodGet && r.method != http.MethodHead && r.method != http.MethodOptions
}

// requestLog is every request of every replica process, in the order their proxies saw them.
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

// proxy forwards one replica's requests to the API server and logs them. It runs in the test
// process, outside the replica's: a replica that is stopped cannot stop its recorder, so a
// write it sends after waking is seen when it arrives.
func proxy(t *testing.T, replica string, cfg *rest.Config, log *requestLog) *httptest.Server {
	t.Helper()
	rt, err := rest.TransportFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	target := strings.TrimSuffix(cfg.Host, "/")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, in *http.Request) {
		rec := proxied{replica: replica, method: in.Method, path: in.URL.Path, query: in.URL.RawQuery, arrived: time.Now()}
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
		rec.answer = time.Now()
		if err != nil {
			rec.status = http.StatusBadGateway
			log.add(rec)
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		rec.status = resp.StatusCode
		for k, vs := range resp.Header {
			w.Header()[k] = vs
		}
		if !rec.write() {
			log.add(rec)
			// Lists and watches stream: pass each chunk on as it comes.
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
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			rec.status = http.StatusBadGateway
		}
		if rec.status < 300 && rec.method != http.MethodDelete { // a delete may answer a Status
			rec.rv, rec.holder = written(t, body, resp.Header.Get("Content-Type"), rec.lease())
		}
		log.add(rec)
		w.WriteHeader(resp.StatusCode)
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// written decodes what a successful write answered: the object's resourceVersion and, for a
// Lease, its holder ("" when released). The kates Client speaks protobuf for built-in kinds,
// JSON for custom resources; a body that decodes as neither fails the test, so that no write
// escapes the checks by being unreadable.
func written(t *testing.T, body []byte, contentType string, lease bool) (int64, *string) {
	var rv string
	holder := ""
	if strings.Contains(contentType, "protobuf") {
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
		rv = m.GetResourceVersion()
		if l, ok := obj.(*coordinationv1.Lease); ok && l.Spec.HolderIdentity != nil {
			holder = *l.Spec.HolderIdentity
		}
	} else {
		var obj struct {
			Metadata struct {
				ResourceVersion string `json:"resourceVersion"`
			} `json:"metadata"`
			Spec struct {
				HolderIdentity *string `json:"holderIdentity"`
			} `json:"spec"`
		}
		if err := json.Unmarshal(body, &obj); err != nil {
			t.Errorf("a write's answer (%s) does not decode: %v", contentType, err)
			return 0, nil
		}
		rv = obj.Metadata.ResourceVersion
		if obj.Spec.HolderIdentity != nil {
			holder = *obj.Spec.HolderIdentity
		}
	}
	n, err := strconv.ParseInt(rv, 10, 64)
	if err != nil {
		t.Errorf("a write's answer has resourceVersion %q", rv)
	}
	if !lease {
		return n, nil
	}
	return n, &holder
}

// proxyKubeconfig writes a kubeconfig that sends a replica's requests through its proxy, in
// namespace ns. The proxy adds the credentials.
func proxyKubeconfig(t *testing.T, dir, replica, url, ns string) string {
	t.Helper()
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["proxy"] = &clientcmdapi.Cluster{Server: url}
	cfg.AuthInfos["proxy"] = &clientcmdapi.AuthInfo{}
	cfg.Contexts["proxy"] = &clientcmdapi.Context{Cluster: "proxy", AuthInfo: "proxy", Namespace: ns}
	cfg.CurrentContext = "proxy"
	path := filepath.Join(dir, replica+".kubeconfig")
	if err := clientcmd.WriteToFile(*cfg, path); err != nil {
		t.Fatal(err)
	}
	return path
}

// buildController builds this example as a binary, once per test binary.
var buildController = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "kates-controller-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "controller")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
})

// process is one replica of the controller running as a process of its own.
type process struct {
	id   string
	cmd  *exec.Cmd
	done chan struct{}
}

// processSet starts and stops replica processes, each behind its own proxy.
type processSet struct {
	t       *testing.T
	bin     string
	dir     string
	ns      string
	cfg     *rest.Config
	log     *requestLog
	release bool
	shards  int // -shards, if positive
	out     syncBuffer
	proxies map[string]string // replica → its kubeconfig
}

func (s *processSet) start(id string) *process {
	s.t.Helper()
	kubeconfig, ok := s.proxies[id]
	if !ok {
		srv := proxy(s.t, id, s.cfg, s.log)
		kubeconfig = proxyKubeconfig(s.t, s.dir, id, srv.URL, s.ns)
		s.proxies[id] = kubeconfig
	}
	cmd := exec.Command(s.bin, "-kubeconfig", kubeconfig, "-namespace", s.ns, "-lease", s.ns+"/webapp",
		"-identity", id, "-lease-duration", procLease.String(), "-renew-deadline", procRenew.String(),
		"-retry-period", procRetry.String(), "-release-on-exit="+strconv.FormatBool(s.release),
		"-metrics-addr", "127.0.0.1:0", "-health-probe-addr", "127.0.0.1:0", "-fence-stamp")
	if s.shards > 0 {
		cmd.Args = append(cmd.Args, "-shards", strconv.Itoa(s.shards))
	}
	cmd.Stdout = &prefixWriter{prefix: id + " ", w: &s.out}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	p := &process{id: id, cmd: cmd, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(p.done) }()
	s.t.Cleanup(func() { p.signal(syscall.SIGKILL); <-p.done })
	// A replica campaigns only once its view is complete: wait for that, so that each round
	// has two warm standbys, as a deployment that waits for readiness has.
	began := time.Now()
	starts := strings.Count(s.out.String(), id+": view complete")
	eventually(s.t, time.Minute, id+" view complete", func() error {
		if strings.Count(s.out.String(), id+": view complete") > starts {
			return nil
		}
		return fmt.Errorf("not yet")
	})
	s.t.Logf("%s: view complete %s after start", id, time.Since(began).Round(time.Millisecond))
	if os.Getenv("DEBUG_BOOTSTRAP") != "" {
		for _, r := range s.log.all() {
			if r.replica == id && r.arrived.After(began) {
				s.t.Logf("  %s %s %s?%s %d answer after %s", r.arrived.Format(time.StampMilli), r.method, r.path, r.query, r.status, r.answer.Sub(r.arrived).Round(time.Millisecond))
			}
		}
	}
	return p
}

// dumpRequests logs the last requests of each replica, for a failure's diagnosis.
func (s *processSet) dumpRequests() {
	byReplica := map[string][]proxied{}
	for _, r := range s.log.all() {
		byReplica[r.replica] = append(byReplica[r.replica], r)
	}
	for id, reqs := range byReplica {
		var lines []string
		for _, r := range reqs[max(0, len(reqs)-15):] {
			lines = append(lines, fmt.Sprintf("%s %s %s %d (%s)", r.arrived.Format(time.StampMilli), r.method, r.path, r.status, r.answer.Sub(r.arrived).Round(time.Millisecond)))
		}
		s.t.Logf("%s: %d requests logged (lease requests, writes); the last:\n%s", id, len(reqs), strings.Join(lines, "\n"))
	}
}

func (p *process) signal(sig syscall.Signal) {
	if p.cmd.Process != nil {
		_ = p.cmd.Process.Signal(sig)
	}
}

// prefixWriter prefixes each write (a log line, as the controller writes them) with a name.
type prefixWriter struct {
	prefix string
	w      io.Writer
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	_, err := p.w.Write(append([]byte(time.Now().Format("15:04:05.000 ")+p.prefix), b...))
	return len(b), err
}

// holder returns the Lease's holder now ("" when released or absent).
func holder(t *testing.T, c *kates.Client, ns string) (string, *coordinationv1.Lease) {
	t.Helper()
	l, err := katestest.Clientset(t, c).CoordinationV1().Leases(ns).Get(context.Background(), "webapp", metav1.GetOptions{})
	if err != nil {
		return "", nil
	}
	if l.Spec.HolderIdentity == nil {
		return "", l
	}
	return *l.Spec.HolderIdentity, l
}

// waitHolder waits until the Lease names a holder other than each of not, and returns it.
func waitHolder(t *testing.T, s *processSet, c *kates.Client, ns string, not ...string) string {
	t.Helper()
	var h string
	defer func() {
		if t.Failed() {
			s.dumpRequests()
		}
	}()
	eventually(t, 30*time.Second, "a new lease holder", func() error {
		h, _ = holder(t, c, ns)
		if h == "" {
			return fmt.Errorf("no holder")
		}
		for _, n := range not {
			if h == n {
				return fmt.Errorf("%s still holds the lease", h)
			}
		}
		return nil
	})
	return h
}

// churn changes the replicas of the WebApps in turn until stop is closed, so that whoever
// leads has writes to make.
func churn(t *testing.T, c *kates.Client, ns string, names []string, stop <-chan struct{}) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-time.After(40 * time.Millisecond):
			}
			name := names[i%len(names)]
			patch := fmt.Sprintf(`{"spec":{"replicas":%d}}`, 1+(i/len(names))%3)
			pctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			if err := c.Patch(pctx, newWebApp(ns, name, 0, ""), kates.MergePatchType, []byte(patch), nil); err != nil {
				t.Logf("churn: %v", err)
			}
			cancel()
		}
	}()
	return done
}

// TestNoWriteOutsideTerm runs the controller as three processes, each behind a proxy of the
// test's that records every request when it arrives, and puts the leader through a crash
// (SIGKILL), a graceful stop (SIGTERM), pauses past its term (SIGSTOP, a successor wins and
// writes, SIGCONT) several times in a row, and a Lease rewritten under it by someone else,
// with the WebApps changing throughout. Against the Lease's history it asserts that:
//
//   - every write a replica made took effect (by its resourceVersion) while that replica held
//     the Lease, unless the write had passed its fence check before the term ended (a write
//     on the wire when the process was stopped: the limit the election documents);
//   - a replica writes the Lease only over a record of its own or one that had run out: it
//     never releases or retakes a successor's;
//   - a leader whose renewal finds the Lease rewritten sends no write after it notices.
//
// It runs with Release on and off.
func TestNoWriteOutsideTerm(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the controller as processes")
	}
	bin, err := buildController()
	if err != nil {
		t.Fatal(err)
	}
	for _, release := range []bool{true, false} {
		t.Run(fmt.Sprintf("release=%t", release), func(t *testing.T) { testNoWriteOutsideTerm(t, bin, release) })
	}
}

func testNoWriteOutsideTerm(t *testing.T, bin string, release bool) {
	base, ns := katestest.NewClient(t, katestest.Start(t), "kates-terms-")
	installCRD(t, base)
	ctx := context.Background()
	leaseVersions, stopLeaseWatch := watchLease(t, base, ns, "webapp")
	s := &processSet{t: t, bin: bin, dir: t.TempDir(), ns: ns, cfg: base.RESTConfig(), log: &requestLog{},
		release: release, proxies: map[string]string{}}
	defer func() {
		if t.Failed() {
			t.Logf("controller log:\n%s", s.out.String())
		}
	}()
	var names []string
	for i := range 12 {
		name := fmt.Sprintf("web-%d", i)
		names = append(names, name)
		app := newWebApp(ns, name, 1, "nginx:1.27")
		app.Spec.Headless = true
		if err := base.Create(ctx, app, nil); err != nil {
			t.Fatal(err)
		}
	}
	procs := map[string]*process{}
	for i := range 3 {
		id := fmt.Sprintf("replica-%d", i)
		procs[id] = s.start(id)
	}
	stopChurn := make(chan struct{})
	churned := churn(t, base, ns, names, stopChurn)
	defer func() {
		select {
		case <-stopChurn:
		default:
			close(stopChurn)
		}
		<-churned
	}()

	leader := waitHolder(t, s, base, ns)
	timings := map[string][]time.Duration{}
	// Crash: the leader is killed; another takes over once its record runs out.
	at := time.Now()
	procs[leader].signal(syscall.SIGKILL)
	<-procs[leader].done
	next := waitHolder(t, s, base, ns, leader)
	timings["crash"] = append(timings["crash"], time.Since(at))
	procs[leader] = s.start(leader)
	leader = next

	// Graceful stop: with Release the successor takes over at once.
	at = time.Now()
	procs[leader].signal(syscall.SIGTERM)
	<-procs[leader].done
	next = waitHolder(t, s, base, ns, leader)
	timings["graceful"] = append(timings["graceful"], time.Since(at))
	procs[leader] = s.start(leader)
	leader = next

	// Pauses: the leader is stopped until a successor holds the lease and has written, then
	// woken; three times in a row, the same process.
	paused := leader
	for range 3 {
		at = time.Now()
		procs[paused].signal(syscall.SIGSTOP)
		next = waitHolder(t, s, base, ns, paused)
		timings["pause"] = append(timings["pause"], time.Since(at))
		waitWrites(t, s.log, next, time.Now(), 3)
		procs[paused].signal(syscall.SIGCONT)
		// Let the woken process run (and, before the fix, take the lease back) while the
		// successor writes.
		time.Sleep(procLease)
		if h, _ := holder(t, base, ns); h == paused {
			t.Errorf("the woken %s holds the lease again", paused)
		}
		// The woken process is now a standby: pause the next leader the same way in the
		// next round, unless it is the successor's turn to be paused again.
		leader, _ = holder(t, base, ns)
		if leader == "" {
			leader = waitHolder(t, s, base, ns)
		}
		paused = leader
	}

	// Someone else rewrites the Lease under the leader: its next renewal fails, and it sends
	// no write after noticing.
	leader = waitHolder(t, s, base, ns)
	waitWrites(t, s.log, leader, time.Now(), 3)
	var rewrittenAt time.Time
	// The leader renews every retry period: under load a read and a write can take longer
	// than that, so try as often as it takes.
	backoff := wait.Backoff{Steps: 100, Duration: 10 * time.Millisecond, Factor: 1, Jitter: 0.5}
	err := retry.RetryOnConflict(backoff, func() error {
		var lease *coordinationv1.Lease
		leader, lease = holder(t, base, ns)
		intruder := intruder
		lease.Spec.HolderIdentity = &intruder
		now := metav1.NewMicroTime(time.Now())
		lease.Spec.RenewTime = &now
		rewrittenAt = time.Now() // sent: the leader may hear of it before this call returns
		_, err := katestest.Clientset(t, base).CoordinationV1().Leases(ns).Update(ctx, lease, metav1.UpdateOptions{})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	waitHolder(t, s, base, ns, intruder)

	close(stopChurn)
	<-churned
	for _, p := range procs {
		p.signal(syscall.SIGCONT)
		p.signal(syscall.SIGTERM)
		<-p.done
	}
	stopLeaseWatch()
	checkTerms(t, s.log.all(), leaseVersions())
	checkNoticed(t, s.log.all(), leader, rewrittenAt)
	for what, ds := range timings {
		t.Logf("%s: another replica held the lease after %v", what, ds)
	}
}

// waitWrites waits until replica has made n successful writes (not to the Lease) since since.
func waitWrites(t *testing.T, log *requestLog, replica string, since time.Time, n int) {
	t.Helper()
	eventually(t, 30*time.Second, replica+" writes", func() error {
		got := 0
		for _, r := range log.all() {
			if r.replica == replica && r.write() && !r.lease() && r.status < 300 && r.arrived.After(since) {
				got++
			}
		}
		if got < n {
			reqs := map[string]int{}
			for _, r := range log.all() {
				if r.replica == replica && r.arrived.After(since) {
					reqs[fmt.Sprintf("%s %d %s", r.method, r.status, r.path)]++
				}
			}
			return fmt.Errorf("%d writes, want %d; requests since: %v", got, n, reqs)
		}
		return nil
	})
}

// checkTerms holds every successful write against the Lease's history (by resourceVersion:
// one etcd's revisions are global, so they order writes to all objects).
func checkTerms(t *testing.T, reqs []proxied, lease []leaseVersion) {
	t.Helper()
	sort.Slice(lease, func(i, j int) bool { return lease[i].rv < lease[j].rv })
	// began is when the proxies saw each Lease write arrive, by the resourceVersion it made.
	began := map[int64]time.Time{}
	for _, r := range reqs {
		if r.lease() && r.write() && r.status < 300 {
			began[r.rv] = r.arrived
		}
	}
	writes, excused := 0, 0
	for _, r := range reqs {
		if !r.write() || r.status >= 300 {
			continue
		}
		if r.lease() {
			// A Lease write is legitimate over a record of the writer's own or a released one,
			// or (acquiring) over one that ran out; releasing or renewing over another
			// holder's record is what this test exists to catch.
			prev, ok := holderAt(lease, r.rv)
			if ok && prev.holder != "" && prev.holder != r.replica && *r.holder != r.replica {
				t.Errorf("%s wrote the Lease with holder %q over %s's record (resourceVersion %d)", r.replica, *r.holder, prev.holder, r.rv)
			}
			continue
		}
		writes++
		at, ok := holderAt(lease, r.rv)
		if ok && at.holder == r.replica {
			continue
		}
		if ok && at.holder == intruder {
			// The test's own rewrite breaks the protocol on purpose: the leader cannot know
			// of it before its next renewal. checkNoticed holds it to what follows.
			continue
		}
		// The documented limit: a write that passed its fence before the Lease record in
		// effect when it landed was even sent (so before any successor could begin), and was
		// held up on its way (the process was paused between the check and the socket).
		if start, seen := began[at.rv]; ok && seen && !r.checked.IsZero() && r.checked.Before(start) && heldBefore(lease, r.replica, r.rv) {
			excused++
			t.Logf("%s's %s %s took effect at resourceVersion %d in %s's term: it passed its fence at %s, before that record was sent at %s (on the wire when paused)",
				r.replica, r.method, r.path, r.rv, at.holder, r.checked.Format(time.StampMicro), start.Format(time.StampMicro))
			continue
		}
		t.Errorf("%s's %s %s (arrived %s, fence checked %s) took effect at resourceVersion %d while %q held the lease",
			r.replica, r.method, r.path, r.arrived.Format(time.StampMicro), r.checked.Format(time.StampMicro), r.rv, at.holder)
	}
	if writes == 0 {
		t.Error("no writes recorded")
	}
	t.Logf("%d writes held against %d Lease versions; %d on the wire across a pause", writes, len(lease), excused)
}

// heldBefore reports whether replica held the lease at some version before rv.
func heldBefore(lease []leaseVersion, replica string, rv int64) bool {
	for _, v := range lease {
		if v.rv < rv && v.holder == replica {
			return true
		}
	}
	return false
}

// checkNoticed asserts that leader, whose Lease was rewritten at rewrittenAt, failed its next
// renewal and sent no write after it noticed: after its first request for the Lease once the
// renewal failed (it reads the Lease again to stand by).
func checkNoticed(t *testing.T, reqs []proxied, leader string, rewrittenAt time.Time) {
	t.Helper()
	var failed, reread, reacquired time.Time
	for _, r := range reqs {
		if r.replica != leader || !r.lease() || r.arrived.Before(rewrittenAt.Add(-time.Second)) {
			continue
		}
		switch {
		case failed.IsZero() && r.method == http.MethodPut && r.status == http.StatusConflict:
			failed = r.answer
		case !failed.IsZero() && reread.IsZero() && r.arrived.After(failed):
			reread = r.arrived
		case !reread.IsZero() && reacquired.IsZero() && r.write() && r.status < 300 && r.holder != nil && *r.holder == leader:
			// The intruder's record ran out and this replica won a term of its own again:
			// its writes from then on are checkTerms' to judge.
			reacquired = r.arrived
		}
	}
	if failed.IsZero() || reread.IsZero() {
		t.Fatalf("%s: no failed renewal and re-read of the Lease after it was rewritten at %s", leader, rewrittenAt.Format(time.StampMicro))
	}
	t.Logf("%s's renewal failed %s after the Lease was rewritten", leader, failed.Sub(rewrittenAt).Round(time.Millisecond))
	for _, r := range reqs {
		if r.replica != leader || !r.write() || r.lease() || !r.arrived.After(failed) ||
			!reacquired.IsZero() && r.arrived.After(reacquired) {
			continue
		}
		if r.checked.IsZero() || r.checked.After(reread) {
			t.Errorf("%s sent %s %s (fence checked %s) at %s, after its renewal failed at %s and it re-read the Lease at %s",
				leader, r.method, r.path, r.checked.Format(time.StampMicro), r.arrived.Format(time.StampMicro),
				failed.Format(time.StampMicro), reread.Format(time.StampMicro))
		}
	}
}
