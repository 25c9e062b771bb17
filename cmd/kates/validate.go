package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/validate"
)

func newValidateCommand(o *options) *cobra.Command {
	var in inputFlags
	cmd := &cobra.Command{
		Use:   "validate -f FILE|DIR|- | -k DIR",
		Short: "Check manifests against the cluster's schemas without applying anything",
		Long: `Check every object of the manifests against the schemas of the cluster: a custom resource
against its CustomResourceDefinition's schema, with the API server's own rules (required fields,
enums, patterns, bounds, list types, x-kubernetes-validations CEL rules, undeclared fields), and
a built-in kind against the schema the server publishes (undeclared fields and wrong types, as
strict field validation reports them). Nothing is written. Every violation is listed with its
file and document. Exit code 0 when every object is valid, 2 when one is not.

A custom resource whose CustomResourceDefinition is in the same files is checked against that
one, installed or not.`,
		Example: `  kates validate -f deploy/
  kustomize build overlays/prod | kates validate -f -`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !in.hasInput() {
				return usageErrorf("validate needs -f FILE|DIR|- or -k DIR")
			}
			ms, err := in.read(o.in)
			if err != nil {
				return err
			}
			c, err := o.client()
			if err != nil {
				return err
			}
			checked, err := validateManifests(cmd.Context(), c, ms, false)
			if err != nil {
				return err
			}
			fmt.Fprintf(o.out, "%d of %d objects valid\n", checked, len(ms))
			return nil
		},
	}
	in.addFileFlags(cmd, "manifests to validate")
	in.addKustomizeFlag(cmd)
	return cmd
}

// validateManifests checks every object of ms, a custom resource against its CRD among ms if it
// is there, and returns how many it checked (all but those of unknown kinds). Every invalid object and
// unknown kind is listed in one usage error (exit 2), each line naming file and document, so
// a batch is corrected in one pass; other errors (the cluster unreachable) are failures.
// applying says the batch was to be applied, for the message.
func validateManifests(ctx context.Context, c *kates.Client, ms []manifest, applying bool) (int, error) {
	v, err := validate.New(c)
	if err != nil {
		return 0, failure(err)
	}
	defer v.Close()
	// A custom resource whose CRD comes in the batch is checked against that CRD, which may not
	// be installed yet or may change its schema.
	batchCRDs := map[schema.GroupKind]*unstructured.Unstructured{}
	for _, m := range ms {
		if isCRD(m.obj) {
			group, _, _ := unstructured.NestedString(m.raw.Object, "spec", "group")
			kind, _, _ := unstructured.NestedString(m.raw.Object, "spec", "names", "kind")
			batchCRDs[schema.GroupKind{Group: group, Kind: kind}] = m.raw
		}
	}
	var problems []string
	checked, invalid := 0, 0
	for _, m := range ms {
		gvk := m.raw.GroupVersionKind()
		where := fmt.Sprintf("%s: document %d (%s)", m.source, m.document, describeManifest(m))
		var err error
		if crd, ok := batchCRDs[gvk.GroupKind()]; ok {
			err = v.ValidateWithCRD(ctx, m.raw, crd)
		} else {
			err = v.Validate(ctx, m.raw)
		}
		var verr *validate.Error
		switch {
		case err == nil:
			checked++
		case errors.As(err, &verr):
			checked++
			invalid++
			for _, e := range verr.Errors {
				problems = append(problems, where+": "+e.Error())
			}
		case kates.IsUnknownKind(err):
			invalid++
			problems = append(problems, fmt.Sprintf("%s: the server does not serve kind %s of %s%s",
				where, gvk.Kind, gvk.GroupVersion(), didYouMean(c, gvk.Group, err)))
		default:
			return checked, failure(fmt.Errorf("%s: %w", where, err))
		}
	}
	if len(problems) > 0 {
		what := fmt.Sprintf("%d of %d objects invalid", invalid, len(ms))
		if applying {
			what += ", nothing applied"
		}
		return checked, usageErrorf("%s:\n  %s", what, strings.Join(problems, "\n  "))
	}
	return checked, nil
}

// didYouMean turns the close matches an unknown kind error carries (resources, as
// "deployments.apps") into kinds, as the user wrote the kind: "; did you mean Deployment?".
// A match in another group than the object's names its group.
func didYouMean(c *kates.Client, group string, err error) string {
	var uk *kates.UnknownKindError
	if !errors.As(err, &uk) || len(uk.Suggestions) == 0 {
		return ""
	}
	var kinds []string
	seen := map[string]bool{}
	for _, s := range uk.Suggestions {
		m, err := c.Mapping(s)
		if err != nil {
			continue
		}
		k := m.GroupVersionKind.Kind
		if m.GroupVersionKind.Group != group {
			k += " (" + m.GroupVersionKind.GroupVersion().String() + ")"
		}
		if !seen[k] {
			seen[k] = true
			kinds = append(kinds, k)
		}
	}
	if len(kinds) == 0 {
		return ""
	}
	return "; did you mean " + strings.Join(kinds, ", ") + "?"
}
