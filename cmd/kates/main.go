package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"

	"github.com/kates-dev/kates/kates"
)

// Exit codes.
const (
	exitOK      = 0
	exitFailed  = 1
	exitUsage   = 2
	programName = "kates"
)

// commandPath is how the user runs kates: "kates", or "kubectl kates" for the kubectl plugin.
var commandPath = programName

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	if strings.HasPrefix(filepath.Base(os.Args[0]), "kubectl-") {
		// Installed as kubectl-kates, kubectl runs it for "kubectl kates ...": say so in help.
		commandPath = "kubectl " + programName
	}
	code := run(ctx, os.Args[1:], streams{in: os.Stdin, out: os.Stdout, errOut: os.Stderr})
	stop()
	os.Exit(code)
}

// streams are the command's standard streams; tests replace them.
type streams struct {
	in          io.Reader
	out, errOut io.Writer
}

// exitError carries the exit code an error should end the program with.
type exitError struct {
	code int
	err  error
	hint bool // point at --help: the command line itself is wrong
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// usageErrorf is an error of bad usage or input: exit code 2.
func usageErrorf(format string, args ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, args...)}
}

// failure wraps err with the exit code its kind calls for: 2 for what the user must correct in
// the input (an unknown kind, an object the server calls invalid), 1 for the rest.
func failure(err error) error {
	var ee *exitError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ee):
		return err
	case kates.IsUnknownKind(err), apierrors.IsInvalid(err), apierrors.IsBadRequest(err):
		return &exitError{code: exitUsage, err: err}
	}
	return &exitError{code: exitFailed, err: err}
}

// run runs the command line args and returns the exit code.
func run(ctx context.Context, args []string, s streams) int {
	root, o := newRootCommand(s)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	klog.Flush()
	if err == nil && o.warningsAsErrors && o.warnings.WarningCount() > 0 {
		n := o.warnings.WarningCount()
		err = &exitError{code: exitFailed, err: fmt.Errorf("%d warning(s) from the server (--warnings-as-errors)", n)}
	}
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if !errors.As(err, &ee) {
		// Cobra's own errors (an unknown command or flag, wrong arguments) come before any
		// command ran: usage.
		ee = &exitError{code: exitUsage, err: err, hint: true}
	}
	if ee.err != errSilent {
		// Errors quote the cluster (a Failed object's message): escaped as every other
		// cluster-supplied text is.
		fmt.Fprintf(s.errOut, "error: %s\n", linesForTerminal(ee.err.Error()))
	}
	if ee.hint {
		fmt.Fprintf(s.errOut, "See '%s --help' for usage.\n", root.CommandPath())
	}
	return ee.code
}

// errSilent ends the program with an exit code after the command has said all there is to say.
var errSilent = errors.New("silent")

// setupLogs routes client-go's logs (klog) to errOut at level v, or nowhere at 0: its retries and
// discovery warnings are noise beside the errors kates reports itself.
func setupLogs(v int, errOut io.Writer) {
	fs := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(fs)
	_ = fs.Set("v", strconv.Itoa(v))
	klog.LogToStderr(false)
	if v == 0 {
		_ = fs.Set("stderrthreshold", "FATAL")
		klog.SetOutput(io.Discard)
		return
	}
	klog.SetOutput(errOut)
}

// options holds the flags every command shares.
type options struct {
	streams
	config *genericclioptions.ConfigFlags
	// warnings prints the API server's warnings (a deprecated API, a field it dropped) on
	// errOut, each once, as kubectl does; client-go would otherwise log them only at a
	// verbosity kates leaves off.
	warnings interface {
		rest.WarningHandler
		WarningCount() int
	}
	warningsAsErrors bool
}

// terminalWriter escapes what it writes as cluster-supplied text (see forTerminal): the
// server's warnings are such text.
type terminalWriter struct{ w io.Writer }

func (t terminalWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(t.w, linesForTerminal(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// client builds the client the connection flags describe.
func (o *options) client() (*kates.Client, error) {
	// ToRESTConfig, not the raw loader's ClientConfig: it applies WrapConfigFn, which installs
	// the warning handler (server warnings printed once, --warnings-as-errors).
	cfg, err := o.config.ToRESTConfig()
	if err != nil {
		return nil, &exitError{code: exitUsage, err: fmt.Errorf("kates: load kubeconfig: %w", err)}
	}
	ns, _, err := o.config.ToRawKubeConfigLoader().Namespace()
	if err != nil {
		return nil, &exitError{code: exitUsage, err: fmt.Errorf("kates: namespace: %w", err)}
	}
	c, err := kates.NewClientFromRESTConfig(cfg, ns)
	if err != nil {
		return nil, &exitError{code: exitUsage, err: err}
	}
	return c, nil
}

func newRootCommand(s streams) (*cobra.Command, *options) {
	o := &options{streams: s, config: genericclioptions.NewConfigFlags(true)}
	o.warnings = rest.NewWarningWriter(terminalWriter{s.errOut}, rest.WarningWriterOptions{Deduplicate: true})
	o.config.WrapConfigFn = func(c *rest.Config) *rest.Config {
		c.WarningHandler = o.warnings
		return c
	}
	// kates keeps discovery in memory for one run and has no disk cache to point --cache-dir
	// at: better no flag than one that is silently ignored.
	o.config.CacheDir = nil
	root := &cobra.Command{
		Use: programName,
		// As a kubectl plugin, help and errors show "kubectl kates".
		Annotations: map[string]string{cobra.CommandDisplayNameAnnotation: commandPath},
		Short:       "Apply Kubernetes manifests and wait until they are reconciled, saying what blocks them",
		Long: `kates applies Kubernetes manifests and tells when, or whether, they are reconciled, and if
not, why. Waits are driven by watches, not polling, and name what blocks each object: the Pod that
cannot be scheduled, the container that crash loops.

Exit codes: 0 every object reached the status waited for; 1 an object failed, the wait timed out
or the cluster refused a request; 2 bad usage or input.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(s.in)
	root.SetOut(s.out)
	root.SetErr(s.errOut)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return &exitError{code: exitUsage, err: err, hint: true}
	})
	o.config.AddFlags(root.PersistentFlags())
	verbosity := root.PersistentFlags().IntP("v", "v", 0, "client-go's log level; 0 shows none of its logs")
	root.PersistentPreRun = func(*cobra.Command, []string) { setupLogs(*verbosity, s.errOut) }
	root.PersistentFlags().BoolVar(&o.warningsAsErrors, "warnings-as-errors", false, "treat warnings from the server as errors: exit 1 after the command if there were any")
	root.AddCommand(newApplyCommand(o), newDiffCommand(o), newValidateCommand(o), newWaitCommand(o), newStatusCommand(o), newWatchCommand(o), newVersionCommand(o))
	addCompletions(root, o)
	return root, o
}

// withTimeout bounds ctx by timeout; 0 means no bound.
func withTimeout(ctx context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
	if timeout <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, timeout)
}
