package main

import (
	"fmt"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// plots draws Update's time and allocation per op against N, log-log, one line per peer.
func (rep *report) plots() error {
	for _, pl := range []struct {
		file, unit, title, ylabel string
	}{
		{"update-time", "ns/op", "One change among N objects, then the full view", "time per op (ns)"},
		{"update-alloc", "B/op", "Bytes allocated per op", "bytes allocated per op"},
	} {
		p := plot.New()
		p.Title.Text = pl.title
		p.X.Label.Text = "N (objects stored)"
		p.Y.Label.Text = pl.ylabel
		p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
		p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
		p.Legend.Top, p.Legend.Left = true, true
		var args []any
		for _, peer := range updatePeers {
			var pts plotter.XYs
			for _, n := range updateSizes {
				s := rep.r.value(fmt.Sprintf("BenchmarkUpdateOneChange/N=%d/%s", n, peer.key), pl.unit)
				if s.ok() && s.median > 0 {
					pts = append(pts, plotter.XY{X: float64(n), Y: s.median})
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
		p.Y.Max *= 30 // room for the legend above the top line (the axis is logarithmic)
		if err := p.Save(7*vg.Inch, 4.5*vg.Inch, filepath.Join(rep.plotDir, pl.file+"."+rep.plotFormat)); err != nil {
			return err
		}
	}
	return nil
}
