package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// kstatusRatioBound is DESIGN.md's bar for kstatus.Compute: ≤ 0.07× the decode of the object.
// kstatusRuleBound is issue 23's for an object a CEL status rule judges: ≤ 0.6× its decode
// (issue 13 had set 1×).
const (
	kstatusRatioBound = 0.07
	kstatusRuleBound  = 0.6
)

func (rep *report) kstatus() {
	rep.p("## 1. kstatus.Compute per object vs decoding it")
	rep.p("")
	rep.p("`kstatus.Compute` on an API-server-shaped object (managedFields and all) beside decoding the same "+
		"object's JSON into unstructured, the floor for any per-event work (package core, `BenchmarkKstatus`). "+
		"Bar (DESIGN.md): ≤ %.2f× decode; an object a CEL status rule of the library judges, ≤ %.1f× (issue 23).",
		kstatusRatioBound, kstatusRuleBound)
	if d := rep.machine["core-date"]; d != "" {
		rep.p("")
		rep.p("This section and the other scripted ones (Update, throughput) were measured on their own "+
			"(`BENCH_PARTS=core`) on %s at %s; the cluster sections are of the run of %s.",
			d, orDash(rep.machine["core-kates"]), orDash(rep.machine["date"]))
	}
	rep.p("")
	rep.p("| object | Compute | allocs | decode (baseline) | allocs | ratio | verdict |")
	rep.p("|---|---|---|---|---|---|---|")
	var worst, worstRule stat
	worstName, worstRuleName := "", ""
	for _, name := range rep.names("BenchmarkKstatus/") {
		rest := strings.TrimPrefix(name, "BenchmarkKstatus/")
		obj, ok := strings.CutSuffix(rest, "/compute")
		bound := kstatusRatioBound
		if !ok {
			if obj, ok = strings.CutSuffix(rest, "/rule"); !ok {
				continue
			}
			bound = kstatusRuleBound
		}
		dec := "BenchmarkKstatus/" + obj + "/decode"
		ratio := rep.r.ratio(name, dec, "ns/op")
		label := obj
		if bound == kstatusRuleBound {
			label += fmt.Sprintf(" (CEL rule, bar ≤ %.1f×)", kstatusRuleBound)
		}
		rep.p("| %s | %s | %s | %s | %s | %s | %s |", label,
			rep.statStr(name, "ns/op", dur), rep.statStr(name, "allocs/op", fmtInt),
			rep.statStr(dec, "ns/op", dur), rep.statStr(dec, "allocs/op", fmtInt),
			ratioStr(ratio), verdict(ratio, bound, true))
		switch {
		case bound == kstatusRuleBound && (!worstRule.ok() || ratio.median > worstRule.median):
			worstRule, worstRuleName = ratio, obj
		case bound == kstatusRatioBound && (!worst.ok() || ratio.median > worst.median):
			worst, worstName = ratio, obj
		}
	}
	rep.p("")
	rep.summary = append(rep.summary, summaryRow{
		what:     "1. kstatus.Compute vs decode (worst object: " + orDash(worstName) + ")",
		measured: ratioStr(worst), target: fmt.Sprintf("≤ %.2f×", kstatusRatioBound), verdict: verdict(worst, kstatusRatioBound, true),
	})
	if worstRule.ok() {
		rep.summary = append(rep.summary, summaryRow{
			what:     "1b. a CEL status rule vs decode (worst object: " + worstRuleName + ")",
			measured: ratioStr(worstRule), target: fmt.Sprintf("≤ %.1f×", kstatusRuleBound), verdict: verdict(worstRule, kstatusRuleBound, true),
		})
	}
}

func fmtInt(v float64) string { return fmt.Sprintf("%.0f", v) }

