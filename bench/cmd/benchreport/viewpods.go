package main

import (
	"fmt"
	"slices"
	"strings"
)

// The Pods-only view (BenchmarkView's N=0, results/view-pods.txt): a kind's cost on its own,
// which the ConfigMaps of the other sizes outnumber 3 to 33 times over.

// podsMemoryBound is issue 37's bar: each kind held no heavier than before, Deployment-shaped
// Pods at most 0.92× controller-runtime's cache with managedFields stripped.
const podsMemoryBound = 0.92

// earlierKates returns the peers of the Pods-only view that are kates built at another commit
// (named kates-<commit> by whoever ran them, in the same rounds), sorted.
func (rep *report) earlierKates() []string {
	prefix := viewName(0, "kates-")
	var out []string
	for name := range rep.r.samples {
		c, ok := strings.CutPrefix(name, prefix)
		// Not a peer of this run (kates-shared, kates-compact, ...): those have rows of their own.
		if ok && !slices.ContainsFunc(viewPeers, func(p struct{ key, label string }) bool { return p.key == "kates-"+c }) {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return out
}

func (rep *report) viewPodsOnly() {
	if !rep.r.value(viewName(0, "kates"), "B/object").ok() {
		return
	}
	rep.p("### Pods only")
	rep.p("")
	rep.p("The same measurement of the 3,000 realistic Pods alone (`BenchmarkView/N=0`), so that what Pods cost " +
		"shows: in the sizes above the ConfigMaps outnumber them. Each Pod has a service account token volume of " +
		"its own mounted in both containers, as on a real cluster, so its containers and volumes are not its " +
		"template's. *B/object* is over the 3,000 Pods. Bar (issue 37): kates' default no heavier than before, " +
		"at most 0.92× controller-runtime's cache with managedFields stripped.")
	if d := rep.r.info["view-pods-date"]; d != "" {
		rep.p("")
		rep.p("Measured on its own on %s at %s, %d rounds, each peer in a process of its own, the peers' order "+
			"rotating from round to round.", d, orDash(rep.r.info["view-pods-kates"]), len(rep.r.rounds(viewName(0, "kates"))))
	}
	rep.p("")
	rep.p("| peer | time | client CPU | B/object | allocated | allocs | memory vs c-r stripped | rounds |")
	rep.p("|---|---|---|---|---|---|---|---|")
	type row struct{ key, label string }
	rows := []row{}
	for _, p := range viewPeers {
		rows = append(rows, row{p.key, p.label})
		if p.key == "kates" {
			for _, c := range rep.earlierKates() {
				rows = append(rows, row{"kates-" + c, "kates at " + c + " (an earlier build, in the same rounds)"})
			}
		}
	}
	strip := viewName(0, "controller-runtime-strip")
	for _, p := range rows {
		name := viewName(0, p.key)
		if len(rep.r.samples[name]) == 0 {
			continue // not measured in this run
		}
		rep.p("| %s | %s | %s | %s | %s | %s | %s | %d |", p.label, rep.statStr(name, "ns/op", dur),
			rep.statStr(name, "cpu-ms", func(v float64) string { return dur(v * 1e6) }),
			rep.statStr(name, "B/object", fmtInt), rep.statStr(name, "B/op", bytesStr),
			rep.statStr(name, "allocs/op", fmtInt), ratioStr(rep.r.ratio(name, strip, "B/object")), len(rep.r.samples[name]))
	}
	rep.p("")
	mem := rep.r.ratio(viewName(0, "kates"), strip, "B/object")
	rep.summary = append(rep.summary, summaryRow{
		what:     "5b. complete view of 3,000 Pods only: memory per object, kates vs controller-runtime with managedFields stripped",
		measured: ratioStr(mem), target: fmt.Sprintf("≤ %.2f×", podsMemoryBound), verdict: verdict(mem, podsMemoryBound, true)})
}
