package validate_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/validate"
)

// gadgetCRD installs testdata/validate/gadgets.yaml's CRD under a group of its own, waits until
// it is served and returns the group; the CRD is deleted after the test.
func gadgetCRD(t testing.TB, c *kates.Client) (*apiextensionsv1.CustomResourceDefinition, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	objs, group := manifestWithUniqueGroup(t, "validate/gadgets.yaml")
	crd := objs[0].(*apiextensionsv1.CustomResourceDefinition)
	if err := c.Create(ctx, crd, crd); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Delete(context.Background(), crd, nil) })
	if err := c.WaitFor(ctx, "gadgets."+group); err != nil {
		t.Fatal(err)
	}
	return crd, group
}

// fromYAML is an inline one-object fixture as the map a program would build, with GROUP
// replaced by group.
func fromYAML(t testing.TB, group, doc string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := yaml.Unmarshal([]byte(strings.ReplaceAll(doc, "GROUP", group)), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// serverVerdict asks the API server what it makes of obj: a server-side dry-run apply with
// strict field validation, as `kubectl apply --server-side --dry-run=server` sends it.
func serverVerdict(t testing.TB, c *kates.Client, ns string, obj any) error {
	t.Helper()
	var u kates.Unstructured
	switch o := obj.(type) {
	case map[string]any:
		u.Object = o
	case *kates.Unstructured:
		u = *o
	case kates.Unstructured:
		u = o
	default:
		if k, ok := o.(kates.Object); ok && k.GetObjectKind().GroupVersionKind().Empty() {
			gvks, _, err := kates.Scheme.ObjectKinds(k)
			if err != nil {
				t.Fatal(err)
			}
			k = k.DeepCopyObject().(kates.Object)
			k.GetObjectKind().SetGroupVersionKind(gvks[0])
			o = k
		}
		m, err := json.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(m, &u.Object); err != nil {
			t.Fatal(err)
		}
	}
	gvk := u.GroupVersionKind()
	m, err := c.Mapping(gvk.Kind + "." + gvk.Version + "." + gvk.Group)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(u.Object)
	if err != nil {
		t.Fatal(err)
	}
	ri := c.DynamicInterface().Resource(m.Resource).Namespace(ns)
	if m.Scope.Name() == meta.RESTScopeNameRoot {
		ri = c.DynamicInterface().Resource(m.Resource)
	}
	_, err = ri.Patch(context.Background(), u.GetName(), types.ApplyPatchType, data,
		metav1.PatchOptions{DryRun: []string{metav1.DryRunAll}, FieldManager: "validate-test", Force: ptr.To(true), FieldValidation: "Strict"})
	return err
}

type validateCase struct {
	name string
	obj  any
	// paths lists the field paths the verdict must name, one violation each at least; nil for
	// a valid object.
	paths []string
}

// checkAgainstServer validates each case and asks the server the same question: the verdicts
// must agree, and the Validator's error must name every path the case expects.
func checkAgainstServer(t *testing.T, c *kates.Client, v *validate.Validator, ns string, cases []validateCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			err := v.Validate(ctx, tc.obj)
			server := serverVerdict(t, c, ns, tc.obj)
			if (err == nil) != (server == nil) {
				t.Fatalf("Validate() = %v\nbut the server's dry-run apply says %v", err, server)
			}
			if tc.paths == nil {
				return
			}
			if !apierrors.IsInvalid(err) {
				t.Errorf("apierrors.IsInvalid(%v) = false", err)
			}
			var verr *validate.Error
			if !errors.As(err, &verr) {
				t.Fatalf("Validate() = %T %v, want a *validate.Error", err, err)
			}
			var got []string
			for _, e := range verr.Errors {
				got = append(got, e.Field)
			}
			var missing []string
			for _, p := range tc.paths {
				if !slices.Contains(got, p) {
					missing = append(missing, p)
				}
			}
			if len(missing) > 0 {
				t.Errorf("Validate() names paths %q, missing %q\nerror: %v", got, missing, err)
			}
			t.Logf("kates: %v\nserver: %v", err, server)
		})
	}
}

