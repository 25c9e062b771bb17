package validate_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/kates-dev/kates/validate"
)

// BenchmarkValidate measures validating a Deployment and a custom resource once their schemas
// are cached, beside what the validation saves: the server-side dry-run apply round trip that
// would give the same verdict. Each validate benchmark reports dry-run-ratio, the dry run's
// time per object over the Validator's (measured in the same run), so the saving is read off
// directly.
func BenchmarkValidate(b *testing.B) {
	c, ns := newClient(b)
	_, group := gadgetCRD(b, c)
	v, err := validate.New(c)
	if err != nil {
		b.Fatal(err)
	}
	defer v.Close()
	objects := []struct {
		name string
		obj  map[string]any
	}{
		{"Deployment", fromYAML(b, "", `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, labels: {app: web}}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx:1.27
        ports: [{name: http, containerPort: 80}]
        env: [{name: MODE, value: prod}]
        resources: {requests: {cpu: 100m, memory: 64Mi}}`)},
		{"CustomResource", fromYAML(b, group, `apiVersion: GROUP/v1
kind: Gadget
metadata: {name: g}
spec: {color: red, size: 3, code: ABC-12, owner: {email: a@b.c}, ports: [{name: http, port: 80}], extra: {a: 1}}`)},
	}
	ctx := context.Background()
	for _, o := range objects {
		// First fetch, and proof that the object is valid both ways.
		if err := v.Validate(ctx, o.obj); err != nil {
			b.Fatal(err)
		}
		if err := serverVerdict(b, c, ns, o.obj); err != nil {
			b.Fatal(err)
		}
		var dryRun time.Duration
		b.Run(o.name+"/dry-run-apply", func(b *testing.B) {
			b.ReportAllocs()
			start := time.Now()
			for b.Loop() {
				if err := serverVerdict(b, c, ns, o.obj); err != nil {
					b.Fatal(err)
				}
			}
			dryRun = time.Since(start) / time.Duration(b.N)
		})
		b.Run(o.name+"/validate", func(b *testing.B) {
			b.ReportAllocs()
			start := time.Now()
			for b.Loop() {
				if err := v.Validate(ctx, o.obj); err != nil {
					b.Fatal(err)
				}
			}
			if per := time.Since(start) / time.Duration(b.N); per > 0 && dryRun > 0 {
				b.ReportMetric(float64(dryRun)/float64(per), "dry-run-ratio")
			}
		})
	}
}

// FuzzValidate feeds the Validator arbitrary JSON, shaped by the seeds like the objects it
// meets, to Validate and to ValidateWithCRD (as the object, and as the CRD): it must answer
// every input with a verdict or an error, never a panic (which it would turn into an
// "internal error").
func FuzzValidate(f *testing.F) {
	c, _ := newClient(f)
	crd, group := gadgetCRD(f, c)
	v, err := validate.New(c)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(v.Close)
	for _, seed := range []string{
		`{"apiVersion":"GROUP/v1","kind":"Gadget","metadata":{"name":"g"},"spec":{"color":"red","size":3,"ports":[{"name":"a"}],"extra":{"x":[1,{"y":null}]}}}`,
		`{"apiVersion":"GROUP/v1","kind":"Gadget","metadata":{"name":"g"},"spec":{"color":1,"size":"x","minReplicas":9,"maxReplicas":1,"owner":[]}}`,
		`{"apiVersion":"GROUP/v2","kind":"Gadget","metadata":{"name":"g","labels":{"a":1}},"spec":{"size":"small"}}`,
		`{"apiVersion":"GROUP/v1","kind":"Gadget","metadata":"g","spec":null}`,
		`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},"spec":{"replicas":"x","template":{"spec":{"containers":[{"name":"a"},{"name":"a","ports":{}}]}}}}`,
		`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","annotations":[]},"data":{"a":{"b":1}}}`,
		`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":[]}}}]}}`,
		`{"apiVersion":"v1","kind":"List","items":[]}`,
		`{"apiVersion":"","kind":""}`,
		`[1,2]`,
		`"Deployment"`,
		`null`,
	} {
		f.Add([]byte(strings.ReplaceAll(seed, "GROUP", group)))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var obj any
		if err := json.Unmarshal(data, &obj); err != nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		err := v.Validate(ctx, obj)
		if err != nil && strings.Contains(err.Error(), "internal error") {
			t.Fatalf("Validate(%s): %v", data, err)
		}
		if _, isMap := obj.(map[string]any); !isMap && !errors.Is(err, validate.ErrNotObject) {
			t.Errorf("Validate(%s) = %v, want ErrNotObject", data, err)
		}
		// The same input against the CRD given locally, and as the CRD itself.
		for _, err := range []error{v.ValidateWithCRD(ctx, obj, crd), v.ValidateWithCRD(ctx, crd, obj)} {
			if err != nil && strings.Contains(err.Error(), "internal error") {
				t.Fatalf("ValidateWithCRD(%s): %v", data, err)
			}
		}
	})
}
