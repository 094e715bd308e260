package eval

import (
	"fmt"
	"image/color"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// legColors keeps each leg's colour fixed across plots.
var legColors = map[string]color.RGBA{
	LegVector:   {R: 0x1f, G: 0x77, B: 0xb4, A: 0xff},
	LegKeyword:  {R: 0xff, G: 0x7f, B: 0x0e, A: 0xff},
	LegFused:    {R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff},
	LegReranked: {R: 0xd6, G: 0x27, B: 0x28, A: 0xff},
}

// WritePlot draws the report's recall@k curves, one line per leg for
// k = 1…Depth, to path; the format follows the extension (.svg, .png, .pdf,
// .eps, .jpg). The report needs PerQuestion. Drawn with gonum/plot.
func WritePlot(r Report, path string) error {
	if len(r.PerQuestion) == 0 {
		return fmt.Errorf("eval: plot: the report has no per-question results")
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".svg", ".png", ".pdf", ".eps", ".jpg", ".jpeg", ".tif", ".tiff":
	default:
		return fmt.Errorf("eval: plot: unsupported format %q (use .svg or .png)", filepath.Ext(path))
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("recall@k — set %s v%d, %d answerable questions", r.Set.Name, r.Set.Version, r.Answerable)
	p.X.Label.Text = "k (documents)"
	p.Y.Label.Text = "recall@k"
	p.Y.Min, p.Y.Max = 0, 1
	p.X.Min, p.X.Max = 1, float64(max(r.Depth, 2))
	p.Legend.Top = false
	p.Legend.Left = false
	p.Add(plotter.NewGrid())
	curves := r.Curves()
	for _, leg := range r.legNames() {
		c := curves[leg]
		pts := make(plotter.XYs, len(c))
		for i, v := range c {
			pts[i].X, pts[i].Y = float64(i+1), v
		}
		line, err := plotter.NewLine(pts)
		if err != nil {
			return fmt.Errorf("eval: plot: %w", err)
		}
		line.Color = legColors[leg]
		line.Width = vg.Points(1.5)
		if leg == r.Production {
			line.Width = vg.Points(2.5)
		}
		p.Add(line)
		label := fmt.Sprintf("%s (ndcg@10 %.3f)", leg, r.Legs[leg].NDCG10)
		if leg == r.Production {
			label += " — production"
		}
		p.Legend.Add(label, line)
	}
	p.Legend.Padding = vg.Points(4)
	p.Legend.ThumbnailWidth = vg.Points(20)
	p.Legend.YOffs = vg.Points(6)
	p.Legend.TextStyle.Font.Size = vg.Points(9)
	if err := p.Save(7*vg.Inch, 4.5*vg.Inch, path); err != nil {
		return fmt.Errorf("eval: plot: %w", err)
	}
	return nil
}
