package main

import (
	"bytes"
	"context"
	"errors"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/testenv"
	"github.com/kates-dev/kates/testenv/katestest"
)

// The CLI tests run the built binary, as a user or a CI job would, against the local cluster.
var (
	cluster *testenv.Cluster
	binary  string
	// buildFlags are the go build flags of binary: -race under go test -race (race_test.go).
	buildFlags []string
)

// raceReport is what a binary built with -race prints when it finds a data race.
const raceReport = "WARNING: DATA RACE"

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "kates-cli-")
	if err != nil {
		log.Fatal(err)
	}
	binary = filepath.Join(dir, "kates")
	if out, err := exec.Command("go", append(append([]string{"build"}, buildFlags...), "-o", binary, ".")...).CombinedOutput(); err != nil {
		log.Fatalf("go build: %v\n%s", err, out)
	}
	cluster, err = testenv.Start(context.Background(), testenv.Options{Log: os.Stderr})
	if err != nil {
		log.Fatal(err)
	}
	code := m.Run()
	if err := cluster.Stop(); err != nil {
		log.Print(err)
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// result is what one run of the binary did.
type result struct {
	stdout, stderr string
	code           int
	took           time.Duration
}

// runKates runs the binary with args against the test cluster and returns what it did. stdin,
// if not nil, is its standard input; its standard output is a pipe, not a terminal.
func runKates(t *testing.T, stdin []byte, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, append([]string{"--kubeconfig", cluster.KubeconfigPath()}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	begin := time.Now()
	err := cmd.Run()
	r := result{stdout: stdout.String(), stderr: stderr.String(), took: time.Since(begin)}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	default:
		t.Fatalf("run kates %v: %v", args, err)
	}
	t.Logf("kates %v: exit %d after %s\nstdout:\n%s\nstderr:\n%s", args, r.code, r.took.Round(time.Millisecond), r.stdout, r.stderr)
	if strings.Contains(r.stderr, raceReport) {
		t.Errorf("kates %v: the race detector found a data race (see stderr above)", args)
	}
	return r
}

// newClient returns a Client whose namespace is a fresh one, deleted after the test.
func newClient(t *testing.T) (*kates.Client, string) {
	t.Helper()
	return katestest.NewClient(t, cluster, "kates-cli-")
}

// writeFile writes a manifest into a fresh directory and returns its path.
func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
