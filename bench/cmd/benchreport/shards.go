package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// shardReplica is one "shards-replica:" line of results/shards.txt (bench/shards' TestShards).
type shardReplica struct {
	peer                string
	n, i                int
	heapBytes, viewSecs float64
	widgets, configMaps int
}

// readShards parses results/shards.txt: its objects line, its replicas and its handover line
// (key=value fields).
func readShards(path string) (objects map[string]string, replicas []shardReplica, handover, handoverRun map[string]string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	defer f.Close()
	atoi := func(s string) int { v, _ := strconv.Atoi(s); return v }
	atof := func(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return v }
	lines := bufio.NewScanner(f)
	for lines.Scan() {
		line := lines.Text()
		switch {
		case strings.HasPrefix(line, "shards-objects:"):
			objects = keyValues(strings.TrimPrefix(line, "shards-objects:"))
		case strings.HasPrefix(line, "shards-handover:"):
			handover = keyValues(strings.TrimPrefix(line, "shards-handover:"))
		case strings.HasPrefix(line, "shards-handover-run:"):
			handoverRun = keyValues(strings.TrimPrefix(line, "shards-handover-run:"))
		case strings.HasPrefix(line, "shards-replica:"):
			m := keyValues(strings.TrimPrefix(line, "shards-replica:"))
			replicas = append(replicas, shardReplica{
				peer: m["peer"], n: atoi(m["n"]), i: atoi(m["i"]),
				heapBytes: atof(m["heap-bytes"]), viewSecs: atof(m["view-seconds"]),
				widgets: atoi(m["widgets"]), configMaps: atoi(m["configmaps"]),
			})
		}
	}
	return objects, replicas, handover, handoverRun, lines.Err()
}

// serverFloor is one "shards-floor:" line of results/shards-floor.txt (bench/shards'
// TestServerListFloor): the two LISTs of shard 0 of n sent at once, undecoded.
type serverFloor struct {
	secs, min, max float64
	bytes          int
}

// readServerFloor parses results/shards-floor.txt by n; nil if there is none.
func readServerFloor(path string) map[int]serverFloor {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	floors := map[int]serverFloor{}
	for line := range strings.Lines(string(data)) {
		rest, ok := strings.CutPrefix(line, "shards-floor:")
		if !ok {
			continue
		}
		m := keyValues(rest)
		n, _ := strconv.Atoi(m["n"])
		bytes, _ := strconv.Atoi(m["bytes"])
		f := serverFloor{bytes: bytes}
		f.secs, _ = strconv.ParseFloat(m["seconds"], 64)
		f.min, _ = strconv.ParseFloat(m["min"], 64)
		f.max, _ = strconv.ParseFloat(m["max"], 64)
		floors[n] = f
	}
	return floors
}

