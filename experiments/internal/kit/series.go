package kit

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/fastkernels/kernellab/experiments/styles"
	"github.com/fastkernels/kernellab/lab/plotting"
	"github.com/fastkernels/kernellab/lab/run"
)

// Curve is one method's summary over an x parameter: a point per x value, with the spread over
// repetitions.
type Curve struct {
	Method string
	Points []run.Summary
}

// Curves summarises metric over the repetitions of each method of dataset, against xParam, in the
// order methods lists them; a method without rows is an error (a renderer must not silently drop
// a series).
func Curves(res *run.Results, dataset, metric, xParam string, methods ...string) ([]Curve, error) {
	out := make([]Curve, 0, len(methods))
	for _, m := range methods {
		sums, err := run.Summarise(res.Where(dataset, m, metric), xParam)
		if err != nil {
			return nil, fmt.Errorf("%s: %s %s: %w", res.ID, m, metric, err)
		}
		if len(sums) == 0 {
			return nil, fmt.Errorf("%s: no %s rows for %s on %s", res.ID, metric, m, dataset)
		}
		out = append(out, Curve{Method: m, Points: sums})
	}
	return out, nil
}

// ByMethod indexes curves by their method.
func ByMethod(cs []Curve) map[string]Curve {
	out := make(map[string]Curve, len(cs))
	for _, c := range cs {
		out[c.Method] = c
	}
	return out
}

// At returns the summary at x, or false.
func (c Curve) At(x float64) (run.Summary, bool) {
	for _, s := range c.Points {
		if s.X == x {
			return s, true
		}
	}
	return run.Summary{}, false
}

// First and last are the summaries at the smallest and the largest x.
func (c Curve) First() run.Summary { return c.Points[0] }
func (c Curve) Last() run.Summary  { return c.Points[len(c.Points)-1] }

// Means returns the mean at each x, in increasing x.
func (c Curve) Means() []float64 {
	out := make([]float64, len(c.Points))
	for i, s := range c.Points {
		out[i] = s.Mean
	}
	return out
}

// minMaxBand is curve c as a band: its mean over the repetitions with a band from the minimum to
// the maximum (a band that stays positive, unlike mean ± sd, so it suits log axes), labelled from
// labels (the method's name when labels has none).
func minMaxBand(c Curve, labels map[string]string) plotting.Band {
	b := plotting.Band{Label: labels[c.Method]}
	if b.Label == "" {
		b.Label = c.Method
	}
	for _, s := range c.Points {
		b.X, b.Mean, b.Lo, b.Hi = append(b.X, s.X), append(b.Mean, s.Mean), append(b.Lo, s.Min), append(b.Hi, s.Max)
	}
	return b
}

// AddMinMaxBands draws curves that are not methods (input dimensions, say) as min–max bands in
// the style of their position.
func AddMinMaxBands(p *plot.Plot, cs []Curve, labels map[string]string) error {
	bands := make([]plotting.Band, len(cs))
	for i, c := range cs {
		bands[i] = minMaxBand(c, labels)
	}
	return plotting.AddBands(p, bands...)
}

// SavePrintRow saves the panels (made with plotting.NewPrint) side by side at page width, each
// panelH high, with one legend shared below them, as the experiment's PNG (300 dpi), SVG and PDF.
func SavePrintRow(out *run.Output, panelH vg.Length, panels ...*plot.Plot) error {
	return SavePrintGrid(out, 1, len(panels), plotting.PageWidth, panelH, plotting.LegendBelow, panels...)
}

// SavePrintGrid saves the panels in reading order as a rows × cols print figure width wide (a
// column or a page), each panel panelH high, with the legend placed as asked, as the experiment's
// PNG (300 dpi), SVG and PDF.
func SavePrintGrid(out *run.Output, rows, cols int, width, panelH vg.Length, legend plotting.LegendPlacement, panels ...*plot.Plot) error {
	fig := plotting.NewPrintFigure(rows, cols, width, panelH)
	fig.SetLegend(legend)
	for i, p := range panels {
		fig.Set(i/cols, i%cols, p)
	}
	return fig.Save(filepath.Join(out.Dir, out.ID))
}

// PlainFloats prints v as "100, 300, 1000": plain decimals, no exponents, for captions.
func PlainFloats(v []float64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = strconv.FormatFloat(x, 'f', -1, 64)
	}
	return strings.Join(parts, ", ")
}

// MethodBands turns curves into min–max bands in their methods' registered styles (styles.Of:
// one colour, marker and dash per method across the whole catalogue); an unregistered method is
// an error.
func MethodBands(cs []Curve, labels map[string]string) ([]plotting.Band, error) {
	bands := make([]plotting.Band, len(cs))
	for i, c := range cs {
		s, err := styles.Of(c.Method)
		if err != nil {
			return nil, err
		}
		bands[i] = minMaxBand(c, labels)
		bands[i].Style = &s
	}
	return bands, nil
}

// AddMethodBands draws curves as min–max bands in their methods' registered styles.
func AddMethodBands(p *plot.Plot, cs []Curve, labels map[string]string) error {
	bands, err := MethodBands(cs, labels)
	if err != nil {
		return err
	}
	return plotting.AddBands(p, bands...)
}

// WriteCaption saves a figure's caption beside it as <ID>.md (the gallery shows it under the
// thumbnail). It leads with result, one or two sentences computed from the results that say what
// the figure shows (the numbers its claims turn on), after the ID and scale; then, in its own
// paragraph, setup: what is drawn, the data and their size, the number of draws, what the bands
// are, and the set-up choices a reader needs. The gallery puts the verdicts of the figure's claims
// between the two (cmd/lab). Captions describe the figure as it is, never its history. An empty
// result or setup is an error: every figure says what it shows and how it was made.
func WriteCaption(out *run.Output, res *run.Results, result, setup string) error {
	if strings.TrimSpace(result) == "" || strings.TrimSpace(setup) == "" {
		return fmt.Errorf("%s: caption without a result sentence or a set-up", out.ID)
	}
	return out.Write("md", func(w io.Writer) error {
		_, err := fmt.Fprintf(w, "**%s** (%s scale). %s\n\n%s\n", out.ID, res.Scale, strings.TrimSpace(result), strings.TrimSpace(setup))
		return err
	})
}

// PointsByClass gathers recorded points: each row is one coordinate (metric xMetric or yMetric)
// of the point named by its "point" parameter, whose class is its "class" parameter. It returns
// each class's x and y values in recording order, and an error when a point lacks a coordinate.
func PointsByClass(rows []run.Row, xMetric, yMetric string) (map[string][2][]float64, error) {
	type coords struct{ x, y float64 }
	byPoint := map[string]*coords{}
	classOf := map[string]string{}
	var order []string
	for _, row := range rows {
		id, _ := row.Param("point")
		c, ok := byPoint[id]
		if !ok {
			c = &coords{math.NaN(), math.NaN()}
			byPoint[id] = c
			classOf[id], _ = row.Param("class")
			order = append(order, id)
		}
		switch row.Metric {
		case xMetric:
			c.x = row.Value
		case yMetric:
			c.y = row.Value
		}
	}
	out := map[string][2][]float64{}
	for _, id := range order {
		c := byPoint[id]
		if math.IsNaN(c.x) || math.IsNaN(c.y) {
			return nil, fmt.Errorf("point %s lacks %s or %s", id, xMetric, yMetric)
		}
		cur := out[classOf[id]]
		cur[0], cur[1] = append(cur[0], c.x), append(cur[1], c.y)
		out[classOf[id]] = cur
	}
	return out, nil
}