func TestValidateCustomResources(t *testing.T) {
	c, ns := newClient(t)
	crd, group := gadgetCRD(t, c)
	v, err := validate.New(c)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	gadget := func(name, spec string) map[string]any {
		return fromYAML(t, group, "apiVersion: GROUP/v1\nkind: Gadget\nmetadata: {name: "+name+"}\nspec: "+spec)
	}
	valid := gadget("ok", `{color: red, size: 3, code: ABC-12, owner: {email: a@b.c, address: {city: Paris}},
  ports: [{name: http, port: 80}, {name: https, port: 443}], extra: {anything: {goes: [1, two]}}}`)
	cases := []validateCase{
		{"valid", valid, nil},
		{"valid with defaults filled by the server", gadget("defaults", "{color: blue, size: 1}"), nil},
		{"valid v2", fromYAML(t, group, "apiVersion: GROUP/v2\nkind: Gadget\nmetadata: {name: v2}\nspec: {size: small}"), nil},
		{"unknown fields kept under x-kubernetes-preserve-unknown-fields", gadget("preserved", "{color: red, size: 3, extra: {colour: red, deep: {x: [1, {y: z}]}}}"), nil},
		{"required field missing", gadget("required", "{size: 3}"), []string{"spec.color"}},
		{"required object missing", fromYAML(t, group, "apiVersion: GROUP/v1\nkind: Gadget\nmetadata: {name: nospec}"), []string{"spec"}},
		{"enum", gadget("enum", "{color: purple, size: 3}"), []string{"spec.color"}},
		{"pattern", gadget("pattern", "{color: red, size: 3, code: abc}"), []string{"spec.code"}},
		{"maximum", gadget("maximum", "{color: red, size: 11}"), []string{"spec.size"}},
		{"wrong type", gadget("wrongtype", "{color: red, size: three}"), []string{"spec.size"}},
		{"nested required", gadget("nested", "{color: red, size: 3, owner: {address: {city: Paris}}}"), []string{"spec.owner.email"}},
		{"unknown field", gadget("unknown", "{color: red, size: 3, colour: red}"), []string{"spec.colour"}},
		{"nested unknown field", gadget("nestedunknown", "{color: red, size: 3, owner: {email: a@b.c, address: {zip: 75001}}}"), []string{"spec.owner.address.zip"}},
		{"CEL rule", gadget("cel", "{color: red, size: 3, minReplicas: 5, maxReplicas: 2}"), []string{"spec"}},
		{"list map duplicate key", gadget("dupkey", "{color: red, size: 3, ports: [{name: http, port: 80}, {name: http, port: 8080}]}"), []string{"spec.ports[1]"}},
		{"every violation at once", gadget("many", "{color: purple, size: 0, code: x, colour: red}"),
			[]string{"spec.color", "spec.size", "spec.code", "spec.colour"}},
		{"bad name", gadget("Bad_Name", "{color: red, size: 3}"), []string{"metadata.name"}},
		{"v1 value in v2", fromYAML(t, group, "apiVersion: GROUP/v2\nkind: Gadget\nmetadata: {name: v1inv2}\nspec: {size: 3}"), []string{"spec.size"}},
		{"v1 field in v2", fromYAML(t, group, "apiVersion: GROUP/v2\nkind: Gadget\nmetadata: {name: v1fieldinv2}\nspec: {size: large, color: red}"), []string{"spec.color"}},
		{"*Unstructured", &kates.Unstructured{Object: gadget("unstructured", "{color: pink, size: 3}")}, []string{"spec.color"}},
		{"Unstructured", kates.Unstructured{Object: gadget("unstructuredvalue", "{color: pink, size: 3}")}, []string{"spec.color"}},
	}
	checkAgainstServer(t, c, v, ns, cases)

	// The same CRD given locally, as a batch brings it along, gives the same verdicts.
	for _, tc := range cases {
		t.Run("with the CRD given/"+tc.name, func(t *testing.T) {
			ctx := context.Background()
			want, got := violations(v.Validate(ctx, tc.obj)), violations(v.ValidateWithCRD(ctx, tc.obj, crd))
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("ValidateWithCRD() mismatch with Validate() (-want +got):\n%s", diff)
			}
		})
	}
	other := fromYAML(t, group, "apiVersion: GROUP/v3\nkind: Gadget\nmetadata: {name: v3}\nspec: {}")
	if err := v.ValidateWithCRD(context.Background(), other, crd); !kates.IsUnknownKind(err) {
		t.Errorf("ValidateWithCRD(a version the CRD lacks) = %v, want an unknown kind", err)
	}

	t.Run("object not changed", func(t *testing.T) {
		obj := gadget("untouched", "{color: red, size: 3, colour: red}")
		before, _ := json.Marshal(obj)
		_ = v.Validate(context.Background(), obj)
		after, _ := json.Marshal(obj)
		if diff := cmp.Diff(string(before), string(after)); diff != "" {
			t.Errorf("Validate changed its argument (-before +after):\n%s", diff)
		}
	})
}

