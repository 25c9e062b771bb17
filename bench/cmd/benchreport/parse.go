package main

import (
	"bufio"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// sample is one benchmark result line: its metrics by unit ("ns/op", "B/object", ...).
type sample struct {
	round   int
	metrics map[string]float64
}

// results holds every sample by benchmark name (without the -GOMAXPROCS suffix), and the
// "bench-info: key: value" lines the benchmarks printed.
type results struct {
	samples map[string][]sample
	info    map[string]string
}

var (
	benchLine = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+(\d+)\s+(.+)$`)
	roundLine = regexp.MustCompile(`^bench-round: (\d+)`)
)

func newResults() *results {
	return &results{samples: map[string][]sample{}, info: map[string]string{}}
}

// parseFile adds the samples of one go test output file; a missing file adds nothing.
func (r *results) parseFile(path string) error {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	round := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if m := roundLine.FindStringSubmatch(line); m != nil {
			round, _ = strconv.Atoi(m[1])
			continue
		}
		if rest, ok := strings.CutPrefix(line, "bench-info: "); ok {
			if k, v, ok := strings.Cut(rest, ": "); ok {
				r.info[k] = v
			}
			continue
		}
		m := benchLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		fields := strings.Fields(m[3])
		s := sample{round: round, metrics: map[string]float64{}}
		for i := 0; i+1 < len(fields); i += 2 {
			v, err := strconv.ParseFloat(fields[i], 64)
			if err != nil {
				break
			}
			s.metrics[fields[i+1]] = v
		}
		r.samples[m[1]] = append(r.samples[m[1]], s)
	}
	return sc.Err()
}

// stat is a median over rounds with its range.
type stat struct {
	median, min, max float64
	n                int
}

func (s stat) ok() bool { return s.n > 0 }

func summarize(vs []float64) stat {
	if len(vs) == 0 {
		return stat{}
	}
	vs = slices.Clone(vs)
	slices.Sort(vs)
	m := vs[len(vs)/2]
	if len(vs)%2 == 0 {
		m = (vs[len(vs)/2-1] + vs[len(vs)/2]) / 2
	}
	return stat{median: m, min: vs[0], max: vs[len(vs)-1], n: len(vs)}
}

// value summarizes one metric of one benchmark over its samples.
func (r *results) value(name, unit string) stat {
	var vs []float64
	for _, s := range r.samples[name] {
		if v, ok := s.metrics[unit]; ok {
			vs = append(vs, v)
		}
	}
	return summarize(vs)
}

// ratio summarizes subject/baseline of one metric, pairing samples of the same round, so
// that each ratio compares measurements taken close in time.
func (r *results) ratio(subject, baseline, unit string) stat {
	base := map[int][]float64{}
	for _, s := range r.samples[baseline] {
		if v, ok := s.metrics[unit]; ok && v != 0 {
			base[s.round] = append(base[s.round], v)
		}
	}
	var vs []float64
	for _, s := range r.samples[subject] {
		v, ok := s.metrics[unit]
		if !ok {
			continue
		}
		if bs := base[s.round]; len(bs) > 0 {
			vs = append(vs, v/summarize(bs).median)
		}
	}
	return summarize(vs)
}

// roundValue returns the median of one metric of one benchmark's samples of one round.
func (r *results) roundValue(name, unit string, round int) (float64, bool) {
	var vs []float64
	for _, s := range r.samples[name] {
		if v, ok := s.metrics[unit]; ok && s.round == round {
			vs = append(vs, v)
		}
	}
	if len(vs) == 0 {
		return 0, false
	}
	return summarize(vs).median, true
}

// rounds returns the rounds name has samples of, in order.
func (r *results) rounds(name string) []int {
	var out []int
	for _, s := range r.samples[name] {
		if !slices.Contains(out, s.round) {
			out = append(out, s.round)
		}
	}
	slices.Sort(out)
	return out
}

// roundRatioBest is subject's figure in round over the best (lowest) of baselines' figures in
// the same round.
func (r *results) roundRatioBest(round int, subject, unit string, baselines ...string) (float64, bool) {
	v, ok := r.roundValue(subject, unit, round)
	if !ok {
		return 0, false
	}
	best, found := 0.0, false
	for _, b := range baselines {
		if bv, ok := r.roundValue(b, unit, round); ok && bv > 0 && (!found || bv < best) {
			best, found = bv, true
		}
	}
	if !found {
		return 0, false
	}
	return v / best, true
}

// ratioBest summarizes subject over the best (lowest) of baselines, round by round: the
// verdict against the better of several setups, figure by figure.
func (r *results) ratioBest(subject, unit string, baselines ...string) stat {
	var vs []float64
	for _, round := range r.rounds(subject) {
		if v, ok := r.roundRatioBest(round, subject, unit, baselines...); ok {
			vs = append(vs, v)
		}
	}
	return summarize(vs)
}
