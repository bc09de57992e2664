package notebook

import (
	"github.com/janpfeifer/gonb/gonbui"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/fastkernels/kernellab/lab/plotting"
)

// The Show functions display in the running cell and return only once GoNB has taken what they sent.
// A cell's program usually exits right after its last display, and GoNB reads displays from a pipe:
// without the wait (gonbui.Sync) the last image of a cell was sometimes lost on a loaded machine, the
// cell printing its text but no figure. Outside a notebook they display nothing and return at once.

// ShowPNG displays a PNG image.
func ShowPNG(png []byte) {
	gonbui.DisplayPNG(png)
	gonbui.Sync()
}

// ShowMarkdown displays Markdown (tables, claims, notes).
func ShowMarkdown(md string) {
	gonbui.DisplayMarkdown(md)
	gonbui.Sync()
}

// ShowPlot renders p at w × h in the lab's style and displays it.
func ShowPlot(p *plot.Plot, w, h vg.Length) error {
	png, err := plotting.PlotPNG(p, w, h)
	if err != nil {
		return err
	}
	ShowPNG(png)
	return nil
}

// ShowFigure renders a multi-panel figure and displays it.
func ShowFigure(f *plotting.Figure) error {
	png, err := f.PNG()
	if err != nil {
		return err
	}
	ShowPNG(png)
	return nil
}