func TestValidateBuiltinKinds(t *testing.T) {
	c, ns := newClient(t)
	v, err := validate.New(c)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	deployment := func(name string) *kates.Deployment {
		labels := map[string]string{"app": name}
		return &kates.Deployment{
			TypeMeta:   kates.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
			ObjectMeta: kates.ObjectMeta{Name: name},
			Spec: kates.DeploymentSpec{
				Replicas: ptr.To[int32](2),
				Selector: &metav1.LabelSelector{MatchLabels: labels},
				Template: kates.PodTemplateSpec{
					ObjectMeta: kates.ObjectMeta{Labels: labels},
					Spec:       kates.PodSpec{Containers: []kates.Container{{Name: "web", Image: "nginx"}}},
				},
			},
		}
	}
	// A typed Deployment without TypeMeta, as client-go code builds them.
	bare := deployment("bare")
	bare.TypeMeta = kates.TypeMeta{}
	badLabel := deployment("badlabel")
	badLabel.Labels = map[string]string{"-bad-": "x"}

	typo := fromYAML(t, "", `apiVersion: apps/v1
kind: Deployment
metadata: {name: typo}
spec:
  replicass: 2
  selector: {matchLabels: {app: typo}}
  template:
    metadata: {labels: {app: typo}}
    spec:
      containers: [{name: web, image: nginx, imagePullPolicyy: Always}]`)
	wrongType := fromYAML(t, "", `apiVersion: apps/v1
kind: Deployment
metadata: {name: wrongtype}
spec:
  replicas: three
  selector: {matchLabels: {app: wrongtype}}
  template:
    metadata: {labels: {app: wrongtype}}
    spec:
      containers: [{name: web, image: nginx}]`)
	cases := []validateCase{
		{"typed Deployment", deployment("typed"), nil},
		{"typed Deployment without TypeMeta", bare, nil},
		{"typed Deployment with a bad label", badLabel, []string{"metadata.labels"}},
		{"ConfigMap map", map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "cm"}, "data": map[string]any{"a": "1"}}, nil},
		{"misspelled fields", typo, []string{"spec.replicass", "spec.template.spec.containers[0].imagePullPolicyy"}},
		{"wrong type", &kates.Unstructured{Object: wrongType}, []string{"spec.replicas"}},
		{"ConfigMap data of the wrong type", map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "cmint"}, "data": map[string]any{"a": 1}}, []string{"data.a"}},
		{"bad label", map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "cmlabel", "labels": map[string]any{"a b": "c"}}}, []string{"metadata.labels"}},
		{"cluster-scoped kind", map[string]any{"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", "metadata": map[string]any{"name": "kates-validate:test"}, "rulez": []any{}}, []string{"rulez"}},
	}
	checkAgainstServer(t, c, v, ns, cases)
}

