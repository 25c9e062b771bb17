package shards

import (
	"hash/fnv"
	"slices"
	"strconv"
)

// Assign returns the owner of each of n virtual shards among members: owners[i] is the member
// that owns shard i. It depends only on the set of members (their order and duplicates do not
// matter), so every replica that sees the same members computes the same owners.
//
// It is rendezvous (highest random weight) hashing with bounded loads: each shard, in order,
// goes to the member that scores highest for it among those that may take one more. With m
// members every member ends with ⌊n/m⌋ or ⌈n/m⌉ shards (only n mod m of them with the
// larger count), and the rendezvous scores keep most shards where they were when a member
// joins or leaves: a leaving member's shards spread over the others, a joining one takes
// about n/m. The bound costs a few extra moves over plain rendezvous hashing (a shard whose
// first choice is full goes to its second), which the tests count. With no members every
// owner is "".
func Assign(members []string, n int) []string {
	owners := make([]string, n)
	ms := slices.Clone(members)
	slices.Sort(ms)
	ms = slices.Compact(ms)
	if len(ms) == 0 || n <= 0 {
		return owners
	}
	// Every member takes floor shards; extra of them take one more.
	floor, extra := n/len(ms), n%len(ms)
	load := make(map[string]int, len(ms))
	full := 0 // members holding floor+1
	for i := range owners {
		best, bestScore := "", uint64(0)
		for _, m := range ms {
			if load[m] > floor || load[m] == floor && full >= extra {
				continue
			}
			if s := score(m, i); best == "" || s > bestScore {
				best, bestScore = m, s
			}
		}
		owners[i] = best
		load[best]++
		if load[best] > floor {
			full++
		}
	}
	return owners
}

// score is member's rendezvous weight for shard i: FNV-1a of both, through a finalizer that
// spreads FNV's weak low bits over the whole word.
func score(member string, shard int) uint64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte(member))
	_, _ = h.Write([]byte{0})
	_, _ = h.Write(strconv.AppendInt(nil, int64(shard), 10))
	x := h.Sum64()
	// splitmix64's finalizer.
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// Owned returns the shards owners (as Assign returns them) gives member, in order.
func Owned(owners []string, member string) []int {
	var mine []int
	for i, o := range owners {
		if o == member {
			mine = append(mine, i)
		}
	}
	return mine
}
