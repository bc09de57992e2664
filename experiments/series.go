package experiments

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/fastkernels/kernellab/lab/plotting"
	"github.com/fastkernels/kernellab/lab/run"
)

// curve is one method's summary over an x parameter: a point per x value, with the spread over
// repetitions.
type curve struct {
	Method string
	Points []run.Summary
}

// curves summarises metric over the repetitions of each method of dataset, against xParam, in the
// order methods lists them; a method without rows is an error (a renderer must not silently drop
// a series).
func curves(res *run.Results, dataset, metric, xParam string, methods ...string) ([]curve, error) {
	out := make([]curve, 0, len(methods))
	for _, m := range methods {
		sums, err := run.Summarise(res.Where(dataset, m, metric), xParam)
		if err != nil {
			return nil, fmt.Errorf("%s: %s %s: %w", res.ID, m, metric, err)
		}
		if len(sums) == 0 {
			return nil, fmt.Errorf("%s: no %s rows for %s on %s", res.ID, metric, m, dataset)
		}
		out = append(out, curve{Method: m, Points: sums})
	}
	return out, nil
}

// byMethod indexes curves by their method.
func byMethod(cs []curve) map[string]curve {
	out := make(map[string]curve, len(cs))
	for _, c := range cs {
		out[c.Method] = c
	}
	return out
}

// at returns the summary at x, or false.
func (c curve) at(x float64) (run.Summary, bool) {
	for _, s := range c.Points {
		if s.X == x {
			return s, true
		}
	}
	return run.Summary{}, false
}

// first and last are the summaries at the smallest and the largest x.
func (c curve) first() run.Summary { return c.Points[0] }
func (c curve) last() run.Summary  { return c.Points[len(c.Points)-1] }

// means returns the mean at each x, in increasing x.
func (c curve) means() []float64 {
	out := make([]float64, len(c.Points))
	for i, s := range c.Points {
		out[i] = s.Mean
	}
	return out
}

// saveRow saves the panels side by side, labelled (a), (b), … by the figure, each panelW × panelH,
// as the experiment's PNG and SVG.
func saveRow(out *run.Output, panelW, panelH vg.Length, panels ...*plot.Plot) error {
	fig := plotting.NewFigure(1, len(panels), panelW, panelH)
	for col, p := range panels {
		fig.Set(0, col, p)
	}
	return fig.Save(filepath.Join(out.Dir, out.ID))
}

// addMinMaxBands draws each curve as its mean with a band from the minimum to the maximum over the
// repetitions (a band that stays positive, unlike mean ± sd, so it suits log axes). labels maps a
// method to its legend entry; dashed lists the methods drawn as references.
func addMinMaxBands(p *plot.Plot, cs []curve, labels map[string]string, dashed ...string) error {
	bands := make([]plotting.Band, len(cs))
	for i, c := range cs {
		b := plotting.Band{Label: labels[c.Method]}
		if b.Label == "" {
			b.Label = c.Method
		}
		for _, d := range dashed {
			b.Dashed = b.Dashed || d == c.Method
		}
		for _, s := range c.Points {
			b.X, b.Mean, b.Lo, b.Hi = append(b.X, s.X), append(b.Mean, s.Mean), append(b.Lo, s.Min), append(b.Hi, s.Max)
		}
		bands[i] = b
	}
	return plotting.AddBands(p, bands...)
}

// savePrintRow saves the panels (made with plotting.NewPrint) side by side at page width, each
// panelH high, with one legend shared below them, as the experiment's PNG (300 dpi), SVG and PDF.
func savePrintRow(out *run.Output, panelH vg.Length, panels ...*plot.Plot) error {
	fig := plotting.NewPrintFigure(1, len(panels), plotting.PageWidth, panelH)
	for col, p := range panels {
		fig.Set(0, col, p)
	}
	return fig.Save(filepath.Join(out.Dir, out.ID))
}

// addMethodBands draws each curve as its mean with a band from the minimum to the maximum over the
// repetitions, in its method's registered style (plotting.MethodStyle: one colour, marker and dash
// per method across the whole catalogue). labels maps a method to its legend entry.
func addMethodBands(p *plot.Plot, cs []curve, labels map[string]string) error {
	bands := make([]plotting.Band, len(cs))
	for i, c := range cs {
		b := plotting.Band{Label: labels[c.Method], Method: c.Method}
		if b.Label == "" {
			b.Label = c.Method
		}
		for _, s := range c.Points {
			b.X, b.Mean, b.Lo, b.Hi = append(b.X, s.X), append(b.Mean, s.Mean), append(b.Lo, s.Min), append(b.Hi, s.Max)
		}
		bands[i] = b
	}
	return plotting.AddBands(p, bands...)
}

// writeCaption saves a figure's caption beside it as <ID>.md (the gallery shows it under the
// thumbnail): what is shown, the data and their size, the scale, the number of draws, what the
// bands are, and the set-up choices a reader needs.
func writeCaption(out *run.Output, res *run.Results, text string) error {
	return out.Write("md", func(w io.Writer) error {
		_, err := fmt.Fprintf(w, "**%s** (%s scale). %s\n", out.ID, res.Scale, strings.TrimSpace(text))
		return err
	})
}