func TestValidateUnknownKindsAndNonObjects(t *testing.T) {
	c, _ := newClient(t)
	v, err := validate.New(c)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	ctx := context.Background()
	err = v.Validate(ctx, map[string]any{"apiVersion": "apps/v1", "kind": "Deploymnet", "metadata": map[string]any{"name": "x"}})
	if !kates.IsUnknownKind(err) {
		t.Fatalf("Validate(Deploymnet) = %v, want an unknown kind", err)
	}
	var uk *kates.UnknownKindError
	if !errors.As(err, &uk) || !slices.Contains(uk.Suggestions, "deployments.apps") {
		t.Errorf("Validate(Deploymnet) = %v, want deployments.apps among the suggestions", err)
	}
	for _, tc := range []struct {
		name string
		obj  any
	}{
		{"nil", nil},
		{"string", "apiVersion: v1"},
		{"nil map", map[string]any(nil)},
		{"no kind", map[string]any{"apiVersion": "v1", "metadata": map[string]any{"name": "x"}}},
		{"kind not a string", map[string]any{"apiVersion": "v1", "kind": 3}},
		{"bad apiVersion", map[string]any{"apiVersion": "a/b/c", "kind": "ConfigMap"}},
		{"nil *Unstructured", (*kates.Unstructured)(nil)},
		{"struct that is no object", struct{ Kind string }{"Pod"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := v.Validate(ctx, tc.obj)
			if !errors.Is(err, validate.ErrNotObject) {
				t.Errorf("Validate(%#v) = %v, want an error wrapping ErrNotObject", tc.obj, err)
			}
		})
	}
}

// TestValidateSeesCRDChanges uses one Validator while a CRD comes, changes and goes: the
// verdicts follow the cluster, with no stale schema and no "no such CRD" remembered.
func TestValidateSeesCRDChanges(t *testing.T) {
	c, ns := newClient(t)
	v, err := validate.New(c)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	objs, group := manifestWithUniqueGroup(t, "validate/gadgets.yaml")
	crd := objs[0].(*apiextensionsv1.CustomResourceDefinition)
	purple := fromYAML(t, group, "apiVersion: GROUP/v1\nkind: Gadget\nmetadata: {name: purple}\nspec: {color: purple, size: 3}")

	if err := v.Validate(ctx, purple); !kates.IsUnknownKind(err) {
		t.Fatalf("before the CRD: Validate = %v, want an unknown kind", err)
	}
	if err := c.Create(ctx, crd, crd); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Delete(context.Background(), crd, nil) })
	if err := c.WaitFor(ctx, "gadgets."+group); err != nil {
		t.Fatal(err)
	}
	if err := v.Validate(ctx, purple); !apierrors.IsInvalid(err) {
		t.Fatalf("after the CRD: Validate(purple) = %v, want invalid", err)
	}

	// Allow purple; the server takes it at once, the Validator once its watch has told it.
	updateCRD(t, ctx, c, crd, func(crd *apiextensionsv1.CustomResourceDefinition) {
		spec := crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"]
		color := spec.Properties["color"]
		color.Enum = append(color.Enum, apiextensionsv1.JSON{Raw: []byte(`"purple"`)})
		spec.Properties["color"] = color
	})
	eventually(t, ctx, "purple valid after the CRD allowed it", func() error {
		if err := serverVerdict(t, c, ns, purple); err != nil {
			return fmt.Errorf("server: %w", err)
		}
		return v.Validate(ctx, purple)
	})

	// Stop serving v2: a v2 object becomes an unknown kind.
	v2 := fromYAML(t, group, "apiVersion: GROUP/v2\nkind: Gadget\nmetadata: {name: v2}\nspec: {size: small}")
	if err := v.Validate(ctx, v2); err != nil {
		t.Fatalf("v2 while served: %v", err)
	}
	updateCRD(t, ctx, c, crd, func(crd *apiextensionsv1.CustomResourceDefinition) { crd.Spec.Versions[1].Served = false })
	eventually(t, ctx, "v2 unknown after the CRD stopped serving it", func() error {
		if err := v.Validate(ctx, v2); !kates.IsUnknownKind(err) {
			return fmt.Errorf("Validate(v2) = %v, want an unknown kind", err)
		}
		return nil
	})
}

