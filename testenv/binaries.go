package testenv

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"
)

// Binaries names the executables a cluster is made of, and the kwok stage file that makes fake
// Nodes and Pods progress.
type Binaries struct {
	Dir                   string
	Etcd                  string
	KubeAPIServer         string
	KubeControllerManager string
	KubeScheduler         string
	Kwok                  string
	KwokStages            string
}

// toolModule is one pinned module under testenv/tools and the commands it builds.
type toolModule struct {
	dir      string   // directory under testenv/tools
	packages []string // packages to build
	names    []string // output names, same order as packages; a directory build must match go's
}

var toolModules = []toolModule{
	{dir: "etcd", packages: []string{"go.etcd.io/etcd/server/v3"}, names: []string{"etcd"}},
	{dir: "kwok", packages: []string{"sigs.k8s.io/kwok/cmd/kwok"}, names: []string{"kwok"}},
	{dir: "kubernetes", packages: []string{
		"k8s.io/kubernetes/cmd/kube-apiserver",
		"k8s.io/kubernetes/cmd/kube-controller-manager",
		"k8s.io/kubernetes/cmd/kube-scheduler",
	}, names: []string{"kube-apiserver", "kube-controller-manager", "kube-scheduler"}},
}

// kwokStageDirs are the stage sets, inside the kwok module, that testenv runs: Nodes become
// Ready at once and keep heartbeating; Pods become Running and Ready, or Succeeded when all
// their containers are Job-like, and go away when deleted.
var kwokStageDirs = []string{"kustomize/stage/node/fast", "kustomize/stage/node/heartbeat", "kustomize/stage/pod/fast"}

// EnvBinDir names a directory holding prebuilt binaries (etcd, kube-apiserver,
// kube-controller-manager, kube-scheduler, kwok and kwok-stages.yaml). When set, nothing is built.
const EnvBinDir = "KATES_TESTENV_BIN_DIR"

// EnvCacheDir overrides where built binaries are cached. Default: $XDG_CACHE_HOME/kates/testenv
// (usually ~/.cache/kates/testenv).
const EnvCacheDir = "KATES_TESTENV_CACHE"

var buildMu sync.Mutex

// EnsureBinaries returns the cluster's binaries, building them from the pinned tools modules with
// the Go toolchain the first time. Builds are cached by a hash of the tools modules' go.mod and
// go.sum and the Go version, so a version bump rebuilds and everything else reuses. A cold build
// takes about five minutes on two cores. Progress goes to log (nil discards it).
//
// Concurrent callers in one process share one build; separate processes serialize on a lock file
// in the cache directory, so `go test ./...` running packages in parallel builds once.
func EnsureBinaries(ctx context.Context, log io.Writer) (*Binaries, error) {
	if log == nil {
		log = io.Discard
	}
	if dir := os.Getenv(EnvBinDir); dir != "" {
		b := binariesIn(dir)
		return b, b.check()
	}
	buildMu.Lock()
	defer buildMu.Unlock()

	toolsDir, err := toolsSourceDir()
	if err != nil {
		return nil, err
	}
	key, err := toolsKey(toolsDir)
	if err != nil {
		return nil, err
	}
	cache, err := cacheDir()
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(cache, key)
	b := binariesIn(dir)
	if b.check() == nil {
		return b, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	unlock, err := lockFile(ctx, filepath.Join(cache, key+".lock"))
	if err != nil {
		return nil, err
	}
	defer unlock()
	if b.check() == nil { // another process built it while we waited
		return b, nil
	}

	start := time.Now()
	fmt.Fprintf(log, "testenv: building cluster binaries into %s (first run only; 12-15 min on 2 cores)\n", dir)
	for _, m := range toolModules {
		// One package builds to its own name; several build into the directory, each named
		// after its package.
		out := dir + string(filepath.Separator)
		if len(m.packages) == 1 {
			out = filepath.Join(dir, m.names[0])
		}
		args := append([]string{"build", "-o", out}, m.packages...)
		if err := runGo(ctx, filepath.Join(toolsDir, m.dir), log, args...); err != nil {
			return nil, fmt.Errorf("testenv: build %s: %w", strings.Join(m.names, ", "), err)
		}
		fmt.Fprintf(log, "testenv: built %s (%s elapsed)\n", strings.Join(m.names, ", "), time.Since(start).Round(time.Second))
	}
	if err := writeKwokStages(ctx, filepath.Join(toolsDir, "kwok"), b.KwokStages); err != nil {
		return nil, err
	}
	fmt.Fprintf(log, "testenv: cluster binaries ready in %s\n", time.Since(start).Round(time.Second))
	return b, b.check()
}

func binariesIn(dir string) *Binaries {
	return &Binaries{
		Dir:                   dir,
		Etcd:                  filepath.Join(dir, "etcd"),
		KubeAPIServer:         filepath.Join(dir, "kube-apiserver"),
		KubeControllerManager: filepath.Join(dir, "kube-controller-manager"),
		KubeScheduler:         filepath.Join(dir, "kube-scheduler"),
		Kwok:                  filepath.Join(dir, "kwok"),
		KwokStages:            filepath.Join(dir, "kwok-stages.yaml"),
	}
}

// check reports the first binary that is missing.
func (b *Binaries) check() error {
	for _, p := range []string{b.Etcd, b.KubeAPIServer, b.KubeControllerManager, b.KubeScheduler, b.Kwok, b.KwokStages} {
		if _, err := os.Stat(p); err != nil {
			return fmt.Errorf("testenv: missing %s: %w", p, err)
		}
	}
	return nil
}

// toolsSourceDir finds testenv/tools next to this source file. The tools modules are nested
// modules, so they exist only in a checkout of this repository, not in the module cache: a
// program outside the repository must set KATES_TESTENV_BIN_DIR.
func toolsSourceDir() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", errors.New("testenv: cannot locate source directory; set " + EnvBinDir)
	}
	dir := filepath.Join(filepath.Dir(file), "tools")
	if _, err := os.Stat(filepath.Join(dir, "kubernetes", "go.mod")); err != nil {
		return "", fmt.Errorf("testenv: tools modules not found at %s (set %s to prebuilt binaries): %w", dir, EnvBinDir, err)
	}
	return dir, nil
}

