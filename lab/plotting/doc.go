// Package plotting gives every figure of the lab one consistent, publication-ready style on top of
// gonum/plot, so that experiments and notebooks only say what to draw, never how it looks.
//
// A figure starts with New (fonts, grid, legend and colours shared by all figures), receives
// series with [AddBands] (mean line with glyphs and a translucent uncertainty band), [AddLine]
// (reference curves such as bounds or slopes), [AddScatter] and [AddHLine], optionally log axes
// ([LogX], [LogY]) or a matrix heat map ([HeatMap]), and is written as PNG and SVG with [SavePlot].
// Several plots become one multi-panel figure with [NewFigure], whose panels are titled
// "(a) ", "(b) ", ... automatically. [WriteTable] writes the tables that accompany the figures as
// Markdown and CSV.
//
// The legend of a plot made by New is placed, when the plot is drawn, at the corner or edge of the
// data area where it covers the fewest data points (top-right on a tie), on a translucent white
// box, so a legend hides data only when no such place is free. Tick labels adapt to the size the
// plot is drawn at by SavePlot, [PlotPNG] and Figure, so they do not collide in narrow panels.
//
// # Print figures
//
// A figure for a paper is laid out at its printed size, so that its text has the size it says:
// [NewPrintFigure](rows, cols, width, panelHeight) with width [ColumnWidth] (8.5 cm) or [PageWidth]
// (17 cm), and panels made by [NewPrint], whose text is 7 pt (ticks, legend, log-axis exponents) and
// 8 pt (axis labels, titles), with lines and markers to match. Its Save writes the PNG at [PrintDPI]
// (300), the SVG and a PDF with embedded fonts, each atomically, ready for \includegraphics at
// 100%. Its legend is shared below the panels (SetLegend: [LegendBelow], [LegendRight] or the per-panel
// [LegendInside]), listing each entry once. Print log axes extend to 1, 2 or 5 times a power of ten
// and label both ends; print heat maps of one sign use viridis, and HeatMapOptions.BarLabel names
// the colour bar. Figures made with New and NewFigure look exactly as before.
//
// # Styles
//
// A series is drawn in a [SeriesStyle]: a colour of the palette (Okabe–Ito, and black and grey for
// reference lines), a marker and a dash pattern, made with [Style]. Give a Band its Style, or draw
// with [AddStyledLine], [AddStyledScatter] and [AddStyledHLine]; a program that shows one method in
// several figures keeps one style per method (the catalogue's registry is package
// experiments/styles, outside this library). Index-styled series (AddBands without Style, AddLine,
// AddScatter, AddHLine with an index) are for series that are not methods (classes, sample sizes).
//
// # Checking figures
//
// Package lab/plotting/plottest reads an SVG written by this package and checks that no text is
// below [MinPrintFont] points at a given print width and that each legend entry is drawn in its
// method's registered colour, so experiments can test their figures.
//
// All input is validated: mismatched lengths, NaN or infinite values, non-positive values on a
// log axis, unregistered methods and out-of-range panels are reported as errors, never as panics.
// Every file is written atomically (lab/safefile), so an interrupted run never leaves a
// half-written figure.
package plotting
