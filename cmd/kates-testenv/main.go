// Command kates-testenv builds and runs the local cluster of package testenv outside a test, for
// `make cluster-up`, `make demo` and people who want to poke at it with kubectl.
//
//	kates-testenv build                      # build (or find cached) cluster binaries
//	kates-testenv run --kubeconfig PATH      # start a cluster, write its kubeconfig, run until signalled
//
// run writes the kubeconfig only once the cluster is ready (Nodes Ready, controllers running), so
// a script can wait for the file to appear. SIGINT or SIGTERM stops every component and exits.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/kates-dev/kates/testenv"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "build":
		err = build()
	case "run":
		err = run(os.Args[2:])
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "kates-testenv:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: kates-testenv build | run --kubeconfig PATH [--nodes N]")
	os.Exit(2)
}

func build() error {
	begin := time.Now()
	b, err := testenv.EnsureBinaries(context.Background(), os.Stdout)
	if err != nil {
		return err
	}
	fmt.Printf("cluster binaries in %s (%s)\n", b.Dir, time.Since(begin).Round(time.Millisecond))
	return nil
}

func run(args []string) error {
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	kubeconfig := fs.String("kubeconfig", ".kates/kubeconfig", "where to write the admin kubeconfig once the cluster is ready")
	nodes := fs.Int("nodes", 2, "number of fake nodes")
	disabled := fs.String("disable-controllers", "", "comma-separated kube-controller-manager controllers not to run (e.g. deployment-controller,replicaset-controller)")
	_ = fs.Parse(args)
	var disabledControllers []string
	if *disabled != "" {
		disabledControllers = strings.Split(*disabled, ",")
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	begin := time.Now()
	opts := testenv.Options{Private: true, Nodes: *nodes, NoNodes: *nodes == 0, Log: os.Stdout, StartTimeout: 5 * time.Minute,
		DisabledControllers: disabledControllers}
	cluster, err := testenv.Start(ctx, opts)
	if err != nil {
		return err
	}
	defer cluster.Stop()
	data, err := os.ReadFile(cluster.KubeconfigPath())
	if err != nil {
		return err
	}
	// Write then rename, so a waiting script never reads half a file.
	if err := os.MkdirAll(filepath.Dir(*kubeconfig), 0o755); err != nil {
		return err
	}
	tmp := *kubeconfig + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return err
	}
	if err := os.Rename(tmp, *kubeconfig); err != nil {
		return err
	}
	defer os.Remove(*kubeconfig)
	fmt.Printf("cluster ready in %s; kubeconfig %s; logs in %s\n", time.Since(begin).Round(time.Millisecond), *kubeconfig, cluster.Dir())

	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			fmt.Println("stopping cluster")
			return nil
		case <-tick.C:
			if err := cluster.Err(); err != nil {
				return err
			}
		}
	}
}