func (rep *report) memory() {
	rep.p("## 2. Retained memory per stored object")
	rep.p("")
	rep.p("Heap retained per object once a peer's view is complete, against a real API server " +
		"(package cluster, `BenchmarkMemory`): `HeapAlloc` after two `runtime.GC()`, before starting and once " +
		"complete, over the number of objects. The objects are shaped like a real cluster's: 10,000 ConfigMaps " +
		"with about 1 KiB of data in four keys, eight labels and four annotations, server-side applied (so with " +
		"managedFields); 3,000 Pods as a Deployment's ReplicaSet makes them (two containers with env, resources, " +
		"probes and volume mounts, three volumes, an owner reference), server-side applied, with a kubelet's " +
		"Running and Ready status written. Bars: kates with defaults ≤ 1.0× the bare informer; kates holding " +
		"the consumer's typed snapshot (store + snapshot) ≤ 0.8× controller-runtime's cache with its defaults.")
	rep.p("")
	rep.p("| kind | peer | B/object | ratio to informer | allocated by the bootstrap |")
	rep.p("|---|---|---|---|---|")
	peers := []struct{ key, label string }{
		{"informer", "bare dynamic informer, defaults (baseline; keeps managedFields)"},
		{"kates", "kates Watch, defaults (managedFields stripped)"},
		{"kates-keep-managed-fields", "kates Watch, `KeepManagedFields: true`"},
		{"kates-metadata-only", "kates Watch, metadata only"},
		{"kates-with-snapshot", "kates Watch + the consumer's first typed snapshot"},
		{"controller-runtime", "controller-runtime cache, defaults (typed, protobuf, keeps managedFields)"},
	}
	for _, kind := range []string{"ConfigMap", "Pod"} {
		base := "BenchmarkMemory/" + kind + "/informer"
		for _, p := range peers {
			name := "BenchmarkMemory/" + kind + "/" + p.key
			if _, ok := rep.r.samples[name]; !ok {
				if p.key == "kates-metadata-only" {
					rep.p("| %s | %s | not available: %s | | |", kind, p.label, orDash(rep.r.info["metadata-only"]))
				}
				continue
			}
			ratio := "baseline"
			if p.key != "informer" {
				ratio = ratioStr(rep.r.ratio(name, base, "B/object"))
			}
			rep.p("| %s | %s | %s | %s | %s |", kind, p.label, rep.statStr(name, "B/object", bytesStr), ratio,
				rep.statStr(name, "B/op", bytesStr))
		}
		kates := "BenchmarkMemory/" + kind + "/kates"
		keep := "BenchmarkMemory/" + kind + "/kates-keep-managed-fields"
		withSnap := "BenchmarkMemory/" + kind + "/kates-with-snapshot"
		cr := "BenchmarkMemory/" + kind + "/controller-runtime"
		rs := rep.r.ratio(withSnap, cr, "B/object")
		rep.summary = append(rep.summary, summaryRow{
			what:     "2. memory per object, " + kind + "s: kates store + typed snapshot vs controller-runtime cache",
			measured: ratioStr(rs), target: "≤ 0.8×", verdict: verdict(rs, 0.8, true),
		})
		ra := rep.r.ratio(withSnap, cr, "B/op")
		rep.summary = append(rep.summary, summaryRow{
			what:     "2. bytes allocated to the complete view, " + kind + "s: kates + snapshot vs controller-runtime",
			measured: ratioStr(ra), target: "≤ 1.0×", verdict: verdict(ra, 1.0, true),
		})
		r := rep.r.ratio(kates, base, "B/object")
		rep.summary = append(rep.summary, summaryRow{
			what:     "2. memory per object, " + kind + "s: kates vs bare informer (defaults)",
			measured: ratioStr(r), target: "≤ 1.0×", verdict: verdict(r, 1.0, true),
		})
		k, kp := rep.r.value(kates, "B/object"), rep.r.value(keep, "B/object")
		if k.ok() && kp.ok() {
			rep.p("")
			rep.p("%ss: stripping managedFields (kates' default) saves **%s per object (%.0f%%)** against keeping them.",
				kind, bytesStr(kp.median-k.median), (1-k.median/kp.median)*100)
			rep.p("")
		}
	}
	if mo := rep.r.info["metadata-only"]; mo != "" {
		rep.p("Metadata-only query option: %s.", mo)
		rep.p("")
	}
}

// updatePeers are BenchmarkUpdateOneChange's peers, in plot and table order.
var updatePeers = []struct{ key, label string }{
	{"kates", "kates Update, []*T"},
	{"kates-reuse", "kates Update, []*T with ReuseSlices"},
	{"kates-map", "kates Update, map[string]*T"},
	{"json", "JSON marshal + unmarshal (baseline)"},
	{"lister", "client-go lister.List (no copies)"},
	{"controller-runtime", "controller-runtime List (deep copies)"},
}

