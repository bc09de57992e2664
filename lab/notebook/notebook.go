// Package notebook connects the experiment runtime to GoNB notebooks: it reads the scale from the
// environment (so the test command runs every notebook at smoke scale), runs an experiment with a live
// progress bar in the cell, renders it, and shows its figure or table and its claims inline.
//
// Results are shared with the command line (<repo>/results/<scale>/): a notebook opened after
// ./reproduce.sh shows the figures at once instead of recomputing them. Figures rendered from a notebook
// go to <repo>/results/<scale>/figures, never over the committed figures/.
package notebook

import (
	"context"
	"errors"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/janpfeifer/gonb/gonbui"

	"github.com/fastkernels/kernellab/lab/dataset"
	"github.com/fastkernels/kernellab/lab/run"
)

// ScaleVariable is the environment variable that sets the scale of every notebook run.
const ScaleVariable = "LAB_SCALE"

// Scale returns the scale named by $LAB_SCALE, or quick when it is unset.
func Scale() (run.Scale, error) {
	v := os.Getenv(ScaleVariable)
	if v == "" {
		return run.Quick, nil
	}
	return run.ParseScale(v)
}

// Root finds the repository root: the nearest folder above start holding go.mod and the lab/ folder.
// Notebooks pass their own folder ($GONB_DIR).
func Root(start string) (string, error) {
	dir, err := filepath.Abs(start)
	if err != nil {
		return "", err
	}
	for {
		if isRoot(dir) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("notebook: no repository root (go.mod beside lab/) above %s", start)
		}
		dir = parent
	}
}

func isRoot(dir string) bool {
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		return false
	}
	info, err := os.Stat(filepath.Join(dir, "lab"))
	return err == nil && info.IsDir()
}

// Session is what a notebook needs to run experiments: where results and figures live, the scale,
// and where data comes from.
type Session struct {
	Root  string
	Scale run.Scale
	// Data is where the experiments' tasks load their data sets from (run.Options.Data).
	Data dataset.Source
	// cache keeps what the tasks of the session's runs load, once for all of them (run.Cached).
	cache run.Cache
}

// NewSession locates the repository from the notebook's folder ($GONB_DIR, or the working folder),
// reads the scale from $LAB_SCALE and takes the data source from the environment
// (dataset.DefaultSource: $LAB_DATA_MIRROR, $LAB_DATA_CACHE).
func NewSession() (*Session, error) {
	start := os.Getenv("GONB_DIR")
	if start == "" {
		start = "."
	}
	root, err := Root(start)
	if err != nil {
		return nil, err
	}
	sc, err := Scale()
	if err != nil {
		return nil, err
	}
	return &Session{Root: root, Scale: sc, Data: dataset.DefaultSource()}, nil
}

// ResultsVariable overrides the results root (the test command points it at its temporary folder).
const ResultsVariable = "LAB_RESULTS"

// ResultsDir is the results root shared with the command line: $LAB_RESULTS, or <repo>/results.
func (s *Session) ResultsDir() string {
	if dir := os.Getenv(ResultsVariable); dir != "" {
		return dir
	}
	return filepath.Join(s.Root, "results")
}

// FiguresDir is where notebook renders go, <results>/<scale>/figures: the command line's default
// for the scale (lab run --figures), outside the committed figures/.
func (s *Session) FiguresDir() string {
	return filepath.Join(s.ResultsDir(), string(s.Scale), "figures")
}

// Run executes e (resuming kept tasks) with a live progress bar in the cell, renders it, and returns
// its results. Nothing is displayed but the progress; call Show for the figure.
func (s *Session) Run(ctx context.Context, e *run.Experiment) (*run.Results, error) {
	opts := run.Options{Scale: s.Scale, Dir: s.ResultsDir(), Progress: newCellProgress(), Data: s.Data, Cache: &s.cache}
	res, err := run.Execute(ctx, e, opts)
	if err != nil {
		return nil, err
	}
	if err := run.Render(e, res, s.FiguresDir()); err != nil {
		return nil, err
	}
	return res, nil
}

