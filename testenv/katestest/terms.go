package katestest

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
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
)

// Request is one request a replica sent, as its Recorder's proxy saw it.
type Request struct {
	// Replica is the name the proxy was made for (Recorder.Kubeconfig's replica).
	Replica string
	Method  string
	Path    string
	Query   string // the raw query
	// Arrived is when the proxy received the request; Answered when it had the API server's
	// answer (its headers, for a read, which is passed on as it streams).
	Arrived, Answered time.Time
	// Status is the API server's status code, or 502 (http.StatusBadGateway) when the proxy
	// got no answer: a write abandoned on the wire, which may or may not have landed.
	Status int
	// Name and ResourceVersion are those of the object a successful write (not a delete)
	// returned; Holder, for such a write to a Lease, is the holder it wrote ("" when it
	// released the Lease). All are zero for reads and failed writes.
	Name            string
	ResourceVersion int64
	Holder          *string
	// FenceChecked is when the replica checked its fence before sending the request
	// (kates.FenceCheckedHeader; replicas send it with StampFences), zero if it did not say.
	FenceChecked time.Time
}

// IsWrite reports whether r changes something: any method but GET, HEAD and OPTIONS.
func (r Request) IsWrite() bool {
	return r.Method != http.MethodGet && r.Method != http.MethodHead && r.Method != http.MethodOptions
}

// IsLease reports whether r is a request for a Lease or the Leases of a namespace.
func (r Request) IsLease() bool {
	return strings.Contains(r.Path, "/leases/") || strings.HasSuffix(r.Path, "/leases")
}

// Recorder records what replica processes really wrote, from outside their processes, so
// that a test can check that no two of them wrote at once (CheckTerms). The process tests of
// leader election and shards (examples/controller, shards) ask that question, and a replica
// cannot be trusted to answer it: it may be paused between its fence check and the socket,
// or killed with a write on the wire, and its own log stops with it. So each replica is given
// a kubeconfig (Kubeconfig) that points at a proxy of its own in the test's process, which
// records every request when it arrives: a replica that is stopped cannot stop its recorder,
// and a write it sends after waking is seen when it arrives. Requests reach the API server
// with the credentials of the rest.Config the Recorder was made with.
type Recorder struct {
	cfg *rest.Config

	mu          sync.Mutex
	reqs        []Request
	kubeconfigs map[string]string // replica → the kubeconfig of its proxy
}

// NewRecorder returns a Recorder whose proxies forward to the API server of cfg with cfg's
// credentials.
func NewRecorder(cfg *rest.Config) *Recorder {
	return &Recorder{cfg: cfg, kubeconfigs: map[string]string{}}
}

// Requests returns every request recorded so far, in the order they arrived at the proxies
// (reads when the answer's headers came, writes when the whole answer had).
func (r *Recorder) Requests() []Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Request(nil), r.reqs...)
}

func (r *Recorder) add(req Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reqs = append(r.reqs, req)
}

// Kubeconfig returns the path of a kubeconfig, with ns its namespace, that sends replica's
// requests through a proxy recording them as replica's. The first call for a replica starts
// its proxy, closed when t ends; later calls (a restarted replica) return the same file. The
// kubeconfig holds no credentials: the proxy adds them.
func (r *Recorder) Kubeconfig(t testing.TB, replica, ns string) string {
	t.Helper()
	r.mu.Lock()
	path, ok := r.kubeconfigs[replica]
	r.mu.Unlock()
	if ok {
		return path
	}
	srv := r.proxy(t, replica)
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["proxy"] = &clientcmdapi.Cluster{Server: srv.URL}
	cfg.AuthInfos["proxy"] = &clientcmdapi.AuthInfo{}
	cfg.Contexts["proxy"] = &clientcmdapi.Context{Cluster: "proxy", AuthInfo: "proxy", Namespace: ns}
	cfg.CurrentContext = "proxy"
	path = filepath.Join(t.TempDir(), replica+".kubeconfig")
	if err := clientcmd.WriteToFile(*cfg, path); err != nil {
		t.Fatal(err)
	}
	r.mu.Lock()
	r.kubeconfigs[replica] = path
	r.mu.Unlock()
	return path
}