// keyValues parses a results line's "key=value" fields.
func keyValues(s string) map[string]string {
	m := map[string]string{}
	for _, kv := range strings.Fields(s) {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return m
}

// katesPeers are the kates peers of bench/shards: unsharded, they are one configuration (the
// placement matters only once sharded), so their unsharded replicas make one baseline.
var katesPeers = []string{"kates", "kates-by-key", "kates-owner-label"}

// shards reports results/shards.txt (bench/shards, run by hack/bench.sh with BENCH_SHARDS=1):
// each replica's memory and time to its first view against one unsharded replica of the same
// peer (bar: 1.1/n), kates against a client-go informer given the same shard, and the
// handover after a kill.
func (rep *report) shards() {
	rep.p("## 8. Sharded views: memory and time to the first view per replica")
	rep.p("")
	objects, replicas, handover, handoverRun, err := readShards(filepath.Join(rep.resultsDir, "shards.txt"))
	floors := readServerFloor(filepath.Join(rep.resultsDir, "shards-floor.txt"))
	if err != nil {
		rep.p("No results/shards.txt: `BENCH_SHARDS=1 make bench` (or `BENCH_SHARDS=1 go test ./shards -run TestShards` in bench/ with BENCH_SHARDS_OUT set) writes it; it takes about half an hour with its fixtures.")
		rep.p("")
		return
	}
	w, _ := strconv.Atoi(objects["widgets"])
	c, _ := strconv.Atoi(objects["configmaps"])
	rep.p("bench/shards on the local cluster (ShardedListAndWatch on): %d Widgets (a custom resource) each controlling "+
		"%d realistic ConfigMaps, **%d objects**, held by 1, 2 and 4 replicas, each a process of its own. kates: "+
		"`kates.UIDShard(i, n)`, Widgets placed by their UID (the server selects them), ConfigMaps by their "+
		"controller's (`PlaceByOwner`: each replica receives every ConfigMap and keeps its shard's, so a Widget and its "+
		"ConfigMaps are in one replica). kates-by-key: the same with the ConfigMaps placed by their own UID (`PlaceByKey`: "+
		"the server selects them too; the owner placement's cost is the difference from kates). kates-owner-label: "+
		"the ConfigMaps stamped with their Widget's shard of 16 virtual shards (`ShardSpace.StampOwnerShard`), replica i "+
		"of n holding 16/n of them, and placed by owner with the server's help (`PlaceByOwnerLabel`: the server "+
		"leaves out the ConfigMaps stamped for other replicas). informer: two client-go dynamic informers with their defaults given the same "+
		"shard's selector (`ListOptions.ShardSelector`), which the server applies to both kinds by each object's own "+
		"UID (a Widget's ConfigMaps are scattered). Heap: the live heap a replica's view retains (after two GCs, less "+
		"the same before watching), all n replicas running together. Time: Watch to the first complete view, the "+
		"replica running alone. Ratios are to one unsharded replica of the same peer (for the kates peers, which "+
		"are one configuration unsharded, to the median of their three unsharded replicas: single runs of the same "+
		"replica differ by up to half on this machine); the bar is 1.1/n.",
		w, c/max(w, 1), w+c)
	rep.p("")
	base := map[string]shardReplica{}
	byShard := map[string]shardReplica{}
	var katesHeaps, katesTimes []float64
	for _, r := range replicas {
		if r.n == 1 {
			base[r.peer] = r
			if slices.Contains(katesPeers, r.peer) {
				katesHeaps, katesTimes = append(katesHeaps, r.heapBytes), append(katesTimes, r.viewSecs)
			}
		}
		byShard[fmt.Sprintf("%s/%d/%d", r.peer, r.n, r.i)] = r
	}
	if len(katesTimes) > 0 {
		pooled := shardReplica{heapBytes: summarize(katesHeaps).median, viewSecs: summarize(katesTimes).median}
		for _, p := range katesPeers {
			base[p] = pooled
		}
	}
	ratio := func(v, b float64) stat {
		if b == 0 {
			return stat{}
		}
		x := v / b
		return stat{median: x, min: x, max: x, n: 1}
	}
	rep.p("| peer | replica | objects held | heap | ratio | time to view | ratio | bar | verdict (heap, time) | heap, time vs informer |")
	rep.p("|---|---|---|---|---|---|---|---|---|---|")
	type worst struct{ heap, time stat }
	worstOf := map[string]*worst{}
	for _, r := range replicas {
		b := base[r.peer]
		bar := 1.1 / float64(r.n)
		hr, tr := ratio(r.heapBytes, b.heapBytes), ratio(r.viewSecs, b.viewSecs)
		vs := "–"
		if inf, ok := byShard[fmt.Sprintf("%s/%d/%d", "informer", r.n, r.i)]; ok && r.peer != "informer" {
			vs = fmt.Sprintf("%s×, %s×", num(r.heapBytes/inf.heapBytes), num(r.viewSecs/inf.viewSecs))
		}
		verdicts := "baseline"
		if r.n > 1 {
			verdicts = verdict(hr, bar, true) + ", " + verdict(tr, bar, true)
			key := fmt.Sprintf("%s/%d", r.peer, r.n)
			if worstOf[key] == nil {
				worstOf[key] = &worst{}
			}
			if wo := worstOf[key]; !wo.heap.ok() || hr.median > wo.heap.median {
				wo.heap = hr
			}
			if wo := worstOf[key]; !wo.time.ok() || tr.median > wo.time.median {
				wo.time = tr
			}
		}
		rep.p("| %s | %d of %d | %d + %d | %s | %s | %.2f s | %s | %s | %s | %s |", r.peer, r.i, r.n, r.widgets, r.configMaps,
			bytesStr(r.heapBytes), ratioStr(hr), r.viewSecs, ratioStr(tr), fmt.Sprintf("≤ %.3f×", bar), verdicts, vs)
	}
	rep.p("")
	for _, peer := range []string{"kates", "kates-by-key", "kates-owner-label", "informer"} {
		for _, n := range []int{2, 4} {
			wo := worstOf[fmt.Sprintf("%s/%d", peer, n)]
			if wo == nil {
				continue
			}
			bar := 1.1 / float64(n)
			timeTarget := fmt.Sprintf("≤ %.3f×", bar)
			if f, ok := floors[n]; ok && floors[1].secs > 0 {
				timeTarget += fmt.Sprintf(" (the server's own: %.2f×)", f.secs/floors[1].secs)
			}
			rep.summary = append(rep.summary,
				summaryRow{what: fmt.Sprintf("8. sharded views, %d objects, %s, %d replicas: heap of the largest replica vs one unsharded", w+c, peer, n),
					measured: ratioStr(wo.heap), target: fmt.Sprintf("≤ %.3f×", bar), verdict: verdict(wo.heap, bar, true)},
				summaryRow{what: fmt.Sprintf("8. … time to the first view of the slowest replica (run alone), %s, %d replicas", peer, n),
					measured: ratioStr(wo.time), target: timeTarget, verdict: verdict(wo.time, bar, true)})
		}
	}
	if floors != nil && floors[1].secs > 0 {
		rep.p("The API server's own floor under the time bar (`TestServerListFloor`): the two LISTs of shard 0 of n " +
			"sent at once, ConfigMaps as protobuf and Widgets as JSON, from the watch cache, read whole and decoded not at " +
			"all, median of 7 each:")
		rep.p("")
		rep.p("| shard | bytes | time | ratio to the whole namespace | bar 1.1/n |")
		rep.p("|---|---|---|---|---|")
		for _, n := range []int{1, 2, 4} {
			f, ok := floors[n]
			if !ok {
				continue
			}
			rep.p("| 0 of %d | %s | %.2f s (%.2f–%.2f) | %.2f× | ≤ %.3f× |", n, bytesStr(float64(f.bytes)), f.secs, f.min, f.max,
				f.secs/floors[1].secs, 1.1/float64(n))
		}
		rep.p("")
		rep.p("The server walks every object of the namespace and hashes its UID for any shard selector, so its time " +
			"for a shard does not shrink as 1/n. A replica's time is about its shard's LISTs plus decoding a 1/n share: the " +
			"faster a client decodes, the nearer its ratio comes to the server's own, whatever it does.")
		rep.p("")
	}
	if handover != nil {
		handover["kill-to-view-seconds"] = withRange(handover)
		rep.p("Handover after a kill (kates, 2 replicas): replica 1 is killed (SIGKILL) and replica 0 at once adds its "+
			"shard (`Accumulator.AddShard(ctx, 1)`, which lists shard 1's Widgets and, placed by owner, every ConfigMap "+
			"again): **%s** from the kill to the survivor's complete view of both shards (AddShard itself %s s; the "+
			"survivor then held %s Widgets and %s ConfigMaps). Membership (noticing the death: a lease duration plus a "+
			"retry period) comes on top.", handover["kill-to-view-seconds"], handover["addshard-seconds"],
			handover["widgets"], handover["configmaps"])
		rep.p("")
		rep.summary = append(rep.summary, summaryRow{what: "8. sharded views: handover after a kill (kill → survivor's complete view of the dead replica's shard), 2 replicas",
			measured: handover["kill-to-view-seconds"], target: "(measured)", verdict: ""})
	}
	if handoverRun != nil {
		handoverRun["kill-to-view-seconds"] = withRange(handoverRun)
		rep.p("Handover after a kill under `shards.Run` (kates-run, 2 replicas of one group splitting %s virtual shards, "+
			"ConfigMaps placed by owner label; lease %s s, retry period %s s): replica 1 is killed (SIGKILL); replica 0 "+
			"notices its member Lease run out, takes over each of its shard Leases and adds each shard to its view: "+
			"**%s** from the kill to the survivor's complete view of every shard (%s Widgets, %s ConfigMaps). The "+
			"membership's part is a lease duration plus one to two retry periods.", handoverRun["shards"],
			handoverRun["lease-seconds"], handoverRun["retry-seconds"], handoverRun["kill-to-view-seconds"],
			handoverRun["widgets"], handoverRun["configmaps"])
		rep.p("")
		rep.summary = append(rep.summary, summaryRow{what: "8. sharded views: handover after a kill under shards.Run (kill → survivor's complete view of every shard), 2 replicas, 3 s lease",
			measured: handoverRun["kill-to-view-seconds"], target: "(measured)", verdict: ""})
	}
}

// withRange renders a handover's kill-to-view seconds: the median, and with several runs their
// range ("3.2 s (2.9–4.1 s, median of 5)").
func withRange(h map[string]string) string {
	if h["runs"] == "" || h["runs"] == "1" {
		return h["kill-to-view-seconds"] + " s"
	}
	return fmt.Sprintf("%s s (%s–%s s, median of %s)", h["kill-to-view-seconds"], h["kill-to-view-min"], h["kill-to-view-max"], h["runs"])
}
