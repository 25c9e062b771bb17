package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// controllerRun is one "controllers-run:" line of results/controllers.txt (bench/controllers'
// TestControllers): one peer's run at one size in one round.
type controllerRun struct {
	size, round int
	peer        string
	m           map[string]float64
}

// controllerMeasures are the measures compared, in the order shown: the results field, its
// label and how to render its value.
var controllerMeasures = []struct {
	field, label, short string
	render              func(float64) string
}{
	{"latency-ms", "latency of one change (median of the run's changes)", "latency", func(v float64) string { return fmt.Sprintf("%.0f ms", v) }},
	{"cpu-ms-per-change", "client CPU per change under churn", "CPU/change", func(v float64) string { return fmt.Sprintf("%.2f ms", v) }},
	{"burst-seconds", "time to drain a burst", "burst drain", func(v float64) string { return fmt.Sprintf("%.1f s", v) }},
	{"heap-bytes", "heap, settled", "heap", bytesStr},
}

// readControllers parses results/controllers.txt: its runs, its "# " lines (how it was run),
// and its other "key: value" lines.
func readControllers(path string) (runs []controllerRun, notes []string, info map[string]string, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, nil, err
	}
	info = map[string]string{}
	for line := range strings.Lines(string(data)) {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "# "):
			notes = append(notes, strings.TrimPrefix(line, "# "))
		case strings.HasPrefix(line, "controllers-run:"):
			kv := keyValues(strings.TrimPrefix(line, "controllers-run:"))
			r := controllerRun{peer: kv["peer"], m: map[string]float64{}}
			r.size, _ = strconv.Atoi(kv["size"])
			r.round, _ = strconv.Atoi(kv["round"])
			for k, v := range kv {
				if f, err := strconv.ParseFloat(v, 64); err == nil {
					r.m[k] = f
				}
			}
			runs = append(runs, r)
		case strings.HasPrefix(line, "controllers-"):
			if k, v, ok := strings.Cut(line, ":"); ok {
				// "controllers-setup: size=10000 seconds=812.3" → info["setup/10000"] = "812.3"
				kv := keyValues(v)
				if kv["size"] != "" {
					for f, x := range kv {
						if f != "size" {
							info[strings.TrimPrefix(k, "controllers-")+"/"+kv["size"]+"/"+f] = x
						}
					}
				} else {
					info[strings.TrimPrefix(k, "controllers-")] = strings.TrimSpace(v)
				}
			}
		}
	}
	return runs, notes, info, nil
}

const (
	ctrlKates   = "kates"
	ctrlRuntime = "controller-runtime"
)

