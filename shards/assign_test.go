package shards_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kates-dev/kates/shards"
)

func members(n int) []string {
	var ms []string
	for i := range n {
		ms = append(ms, fmt.Sprintf("replica-%d", i))
	}
	return ms
}

// TestAssignBalanced: every shard has one owner among the members, each member holds ⌊n/m⌋
// or ⌈n/m⌉, and the order of the members does not matter.
func TestAssignBalanced(t *testing.T) {
	for _, n := range []int{1, 7, 16, 64} {
		for m := 1; m <= 9; m++ {
			ms := members(m)
			owners := shards.Assign(ms, n)
			reversed := append([]string(nil), ms...)
			for i, j := 0, len(reversed)-1; i < j; i, j = i+1, j-1 {
				reversed[i], reversed[j] = reversed[j], reversed[i]
			}
			if diff := cmp.Diff(owners, shards.Assign(append(reversed, ms[0]), n)); diff != "" {
				t.Errorf("%d shards, %d members: reordered, duplicated members change the owners (-sorted +reordered):\n%s", n, m, diff)
			}
			count := map[string]int{}
			for i, o := range owners {
				if o == "" {
					t.Errorf("%d shards, %d members: shard %d has no owner", n, m, i)
				}
				count[o]++
			}
			for _, mem := range ms {
				if c := count[mem]; c < n/m || c > (n+m-1)/m {
					t.Errorf("%d shards, %d members: %s owns %d, want %d or %d", n, m, mem, c, n/m, (n+m-1)/m)
				}
			}
		}
	}
	if got := shards.Assign(nil, 3); !cmp.Equal(got, []string{"", "", ""}) {
		t.Errorf("Assign(no members) = %q, want no owners", got)
	}
}

// TestAssignMovesFew: a member joining or leaving moves few shards beyond the ones that must
// move (those of the leaver, or the joiner's share).
func TestAssignMovesFew(t *testing.T) {
	const n = 64
	for m := 2; m <= 8; m++ {
		before := shards.Assign(members(m), n)
		after := shards.Assign(members(m+1), n) // replica-m joins
		moved, must := 0, 0
		for i := range before {
			if before[i] != after[i] {
				moved++
			}
			if after[i] == fmt.Sprintf("replica-%d", m) {
				must++
			}
		}
		// Plain rendezvous hashing moves exactly the joiner's shards; the load bound adds a few.
		if moved > must+n/m {
			t.Errorf("%d → %d members: %d of %d shards moved, the joiner took %d", m, m+1, moved, n, must)
		}
		t.Logf("%d → %d members: %d of %d shards moved (the joiner took %d)", m, m+1, moved, n, must)

		// replica-0 leaves the m+1.
		left := shards.Assign(members(m + 1)[1:], n)
		moved, must = 0, 0
		for i := range after {
			if after[i] != left[i] {
				moved++
			}
			if after[i] == "replica-0" {
				must++
			}
		}
		if moved > must+n/m {
			t.Errorf("%d → %d members: %d of %d shards moved, the leaver had %d", m+1, m, moved, n, must)
		}
		t.Logf("%d → %d members: %d of %d shards moved (the leaver had %d)", m+1, m, moved, n, must)
	}
}

// ExampleAssign shows the owners of 8 shards among three replicas, and how few move when a
// fourth joins.
func ExampleAssign() {
	three := shards.Assign([]string{"a", "b", "c"}, 8)
	four := shards.Assign([]string{"a", "b", "c", "d"}, 8)
	fmt.Println(three)
	fmt.Println(four)
	fmt.Println(shards.Owned(four, "d"))
	// Output:
	// [a c a b c b c a]
	// [a c a d d b c b]
	// [3 4]
}
