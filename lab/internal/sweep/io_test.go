package sweep

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"

	"github.com/fastkernels/kernellab/lab/dataset"
	"github.com/fastkernels/kernellab/lab/dataset/format"
	"github.com/fastkernels/kernellab/lab/notebook"
	"github.com/fastkernels/kernellab/lab/run"
)

// The packages that read files and the network (dataset, dataset/format), run experiments (run)
// and talk to a notebook (notebook), swept like the others (issue 34) from a scratch working
// folder, with an empty mirror, a cache in a scratch folder and an "upstream" on a closed local
// port, so that no call reaches the network or writes into the repository.

// ioFunctions is every exported function of those packages, generic ones at one instantiation.
var ioFunctions = []struct {
	name string
	fn   any
}{
	{"dataset.Label", dataset.Label}, {"dataset.Partial", dataset.Partial}, {"dataset.Split", dataset.Split},
	{"dataset.StratifiedSplit", dataset.StratifiedSplit}, {"dataset.Subsample", dataset.Subsample},
	{"dataset.Variant", dataset.Variant}, {"dataset.DefaultSource", dataset.DefaultSource},
	{"dataset.Lookup", dataset.Lookup}, {"dataset.Manifest", dataset.Manifest}, {"dataset.LoadTable", dataset.LoadTable},

	{"format.DecodeJPEGLibjpeg", format.DecodeJPEGLibjpeg}, {"format.GrayFloat32Mean", format.GrayFloat32Mean},
	{"format.GrayScaled", format.GrayScaled}, {"format.LibjpegRGB", format.LibjpegRGB},
	{"format.ReadDelimited", format.ReadDelimited}, {"format.ReadLIBSVM", format.ReadLIBSVM},
	{"format.ReadPGM", format.ReadPGM}, {"format.ResizeBicubic8", format.ResizeBicubic8},
	{"format.StripTile", format.StripTile}, {"format.WalkTar", format.WalkTar}, {"format.ReadARFF", format.ReadARFF},
	{"format.ReadTU", format.ReadTU}, {"format.ReadIDX", format.ReadIDX}, {"format.NewTarWriter", format.NewTarWriter},

	{"run.Cached", run.Cached[int]}, {"run.Merge", run.Merge}, {"run.Missing", run.Missing},
	{"run.PairedDifferences", run.PairedDifferences}, {"run.Render", run.Render}, {"run.Revision", run.Revision},
	{"run.TaskKeys", run.TaskKeys}, {"run.TimeMedian", run.TimeMedian}, {"run.TimeMedianCold", run.TimeMedianCold},
	{"run.ClaimKinds", run.ClaimKinds}, {"run.CheckClaims", run.CheckClaims},
	{"run.NewOverallProgress", run.NewOverallProgress}, {"run.P", run.P},
	{"run.NewTerminalProgress", run.NewTerminalProgress}, {"run.SilentProgress", run.SilentProgress},
	{"run.NewRegistry", run.NewRegistry}, {"run.Execute", run.Execute}, {"run.Load", run.Load},
	{"run.ReadResults", run.ReadResults}, {"run.ParseScale", run.ParseScale}, {"run.Scales", run.Scales},
	{"run.ParseShard", run.ParseShard}, {"run.Summarise", run.Summarise},

	{"notebook.ClaimsMarkdown", notebook.ClaimsMarkdown}, {"notebook.FrameMarkdown", notebook.FrameMarkdown},
	{"notebook.Root", notebook.Root}, {"notebook.Scale", notebook.Scale}, {"notebook.ShowFigure", notebook.ShowFigure},
	{"notebook.ShowMarkdown", notebook.ShowMarkdown}, {"notebook.ShowPNG", notebook.ShowPNG},
	{"notebook.ShowPlot", notebook.ShowPlot}, {"notebook.NewSession", notebook.NewSession},
	{"notebook.Live", notebook.Live}, {"notebook.AltText", notebook.AltText},
	{"notebook.CheckValues", notebook.CheckValues},
}

