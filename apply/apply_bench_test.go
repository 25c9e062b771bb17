package apply_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/kates-dev/kates/apply"
	"github.com/kates-dev/kates/validate"
)

// BenchmarkRun applies 50 ConfigMaps that do not change (the common re-apply) with apply.Run,
// without and with validation (one Validator reused, as a long-running program would), and
// with a loop of Client.Apply as the baseline: Run's cost over it is reading the objects
// before their applies, which tells Unchanged from Applied. "a GET each" is Run as it read
// them before it read a kind and namespace with one LIST: the ratio of the two is the LIST's
// gain.
func BenchmarkRun(b *testing.B) {
	c, _ := newClient(b)
	ctx := context.Background()
	objs := make([]any, 50)
	for i := range objs {
		objs[i] = configMap(fmt.Sprintf("cm-%d", i), "v")
	}
	v, err := validate.New(c)
	if err != nil {
		b.Fatal(err)
	}
	defer v.Close()
	for _, bc := range []struct {
		name string
		run  func() error
	}{
		{"Client.Apply loop", func() error {
			for _, o := range objs {
				if err := c.Apply(ctx, o, nil); err != nil {
					return err
				}
			}
			return nil
		}},
		{"apply.Run a GET each", func() error {
			defer apply.SetListReads(len(objs)+1, 10)()
			_, err := apply.Run(ctx, c, objs, apply.Options{NoValidate: true})
			return err
		}},
		{"apply.Run", func() error {
			_, err := apply.Run(ctx, c, objs, apply.Options{NoValidate: true})
			return err
		}},
		{"apply.Run validated", func() error {
			_, err := apply.Run(ctx, c, objs, apply.Options{Validator: v})
			return err
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := bc.run(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