var updateSizes = []int{1_000, 10_000, 50_000}

func (rep *report) update() {
	rep.p("## 3. Update cost vs number of objects")
	rep.p("")
	rep.p("One change among N stored ConfigMaps, then the consumer's full view (package core, " +
		"`BenchmarkUpdateOneChange`, scripted: stores fed directly, no API server). kates' `Update` copies only " +
		"what changed into the snapshot; the baseline is the way kates used to fill a snapshot (JSON-marshal every " +
		"object of the kind, unmarshal into the slice); client-go's lister hands out its stored pointers uncopied " +
		"and unsorted (a floor, and not a snapshot: the objects are the cache's own); controller-runtime's " +
		"cache-backed `List` deep-copies every object. Bar: kates flat in N (≤ 2× from 1k to 50k) where the " +
		"baseline grows linearly.")
	rep.p("")
	rep.p("![time per Update against N](update-time.%s) ![bytes allocated per Update against N](update-alloc.%s)",
		rep.plotFormat, rep.plotFormat)
	rep.p("")
	rep.p("| N | peer | time/op | B/op | allocs/op | ratio to JSON baseline |")
	rep.p("|---|---|---|---|---|---|")
	for _, n := range updateSizes {
		base := fmt.Sprintf("BenchmarkUpdateOneChange/N=%d/json", n)
		for _, p := range updatePeers {
			name := fmt.Sprintf("BenchmarkUpdateOneChange/N=%d/%s", n, p.key)
			ratio := "baseline"
			if p.key != "json" {
				ratio = ratioStr(rep.r.ratio(name, base, "ns/op"))
			}
			rep.p("| %d | %s | %s | %s | %s | %s |", n, p.label, rep.statStr(name, "ns/op", dur),
				rep.statStr(name, "B/op", bytesStr), rep.statStr(name, "allocs/op", fmtInt), ratio)
		}
	}
	rep.p("")
	rep.p("Growth from N=1,000 to N=50,000 (time per op at 50k over time per op at 1k, same round):")
	rep.p("")
	rep.p("| peer | growth 1k → 50k | bar |")
	rep.p("|---|---|---|")
	for _, p := range updatePeers {
		g := rep.r.ratio("BenchmarkUpdateOneChange/N=50000/"+p.key, "BenchmarkUpdateOneChange/N=1000/"+p.key, "ns/op")
		bar := ""
		switch p.key {
		case "kates", "kates-reuse", "kates-map":
			bar = "≤ 2× " + verdict(g, 2, true)
		}
		rep.p("| %s | %s | %s |", p.label, ratioStr(g), bar)
	}
	rep.p("")
	for _, p := range updatePeers[:3] {
		g := rep.r.ratio("BenchmarkUpdateOneChange/N=50000/"+p.key, "BenchmarkUpdateOneChange/N=1000/"+p.key, "ns/op")
		rep.summary = append(rep.summary, summaryRow{
			what:     "3. Update cost growth 1k → 50k objects, " + p.label,
			measured: ratioStr(g), target: "≤ 2×", verdict: verdict(g, 2, true),
		})
	}
	r := rep.r.ratio("BenchmarkUpdateOneChange/N=50000/kates", "BenchmarkUpdateOneChange/N=50000/json", "ns/op")
	rep.summary = append(rep.summary, summaryRow{
		what: "3. Update at 50k objects: kates vs JSON baseline", measured: ratioStr(r), target: "(lower is better)", verdict: "",
	})
}

