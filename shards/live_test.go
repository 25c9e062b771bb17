package shards

import (
	"testing"

	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestJudgedDead: a member Lease is taken for dead only when a member judged that very
// version (from a list at least as new as it) and did not count it live.
func TestJudgedDead(t *testing.T) {
	member := func(name, rv, live string) coordinationv1.Lease {
		l := coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: name, ResourceVersion: rv,
			Labels: map[string]string{RoleLabel: RoleMember}}}
		if live != "" {
			l.Annotations = map[string]string{LiveAnnotation: live}
		}
		return l
	}
	dead := member("g-member-dead", "100", "")
	for _, tc := range []struct {
		name  string
		items []coordinationv1.Lease
		want  bool
	}{
		{"judged dead from a newer list", []coordinationv1.Lease{dead, member("g-member-a", "120", "110 g-member-a,g-member-b")}, true},
		{"judged dead from the list that holds this version", []coordinationv1.Lease{dead, member("g-member-a", "120", "100 g-member-a")}, true},
		{"judged from an older list", []coordinationv1.Lease{dead, member("g-member-a", "120", "99 g-member-a")}, false},
		{"counted live", []coordinationv1.Lease{dead, member("g-member-a", "120", "110 g-member-a,g-member-dead")}, false},
		{"no judgement", []coordinationv1.Lease{dead, member("g-member-a", "120", "")}, false},
		{"a judgement that does not parse", []coordinationv1.Lease{dead, member("g-member-a", "120", "x g-member-a")}, false},
		{"a shard Lease's annotation is no judgement", []coordinationv1.Lease{dead, func() coordinationv1.Lease {
			l := member("g-shard-0", "120", "110 g-member-a")
			l.Labels[RoleLabel] = RoleShard
			return l
		}()}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := judgements(tc.items).dead(&dead); got != tc.want {
				t.Errorf("dead(%s at %s) = %t, want %t", dead.Name, dead.ResourceVersion, got, tc.want)
			}
		})
	}
}