// controllers reports results/controllers.txt (bench/controllers, run by hack/bench.sh with
// BENCH_CONTROLLERS=1): kates' controller package against controller-runtime's manager and
// builder running the same WebApp reconcile, as ratios of the same round; bar ≤ 1×.
func (rep *report) controllers() {
	rep.p("## 9. Controllers: kates' controller package vs controller-runtime")
	rep.p("")
	runs, notes, info, err := readControllers(filepath.Join(rep.resultsDir, "controllers.txt"))
	if err != nil || len(runs) == 0 {
		rep.p("No results/controllers.txt: `BENCH_CONTROLLERS=1 make bench` (or `BENCH_CONTROLLERS=1 go test ./controllers -run TestControllers` in bench/ with BENCH_CONTROLLERS_OUT set) writes it.")
		rep.p("")
		return
	}
	rep.p("bench/controllers on the local cluster: examples/controller's WebApp logic (a WebApp owning a Deployment " +
		"of 0 replicas and a headless Service; apply both server-side when they differ, then the status's " +
		"observedGeneration) in one function, run by **kates** (`controller.New` on a view of WebApps, Deployments and " +
		"Services) and by **controller-runtime** (a manager and `builder.For(&WebApp{}).Owns(&Deployment{}).Owns(&Service{})`, " +
		"the reconcile reading its cache), the same workers, the same cluster, neither throttled client-side. Each " +
		"peer runs in a child process of its own after a setup run has created the Deployments and Services; the " +
		"peers alternate in order from round to round, and each ratio is kates / controller-runtime **of the same round**, " +
		"shown as the median over rounds with its range. Bar (issue 34): ≤ 1× on each. As run:")
	rep.p("")
	for _, n := range notes {
		rep.p("- %s", n)
	}
	if d := info["date"]; d != "" {
		rep.p("")
		rep.p("Measured on %s at kates %s; the run took %s.", d, orDash(info["kates"]), orDash(info["duration"]))
	}
	rep.p("")
	rep.p("![kates / controller-runtime per measure](controllers.%s)", rep.plotFormat)
	rep.p("")
	var sizes []int
	for _, r := range runs {
		if !slices.Contains(sizes, r.size) {
			sizes = append(sizes, r.size)
		}
	}
	slices.Sort(sizes)
	rep.p("| WebApps (+ as many Deployments and Services) | measure | kates | controller-runtime | kates / controller-runtime | rounds | verdict |")
	rep.p("|---|---|---|---|---|---|---|")
	ratios := map[int]map[string]stat{}
	for _, n := range sizes {
		ratios[n] = map[string]stat{}
		for _, ms := range controllerMeasures {
			var kv, cv, rs []float64
			byRound := map[int]map[string]float64{}
			for _, r := range runs {
				if r.size != n {
					continue
				}
				v, ok := r.m[ms.field]
				if !ok {
					continue
				}
				if byRound[r.round] == nil {
					byRound[r.round] = map[string]float64{}
				}
				byRound[r.round][r.peer] = v
				switch r.peer {
				case ctrlKates:
					kv = append(kv, v)
				case ctrlRuntime:
					cv = append(cv, v)
				}
			}
			for _, pr := range byRound {
				k, okk := pr[ctrlKates]
				c, okc := pr[ctrlRuntime]
				if okk && okc && c > 0 {
					rs = append(rs, k/c)
				}
			}
			s := summarize(rs)
			ratios[n][ms.field] = s
			rep.p("| %d | %s | %s | %s | %s | %d | %s |", n, ms.label, rangeStr(summarize(kv), ms.render), rangeStr(summarize(cv), ms.render),
				ratioStr(s), s.n, verdict(s, 1, true))
			rep.summary = append(rep.summary, summaryRow{what: fmt.Sprintf("9. controllers, %d WebApps: %s, kates / controller-runtime", n, ms.label),
				measured: ratioStr(s), target: "≤ 1×", verdict: verdict(s, 1, true)})
		}
	}
	rep.p("")
	rep.p("Beside them, per run (medians over rounds, kates / controller-runtime):")
	rep.p("")
	rep.p("| WebApps | setup run (creating the Deployments and Services, kates, 32 workers) | start to settled | reconciles at start | churn: changes sent in the window (the parent's pace) | reconciles per churn change | burst CPU |")
	rep.p("|---|---|---|---|---|---|---|")
	for _, n := range sizes {
		med := func(peer, field string, div string) string {
			var vs []float64
			for _, r := range runs {
				if r.size == n && r.peer == peer {
					v := r.m[field]
					if div != "" && r.m[div] > 0 {
						v /= r.m[div]
					}
					vs = append(vs, v)
				}
			}
			if len(vs) == 0 {
				return "–"
			}
			return num(summarize(vs).median)
		}
		rep.p("| %d | %s s | %s s / %s s | %s / %s | %s / %s | %s / %s | %s s / %s s |", n, orDash(info[fmt.Sprintf("setup/%d/seconds", n)]),
			med(ctrlKates, "settle-seconds", ""), med(ctrlRuntime, "settle-seconds", ""),
			med(ctrlKates, "startup-reconciles", ""), med(ctrlRuntime, "startup-reconciles", ""),
			med(ctrlKates, "churn-changes", ""), med(ctrlRuntime, "churn-changes", ""),
			med(ctrlKates, "churn-reconciles", "churn-changes"), med(ctrlRuntime, "churn-reconciles", "churn-changes"),
			med(ctrlKates, "burst-cpu-seconds", ""), med(ctrlRuntime, "burst-cpu-seconds", ""))
	}
	rep.p("")
	if err := rep.controllersPlot(sizes, ratios); err != nil {
		rep.p("(the plot failed: %v)", err)
		rep.p("")
	}
}

func rangeStr(s stat, render func(float64) string) string {
	if !s.ok() {
		return "–"
	}
	if s.n == 1 {
		return render(s.median)
	}
	return fmt.Sprintf("%s (%s–%s)", render(s.median), render(s.min), render(s.max))
}

// controllersPlot draws the ratios kates / controller-runtime, a group of bars per measure and
// a bar per size, with the bar of 1× as a line.
func (rep *report) controllersPlot(sizes []int, ratios map[int]map[string]stat) error {
	p := plot.New()
	p.Title.Text = "kates / controller-runtime, same WebApp reconcile (median over rounds; below 1: kates better)"
	p.Y.Label.Text = "ratio kates / controller-runtime"
	w := vg.Points(18)
	var names []string
	for _, ms := range controllerMeasures {
		names = append(names, ms.short)
	}
	top := 1.2
	for i, n := range sizes {
		vals := make(plotter.Values, len(controllerMeasures))
		for j, ms := range controllerMeasures {
			vals[j] = ratios[n][ms.field].median
			top = max(top, ratios[n][ms.field].max*1.1)
		}
		bars, err := plotter.NewBarChart(vals, w)
		if err != nil {
			return err
		}
		bars.LineStyle.Width = vg.Length(0)
		bars.Color = plotutil.Color(i)
		bars.Offset = vg.Length(float64(i)-float64(len(sizes)-1)/2) * w
		p.Add(bars)
		p.Legend.Add(fmt.Sprintf("%d WebApps", n), bars)
	}
	one := plotter.NewFunction(func(float64) float64 { return 1 })
	one.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	one.Width = vg.Points(1)
	p.Add(one)
	p.Legend.Add("bar: 1×", one)
	p.Legend.Top = true
	p.Legend.Left = true
	p.NominalX(names...)
	p.Y.Min, p.Y.Max = 0, top
	p.X.Min, p.X.Max = -0.6, float64(len(names))-0.4
	p.Add(plotter.NewGrid())
	return p.Save(7*vg.Inch, 4*vg.Inch, filepath.Join(rep.plotDir, "controllers."+rep.plotFormat))
}