func (rep *report) throughput() {
	rep.p("## 4. Event throughput")
	rep.p("")
	rep.p("### Scripted (no API server)")
	rep.p("")
	rep.p("10,000 update events of 1,000 ConfigMaps (managedFields and all) through a reflector to a consumer, " +
		"timed until the consumer has seen the last (package core, `BenchmarkThroughput`). kates' consumer calls " +
		"`Update` each time `Changed` fires (coalescing what arrived meanwhile); the bare dynamic informer's handler " +
		"sees every event. In *predecoded* the events arrive as objects (the pipeline alone); in *decode* they arrive " +
		"as the raw JSON watch frames an API server sends, and each peer decodes them on the watch goroutine the way it " +
		"really does for a kind without protobuf: the informer as client-go's dynamic client (a metav1.WatchEvent, then " +
		"its object), kates in one pass (internal/ujson). Bars: ≥ 1.0× the informer; the unstructured row in " +
		"*decode* (a custom resource's path) ≥ 2×.")
	rep.p("")
	rep.p("The ratio to the informer comes from `paired` ops, which stream once through each peer in rotating " +
		"order, so that the three streams of a ratio run within a fraction of a second of each other; the " +
		"other columns come from each peer's own sub-benchmark. On this 2-core machine the ratio depends on how " +
		"many cores other work leaves free: kates does more work per event than the informer (the conversion " +
		"into the snapshot's type), and hides it behind the watch's own work only when a core is idle.")
	rep.p("")
	rep.p("| mode | peer | events/s | consumer wake-ups per 10k events | B/op | ratio to informer (paired) |")
	rep.p("|---|---|---|---|---|---|")
	for _, mode := range []string{"predecoded", "decode"} {
		paired := "BenchmarkThroughput/" + mode + "/paired"
		for _, peer := range []string{"informer", "kates", "kates-unstructured"} {
			name := "BenchmarkThroughput/" + mode + "/" + peer
			label := map[string]string{
				"informer":           "bare dynamic informer (baseline)",
				"kates":              "kates, Update into []*corev1.ConfigMap",
				"kates-unstructured": "kates, Update into []*unstructured.Unstructured",
			}[peer]
			ratio := "baseline"
			if peer != "informer" {
				r := rep.r.value(paired, "x-informer-"+peer)
				ratio = ratioStr(r)
				bar := 1.0
				if mode == "decode" && peer == "kates-unstructured" {
					bar = 2.0 // issue 17: custom resources' one-pass decode
				}
				rep.summary = append(rep.summary, summaryRow{
					what:     "4. throughput, scripted " + mode + ": " + label + " vs informer",
					measured: ratioStr(r), target: fmt.Sprintf("≥ %.1f×", bar), verdict: verdict(r, bar, false),
				})
			}
			rep.p("| %s | %s | %s | %s | %s | %s |", mode, label, rep.statStr(name, "events/s", rate),
				rep.statStr(name, "wakeups/op", fmtInt), rep.statStr(name, "B/op", bytesStr), ratio)
		}
	}
	rep.p("")
	rep.p("### Real API server")
	rep.p("")
	rep.p("5,000 merge patches to 500 ConfigMaps by 16 concurrent writers, then one patch of a sentinel; timed from the " +
		"first write to the consumer seeing the sentinel's new version (package cluster, `BenchmarkWatchThroughput`). " +
		"Writers, API server, etcd and consumer share the machine's cores, so a consumer's CPU use slows the writers: " +
		"*writes/s* is the writers' own rate, which bounds *events/s*; *lag* is from the last write's response to the " +
		"consumer seeing it.")
	rep.p("")
	rep.p("| peer | events/s | writes/s | lag | ratio to informer (events/s) |")
	rep.p("|---|---|---|---|---|")
	base := "BenchmarkWatchThroughput/informer"
	for _, peer := range []string{"informer", "kates", "controller-runtime"} {
		name := "BenchmarkWatchThroughput/" + peer
		ratio := "baseline"
		if peer != "informer" {
			r := rep.r.ratio(name, base, "events/s")
			ratio = ratioStr(r)
			if peer == "kates" {
				rep.summary = append(rep.summary, summaryRow{
					what:     "4. throughput, real API server: kates vs informer",
					measured: ratioStr(r), target: "≥ 1.0×", verdict: verdict(r, 1.0, false),
				})
			}
		}
		rep.p("| %s | %s | %s | %s | %s |", peer, rep.statStr(name, "events/s", rate), rep.statStr(name, "writes/s", rate),
			rep.statStr(name, "lag-ms", func(v float64) string { return fmt.Sprintf("%.1f ms", v) }), ratio)
	}
	rep.p("")
}

