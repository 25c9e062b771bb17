package testenv

import (
	"context"
	"syscall"
	"testing"
	"time"
)

// TestCrashedKwokIsStartedAgain: a kwok that died (as kwok 0.8.0 sometimes does as it starts)
// is found among the cluster's children and started again with the same arguments, after
// which the cluster reports no crashed child; a running kwok is left alone.
func TestCrashedKwokIsStartedAgain(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := Start(ctx, Options{Private: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Stop()
	if c.restartCrashedKwok() {
		t.Fatal("restartCrashedKwok restarted a kwok that was running")
	}
	c.mu.Lock()
	var kwok *process
	for _, p := range c.controllers {
		if p.name == "kwok" {
			kwok = p
		}
	}
	c.mu.Unlock()
	if kwok == nil {
		t.Fatal("no kwok among the controllers")
	}
	if err := syscall.Kill(-kwok.cmd.Process.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-kwok.done
	if c.Err() == nil {
		t.Fatal("Err() = nil after kwok was killed, want its crash")
	}
	if !c.restartCrashedKwok() {
		t.Fatal("restartCrashedKwok did not start the killed kwok again")
	}
	if err := c.Err(); err != nil {
		t.Errorf("Err() after the restart = %v, want nil", err)
	}
}

// TestControllersFlag: the controller-manager runs every controller but the ServiceAccount
// token controller, less those Options.DisabledControllers names.
func TestControllersFlag(t *testing.T) {
	c := &Cluster{}
	if got, want := c.controllersFlag(), "*,-serviceaccount-token"; got != want {
		t.Errorf("controllersFlag() = %q, want %q", got, want)
	}
	c.opts.DisabledControllers = []string{"deployment-controller", "replicaset-controller"}
	if got, want := c.controllersFlag(), "*,-serviceaccount-token,-deployment-controller,-replicaset-controller"; got != want {
		t.Errorf("controllersFlag() = %q, want %q", got, want)
	}
}
