// Command benchreport turns the output of hack/bench.sh (go test -bench output of packages
// core and cluster, over several rounds, plus machine facts and profiles) into bench/README.md
// and the plots beside it. Every figure is reported as a ratio to its baseline, pairing
// measurements of the same round; the median over rounds is shown with its range.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

func main() {
	var (
		resultsDir = flag.String("results", "results", "directory of hack/bench.sh's outputs")
		out        = flag.String("out", "README.md", "report to write")
		findings   = flag.String("findings", "findings.md", "hand-written profile findings to include")
		plotDir    = flag.String("plots", "", "directory for the plots; default: the report's")
		plotFormat = flag.String("plot-format", "svg", "format of the plots: svg or png")
	)
	flag.Parse()
	r := newResults()
	for _, f := range []string{"core.txt", "cluster.txt", "memory.txt", "wait.txt", "view.txt", "view-pods.txt"} {
		if err := r.parseFile(filepath.Join(*resultsDir, f)); err != nil {
			log.Fatal(err)
		}
	}
	machine := readKV(filepath.Join(*resultsDir, "machine.txt"))
	rep := &report{r: r, machine: machine, resultsDir: *resultsDir, plotDir: *plotDir, plotFormat: *plotFormat}
	if rep.plotDir == "" {
		rep.plotDir = filepath.Dir(*out)
	}
	if data, err := os.ReadFile(*findings); err == nil {
		rep.findings = string(data)
	}
	if err := rep.plots(); err != nil {
		log.Fatal(err)
	}
	if err := rep.viewPlots(); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, rep.render(), 0o644); err != nil {
		log.Fatal(err)
	}
}

// readKV reads "key: value" lines; a value may continue on lines that start with a space.
func readKV(path string) map[string]string {
	kv := map[string]string{}
	data, err := os.ReadFile(path)
	if err != nil {
		return kv
	}
	var last string
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, " ") && last != "" {
			kv[last] = strings.TrimPrefix(kv[last]+"\n"+strings.TrimSpace(line), "\n")
			continue
		}
		if k, ok := strings.CutSuffix(line, ":"); ok && !strings.Contains(k, " ") {
			kv[k], last = "", k
			continue
		}
		if k, v, ok := strings.Cut(line, ": "); ok {
			kv[k], last = strings.TrimSpace(v), k
		}
	}
	return kv
}

type report struct {
	r          *results
	machine    map[string]string
	resultsDir string
	plotDir    string
	plotFormat string
	findings   string

	buf     bytes.Buffer
	summary []summaryRow
}

// summaryRow is one target of the issue, with what this run measured.
type summaryRow struct {
	what, measured, target, verdict string
}

func (rep *report) p(format string, args ...any) { fmt.Fprintf(&rep.buf, format+"\n", args...) }

// verdict judges a ratio against a bound: at most (le) or at least.
func verdict(s stat, bound float64, le bool) string {
	if !s.ok() {
		return "not measured"
	}
	met := s.median <= bound
	if !le {
		met = s.median >= bound
	}
	if met {
		return "**met**"
	}
	if le {
		if s.median > 2*bound {
			return fmt.Sprintf("**missed**: %s× the bar", num(s.median/bound))
		}
		return fmt.Sprintf("**missed** by %.0f%%", (s.median/bound-1)*100)
	}
	return fmt.Sprintf("**missed** by %.0f%%", (1-s.median/bound)*100)
}

func ratioStr(s stat) string {
	if !s.ok() {
		return "–"
	}
	if s.n == 1 {
		return fmt.Sprintf("%s×", num(s.median))
	}
	return fmt.Sprintf("%s× (%s–%s)", num(s.median), num(s.min), num(s.max))
}

// num formats a ratio: two decimals from 0.1 to 10, two significant digits below.
func num(v float64) string {
	switch {
	case v != 0 && math.Abs(v) < 0.1:
		return fmt.Sprintf("%.2g", v)
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	default:
		return fmt.Sprintf("%.2f", v)
	}
}

func dur(ns float64) string {
	switch {
	case ns >= 1e9:
		return fmt.Sprintf("%.2f s", ns/1e9)
	case ns >= 1e6:
		return fmt.Sprintf("%.1f ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.1f µs", ns/1e3)
	default:
		return fmt.Sprintf("%.0f ns", ns)
	}
}

func bytesStr(b float64) string {
	switch {
	case math.Abs(b) >= 1<<20:
		return fmt.Sprintf("%.1f MiB", b/(1<<20))
	case math.Abs(b) >= 1<<10:
		return fmt.Sprintf("%.1f KiB", b/(1<<10))
	default:
		return fmt.Sprintf("%.0f B", b)
	}
}

func rate(v float64) string {
	switch {
	case v >= 1e6:
		return fmt.Sprintf("%.2f M/s", v/1e6)
	case v >= 1e3:
		return fmt.Sprintf("%.1f k/s", v/1e3)
	default:
		return fmt.Sprintf("%.0f /s", v)
	}
}

func (rep *report) statStr(name, unit string, f func(float64) string) string {
	s := rep.r.value(name, unit)
	if !s.ok() {
		return "–"
	}
	return f(s.median)
}

func (rep *report) render() []byte {
	rep.buf = bytes.Buffer{}
	rep.kstatus()
	rep.memory()
	rep.update()
	rep.throughput()
	rep.bootstrap()
	rep.view()
	rep.wait()
	rep.election()
	rep.burst()
	rep.shards()
	rep.controllers()
	rep.profiles()
	rep.machineSection()
	sections := rep.buf.Bytes()

	rep.buf = bytes.Buffer{}
	rep.p("# kates benchmarks")
	rep.p("")
	rep.p("Generated by `make bench` (hack/bench.sh → cmd/benchreport) on %s; do not edit by hand.",
		orDash(rep.machine["date"]))
	rep.p("`make bench` took **%s** for this report.", orDash(rep.machine["duration"]))
	rep.p("")
	rep.p("The machine (%s cores, %s) is shared and noisy, so every figure is a **ratio to a baseline "+
		"measured in the same run**: peers alternate within each of %s rounds, each ratio pairs measurements of "+
		"the same round, and the report shows the median over rounds with the range in brackets. "+
		"Absolute timings are medians too and are there for scale only.",
		orDash(rep.machine["nproc"]), orDash(rep.machine["cpu"]), orDash(rep.machine["rounds"]))
	rep.p("")
	rep.p("## Summary")
	rep.p("")
	rep.p("| target | measured | bar | verdict |")
	rep.p("|---|---|---|---|")
	for _, s := range rep.summary {
		rep.p("| %s | %s | %s | %s |", s.what, s.measured, s.target, s.verdict)
	}
	rep.p("")
	rep.buf.Write(sections)
	return rep.buf.Bytes()
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

// names returns the sub-benchmark names under prefix, sorted.
func (rep *report) names(prefix string) []string {
	var out []string
	for name := range rep.r.samples {
		if strings.HasPrefix(name, prefix) {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}
