package notebook

import (
	"fmt"
	"strings"

	"github.com/go-gota/gota/dataframe"
)

// FrameMarkdown formats the first rows of a gota DataFrame as a Markdown table, with a line giving
// its full size, for display in a cell ([ShowMarkdown]).
func FrameMarkdown(df dataframe.DataFrame, rows int) string {
	n, d := df.Dims()
	rows = max(0, min(rows, n))
	var b strings.Builder
	names := df.Names()
	b.WriteString("| " + strings.Join(names, " | ") + " |\n|")
	b.WriteString(strings.Repeat(" --- |", len(names)) + "\n")
	records := df.Records() // header first
	for _, rec := range records[1 : rows+1] {
		b.WriteString("| " + strings.Join(rec, " | ") + " |\n")
	}
	fmt.Fprintf(&b, "\n_%d rows × %d columns (first %d shown)_\n", n, d, rows)
	return b.String()
}
