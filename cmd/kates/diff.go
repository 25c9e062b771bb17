package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/kates-dev/kates/kates"
)

// diffProgram is the program that compares the live and the would-be objects, as kubectl
// diff runs one: KATES_EXTERNAL_DIFF or KUBECTL_EXTERNAL_DIFF if set (a command and its
// flags), else "diff -u -N".
func diffProgram() []string {
	for _, env := range []string{"KATES_EXTERNAL_DIFF", "KUBECTL_EXTERNAL_DIFF"} {
		if v := strings.Fields(os.Getenv(env)); len(v) > 0 {
			return v
		}
	}
	return []string{"diff", "-u", "-N"}
}

func newDiffCommand(o *options) *cobra.Command {
	var (
		in           inputFlags
		fieldManager string
	)
	cmd := &cobra.Command{
		Use:   "diff -f FILE|DIR|- | -k DIR",
		Short: "Show what applying the manifests would change, as the server would apply them",
		Long: `Show, as a unified diff, what 'kates apply' would change: each object as it is live beside
the result of a server-side dry-run apply of the manifest, so defaults, admission webhooks and
field ownership are the server's own. managedFields, status and fields the server sets on every
write (resourceVersion, generation, uid, creationTimestamp) are left out. An object that does not
exist yet diffs against nothing. Nothing is written.

Exit codes, as kubectl diff: 0 no differences, 1 differences, 2 bad usage or input or a failure.
KATES_EXTERNAL_DIFF (or KUBECTL_EXTERNAL_DIFF) names another diff program.`,
		Example: `  kates diff -f deploy/
  kustomize build overlays/prod | kates diff -f -`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !in.hasInput() {
				return usageErrorf("diff needs -f FILE|DIR|- or -k DIR")
			}
			ms, c, err := readChecked(o, &in)
			if err != nil {
				return err
			}
			return runDiff(cmd.Context(), o, c, ms, fieldManager)
		},
	}
	in.addFileFlags(cmd, "manifests to compare with the cluster")
	in.addKustomizeFlag(cmd)
	cmd.Flags().StringVar(&fieldManager, "field-manager", kates.DefaultFieldManager, "the field manager the dry-run apply uses (as apply would)")
	return cmd
}

// runDiff writes each object live and merged into two directories, one file per object, and
// runs the diff program over them.
func runDiff(ctx context.Context, o *options, c *kates.Client, ms []manifest, fieldManager string) error {
	dir, err := os.MkdirTemp("", "kates-diff-")
	if err != nil {
		return failure(err)
	}
	defer os.RemoveAll(dir)
	live, merged := filepath.Join(dir, "LIVE"), filepath.Join(dir, "MERGED")
	for _, d := range []string{live, merged} {
		if err := os.Mkdir(d, 0o700); err != nil {
			return failure(err)
		}
	}
	for _, m := range ms {
		want := &unstructured.Unstructured{}
		if err := c.Apply(ctx, m.raw.DeepCopy(), want, kates.DryRun(), kates.FieldManager(fieldManager)); err != nil {
			return failure(fmt.Errorf("%s: document %d: %w", m.source, m.document, err))
		}
		have := &unstructured.Unstructured{}
		if err := c.Get(ctx, want, have); apierrors.IsNotFound(err) {
			have = nil
		} else if err != nil {
			return failure(fmt.Errorf("%s: document %d: %w", m.source, m.document, err))
		}
		gvk := want.GroupVersionKind()
		name := strings.ToLower(gvk.Kind)
		if gvk.Group != "" {
			name += "." + gvk.Group
		}
		if ns := want.GetNamespace(); ns != "" {
			name += "." + ns
		}
		name += "." + want.GetName()
		for _, f := range []struct {
			dir string
			obj *unstructured.Unstructured
		}{{live, have}, {merged, want}} {
			if f.obj == nil {
				continue // absent: diff -N shows the object as added
			}
			data, err := yaml.Marshal(forDiff(f.obj).Object)
			if err != nil {
				return failure(err)
			}
			if err := os.WriteFile(filepath.Join(f.dir, name), data, 0o600); err != nil {
				return failure(err)
			}
		}
	}
	prog := diffProgram()
	cmd := exec.CommandContext(ctx, prog[0], append(prog[1:], "-r", live, merged)...)
	cmd.Stdout, cmd.Stderr = o.out, o.errOut
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ee) && ee.ExitCode() == 1:
		return &exitError{code: exitFailed, err: errSilent}
	}
	return &exitError{code: exitUsage, err: fmt.Errorf("diff program %q: %w", strings.Join(prog, " "), err)}
}

// isDiffFound says err is runDiff's exit code 1: there are differences, which apply --diff
// goes on to apply.
func isDiffFound(err error) bool {
	var ee *exitError
	return errors.As(err, &ee) && ee.code == exitFailed && ee.err == errSilent
}

// forDiff is a copy of u without what every write changes or no manifest sets: managedFields,
// status, resourceVersion, generation, uid, creationTimestamp.
func forDiff(u *unstructured.Unstructured) *unstructured.Unstructured {
	u = u.DeepCopy()
	u.SetManagedFields(nil)
	u.SetResourceVersion("")
	u.SetGeneration(0)
	u.SetUID("")
	unstructured.RemoveNestedField(u.Object, "metadata", "creationTimestamp")
	delete(u.Object, "status")
	return u
}
