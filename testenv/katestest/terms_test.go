package katestest_test

import (
	"fmt"
	"maps"
	"testing"
	"time"

	"github.com/kates-dev/kates/testenv/katestest"
)

// verdicts is a testing.TB that keeps what CheckTerms reports instead of failing.
type verdicts struct {
	testing.TB
	errors []string
}

func (v *verdicts) Helper()             {}
func (v *verdicts) Logf(string, ...any) {}
func (v *verdicts) Error(args ...any)   { v.errors = append(v.errors, fmt.Sprint(args...)) }
func (v *verdicts) Errorf(format string, args ...any) {
	v.errors = append(v.errors, fmt.Sprintf(format, args...))
}

func TestCheckTerms(t *testing.T) {
	at := func(ms int) time.Time { return time.Unix(1000, int64(ms)*int64(time.Millisecond)) }
	holder := func(s string) *string { return &s }
	// The Lease "l": a held it from resourceVersion 10, b from 20 (sent at 200 ms, its record
	// running until 1,200 ms).
	history := katestest.LeaseHistory{
		{Name: "l", ResourceVersion: 10, Holder: "a"},
		{Name: "l", ResourceVersion: 20, Holder: "b", Expires: at(1200)},
	}
	leaseWrites := []katestest.Request{
		{Replica: "a", Method: "PUT", Path: "/leases/l", Name: "l", ResourceVersion: 10, Holder: holder("a"), Arrived: at(100), Status: 200},
		{Replica: "b", Method: "PUT", Path: "/leases/l", Name: "l", ResourceVersion: 20, Holder: holder("b"), Arrived: at(200), Status: 200},
	}
	write := func(replica string, rv int64, checked time.Time) katestest.Request {
		return katestest.Request{Replica: replica, Method: "PATCH", Path: "/configmaps/x", ResourceVersion: rv,
			Arrived: at(300), FenceChecked: checked, Status: 200}
	}
	check := katestest.TermCheck{TermOf: func(katestest.Request) string { return "l" }}
	for _, tc := range []struct {
		name    string
		reqs    []katestest.Request
		check   katestest.TermCheck
		want    int // errors
		excused int
	}{
		{name: "in its writer's terms", reqs: []katestest.Request{write("a", 15, at(150)), write("b", 25, at(250))}, want: 0},
		{name: "in another's term", reqs: []katestest.Request{write("a", 25, at(250))}, want: 1},
		{name: "before any term", reqs: []katestest.Request{write("a", 5, at(50))}, want: 1},
		{name: "on the wire across a pause", reqs: []katestest.Request{write("a", 25, at(150))}, excused: 1},
		{name: "fence passed early, never held", reqs: []katestest.Request{write("c", 25, at(150))}, want: 1},
		{name: "no fence stamp", reqs: []katestest.Request{write("a", 25, time.Time{})}, want: 1},
		{name: "failed writes and reads are not held", reqs: []katestest.Request{
			write("a", 15, at(150)), {Replica: "a", Method: "GET", Path: "/configmaps/x", ResourceVersion: 25, Status: 200},
			func() katestest.Request { r := write("a", 25, at(250)); r.Status = 409; return r }(),
		}},
		{name: "the test's own intruder", reqs: []katestest.Request{write("a", 25, at(250))},
			check: katestest.TermCheck{TermOf: check.TermOf, Intruder: "b"}},
		{name: "no writes", want: 1},
		{name: "a Lease taken over another's record that ran out", reqs: []katestest.Request{
			write("a", 15, at(150)),
			{Replica: "c", Method: "PUT", Path: "/leases/l", Name: "l", ResourceVersion: 30, Holder: holder("c"), Arrived: at(1201), Status: 200},
		}},
		{name: "a Lease taken over another's live record", reqs: []katestest.Request{
			write("a", 15, at(150)),
			{Replica: "a", Method: "PUT", Path: "/leases/l", Name: "l", ResourceVersion: 30, Holder: holder("a"), Arrived: at(900), Status: 200},
		}, want: 1},
		{name: "a Lease released over another's record", reqs: []katestest.Request{
			write("a", 15, at(150)),
			{Replica: "a", Method: "PUT", Path: "/leases/l", Name: "l", ResourceVersion: 30, Holder: holder(""), Status: 200},
		}, want: 1},
		{name: "not a term Lease", reqs: []katestest.Request{
			write("a", 15, at(150)),
			{Replica: "a", Method: "PUT", Path: "/leases/l", Name: "l", ResourceVersion: 30, Holder: holder(""), Status: 200},
		}, check: katestest.TermCheck{TermOf: check.TermOf, IsTerm: func(string) bool { return false }}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.check.TermOf == nil {
				tc.check = check
			}
			v := &verdicts{TB: t}
			_, excused := katestest.CheckTerms(v, append(append([]katestest.Request(nil), leaseWrites...), tc.reqs...), history, tc.check)
			if len(v.errors) != tc.want || excused != tc.excused {
				t.Errorf("CheckTerms: %d excused, errors %q; want %d excused and %d errors", excused, v.errors, tc.excused, tc.want)
			}
		})
	}
}

// TestNoOps: a write answered with the resourceVersion an earlier write of the same path
// made changed nothing, whoever sent it; the first write of each version, failed writes,
// reads and writes of other paths are not no-ops.
func TestNoOps(t *testing.T) {
	at := func(s int) time.Time { return time.Unix(int64(s), 0) }
	reqs := []katestest.Request{
		{Replica: "r1", Method: "PATCH", Path: "/svc/a", Status: 200, ResourceVersion: 10, Arrived: at(5)}, // after r0's: a no-op
		{Replica: "r0", Method: "PATCH", Path: "/svc/a", Status: 200, ResourceVersion: 10, Arrived: at(1)},
		{Replica: "r0", Method: "PATCH", Path: "/svc/b", Status: 200, ResourceVersion: 10, Arrived: at(2)}, // another path
		{Replica: "r1", Method: "PATCH", Path: "/svc/a", Status: 200, ResourceVersion: 12, Arrived: at(6)}, // a change
		{Replica: "r1", Method: "PATCH", Path: "/svc/a", Status: 409, Arrived: at(7)},
		{Replica: "r1", Method: "GET", Path: "/svc/a", Status: 200, ResourceVersion: 12, Arrived: at(8)},
	}
	if got, want := katestest.NoOps(reqs), map[int]bool{0: true}; !maps.Equal(got, want) {
		t.Errorf("NoOps() = %v, want %v", got, want)
	}
}
