// Package kittest holds the test helpers the experiment packages share: driving a claim check to a
// verdict on hand-made results ([WantOutcome], [RowsOf], [Jitter]), running an experiment at a
// scale and checking its claims and print figure ([RunAndCheck], [CheckPrintFigure]), and pointing
// the data sets at the offline mirror ([UseDataMirror]).
package kittest