// proxy starts replica's recording proxy.
func (r *Recorder) proxy(t testing.TB, replica string) *httptest.Server {
	t.Helper()
	rt, err := rest.TransportFor(r.cfg)
	if err != nil {
		t.Fatal(err)
	}
	target := strings.TrimSuffix(r.cfg.Host, "/")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, in *http.Request) {
		rec := Request{Replica: replica, Method: in.Method, Path: in.URL.Path, Query: in.URL.RawQuery, Arrived: time.Now()}
		if s := in.Header.Get(kates.FenceCheckedHeader); s != "" {
			if ns, err := strconv.ParseInt(s, 10, 64); err == nil {
				rec.FenceChecked = time.Unix(0, ns)
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
		rec.Answered = time.Now()
		if err != nil {
			rec.Status = http.StatusBadGateway
			r.add(rec)
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		rec.Status = resp.StatusCode
		for k, vs := range resp.Header {
			w.Header()[k] = vs
		}
		if !rec.IsWrite() {
			r.add(rec)
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
			rec.Status = http.StatusBadGateway
		}
		if rec.Status < 300 && rec.Method != http.MethodDelete { // a delete may answer a Status
			rec.Name, rec.ResourceVersion, rec.Holder = written(t, body, resp.Header.Get("Content-Type"), rec.IsLease())
		}
		r.add(rec)
		w.WriteHeader(resp.StatusCode)
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// written decodes what a successful write answered: the object's name and resourceVersion
// and, for a Lease, its holder ("" when released). The kates Client speaks protobuf for
// built-in kinds, JSON for custom resources; a body that decodes as neither fails the test,
// so that no write escapes the checks by being unreadable.
func written(t testing.TB, body []byte, contentType string, lease bool) (string, int64, *string) {
	var name, rv string
	holder := ""
	if strings.Contains(contentType, "protobuf") {
		obj, _, err := clientgoscheme.Codecs.UniversalDeserializer().Decode(body, nil, nil)
		if err != nil {
			t.Errorf("a write's answer (%s) does not decode: %v", contentType, err)
			return "", 0, nil
		}
		m, err := meta.Accessor(obj)
		if err != nil {
			t.Errorf("a write's answer %T has no metadata: %v", obj, err)
			return "", 0, nil
		}
		name, rv = m.GetName(), m.GetResourceVersion()
		if l, ok := obj.(*coordinationv1.Lease); ok && l.Spec.HolderIdentity != nil {
			holder = *l.Spec.HolderIdentity
		}
	} else {
		var obj struct {
			Metadata struct {
				Name            string `json:"name"`
				ResourceVersion string `json:"resourceVersion"`
			} `json:"metadata"`
			Spec struct {
				HolderIdentity *string `json:"holderIdentity"`
			} `json:"spec"`
		}
		if err := json.Unmarshal(body, &obj); err != nil {
			t.Errorf("a write's answer (%s) does not decode: %v", contentType, err)
			return "", 0, nil
		}
		name, rv = obj.Metadata.Name, obj.Metadata.ResourceVersion
		if obj.Spec.HolderIdentity != nil {
			holder = *obj.Spec.HolderIdentity
		}
	}
	n, err := strconv.ParseInt(rv, 10, 64)
	if err != nil {
		t.Errorf("a write's answer has resourceVersion %q", rv)
	}
	if !lease {
		return name, n, nil
	}
	return name, n, &holder
}

// LeaseVersion is one version of a Lease, as WatchLeases saw it.
type LeaseVersion struct {
	Name            string
	ResourceVersion int64
	Holder          string // "" when released
	Transitions     int32  // spec.leaseTransitions: which term this is
	// Expires is when the record runs out: spec.renewTime plus spec.leaseDurationSeconds (zero
	// if either is missing). Another replica may take the Lease over it only after that.
	Expires time.Time
}

// LeaseHistory is every version of a namespace's Leases that a watch saw, in resourceVersion
// order.
type LeaseHistory []LeaseVersion

// WatchLeases records every version of every Lease in ns from now on, until stop is called
// (or t ends); history returns them so far.
func WatchLeases(t testing.TB, c *kates.Client, ns string) (history func() LeaseHistory, stop func()) {
	t.Helper()
	w, err := Clientset(t, c).CoordinationV1().Leases(ns).Watch(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen LeaseHistory
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ev := range w.ResultChan() {
			l, ok := ev.Object.(*coordinationv1.Lease)
			if !ok {
				continue
			}
			v := LeaseVersion{Name: l.Name}
			v.ResourceVersion, _ = strconv.ParseInt(l.ResourceVersion, 10, 64)
			if l.Spec.HolderIdentity != nil {
				v.Holder = *l.Spec.HolderIdentity
			}
			if l.Spec.LeaseTransitions != nil {
				v.Transitions = *l.Spec.LeaseTransitions
			}
			if l.Spec.RenewTime != nil && l.Spec.LeaseDurationSeconds != nil {
				v.Expires = l.Spec.RenewTime.Add(time.Duration(*l.Spec.LeaseDurationSeconds) * time.Second)
			}
			mu.Lock()
			seen = append(seen, v)
			mu.Unlock()
		}
	}()
	stop = sync.OnceFunc(func() {
		w.Stop()
		<-done
	})
	t.Cleanup(stop)
	return func() LeaseHistory {
		mu.Lock()
		defer mu.Unlock()
		h := append(LeaseHistory(nil), seen...)
		sort.SliceStable(h, func(i, j int) bool { return h[i].ResourceVersion < h[j].ResourceVersion })
		return h
	}, stop
}

// At returns the version of Lease name in effect when a write of resourceVersion rv was made:
// the newest one written before it. This compares resourceVersions as numbers, which clients
// must not do in general; it holds for one etcd, where they are its revisions, global across
// objects — as on the local cluster.
func (h LeaseHistory) At(name string, rv int64) (LeaseVersion, bool) {
	var at LeaseVersion
	found := false
	for _, v := range h {
		if v.Name == name && v.ResourceVersion < rv && v.ResourceVersion >= at.ResourceVersion {
			at, found = v, true
		}
	}
	return at, found
}

// heldBefore reports whether holder held Lease name at some version before rv.
func (h LeaseHistory) heldBefore(name, holder string, rv int64) bool {
	for _, v := range h {
		if v.Name == name && v.ResourceVersion < rv && v.Holder == holder {
			return true
		}
	}
	return false
}

// TermCheck says which of the recorded writes CheckTerms holds against which Lease.
type TermCheck struct {
	// TermOf names the Lease in one of whose writer's terms a write (not to a Lease) must
	// land, or returns "" for a write no term governs.
	TermOf func(Request) string
	// IsTerm reports whether the Lease name grants terms; writes to other Leases (a group's
	// membership announcements) are not checked. nil means every Lease does.
	IsTerm func(name string) bool
	// Intruder, if set, is a holder the test itself writes into a Lease, breaking the
	// protocol on purpose: the leader cannot know of it before its next renewal, so writes
	// that land in its record are not errors here (the test judges them itself).
	Intruder string
}

// CheckTerms holds every successful write of reqs against history and reports on t each one
// that breaks the protocol:
//
//   - a write to a term Lease over another holder's record, unless it takes the Lease for
//     its writer over a record that had run out (by the record's renewTime and duration,
//     against when the write arrived): a replica never releases, renews or retakes over a
//     successor's live record;
//   - a write governed by a term (check.TermOf) that took effect, by its resourceVersion,
//     while another replica held that Lease — unless it passed its fence check before the
//     record then in effect was even sent, after a term of its writer's: a write on the wire
//     when its process was paused, the limit the election documents. Those are logged.
//
// It fails t when no governed write was recorded at all, and returns how many were checked
// and how many of them were excused as on the wire.
func CheckTerms(t testing.TB, reqs []Request, history LeaseHistory, check TermCheck) (writes, excused int) {
	t.Helper()
	isTerm := check.IsTerm
	if isTerm == nil {
		isTerm = func(string) bool { return true }
	}
	// sent is when the proxies saw each Lease write arrive, by the resourceVersion it made.
	sent := map[int64]time.Time{}
	for _, r := range reqs {
		if r.IsLease() && r.IsWrite() && r.Status < 300 {
			sent[r.ResourceVersion] = r.Arrived
		}
	}
	noops := NoOps(reqs)
	for i, r := range reqs {
		if !r.IsWrite() || r.Status >= 300 || noops[i] {
			continue
		}
		if r.IsLease() {
			if r.Holder == nil || !isTerm(r.Name) {
				continue // a delete, or not a term
			}
			prev, ok := history.At(r.Name, r.ResourceVersion)
			if !ok || prev.Holder == "" || prev.Holder == r.Replica {
				continue
			}
			switch {
			case *r.Holder != r.Replica:
				t.Errorf("%s wrote Lease %s with holder %q over %s's record (resourceVersion %d)",
					r.Replica, r.Name, *r.Holder, prev.Holder, r.ResourceVersion)
			case !prev.Expires.IsZero() && r.Arrived.Before(prev.Expires):
				t.Errorf("%s took Lease %s (resourceVersion %d, arrived %s) over %s's record, which ran until %s",
					r.Replica, r.Name, r.ResourceVersion, r.Arrived.Format(time.StampMicro), prev.Holder,
					prev.Expires.Format(time.StampMicro))
			}
			continue
		}
		lease := check.TermOf(r)
		if lease == "" {
			continue
		}
		writes++
		at, ok := history.At(lease, r.ResourceVersion)
		if ok && (at.Holder == r.Replica || check.Intruder != "" && at.Holder == check.Intruder) {
			continue
		}
		if start, seen := sent[at.ResourceVersion]; ok && seen && !r.FenceChecked.IsZero() &&
			r.FenceChecked.Before(start) && history.heldBefore(lease, r.Replica, r.ResourceVersion) {
			excused++
			t.Logf("%s's %s %s took effect at resourceVersion %d in %s's term of Lease %s: it passed its fence at %s, before that record was sent at %s (on the wire when paused)",
				r.Replica, r.Method, r.Path, r.ResourceVersion, at.Holder, lease,
				r.FenceChecked.Format(time.StampMicro), start.Format(time.StampMicro))
			continue
		}
		t.Errorf("%s's %s %s (arrived %s, fence checked %s) took effect at resourceVersion %d while %q held Lease %s",
			r.Replica, r.Method, r.Path, r.Arrived.Format(time.StampMicro), r.FenceChecked.Format(time.StampMicro),
			r.ResourceVersion, at.Holder, lease)
	}
	if writes == 0 {
		t.Error("no writes governed by a Lease recorded")
	}
	t.Logf("%d writes held against %d Lease versions; %d on the wire across a pause", writes, len(history), excused)
	return writes, excused
}

// NoOps returns the successful writes of reqs that changed nothing, by their index in reqs:
// those that returned the same object at the same resourceVersion as an earlier write of the
// same path (by arrival). An apply that finds the object as it wants it leaves it alone, and
// the API server answers with the stored object, resourceVersion and all; such a write took
// effect at no resourceVersion, so it is in no one's term: a term check must skip it rather
// than judge it by the older resourceVersion of the write that did change the object.
func NoOps(reqs []Request) map[int]bool {
	order := make([]int, len(reqs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return reqs[order[a]].Arrived.Before(reqs[order[b]].Arrived) })
	type version struct {
		path string
		rv   int64
	}
	seen := map[version]bool{}
	noops := map[int]bool{}
	for _, i := range order {
		r := reqs[i]
		if !r.IsWrite() || r.Status >= 300 || r.ResourceVersion == 0 {
			continue
		}
		v := version{r.Path, r.ResourceVersion}
		if seen[v] {
			noops[i] = true
		}
		seen[v] = true
	}
	return noops
}
