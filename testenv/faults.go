package testenv

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"time"

	"k8s.io/client-go/rest"
)

// StopAPIServer stops the cluster's kube-apiserver, leaving etcd and the controllers running, as
// an API server restart or crash would. Clients see connection errors until StartAPIServer.
func (c *Cluster) StopAPIServer() error {
	if c.external {
		return ErrShared
	}
	c.mu.Lock()
	p := c.apiserver
	c.apiserver = nil
	c.mu.Unlock()
	if p == nil {
		return fmt.Errorf("testenv: kube-apiserver is not running")
	}
	p.stop(5 * time.Second)
	return nil
}

// StartAPIServer starts the kube-apiserver again on the same port with the same etcd, and returns
// once it is ready. Clients built from RESTConfig reconnect without change.
func (c *Cluster) StartAPIServer(ctx context.Context) error {
	if c.external {
		return ErrShared
	}
	c.mu.Lock()
	running := c.apiserver != nil
	c.mu.Unlock()
	if running {
		return fmt.Errorf("testenv: kube-apiserver is already running")
	}
	p, err := c.startAPIServer(ctx, "kube-apiserver", c.apiPort)
	if err != nil {
		return err
	}
	c.mu.Lock()
	c.apiserver = p
	c.mu.Unlock()
	return nil
}

// StartSecondAPIServer starts another kube-apiserver on a new port over the same etcd and returns
// an admin rest.Config for it, and a function that stops it. Writes through it are seen by
// watches on the first one, which is how fault tests change the cluster while the first API
// server is down. Call stop when done with it (a test's Cleanup): an idle API server still
// costs CPU, and a long -count run of tests that each start one would pile them up until the
// cluster stops.
func (c *Cluster) StartSecondAPIServer(ctx context.Context) (cfg *rest.Config, stop func(), err error) {
	if c.external {
		return nil, nil, ErrShared
	}
	ports, err := freePorts(1)
	if err != nil {
		return nil, nil, err
	}
	p, err := c.startAPIServer(ctx, "kube-apiserver-"+strconv.Itoa(ports[0]), ports[0])
	if err != nil {
		return nil, nil, err
	}
	c.mu.Lock()
	c.secondaries = append(c.secondaries, p)
	c.mu.Unlock()
	stop = sync.OnceFunc(func() {
		c.mu.Lock()
		c.secondaries = slices.DeleteFunc(c.secondaries, func(q *process) bool { return q == p })
		c.mu.Unlock()
		p.stop(5 * time.Second)
	})
	return c.adminConfig(ports[0]), stop, nil
}

// CompactEtcd compacts etcd's history up to its current revision and returns that revision.
// Watches that later try to resume from an older resource version get 410 Gone, as they do on a
// long-running cluster. It talks to etcd's JSON gateway, so it needs no etcd client library.
func (c *Cluster) CompactEtcd(ctx context.Context) (int64, error) {
	if c.external {
		return 0, ErrShared
	}
	var rng struct {
		Header struct {
			Revision string `json:"revision"`
		} `json:"header"`
	}
	key := base64.StdEncoding.EncodeToString([]byte("/registry"))
	if err := c.etcdCall(ctx, "/v3/kv/range", map[string]any{"key": key, "limit": 1}, &rng); err != nil {
		return 0, err
	}
	rev, err := strconv.ParseInt(rng.Header.Revision, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("testenv: etcd revision %q: %w", rng.Header.Revision, err)
	}
	if err := c.etcdCall(ctx, "/v3/kv/compaction", map[string]any{"revision": rev, "physical": true}, nil); err != nil {
		return 0, err
	}
	return rev, nil
}

func (c *Cluster) etcdCall(ctx context.Context, path string, body any, out any) error {
	data, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://127.0.0.1:"+strconv.Itoa(c.etcdPort)+path, bytes.NewReader(data))
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("testenv: etcd %s: %w", path, err)
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	_, _ = buf.ReadFrom(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("testenv: etcd %s: %s: %s", path, resp.Status, buf.String())
	}
	if out != nil {
		return json.Unmarshal(buf.Bytes(), out)
	}
	return nil
}

// LogPath is the log file of a component ("etcd", "kube-apiserver", "kube-controller-manager",
// "kube-scheduler", "kwok"); "" for an attached cluster.
func (c *Cluster) LogPath(component string) string {
	if c.external {
		return ""
	}
	return filepath.Join(c.dir, component+".log")
}
