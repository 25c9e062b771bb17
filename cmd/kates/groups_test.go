package main

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/kates-dev/kates/kates"
)

// groupedStack is a database, a Job that seeds it and an app, listed app first, in kates'
// groups.
const groupedStack = `apiVersion: v1
kind: ConfigMap
metadata: {name: app, annotations: {kates.dev/group: app, kates.dev/depends-on: seed}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: seed, annotations: {kates.dev/group: seed, kates.dev/depends-on: db}}
spec:
  template:
    spec: {restartPolicy: Never, containers: [{name: seed, image: example.com/seed:1}]}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, annotations: {kates.dev/group: db}}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: db, image: example.com/db:1}]}
`

// TestApplyGroups: --dry-run=server prints the plan, groups in order with their objects, and
// writes nothing; --wait applies group by group, saying which group it waits on; --groups=none
// applies as one group; a cycle is refused with exit code 2, nothing applied.
func TestApplyGroups(t *testing.T) {
	c, ns := newClient(t)
	file := writeFile(t, "stack.yaml", groupedStack)

	r := runKates(t, nil, "apply", "-n", ns, "-f", file, "--dry-run=server")
	require.Equal(t, 0, r.code)
	assert.Contains(t, r.stdout, "plan: 3 group(s), in order:\n"+
		"  group 1/3 db (kates): statefulset.apps/db\n"+
		"  group 2/3 seed (kates, after db): job.batch/seed\n"+
		"  group 3/3 app (kates, after seed): configmap/app\n")
	err := c.Get(context.Background(), kates.NewUnstructured("v1", "ConfigMap", ns, "app"), nil)
	assert.True(t, apierrors.IsNotFound(err), "configmap app after a dry run: %v, want NotFound", err)

	r = runKates(t, nil, "apply", "-n", ns, "-f", file, "--wait", "--group-timeout", "1m")
	require.Equal(t, 0, r.code)
	order := []string{"statefulset.apps/db applied", "group 1/3 db: waiting for 1 object(s)", "group 1/3 db: ready",
		"job.batch/seed applied", "group 2/3 seed: ready", "configmap/app applied", "group 3/3 app: ready"}
	at := 0
	for _, want := range order {
		i := strings.Index(r.stdout[at:], want)
		require.GreaterOrEqual(t, i, 0, "%q not found in order after %q", want, r.stdout[:at])
		at += i + len(want)
	}

	r = runKates(t, nil, "apply", "-n", ns, "-f", file, "--dry-run=server", "--groups=none")
	require.Equal(t, 0, r.code)
	assert.NotContains(t, r.stdout, "group")

	cycle := writeFile(t, "cycle.yaml", strings.ReplaceAll(groupedStack, "{kates.dev/group: db}", "{kates.dev/group: db, kates.dev/depends-on: app}"))
	r = runKates(t, nil, "apply", "-n", ns, "-f", cycle, "--wait")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, "dependency cycle between groups: app → seed → db → app")
}
