package run

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastkernels/kernellab/lab/blasbackend"
	"github.com/fastkernels/kernellab/lab/safefile"
)

// revision is the file in the parts folder naming the source revision of the program that started
// computing them.
func (l layout) revision() string { return filepath.Join(l.parts(), "REVISION") }

// checkRevision guards resumed runs against results computed by older code. A run that starts an
// empty parts folder records currentRevision() in it. A run that reuses kept parts recorded under
// another revision says so through progress (the rows are still reused: a change elsewhere in the
// program need not touch this experiment) and returns that revision for the meta file.
func (l layout) checkRevision(id string, kept, pending int, progress Progress) (keptFrom string, err error) {
	current := currentRevision()
	if current == "" {
		if kept > 0 {
			progress.Logf("%s: warning: reusing %d kept task results UNCHECKED: this program carries no source revision "+
				"(built with -buildvcs=false, perhaps through GOFLAGS, outside a git checkout of the lab) and git cannot name one, "+
				"so nothing says the kept results come from the same code. Rebuild with go build -buildvcs=true, or run it again with --fresh.",
				id, kept)
		}
		return "", nil
	}
	if kept == 0 {
		if pending == 0 {
			return "", nil
		}
		if err := safefile.WriteBytes(l.revision(), []byte(current+"\n")); err != nil {
			return "", fmt.Errorf("run: %s: %w", id, err)
		}
		return "", nil
	}
	data, err := os.ReadFile(l.revision())
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil // kept parts from before revisions were recorded: nothing to compare
	}
	if err != nil {
		return "", fmt.Errorf("run: %s: %w", id, err)
	}
	recorded := strings.TrimSpace(string(data))
	if recorded == current {
		return "", nil
	}
	progress.Logf("%s: reusing %d kept task results computed by revision %s; this program is revision %s. "+
		"If %s's code changed in between, run it again with --fresh (or delete %s*).",
		id, kept, recorded, current, id, filepath.Join(l.dir, l.id+"."))
	return recorded, nil
}

// currentRevision is Revision, a variable so that tests can set it.
var currentRevision = sync.OnceValue(Revision)

// Revision names the source of this program: the VCS revision that go build stamped into it, with
// "+modified" when the source had uncommitted changes. go build counts every file git status lists,
// untracked ones and a run's own outputs included, so a program rebuilt after a run that rewrote
// figures/ would name another revision than the run's kept results; when the working directory is
// a checkout of the stamped revision, "+modified" is therefore decided by sourceChanged instead.
//
// A program built without stamping (-buildvcs=false, which some environments set through GOFLAGS)
// asks git instead, when the working directory is a checkout of the module it was built from: the
// checkout's HEAD, "+modified" as above. It returns "" when neither names a revision, and in a
// test binary, whose source is the test's own.
func Revision() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	var revision, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if revision == "" {
		if testing.Testing() {
			return ""
		}
		return checkoutRevision(".", info.Main.Path)
	}
	if modified == "true" && sourceChanged(".", revision) {
		revision += "+modified"
	}
	return revision
}

// checkoutRevision is the revision of the git checkout around dir when its go.mod declares module
// (the module the program was built from), with "+modified" when trackedChanged; "" when dir is not
// in such a checkout or git is missing.
func checkoutRevision(dir, module string) string {
	top, err := exec.Command("git", "-C", dir, "rev-parse", "--show-toplevel").Output()
	if err != nil || module == "" {
		return ""
	}
	mod, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(top)), "go.mod"))
	if err != nil || modulePath(mod) != module {
		return ""
	}
	head, err := exec.Command("git", "-C", dir, "rev-parse", "HEAD").Output()
	if err != nil {
		return ""
	}
	revision := strings.TrimSpace(string(head))
	if trackedChanged(dir) {
		revision += "+modified"
	}
	return revision
}

