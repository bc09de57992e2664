// Package plotting gives every figure of the lab one consistent, publication-ready style on top of
// gonum/plot, so that experiments and notebooks only say what to draw, never how it looks.
//
// A figure starts with New (fonts, grid, legend and colours shared by all figures), receives
// series with AddBands (mean line with glyphs and a translucent uncertainty band), AddLine
// (reference curves such as bounds or slopes), AddScatter and AddHLine, optionally log axes
// (LogX, LogY) or a matrix heat map (HeatMap), and is written as PNG and SVG with SavePlot.
// Several plots become one multi-panel figure with NewFigure, whose panels are titled
// "(a) ", "(b) ", ... automatically. WriteTable writes the tables that accompany the figures as
// Markdown and CSV.
//
// The legend of a plot made by New is placed, when the plot is drawn, at the corner or edge of the
// data area where it covers the fewest data points (top-right on a tie), on a translucent white
// box, so a legend hides data only when no such place is free. Tick labels adapt to the size the
// plot is drawn at by SavePlot, PlotPNG and Figure, so they do not collide in narrow panels.
//
// All input is validated: mismatched lengths, NaN or infinite values, non-positive values on a
// log axis and out-of-range panels are reported as errors, never as panics. Every file is
// written atomically (lab/safefile), so an interrupted run never leaves a half-written figure.
package plotting