func (rep *report) bootstrap() {
	rep.p("## 5. Bootstrap: time to the first complete typed view")
	rep.p("")
	pods := "3,000 realistic Pods"
	if rep.r.info["bootstrap-pods"] == "" {
		pods = "0.3×N realistic Pods" // results of a run before issue 26
	}
	rep.p("From starting to watch N realistic ConfigMaps and " + pods + " in one namespace (the objects " +
		"of section 2) to a complete typed view (package cluster, `BenchmarkBootstrap`; clients built and kinds " +
		"resolved beforehand). kates: `Watch` and the first `Update` into " +
		"`struct{ConfigMaps []*corev1.ConfigMap; Pods []*corev1.Pod}`; kates-ahead: the same with " +
		"`WatchOptions.Snapshot` set; informer: two bare dynamic informers reaching HasSynced; " +
		"controller-runtime: its cache's two informers synced (typed, protobuf: the view a controller-runtime " +
		"controller reads). *client CPU* is the benchmark process's user+system CPU time for one bootstrap " +
		"(the API server shares the two cores, so wall time alone hides what a client costs). " +
		"Bars against controller-runtime: time ≤ 0.9×, client CPU ≤ 1.0×, bytes allocated ≤ 1.0×.")
	rep.p("")
	rep.p("| N (+ Pods) | peer | time | client CPU | of which kates' first Update | allocated | time vs informer | time vs controller-runtime | CPU vs controller-runtime | allocated vs controller-runtime |")
	rep.p("|---|---|---|---|---|---|---|---|---|---|")
	for _, n := range []int{10000, 50000} {
		base := fmt.Sprintf("BenchmarkBootstrap/N=%d/informer", n)
		cr := fmt.Sprintf("BenchmarkBootstrap/N=%d/controller-runtime", n)
		for _, peer := range []string{"informer", "kates", "kates-ahead", "controller-runtime"} {
			name := fmt.Sprintf("BenchmarkBootstrap/N=%d/%s", n, peer)
			vsInf, vsCR, cpuCR, allocCR := "baseline", "–", "–", "–"
			if peer != "informer" {
				vsInf = ratioStr(rep.r.ratio(name, base, "ns/op"))
			}
			if peer != "controller-runtime" {
				t, c, a := rep.r.ratio(name, cr, "ns/op"), rep.r.ratio(name, cr, "cpu-ms"), rep.r.ratio(name, cr, "B/op")
				vsCR, cpuCR, allocCR = ratioStr(t), ratioStr(c), ratioStr(a)
				if peer == "kates" || peer == "kates-ahead" {
					who := "kates"
					if peer == "kates-ahead" {
						who = "kates with WatchOptions.Snapshot"
					}
					rep.summary = append(rep.summary,
						summaryRow{what: fmt.Sprintf("5. bootstrap of %d ConfigMaps + %d Pods to a typed view: %s vs controller-runtime, time", n, rep.bootstrapPods(n), who),
							measured: ratioStr(t), target: "≤ 0.9×", verdict: verdict(t, 0.9, true)},
						summaryRow{what: fmt.Sprintf("5. … the same, client CPU (%s)", who),
							measured: ratioStr(c), target: "≤ 1.0×", verdict: verdict(c, 1.0, true)},
						summaryRow{what: fmt.Sprintf("5. … the same, bytes allocated (%s)", who),
							measured: ratioStr(a), target: "≤ 1.0×", verdict: verdict(a, 1.0, true)})
				}
			}
			rep.p("| %d (+%d) | %s | %s | %s | %s | %s | %s | %s | %s | %s |", n, rep.bootstrapPods(n), peer, rep.statStr(name, "ns/op", dur),
				rep.statStr(name, "cpu-ms", func(v float64) string { return dur(v * 1e6) }),
				rep.statStr(name, "snapshot-ms", func(v float64) string { return dur(v * 1e6) }),
				rep.statStr(name, "B/op", bytesStr), vsInf, vsCR, cpuCR, allocCR)
		}
	}
	rep.p("")
}

// bootstrapPods is how many Pods BenchmarkBootstrap's namespace of n ConfigMaps held: 3,000
// since issue 26 (the run says so in a bench-info line), 0.3×n before.
func (rep *report) bootstrapPods(n int) int {
	if rep.r.info["bootstrap-pods"] == "" {
		return n * 3 / 10
	}
	return viewPods
}