// ioSetUp points the environment of the sweep away from the network and the repository: a scratch
// working folder (relative paths, results and figures land there), no mirror, a scratch cache, no
// proxy that could reach out, and the notebook's folder at the repository so that NewSession finds
// it (its results go to the scratch folder too).
func ioSetUp(t *testing.T) {
	repo, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GONB_DIR", filepath.Join(repo, "notebooks"))
	t.Chdir(t.TempDir())
	t.Setenv(dataset.MirrorEnv, "")
	t.Setenv("LAB_DATA_CACHE", t.TempDir())
	t.Setenv("LAB_RESULTS", t.TempDir())
	t.Setenv("LAB_SCALE", "")
	t.Setenv("HTTPS_PROXY", "http://127.0.0.1:1")
	t.Setenv("HTTP_PROXY", "http://127.0.0.1:1")
}

// offline is a Source whose every download goes to a closed local port.
func offline(t *testing.T) dataset.Source {
	return dataset.Source{Cache: t.TempDir(), Upstream: "http://127.0.0.1:1"}
}

// toyExperiment has three tasks of one record each, a renderer writing one table and one claim.
func toyExperiment() *run.Experiment {
	return &run.Experiment{
		ID: "sweep_toy", Title: "Sweep toy", Source: "the sweep", Kind: run.Table, Seed: 7,
		Plan: func(run.Scale) ([]run.Task, error) {
			var tasks []run.Task
			for rep := range 3 {
				tasks = append(tasks, run.Task{Key: "rep=" + string(rune('0'+rep)), Rep: rep,
					Run: func(_ context.Context, env *run.Env) ([]run.Record, error) {
						return []run.Record{{Dataset: "d", Method: "m", Metric: "err", Value: env.RNG.Float64()}}, nil
					}})
			}
			return tasks, nil
		},
		Render: func(res *run.Results, out *run.Output) error { return nil },
	}
}