// Show runs e (see Run), then displays its figure (PNG) or table (Markdown) and its claims in the cell.
func (s *Session) Show(ctx context.Context, e *run.Experiment) (*run.Results, error) {
	res, err := s.Run(ctx, e)
	if err != nil {
		return nil, err
	}
	if err := s.Display(e); err != nil {
		return nil, err
	}
	ShowMarkdown(ClaimsMarkdown(run.CheckClaims(e, res)))
	return res, nil
}

// Display shows the rendered files of e: its PNG for a figure, its Markdown for a table.
func (s *Session) Display(e *run.Experiment) error {
	if e == nil {
		return errors.New("notebook: Display: nil experiment")
	}
	base := filepath.Join(s.FiguresDir(), e.ID)
	if e.Kind == run.Table {
		md, err := os.ReadFile(base + ".md")
		if err != nil {
			return err
		}
		ShowMarkdown(string(md))
		return nil
	}
	png, err := os.ReadFile(base + ".png")
	if err != nil {
		return err
	}
	ShowPNG(png)
	return nil
}

// ClaimsMarkdown formats claim results as a Markdown list for a notebook cell.
func ClaimsMarkdown(claims []run.ClaimResult) string {
	if len(claims) == 0 {
		return "_No claims attached to this experiment._"
	}
	var b strings.Builder
	b.WriteString("**Claims checked on these results** (scale " + string(claims[0].Scale) + ")\n\n")
	for _, c := range claims {
		fmt.Fprintf(&b, "- **%s** *(%s)* — %s  \n", strings.ToUpper(c.Status), c.Kind, c.Text)
		if c.Rule != "" {
			fmt.Fprintf(&b, "  *Rule: %s*  \n", c.Rule)
		}
		fmt.Fprintf(&b, "  %s\n", c.Evidence)
	}
	return b.String()
}

// cellProgress is a run.Progress drawn as an HTML progress bar updated in place in the cell.
type cellProgress struct {
	mu      sync.Mutex
	id      string
	started time.Time
	exp     string
	total   int
	done    int
	failed  error
	lastLog string
}

func newCellProgress() *cellProgress { return &cellProgress{id: "lab-progress-" + gonbui.UniqueID()} }

func (p *cellProgress) Start(id string, total, alreadyDone int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.exp, p.total, p.done, p.started = id, total, alreadyDone, time.Now()
	p.draw()
}

func (p *cellProgress) TaskDone(_, _ string, _ time.Duration, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	if err != nil && p.failed == nil && !errors.Is(err, context.Canceled) {
		p.failed = err
	}
	p.draw()
}

func (p *cellProgress) Finish(string, time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.draw()
}

func (p *cellProgress) Logf(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.lastLog = fmt.Sprintf(format, args...)
	p.draw()
}

// draw replaces the cell's progress block; callers hold mu.
func (p *cellProgress) draw() {
	gonbui.UpdateHTML(p.id, progressHTML(p.exp, p.done, p.total, time.Since(p.started), p.failed, p.lastLog))
}

// progressHTML renders one progress block: experiment, bar, counts, elapsed time, last note or error.
func progressHTML(exp string, done, total int, elapsed time.Duration, failed error, note string) string {
	frac := 1.0
	if total > 0 {
		frac = float64(done) / float64(total)
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<div style="font-family:monospace"><b>%s</b> <progress value="%d" max="%d" style="width:40%%"></progress> %d/%d tasks (%.0f%%), %s`,
		html.EscapeString(exp), done, max(total, 1), done, total, 100*frac, elapsed.Round(100*time.Millisecond))
	if failed != nil {
		fmt.Fprintf(&b, `<br><span style="color:#b00">error: %s</span>`, html.EscapeString(failed.Error()))
	} else if note != "" {
		fmt.Fprintf(&b, `<br><span style="color:#555">%s</span>`, html.EscapeString(note))
	}
	b.WriteString("</div>")
	return b.String()
}
