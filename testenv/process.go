package testenv

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// process is one child of the cluster: etcd, an API server, a controller.
type process struct {
	name    string
	logPath string
	cmd     *exec.Cmd

	done    chan struct{} // closed when the process has exited
	mu      sync.Mutex
	err     error // exit status, once done
	stopped bool  // Stop was asked for: an exit is not a crash
}

// startProcess starts bin with args, its output in logDir/name.log. The child gets its own
// process group, so stopping it also stops anything it forked, and it is killed by the kernel if
// this process dies first (Pdeathsig), so a panicking test leaves nothing running.
func startProcess(name, bin string, args []string, logDir string) (*process, error) {
	logPath := filepath.Join(logDir, name+".log")
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout = logFile
	cmd.Stderr = logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return nil, fmt.Errorf("testenv: start %s: %w", name, err)
	}
	p := &process{name: name, logPath: logPath, cmd: cmd, done: make(chan struct{})}
	go func() {
		err := cmd.Wait()
		logFile.Close()
		p.mu.Lock()
		p.err = err
		p.mu.Unlock()
		close(p.done)
	}()
	return p, nil
}

// exited reports whether the process ended without being asked to, with the tail of its log.
func (p *process) exited() error {
	select {
	case <-p.done:
	default:
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return nil
	}
	return p.crashError()
}

func (p *process) crashError() error {
	logTail := "(no log)"
	if data, err := os.ReadFile(p.logPath); err == nil {
		logTail = tail(string(data), 25)
	}
	return fmt.Errorf("testenv: %s exited early (%v); last lines of %s:\n%s", p.name, p.err, p.logPath, logTail)
}

// stop sends SIGTERM to the process group, and SIGKILL after grace. It returns once the process
// has exited. The kube-apiserver's graceful shutdown can take minutes (and forever without etcd),
// so callers pass short grace periods: tests do not need a clean shutdown.
func (p *process) stop(grace time.Duration) {
	p.mu.Lock()
	p.stopped = true
	p.mu.Unlock()
	pgid := p.cmd.Process.Pid
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(grace):
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		<-p.done
	}
	// Anything left in the group (the leader exited first) goes too.
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
}

// lockFile takes an exclusive flock on path, waiting until ctx ends.
func lockFile(ctx context.Context, path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, fmt.Errorf("testenv: lock %s: %w", path, err)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}
