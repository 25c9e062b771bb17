package main

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	"github.com/kates-dev/kates/kates"
	"github.com/kates-dev/kates/testenv/katestest"
)

// syncBuffer is a bytes.Buffer safe to read while run writes to it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestSnapshotExample(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	client, ns := katestest.NewClient(t, katestest.Start(t), "kates-snapshot-")
	var out syncBuffer
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- run(runCtx, client, ns, &out) }()

	labels := map[string]string{"app": "web"}
	dep := &kates.Deployment{
		ObjectMeta: kates.ObjectMeta{Name: "web"},
		Spec: kates.DeploymentSpec{
			Replicas: ptr.To[int32](2),
			Selector: &kates.LabelSelector{MatchLabels: labels},
			Template: kates.PodTemplateSpec{ObjectMeta: kates.ObjectMeta{Labels: labels},
				Spec: kates.PodSpec{Containers: []kates.Container{{Name: "web", Image: "nginx"}}}},
		},
	}
	if err := client.Create(ctx, dep, nil); err != nil {
		t.Fatal(err)
	}
	svc := &kates.Service{ObjectMeta: kates.ObjectMeta{Name: "web"},
		Spec: kates.ServiceSpec{Selector: labels, Ports: []corev1.ServicePort{{Port: 80}}}}
	if err := client.Create(ctx, svc, nil); err != nil {
		t.Fatal(err)
	}
	want := "1 Deployment(s) Current, 1 Service(s), 1 ConfigMap(s)" // kube-root-ca.crt is the ConfigMap
	for !strings.Contains(out.String(), want) {
		select {
		case <-ctx.Done():
			t.Fatalf("never reconciled %q; output:\n%s", want, out.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
	stop()
	if err := <-done; err != nil {
		t.Fatalf("run: %v", err)
	}
}