func (rep *report) wait() {
	rep.p("## 6. Wait latency")
	rep.p("")
	names := rep.names("BenchmarkWait")
	if len(names) == 0 {
		rep.p("| benchmark | median | p90 |")
		rep.p("|---|---|---|")
		rep.p("| **TODO**: `client.Wait` latency | – | – |")
		rep.p("")
		rep.p("%s", orDash(rep.machine["wait"]))
		rep.p("")
		rep.summary = append(rep.summary, summaryRow{what: "6. Wait latency (median, p90)", measured: "–", target: "≤ 50 ms median (DESIGN.md)", verdict: "**TODO**: " + orDash(rep.machine["wait"])})
		return
	}
	rep.p("kates' own `BenchmarkWaitLatency` (package kates, by the engineer who built `Client.Wait`), run by "+
		"hack/bench.sh as `%s`: a Widget custom resource becomes Ready through a status update sent by another "+
		"client; the figure is the time from that update being sent to `Wait` returning. The peers it replaces "+
		"poll every 2–5 s (DESIGN.md), which is the scale to compare with. Bar (DESIGN.md): ≤ 50 ms median.",
		orDash(rep.machine["wait"]))
	rep.p("")
	rep.p("| benchmark | median (p50) | p90 | verdict |")
	rep.p("|---|---|---|---|")
	for _, name := range names {
		p50, p90 := rep.r.value(name, "ms-p50"), rep.r.value(name, "ms-p90")
		v := verdict(p50, 50, true)
		rep.p("| %s | %s | %s | %s |", name, msStr(p50), msStr(p90), v)
		rep.summary = append(rep.summary, summaryRow{what: "6. Wait latency (" + name + "), p90 " + msStr(p90),
			measured: msStr(p50) + " median", target: "≤ 50 ms median (DESIGN.md)", verdict: v})
	}
	rep.p("")
}

func msStr(s stat) string {
	if !s.ok() {
		return "–"
	}
	return fmt.Sprintf("%.1f ms", s.median)
}

// convert reports BenchmarkConvert: the per-object steps kates adds, against decode.
func (rep *report) convert() {
	rep.p("### Per-object costs beside decode")
	rep.p("")
	rep.p("What each step between a watch event and a snapshot costs per object, as a ratio to decoding the " +
		"object's JSON into unstructured, which every watcher pays (package core, `BenchmarkConvert`; objects " +
		"stored as kates stores them, managedFields stripped). `from-unstructured` is what `Update` does per " +
		"changed object of a typed snapshot field; `deepcopy` what it does for an unstructured one; " +
		"`typed-decode` what a typed informer does instead of decode; `typed-deepcopy` what handing out a copy of " +
		"an object converted beforehand would cost.")
	rep.p("")
	rep.p("| object | decode (baseline) | from-unstructured | deepcopy | typed-decode | typed-deepcopy |")
	rep.p("|---|---|---|---|---|---|")
	for _, obj := range []string{"configmap", "deployment", "pod"} {
		base := "BenchmarkConvert/" + obj + "/decode"
		row := fmt.Sprintf("| %s | %s |", obj, rep.statStr(base, "ns/op", dur))
		for _, step := range []string{"from-unstructured", "deepcopy", "typed-decode", "typed-deepcopy"} {
			name := "BenchmarkConvert/" + obj + "/" + step
			row += fmt.Sprintf(" %s, %s |", rep.statStr(name, "ns/op", dur), ratioStr(rep.r.ratio(name, base, "ns/op")))
		}
		rep.p("%s", row)
	}
	rep.p("")
}

func (rep *report) profiles() {
	rep.p("## Profiles")
	rep.p("")
	rep.convert()
	if rep.findings != "" {
		rep.p("%s", strings.TrimSpace(rep.findings))
		rep.p("")
	}
	files, _ := filepath.Glob(filepath.Join(rep.resultsDir, "profiles", "*.txt"))
	if len(files) == 0 {
		return
	}
	rep.p("### Profile listings of this run")
	rep.p("")
	rep.p("Regenerated by every `make bench` (`go test -cpuprofile/-memprofile`, then `go tool pprof -top`), trimmed.")
	rep.p("")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		rep.p("<details><summary>%s</summary>", strings.TrimSuffix(filepath.Base(f), ".txt"))
		rep.p("")
		rep.p("```")
		rep.p("%s", strings.TrimRight(string(data), "\n"))
		rep.p("```")
		rep.p("")
		rep.p("</details>")
		rep.p("")
	}
}