// modulePath is the path of the module directive of a go.mod file ("" if it has none).
func modulePath(gomod []byte) string {
	for line := range strings.Lines(string(gomod)) {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			rest, _, _ = strings.Cut(rest, "//") // a trailing comment
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}

// sourceChanged reports whether the checkout around dir may hold other source than revision: true
// unless it is a checkout of revision whose tracked files outside figures/ (the committed outputs,
// which no build reads) are unchanged. Untracked files are not counted: a run's outputs in a folder
// git does not ignore are not source; a new source file must be added to git to count.
func sourceChanged(dir, revision string) bool {
	head, err := exec.Command("git", "-C", dir, "rev-parse", "HEAD").Output()
	return err != nil || strings.TrimSpace(string(head)) != revision || trackedChanged(dir)
}

// trackedChanged reports whether the checkout around dir has changes to tracked files outside
// figures/ (or git cannot say).
func trackedChanged(dir string) bool {
	status, err := exec.Command("git", "-C", dir, "status", "--porcelain", "--untracked-files=no", "--",
		":(top)", ":(top,exclude)figures").Output()
	return err != nil || len(bytes.TrimSpace(status)) > 0
}

// runMeta is the provenance file written next to a results table.
type runMeta struct {
	ID    string `json:"id"`
	Title string `json:"title,omitempty"`
	Scale Scale  `json:"scale"`
	Seed  uint64 `json:"seed"`
	Tasks int    `json:"tasks"`
	// PlanTasks is the plan's number of tasks when the table holds only its first Tasks (a
	// partial run, Options.First); absent for a whole run.
	PlanTasks  int      `json:"plan_tasks,omitempty"`
	TasksRun   int      `json:"tasks_run"`
	TasksKept  int      `json:"tasks_kept"`
	Workers    int      `json:"workers,omitempty"`
	Rows       int      `json:"rows"`
	MergedFrom []string `json:"merged_from,omitempty"`
	GoVersion  string   `json:"go_version"`
	GOOS       string   `json:"goos"`
	GOARCH     string   `json:"goarch"`
	Revision   string   `json:"revision,omitempty"`
	// KeptFromRevision is set when kept parts recorded another revision (see checkRevision).
	KeptFromRevision string `json:"kept_from_revision,omitempty"`
	// TableSHA256 is the hex SHA-256 of the results table as written, which Load verifies, so that
	// a value changed in the table by hand or by damage is refused, as in a part.
	TableSHA256 string `json:"table_sha256,omitempty"`
	// BLAS is the BLAS library and kernels of the run (not of a merge): other kernels change the
	// results' last bits and the timings.
	BLAS           *blasbackend.Info `json:"blas,omitempty"`
	Module         string            `json:"module,omitempty"`
	Modules        []string          `json:"modules,omitempty"`
	Started        time.Time         `json:"started"`
	Finished       time.Time         `json:"finished"`
	ElapsedSeconds float64           `json:"elapsed_seconds"`
}

// newMeta describes the run of e at sc that wrote table, the bytes of its results table.
func newMeta(e *Experiment, sc Scale, tasks, rows int, table []byte, started time.Time) *runMeta {
	finished := time.Now()
	sum := sha256.Sum256(table)
	m := &runMeta{
		ID: e.ID, Title: e.Title, Scale: sc, Seed: e.Seed, Tasks: tasks, Rows: rows, TableSHA256: hex.EncodeToString(sum[:]),
		GoVersion: runtime.Version(), GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, Revision: currentRevision(),
		Started: started.UTC(), Finished: finished.UTC(), ElapsedSeconds: finished.Sub(started).Seconds(),
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		m.Module = strings.TrimSpace(bi.Main.Path + " " + bi.Main.Version)
		for _, d := range bi.Deps {
			if d.Replace != nil {
				d = d.Replace
			}
			m.Modules = append(m.Modules, d.Path+" "+d.Version)
		}
	}
	return m
}

// verifyTable checks the results table data of lay against the checksum its meta file records. A
// table without a meta file, or whose meta file records none (written before checksums were), is
// not checked: the committed reference tables, which git guards, have no meta file.
func verifyTable(lay layout, data []byte) error {
	raw, err := os.ReadFile(lay.meta())
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("run: %w", err)
	}
	var m runMeta
	if err := json.Unmarshal(raw, &m); err != nil {
		return fmt.Errorf("run: %s: %w", lay.meta(), err)
	}
	if m.TableSHA256 == "" {
		return nil
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != m.TableSHA256 {
		return fmt.Errorf("run: %s does not match the checksum recorded in %s (it was changed or damaged after the run wrote it): "+
			"rebuild it from the kept task results with lab run --scale %s %s (tasks already done are not recomputed), "+
			"or lab merge for a sharded run",
			lay.table(), filepath.Base(lay.meta()), m.Scale, m.ID)
	}
	return nil
}

func (m *runMeta) write(path string) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return safefile.WriteBytes(path, append(data, '\n'))
}
