package plotting_test

import (
	"fmt"
	"image/color"
	"log"
	"math"
	"os"
	"path/filepath"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot/vg"

	"github.com/fastkernels/kernellab/lab/plotting"
	"github.com/fastkernels/kernellab/lab/plotting/plottest"
)

// A two-panel figure: error curves with uncertainty bands on log axes, and a Gram matrix with the
// diagonal blocks a divide-and-conquer method uses outlined and the rest greyed out.
func Example() {
	dir, err := os.MkdirTemp("", "plotting-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	curves := plotting.New("Approximation error", "landmarks m", "relative error")
	landmarks := []float64{10, 20, 50, 100, 200, 500}
	var bands []plotting.Band
	for k, name := range []string{"uniform", "leverage scores"} {
		b := plotting.Band{Label: name, X: landmarks, Dashed: k == 1}
		for _, m := range landmarks {
			e := math.Pow(m, -0.5-0.5*float64(k))
			b.Mean, b.Lo, b.Hi = append(b.Mean, e), append(b.Lo, 0.8*e), append(b.Hi, 1.25*e)
		}
		bands = append(bands, b)
	}
	if err := plotting.LogX(curves); err != nil {
		log.Fatal(err)
	}
	if err := plotting.LogY(curves); err != nil {
		log.Fatal(err)
	}
	if err := plotting.AddBands(curves, bands...); err != nil {
		log.Fatal(err)
	}
	if err := plotting.AddHLine(curves, 1e-3, "tolerance", 6); err != nil {
		log.Fatal(err)
	}

	n := 12
	gram := mat.NewDense(n, n, nil)
	for i := range n {
		for j := range n {
			d := float64(i - j)
			gram.Set(i, j, math.Exp(-d*d/8))
		}
	}
	blocks := plotting.New("Gram matrix", "column", "row")
	err = plotting.HeatMap(blocks, gram, plotting.HeatMapOptions{
		Outline:     []plotting.Rect{{Row0: 0, Col0: 0, Rows: 6, Cols: 6}, {Row0: 6, Col0: 6, Rows: 6, Cols: 6}},
		GreyOutside: true,
	})
	if err != nil {
		log.Fatal(err)
	}

	fig := plotting.NewFigure(1, 2, 3.5*vg.Inch, 2.8*vg.Inch)
	fig.Set(0, 0, curves)
	fig.Set(0, 1, blocks)
	if err := fig.Save(filepath.Join(dir, "fig3_2")); err != nil {
		log.Fatal(err)
	}
	for _, name := range []string{"fig3_2.png", "fig3_2.svg"} {
		_, err := os.Stat(filepath.Join(dir, name))
		fmt.Println(name, err == nil)
	}
	// Output:
	// fig3_2.png true
	// fig3_2.svg true
}

func ExampleWriteTable() {
	dir, err := os.MkdirTemp("", "plotting-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	base := filepath.Join(dir, "tab3_1")
	err = plotting.WriteTable(base, "Test error by sampler", []string{"sampler", "error"},
		[][]string{{"uniform", "0.120"}, {"DAC-RLS", "0.034"}})
	if err != nil {
		log.Fatal(err)
	}
	md, err := os.ReadFile(base + ".md")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(string(md))
	// Output:
	// Table: Test error by sampler
	//
	// | sampler | error |
	// | ------- | ----: |
	// | uniform | 0.120 |
	// | DAC-RLS | 0.034 |
}

// A page-wide print figure: two panels of the same methods, each method in its own style (a
// hue, a glyph and a dash of the palette) whatever its position, with a reference line, one shared legend below the panels, and the text
// checked for print from the SVG.
func ExampleNewPrintFigure() {
	dir, err := os.MkdirTemp("", "plotting-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	type palette struct {
		hue   plotting.Hue
		glyph plotting.Glyph
		dash  plotting.Dash
	}
	styles := map[string]plotting.SeriesStyle{}
	for method, p := range map[string]palette{
		"uniform": {plotting.Orange, plotting.Diamond, plotting.Dotted},
		"dac":     {plotting.Vermillion, plotting.Circle, plotting.Solid},
		"exact":   {plotting.Black, plotting.Cross, plotting.Dashed},
		"bound":   {plotting.Black, plotting.NoGlyph, plotting.DashDot},
	} {
		s, err := plotting.Style(p.hue, p.glyph, p.dash)
		if err != nil {
			log.Fatal(err)
		}
		styles[method] = s
	}
	fig := plotting.NewPrintFigure(1, 2, plotting.PageWidth, 4.5*vg.Centimeter)
	for col, data := range []string{"KC1", "Houses"} {
		p := plotting.NewPrint(data, "landmarks m", "relative error")
		if err := plotting.LogY(p); err != nil {
			log.Fatal(err)
		}
		m := []float64{50, 100, 200, 400}
		var bands []plotting.Band
		for k, method := range []string{"uniform", "dac", "exact"} {
			s := styles[method]
			b := plotting.Band{Label: method, Style: &s, X: m}
			for _, x := range m {
				e := math.Pow(x, -0.5-0.2*float64(k+col))
				b.Mean, b.Lo, b.Hi = append(b.Mean, e), append(b.Lo, 0.8*e), append(b.Hi, 1.25*e)
			}
			bands = append(bands, b)
		}
		if err := plotting.AddBands(p, bands...); err != nil {
			log.Fatal(err)
		}
		if err := plotting.AddStyledHLine(p, 1e-3, "tolerance", styles["bound"]); err != nil {
			log.Fatal(err)
		}
		fig.Set(0, col, p)
	}
	if err := fig.Save(filepath.Join(dir, "fig3_2")); err != nil {
		log.Fatal(err)
	}
	for _, name := range []string{"fig3_2.png", "fig3_2.svg", "fig3_2.pdf"} {
		_, err := os.Stat(filepath.Join(dir, name))
		fmt.Println(name, err == nil)
	}
	svg, err := os.ReadFile(filepath.Join(dir, "fig3_2.svg"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("fonts at page width:", plottest.CheckPrintFonts(svg, plotting.PageWidth))
	fmt.Println("legend colours:", plottest.CheckLegendColors(svg, map[string]color.Color{
		"uniform": styles["uniform"].Color, "dac": styles["dac"].Color, "exact": styles["exact"].Color}))
	fmt.Printf("DAC is %v\n", styles["dac"].Color)
	// Output:
	// fig3_2.png true
	// fig3_2.svg true
	// fig3_2.pdf true
	// fonts at page width: <nil>
	// legend colours: <nil>
	// DAC is {213 94 0 255}
}