// toolsKey hashes what decides the binaries' content: the pinned module graphs and the toolchain.
func toolsKey(toolsDir string) (string, error) {
	h := sha256.New()
	h.Write([]byte(runtime.Version()))
	for _, m := range toolModules {
		for _, f := range []string{"go.mod", "go.sum"} {
			data, err := os.ReadFile(filepath.Join(toolsDir, m.dir, f))
			if err != nil {
				return "", fmt.Errorf("testenv: %w", err)
			}
			h.Write(data)
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

func cacheDir() (string, error) {
	if dir := os.Getenv(EnvCacheDir); dir != "" {
		return dir, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("testenv: no cache directory (set %s): %w", EnvCacheDir, err)
	}
	return filepath.Join(base, "kates", "testenv"), nil
}

func runGo(ctx context.Context, dir string, log io.Writer, args ...string) error {
	cmd := exec.CommandContext(ctx, goTool(), args...)
	cmd.Dir = dir
	// The tools modules must resolve on their own, never through a go.work of the caller's.
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	var stderr bytes.Buffer
	cmd.Stdout = log
	cmd.Stderr = io.MultiWriter(log, &stderr)
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, tail(stderr.String(), 20))
	}
	return nil
}

// goTool prefers the toolchain that built this program, so the cache key's Go version is the
// one that builds.
func goTool() string {
	p := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(p); err == nil {
		return p
	}
	return "go"
}

// writeKwokStages concatenates kwok's stage manifests into one multi-document file.
func writeKwokStages(ctx context.Context, kwokToolsDir, out string) error {
	cmd := exec.CommandContext(ctx, goTool(), "list", "-m", "-f", "{{.Dir}}", "sigs.k8s.io/kwok")
	cmd.Dir = kwokToolsDir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	dirOut, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("testenv: locate kwok module: %w", err)
	}
	modDir := strings.TrimSpace(string(dirOut))
	var buf bytes.Buffer
	for _, sub := range kwokStageDirs {
		files, err := filepath.Glob(filepath.Join(modDir, sub, "*.yaml"))
		if err != nil {
			return err
		}
		for _, f := range files {
			if filepath.Base(f) == "kustomization.yaml" {
				continue
			}
			data, err := os.ReadFile(f)
			if err != nil {
				return fmt.Errorf("testenv: %w", err)
			}
			buf.WriteString("---\n")
			buf.Write(bytes.TrimSpace(data))
			buf.WriteString("\n")
		}
	}
	if buf.Len() == 0 {
		return fmt.Errorf("testenv: no kwok stages found under %s", modDir)
	}
	return os.WriteFile(out, buf.Bytes(), 0o644)
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