// updateCRD changes the live CRD with change, retrying on conflicts with the API server's own
// status updates.
func updateCRD(t *testing.T, ctx context.Context, c *kates.Client, crd *apiextensionsv1.CustomResourceDefinition, change func(*apiextensionsv1.CustomResourceDefinition)) {
	t.Helper()
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := c.Get(ctx, crd, crd); err != nil {
			return err
		}
		change(crd)
		return c.Update(ctx, crd, crd)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// violations lists err's violations, sorted (the schema validator's order follows map order), or
// err itself when it is no *validate.Error.
func violations(err error) []string {
	var verr *validate.Error
	if !errors.As(err, &verr) {
		return []string{fmt.Sprint(err)}
	}
	var out []string
	for _, e := range verr.Errors {
		out = append(out, e.Error())
	}
	slices.Sort(out)
	return out
}

// eventually retries f until it returns nil, failing the test with f's last error when ctx ends.
func eventually(t *testing.T, ctx context.Context, what string, f func() error) {
	t.Helper()
	for {
		err := f()
		if err == nil {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s: %v", what, err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// TestValidateConcurrently validates from many goroutines while the schemas are first fetched;
// under -race this checks the caches.
func TestValidateConcurrently(t *testing.T) {
	c, _ := newClient(t)
	_, group := gadgetCRD(t, c)
	v, err := validate.New(c)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	objs := []map[string]any{
		fromYAML(t, group, "apiVersion: GROUP/v1\nkind: Gadget\nmetadata: {name: a}\nspec: {color: red, size: 30}"),
		fromYAML(t, "", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\nspec: {replicass: 1}"),
		fromYAML(t, "", "apiVersion: v1\nkind: Service\nmetadata: {name: a}\nspec: {portz: []}"),
	}
	errs := make(chan error, 30)
	for i := range 30 {
		go func() { errs <- v.Validate(context.Background(), objs[i%len(objs)]) }()
	}
	for range 30 {
		if err := <-errs; !apierrors.IsInvalid(err) {
			t.Errorf("Validate = %v, want invalid", err)
		}
	}
}

// TestClientAndValidatorTakeMapsOfGoValues passes maps holding Go values JSON encodes but
// Unstructured does not hold (an int, a map[string]string): both the Validator and the Client
// take them as the request would encode them, where Unstructured's deep copy used to panic.
func TestClientAndValidatorTakeMapsOfGoValues(t *testing.T) {
	c, _ := newClient(t)
	v, err := validate.New(c)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	ctx := context.Background()
	cm := map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "gotypes", "labels": map[string]string{"a": "b"}},
		"data":     map[string]string{"n": "1"}}
	if err := v.Validate(ctx, cm); err != nil {
		t.Errorf("Validate = %v", err)
	}
	var got kates.ConfigMap
	if err := c.Create(ctx, cm, &got); err != nil {
		t.Fatalf("Create = %v", err)
	}
	if diff := cmp.Diff(map[string]string{"n": "1"}, got.Data); diff != "" {
		t.Errorf("created data mismatch (-want +got):\n%s", diff)
	}
	bad := map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "badint"}, "data": map[string]int{"n": 1}}
	if err := v.Validate(ctx, bad); !apierrors.IsInvalid(err) {
		t.Errorf("Validate(data of ints) = %v, want invalid", err)
	}
}

// TestValidatorWatchEndsWithCloseOrGarbage checks the CRD watch a Validator starts on its first
// custom resource ends when it is closed, and when it is dropped without Close.
func TestValidatorWatchEndsWithCloseOrGarbage(t *testing.T) {
	c, _ := newClient(t)
	_, group := gadgetCRD(t, c)
	ctx := context.Background()
	obj := fromYAML(t, group, "apiVersion: GROUP/v1\nkind: Gadget\nmetadata: {name: g}\nspec: {color: red, size: 3}")
	// Warm the connection up: its goroutines belong to the client, not to a Validator.
	if err := c.List(ctx, kates.Query{Kind: "gadgets." + group}, &[]*kates.Unstructured{}); err != nil {
		t.Fatal(err)
	}
	ignore := goleak.IgnoreCurrent()
	validate := func() *validate.Validator {
		v, err := validate.New(c)
		if err != nil {
			t.Fatal(err)
		}
		if err := v.Validate(ctx, obj); err != nil {
			t.Fatal(err)
		}
		return v
	}
	validate().Close()
	goleak.VerifyNone(t, ignore)

	validate() // dropped without Close
	for range 5 {
		runtime.GC()
		time.Sleep(20 * time.Millisecond)
	}
	goleak.VerifyNone(t, ignore)
}
