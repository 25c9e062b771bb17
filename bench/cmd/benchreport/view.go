package main

import (
	"fmt"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// viewSizes are BenchmarkView's ConfigMap counts; each namespace also holds viewPods Pods.
var viewSizes = []int{10_000, 50_000, 100_000}

const viewPods = 3_000

// viewPeers are BenchmarkView's peers, in plot and table order.
var viewPeers = []struct{ key, label string }{
	{"kates", "kates (Watch + first Update)"},
	{"kates-shared", "kates, WatchOptions.SharedValues"},
	{"kates-compact", "kates, Compact fields (WatchOptions.Snapshot)"},
	{"kates-compressed", "kates, Compact fields compressed (WatchOptions.Compressor: zstdcompact.New())"},
	{"controller-runtime", "controller-runtime cache, defaults"},
	{"controller-runtime-strip", "controller-runtime cache, TransformStripManagedFields"},
	{"floor", "the floor: both LISTs as protobuf, undecoded"},
	{"floor-watchlist", "both WatchList streams (the peers' requests), undecoded"},
}

// controller-runtime's two setups: each figure of kates is judged against the better of them
// in the same round.
var crSetups = []string{"controller-runtime", "controller-runtime-strip"}

// Issue 26's bars, against the better controller-runtime setup and the floor.
const (
	viewMemoryBound = 0.75
	viewTimeBound   = 0.85
	viewCPUBound    = 0.8
	viewFloorBound  = 1.2
)

func viewName(n int, peer string) string { return fmt.Sprintf("BenchmarkView/N=%d/%s", n, peer) }

func (rep *report) view() {
	rep.p("## 5b. The complete view against object count: kates, a tuned controller-runtime, and the floor")
	rep.p("")
	rep.p("From starting to watch N realistic ConfigMaps and 3,000 realistic Pods (the objects of section 2; "+
		"N = 10,000, 50,000 and 100,000) to a complete typed view (package cluster, `BenchmarkView`). Each peer "+
		"and size runs in a process of its own, one bootstrap per process, the peers' order rotating from round "+
		"to round (%d rounds). kates: `Watch` with its defaults and the first `Update` into "+
		"`struct{ConfigMaps []*corev1.ConfigMap; Pods []*corev1.Pod}`, held by the consumer; controller-runtime: "+
		"its cache with its defaults, and with `DefaultTransform: cache.TransformStripManagedFields()` as a "+
		"memory-minded user runs it; the floor: both LISTs sent at once as protobuf (from the watch cache, one "+
		"response each), the bytes kept and decoded not at all, which is what the API server and the wire take "+
		"to hand the objects over. *B/object* is the heap held once the view is complete (`HeapAlloc` after two "+
		"GCs, less the same before starting) over N+3,000; *client CPU* the process's user+system CPU over the "+
		"same span. Each ratio to controller-runtime is to the **better of its two setups in the same round, "+
		"figure by figure**. Bars (issue 26): memory ≤ %.2f× and time ≤ %.2f× the better controller-runtime "+
		"setup, client CPU ≤ %.1f×, time ≤ %.1f× the floor.",
		len(rep.r.rounds(viewName(viewSizes[0], "kates"))), viewMemoryBound, viewTimeBound, viewCPUBound, viewFloorBound)
	if d := rep.machine["view-date"]; d != "" {
		rep.p("")
		rep.p("This section was measured on its own (`BENCH_PARTS=view`) on %s at %s; the other sections are of "+
			"the run of %s.", d, orDash(rep.machine["view-kates"]), orDash(rep.machine["date"]))
	}
	rep.p("")
	rep.p("![memory per object against N](view-memory.%s) ![time to the complete view against N](view-time.%s)",
		rep.plotFormat, rep.plotFormat)
	rep.p("")
	rep.p("| N (+3,000 Pods) | peer | time | client CPU | B/object | allocated | allocs | rounds |")
	rep.p("|---|---|---|---|---|---|---|---|")
	for _, n := range viewSizes {
		for _, p := range viewPeers {
			name := viewName(n, p.key)
			if len(rep.r.samples[name]) == 0 {
				continue // a peer this run did not measure at this size (kates-compact: see issue 37's results)
			}
			rep.p("| %d | %s | %s | %s | %s | %s | %s | %d |", n, p.label, rep.statStr(name, "ns/op", dur),
				rep.statStr(name, "cpu-ms", func(v float64) string { return dur(v * 1e6) }),
				rep.statStr(name, "B/object", fmtInt), rep.statStr(name, "B/op", bytesStr),
				rep.statStr(name, "allocs/op", fmtInt), len(rep.r.samples[name]))
		}
	}
	rep.p("")
	rep.p("kates' ratios, per round then the median (range); *kates, SharedValues* is the opt-in that shares maps, " +
		"slices and structs between objects (a changed contract, see `WatchOptions.SharedValues`):")
	rep.p("")
	rep.p("| N | kates | memory vs better c-r | time vs better c-r | client CPU vs better c-r | time vs the floor | memory vs the floor |")
	rep.p("|---|---|---|---|---|---|---|")
	for _, n := range viewSizes {
		for _, subject := range []struct{ key, label string }{{"kates", "defaults"}, {"kates-shared", "SharedValues"}} {
			k := viewName(n, subject.key)
			cr := []string{viewName(n, crSetups[0]), viewName(n, crSetups[1])}
			mem := rep.r.ratioBest(k, "B/object", cr...)
			t := rep.r.ratioBest(k, "ns/op", cr...)
			cpu := rep.r.ratioBest(k, "cpu-ms", cr...)
			floor := rep.r.ratio(k, viewName(n, "floor"), "ns/op")
			floorMem := rep.r.ratio(k, viewName(n, "floor"), "B/object")
			rep.p("| %d | %s | %s %s | %s %s | %s %s | %s %s | %s |", n, subject.label,
				ratioStr(mem), verdict(mem, viewMemoryBound, true), ratioStr(t), verdict(t, viewTimeBound, true),
				ratioStr(cpu), verdict(cpu, viewCPUBound, true), ratioStr(floor), verdict(floor, viewFloorBound, true),
				ratioStr(floorMem))
			who := "kates"
			if subject.key == "kates-shared" {
				who = "kates with SharedValues"
			}
			objs := fmt.Sprintf("%d ConfigMaps + %d Pods", n, viewPods)
			rep.summary = append(rep.summary,
				summaryRow{what: "5b. complete view of " + objs + ": memory per object, " + who + " vs the better controller-runtime setup",
					measured: ratioStr(mem), target: fmt.Sprintf("≤ %.2f×", viewMemoryBound), verdict: verdict(mem, viewMemoryBound, true)},
				summaryRow{what: "5b. … time to the complete view, " + who + " vs the better controller-runtime setup",
					measured: ratioStr(t), target: fmt.Sprintf("≤ %.2f×", viewTimeBound), verdict: verdict(t, viewTimeBound, true)},
				summaryRow{what: "5b. … client CPU, " + who + " vs the better controller-runtime setup",
					measured: ratioStr(cpu), target: fmt.Sprintf("≤ %.1f×", viewCPUBound), verdict: verdict(cpu, viewCPUBound, true)},
				summaryRow{what: "5b. … time to the complete view, " + who + " vs the floor (undecoded protobuf LISTs)",
					measured: ratioStr(floor), target: fmt.Sprintf("≤ %.1f×", viewFloorBound), verdict: verdict(floor, viewFloorBound, true)})
		}
	}
	rep.p("")
	wl := rep.r.ratio(viewName(100_000, "floor-watchlist"), viewName(100_000, "floor"), "ns/op")
	rep.p("The API server's own WatchList path (what client-go's reflectors, controller-runtime's included, ask for) "+
		"hands over the same objects in %s the LIST floor's time at 100,000 (%s at 50,000, %s at 10,000): kates' "+
		"typed queries list instead, and decode the list as it streams in.", ratioStr(wl),
		ratioStr(rep.r.ratio(viewName(50_000, "floor-watchlist"), viewName(50_000, "floor"), "ns/op")),
		ratioStr(rep.r.ratio(viewName(10_000, "floor-watchlist"), viewName(10_000, "floor"), "ns/op")))
	rep.p("")
	rep.p("Per round (kates' figure over the better controller-runtime setup's, and over the floor's time):")
	rep.p("")
	rep.p("| N | round | memory | time | client CPU | time vs floor | SharedValues: memory | time | CPU | time vs floor |")
	rep.p("|---|---|---|---|---|---|---|---|---|---|")
	for _, n := range viewSizes {
		k := viewName(n, "kates")
		ks := viewName(n, "kates-shared")
		cr := []string{viewName(n, crSetups[0]), viewName(n, crSetups[1])}
		for _, round := range rep.r.rounds(k) {
			rep.p("| %d | %d | %s | %s | %s | %s | %s | %s | %s | %s |", n, round,
				numOr(rep.r.roundRatioBest(round, k, "B/object", cr...)), numOr(rep.r.roundRatioBest(round, k, "ns/op", cr...)),
				numOr(rep.r.roundRatioBest(round, k, "cpu-ms", cr...)), numOr(rep.r.roundRatioBest(round, k, "ns/op", viewName(n, "floor"))),
				numOr(rep.r.roundRatioBest(round, ks, "B/object", cr...)), numOr(rep.r.roundRatioBest(round, ks, "ns/op", cr...)),
				numOr(rep.r.roundRatioBest(round, ks, "cpu-ms", cr...)), numOr(rep.r.roundRatioBest(round, ks, "ns/op", viewName(n, "floor"))))
		}
	}
	rep.p("")
	rep.viewPodsOnly()
}

func numOr(v float64, ok bool) string {
	if !ok {
		return "–"
	}
	return num(v) + "×"
}

// viewPlots draws BenchmarkView's memory per object and time to the complete view against N,
// one line per peer.
func (rep *report) viewPlots() error {
	for _, pl := range []struct {
		file, unit, title, ylabel string
		scale                     float64
	}{
		{"view-memory", "B/object", "Heap held per object, complete view of N ConfigMaps + 3,000 Pods", "bytes per object", 1},
		{"view-time", "ns/op", "Time to the complete view of N ConfigMaps + 3,000 Pods", "seconds", 1e-9},
	} {
		p := plot.New()
		p.Title.Text = pl.title
		p.X.Label.Text = "N (ConfigMaps)"
		p.Y.Label.Text = pl.ylabel
		p.Legend.Top, p.Legend.Left = true, true
		var args []any
		for _, peer := range viewPeers {
			var pts plotter.XYs
			for _, n := range viewSizes {
				s := rep.r.value(viewName(n, peer.key), pl.unit)
				if s.ok() && s.median > 0 {
					pts = append(pts, plotter.XY{X: float64(n), Y: s.median * pl.scale})
				}
			}
			if len(pts) > 0 {
				args = append(args, peer.label, pts)
			}
		}
		if len(args) == 0 {
			continue
		}
		if err := plotutil.AddLinePoints(p, args...); err != nil {
			return err
		}
		p.Y.Min = 0
		p.Y.Max *= 1.45 // room for the legend above the lines
		if err := p.Save(7*vg.Inch, 4.5*vg.Inch, filepath.Join(rep.plotDir, pl.file+"."+rep.plotFormat)); err != nil {
			return err
		}
	}
	return nil
}