// toyResults runs the toy at smoke scale into a scratch folder.
func toyResults(t *testing.T) *run.Results {
	res, err := run.Execute(context.Background(), toyExperiment(), run.Options{Scale: run.Smoke, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// tinyJPEG is a 4×4 grey JPEG.
func tinyJPEG() []byte {
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, grey4(), nil); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

func grey4() *image.Gray {
	img := image.NewGray(image.Rect(0, 0, 4, 4))
	for i := range img.Pix {
		img.Pix[i] = uint8(16 * i)
	}
	return img
}

// ioCandidates returns the argument values swept for the types of the io packages, or nil.
func ioCandidates(t reflect.Type) []candidate {
	switch t {
	case reflect.TypeFor[io.Reader]():
		reader := func(label, s string) candidate {
			return typed(label, t, func() any { return strings.NewReader(s) })
		}
		return []candidate{
			reader("CSV", "a,b\n1,2\n3,4\n"),
			typed("nil", t, func() any { return nil }),
			reader("empty", ""),
			reader("binary", "\x00\xff\x1f\x8b\x08garbage\x00"),
			reader("PGM 2⁴⁰×2⁴⁰", "P5 1099511627776 1099511627776 255\n"),
			reader("IDX 2⁴⁰ items", "\x00\x00\x08\x01\x00\x01\x00\x00"),
			reader("IDX 2³¹×2³¹ images", "\x00\x00\x08\x03\x7f\xff\xff\xff\x7f\xff\xff\xff\x7f\xff\xff\xff"),
			reader("LIBSVM index 2⁴⁰", "1 1099511627776:1\n"),
			reader("LIBSVM NaN", "NaN 1:NaN\n"),
			reader("ARFF", "@relation r\n@attribute a numeric\n@attribute c {x,y}\n@data\n1,x\n?,y\n"),
			reader("TU edges", "1, 2\n2, 1\n"),
		}
	case reflect.TypeFor[io.Writer]():
		return []candidate{typed("discard", t, func() any { return io.Discard }), typed("nil", t, func() any { return nil })}
	case reflect.TypeFor[image.Image]():
		return []candidate{
			typed("grey 4×4", t, func() any { return grey4() }),
			typed("nil", t, func() any { return nil }),
			typed("nil *Gray", t, func() any { return (*image.Gray)(nil) }),
			typed("empty", t, func() any { return image.NewGray(image.Rect(0, 0, 0, 0)) }),
			typed("uniform (bounds ±10⁹)", t, func() any { return image.NewUniform(color.Gray{Y: 9}) }),
		}
	case reflect.TypeFor[image.Rectangle]():
		return []candidate{
			of("2×2", func() image.Rectangle { return image.Rect(0, 0, 2, 2) }),
			of("empty", func() image.Rectangle { return image.Rectangle{} }),
			of("outside", func() image.Rectangle { return image.Rect(100, 100, 104, 104) }),
			of("2⁴⁰ wide", func() image.Rectangle { return image.Rect(0, 0, 1<<40, 2) }),
		}
	case reflect.TypeFor[[]byte]():
		return []candidate{
			of("JPEG 4×4", tinyJPEG), of("nil", func() []byte { return nil }),
			of("garbage", func() []byte { return []byte("\xff\xd8\xff garbage") }),
			of("16 bytes", func() []byte { return bytes.Repeat([]byte{7}, 16) }),
		}
	case reflect.TypeFor[func(string, int64, io.Reader) error]():
		return []candidate{
			of("read all", func() func(string, int64, io.Reader) error {
				return func(_ string, _ int64, r io.Reader) error { _, err := io.Copy(io.Discard, r); return err }
			}),
			of("nil", func() func(string, int64, io.Reader) error { return nil }),
		}
	case reflect.TypeFor[format.TUFiles]():
		edges := func() io.Reader { return strings.NewReader("1, 2\n2, 1\n") }
		return []candidate{
			of("two nodes", func() format.TUFiles {
				return format.TUFiles{A: edges(), GraphIndicator: strings.NewReader("1\n1\n"), GraphLabels: strings.NewReader("1\n")}
			}),
			of("zero", func() format.TUFiles { return format.TUFiles{} }),
			of("node 2⁴⁰", func() format.TUFiles {
				return format.TUFiles{A: strings.NewReader("1, 1099511627776\n"), GraphIndicator: strings.NewReader("1\n1\n"), GraphLabels: strings.NewReader("1\n")}
			}),
			of("graph 2⁴⁰", func() format.TUFiles {
				return format.TUFiles{A: edges(), GraphIndicator: strings.NewReader("1\n1099511627776\n"), GraphLabels: strings.NewReader("1\n")}
			}),
		}
	case reflect.TypeFor[dataset.LoadOption]():
		return []candidate{of("variant", func() dataset.LoadOption { return dataset.Variant("subset") }), of("nil", func() dataset.LoadOption { return nil })}
	case reflect.TypeFor[[]dataset.LoadOption]():
		return []candidate{
			of("none", func() []dataset.LoadOption { return nil }),
			of("nil option", func() []dataset.LoadOption { return []dataset.LoadOption{nil} }),
			of("unknown variant", func() []dataset.LoadOption { return []dataset.LoadOption{dataset.Variant("bogus")} }),
		}
	case reflect.TypeFor[run.Scale](), reflect.TypeFor[run.ClaimKind]():
		return []candidate{
			typed("smoke", t, func() any { return "smoke" }), typed("empty", t, func() any { return "" }),
			typed("Quick", t, func() any { return "Quick" }), typed("finding", t, func() any { return "finding" }),
			typed("bogus", t, func() any { return "bogus" }),
		}
	case reflect.TypeFor[*run.Experiment]():
		return []candidate{
			of("toy", toyExperiment), of("nil", func() *run.Experiment { return nil }),
			of("zero", func() *run.Experiment { return &run.Experiment{} }),
			of("plan error", func() *run.Experiment {
				e := toyExperiment()
				e.Plan = func(run.Scale) ([]run.Task, error) { return nil, errors.New("no plan") }
				return e
			}),
			of("task with nil Run", func() *run.Experiment {
				e := toyExperiment()
				e.Plan = func(run.Scale) ([]run.Task, error) { return []run.Task{{Key: "k"}}, nil }
				return e
			}),
			of("NaN record", func() *run.Experiment {
				e := toyExperiment()
				e.Plan = func(run.Scale) ([]run.Task, error) {
					return []run.Task{{Key: "k", Run: func(context.Context, *run.Env) ([]run.Record, error) {
						return []run.Record{{Dataset: "d", Method: "m", Metric: "err", Value: math.NaN()}}, nil
					}}}, nil
				}
				return e
			}),
			of("uses itself", func() *run.Experiment { e := toyExperiment(); e.Uses = e; return e }),
		}
	case reflect.TypeFor[[]*run.Experiment]():
		return []candidate{
			of("toy", func() []*run.Experiment { return []*run.Experiment{toyExperiment()} }),
			of("nil", func() []*run.Experiment { return nil }),
			of("a nil entry", func() []*run.Experiment { return []*run.Experiment{nil} }),
			of("twice the same ID", func() []*run.Experiment { return []*run.Experiment{toyExperiment(), toyExperiment()} }),
		}
	case reflect.TypeFor[[]run.Row]():
		row := func(rep int, v float64) run.Row {
			return run.Row{ID: "sweep_toy", Dataset: "d", Method: "m", Rep: rep, Metric: "err", Value: v}
		}
		return []candidate{
			of("three reps", func() []run.Row { return []run.Row{row(0, 1), row(1, 2), row(2, 3)} }),
			of("nil", func() []run.Row { return nil }),
			of("NaN", func() []run.Row { return []run.Row{row(0, math.NaN()), row(1, 2)} }),
			of("±MaxFloat64", func() []run.Row { return []run.Row{row(0, math.MaxFloat64), row(1, -math.MaxFloat64)} }),
			of("repeated rep", func() []run.Row { return []run.Row{row(0, 1), row(0, 2)} }),
		}
	case reflect.TypeFor[run.Options]():
		base := func() run.Options { return run.Options{Scale: run.Smoke, Dir: "results", Workers: 1} }
		with := func(label string, f func(*run.Options)) candidate {
			return of(label, func() run.Options { o := base(); f(&o); return o })
		}
		return []candidate{
			with("smoke", func(*run.Options) {}),
			of("zero", func() run.Options { return run.Options{} }),
			with("Workers 2⁴⁰", func(o *run.Options) { o.Workers = 1 << 40 }),
			with("Workers -1", func(o *run.Options) { o.Workers = -1 }),
			with("First -1", func(o *run.Options) { o.First = -1 }),
			with("First 2⁴⁰", func(o *run.Options) { o.First = 1 << 40 }),
			with("Shard 2⁴⁰/2⁴⁰", func(o *run.Options) { o.Shard = run.Shard{Index: 1 << 40, Count: 1 << 40} }),
			with("Shard 3/2", func(o *run.Options) { o.Shard = run.Shard{Index: 3, Count: 2} }),
			with("unknown key", func(o *run.Options) { o.Keys = []string{"no such task"} }),
			with("bogus scale", func(o *run.Options) { o.Scale = "bogus" }),
		}
	case reflect.TypeFor[*run.Results]():
		return []candidate{
			of("zero", func() *run.Results { return &run.Results{} }), of("nil", func() *run.Results { return nil }),
		}
	case reflect.TypeFor[*run.Env]():
		return []candidate{
			of("env", func() *run.Env { return &run.Env{Scale: run.Smoke} }), of("nil", func() *run.Env { return nil }),
		}
	case reflect.TypeFor[func() error]():
		return []candidate{
			of("no-op", func() func() error { return func() error { return nil } }),
			of("nil", func() func() error { return nil }),
			of("fails", func() func() error { return func() error { return errors.New("fails") } }),
		}
	case reflect.TypeFor[func() (int, error)]():
		return []candidate{
			of("loads 1", func() func() (int, error) { return func() (int, error) { return 1, nil } }),
			of("nil", func() func() (int, error) { return nil }),
			of("fails", func() func() (int, error) { return func() (int, error) { return 0, errors.New("fails") } }),
		}
	case reflect.TypeFor[[]run.ClaimResult]():
		return []candidate{
			of("one", func() []run.ClaimResult {
				return []run.ClaimResult{{Experiment: "e", ClaimID: "c", Text: "a claim", Status: "supported"}}
			}),
			of("nil", func() []run.ClaimResult { return nil }),
		}
	case reflect.TypeFor[dataframe.DataFrame]():
		return []candidate{
			of("2×2", func() dataframe.DataFrame {
				return dataframe.New(series.New([]float64{1, math.NaN()}, series.Float, "a"), series.New([]string{"x", "|y|"}, series.String, "b"))
			}),
			of("zero", func() dataframe.DataFrame { return dataframe.DataFrame{} }),
		}
	}
	return nil
}

// ioReceivers returns the io packages' types with exported methods, zero and built.
func ioReceivers(t *testing.T) []struct {
	name string
	recv any
} {
	spec, err := dataset.Lookup("kc1")
	if err != nil {
		t.Fatal(err)
	}
	registry, err := run.NewRegistry(toyExperiment())
	if err != nil {
		t.Fatal(err)
	}
	session, err := notebook.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	return []struct {
		name string
		recv any
	}{
		{"dataset.Source", dataset.Source{}}, {"offline dataset.Source", offline(t)},
		{"dataset.Spec", dataset.Spec{}}, {"built dataset.Spec", spec},
		{"dataset.Corpus", new(dataset.Corpus)}, {"dataset.Faces", new(dataset.Faces)},
		{"dataset.GraphSet", new(dataset.GraphSet)}, {"dataset.Table", new(dataset.Table)},
		{"dataset.Kind", dataset.Kind(9)}, {"dataset.Shape", dataset.Shape{}},

		{"format.ARFF", new(format.ARFF)}, {"format.IDX", new(format.IDX)}, {"format.Graph", format.Graph{}},
		{"format.ParseError", new(format.ParseError)}, {"format.TarWriter", new(format.TarWriter)},
		{"built format.TarWriter", format.NewTarWriter(io.Discard, time.Unix(0, 0))},

		{"run.Registry", new(run.Registry)}, {"built run.Registry", registry},
		{"run.Results", new(run.Results)}, {"built run.Results", toyResults(t)},
		{"run.Row", run.Row{}}, {"run.Param", run.Param{}}, {"run.Scale", run.Scale("bogus")},
		{"run.Shard", run.Shard{}}, {"run.Summary", run.Summary{}}, {"run.Task", run.Task{}},
		{"run.Claim", run.Claim{}}, {"run.ClaimResult", run.ClaimResult{}},
		{"run.Experiment", new(run.Experiment)}, {"built run.Experiment", toyExperiment()},
		{"run.Output", new(run.Output)}, {"run.Cache", new(run.Cache)}, {"run.Env", new(run.Env)},
		{"run.Kind", run.Kind(9)}, {"run.ClaimKind", run.ClaimKind("bogus")}, {"run.PerScale", run.PerScale[int]{}},
		{"run.OverallProgress", new(run.OverallProgress)},
		{"built run.OverallProgress", run.NewOverallProgress(io.Discard, run.Overview{}, run.OverallOptions{})},
		{"built terminal run.Progress", run.NewTerminalProgress(io.Discard)}, {"built silent run.Progress", run.SilentProgress()},

		{"notebook.Session", new(notebook.Session)}, {"built notebook.Session", session},
	}
}