func (rep *report) machineSection() {
	rep.p("## Machine and versions")
	rep.p("")
	rep.p("| | |")
	rep.p("|---|---|")
	for _, k := range []struct{ key, label string }{
		{"nproc", "nproc"}, {"cpu", "CPU (/proc/cpuinfo)"}, {"memory", "memory"}, {"kernel", "kernel"},
		{"go", "go version"}, {"kates", "kates commit"}, {"rounds", "rounds"}, {"duration", "make bench took"},
	} {
		rep.p("| %s | %s |", k.label, orDash(rep.machine[k.key]))
	}
	rep.p("| cluster | testenv's local cluster (etcd, kube-apiserver, controller-manager, scheduler, kwok) built from %s; the API server reports %s |",
		orDash(rep.machine["cluster"]), "`"+orDash(rep.r.info["apiserver"])+"`")
	rep.p("")
	if mods := rep.machine["modules"]; mods != "" {
		rep.p("Modules (`go list -m` in bench/):")
		rep.p("")
		rep.p("```")
		rep.p("%s", mods)
		rep.p("```")
		rep.p("")
	}
	if notes := rep.machine["notes"]; notes != "" {
		rep.p("%s", notes)
		rep.p("")
	}
	rep.p("Raw `go test -bench` output of this run: [results/](results/).")
	rep.p("")
}

// election reports results/election.txt, written by examples/controller's TestMeasureElection
// (hack/bench.sh runs it): failover among replicas of the example controller and the memory
// of a warm standby. The file is shown as it is: its figures are its own run's.
func (rep *report) election() {
	data, err := os.ReadFile(filepath.Join(rep.resultsDir, "election.txt"))
	rep.p("## 7. Leader election: failover and warm standbys")
	rep.p("")
	if err != nil {
		rep.p("No results/election.txt: `KATES_MEASURE_ELECTION=1 go test ./examples/controller -run TestMeasureElection` writes it.")
		rep.p("")
		return
	}
	rep.p("examples/controller on the local cluster (`KATES_MEASURE_ELECTION=1 go test ./examples/controller -run " +
		"TestMeasureElection`, run by hack/bench.sh): three replicas, each with its own client and a warm Accumulator, " +
		"400 WebApps with their Deployments and headless Services in view; the leader is killed without releasing " +
		"its lease (as a crash would) and a WebApp changed at once, seven times. Failover is the lease duration " +
		"(test timings here; 15 s with the defaults) plus a retry period plus one `Update`: the new leader sends no " +
		"list after winning. A cold replica's bootstrap is what each failover would add without warm standbys. The " +
		"standby heap is a difference of live heap in a process running other replicas too, so it is noisy.")
	rep.p("")
	rep.p("```text")
	rep.p("%s", strings.TrimSpace(string(data)))
	rep.p("```")
	rep.p("")
}

// burst reports results/burst.txt, written by examples/controller's TestMeasureBurstAfterFailover
// (hack/bench.sh runs it): where the time goes when many WebApps change as the leader crashes.
func (rep *report) burst() {
	data, err := os.ReadFile(filepath.Join(rep.resultsDir, "burst.txt"))
	rep.p("### Burst after failover")
	rep.p("")
	if err != nil {
		rep.p("No results/burst.txt: `KATES_MEASURE_ELECTION=1 go test ./examples/controller -run TestMeasureBurstAfterFailover` writes it.")
		rep.p("")
		return
	}
	rep.p("60 WebApps of one pod each are changed (a new image) the moment the leader is killed, with a 4 s lease. " +
		"The time to every WebApp Ready splits into the election (killed → another replica won: the lease " +
		"duration plus up to a retry period), the controller's passes (won → the last changed Deployment applied), " +
		"the cluster's controllers (→ every Deployment rolled out: new ReplicaSet, pods scheduled and started by " +
		"kwok, old pods gone) and the controller's report (→ every WebApp Ready for its generation). Before this " +
		"measurement the example reconciled one WebApp at a time and testenv's controller-manager kept its " +
		"default client rate (20/s, bursts of 30); on the same loaded machine (load average 15-20) the passes " +
		"took 6.4-10.2 s and the rollouts 16.5-21.2 s, 27-36 s in all. Reconciling 8 WebApps at once and a " +
		"controller-manager rate of 200/s brought them to the figures below.")
	rep.p("")
	rep.p("```text")
	rep.p("%s", strings.TrimSpace(string(data)))
	rep.p("```")
	rep.p("")
}
