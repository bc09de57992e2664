package dataset

import (
	"bufio"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/fastkernels/kernellab/lab/dataset/format"
	"github.com/fastkernels/kernellab/lab/safefile"
)

// A recipe builds files of a data set that no upstream serves as they are (a subset of an
// upstream archive, a canonical re-packing of it, images cropped as scikit-learn crops them)
// from the data set's upstream Sources, so that a user without the data mirror gets the same
// data. The manifest names the recipe of each such file; Source.ensure runs it when neither the
// mirror nor the cache holds the file.
//
// Every output is checked before it enters the cache. An output whose decompressed content has
// the manifest's sha256 is the mirror's file, byte for byte. An output listed in loose cannot
// be byte-identical (a JPEG decoder's rounding, an upstream README the mirror took from another
// copy): the recipe's build checks it against reference values with a stated tolerance and
// returns what it found, and that note is kept beside the file in the cache
// (<file>.recipe), with the file's sha256, so later runs know what they read.
type recipe struct {
	sources []string                                            // names of the data set's Sources it downloads
	outputs []string                                            // files it writes
	loose   map[string]bool                                     // outputs checked by build itself, not by sha256
	build   func(ctx context.Context, b *build) (string, error) // returns a note on the loose outputs
}

// recipes maps the manifest's recipe names to their recipes. It is filled in init because a
// recipe's build opens the data set's other files, which may run recipes: a cycle Go refuses in
// a variable's initialiser.
var recipes map[string]recipe

func init() {
	recipes = map[string]recipe{
		"20news-bydate":   recipe20News,
		"aclimdb-labeled": recipeIMDB,
		"orl-faces":       recipeORL,
		"lfw-gray250":     recipeLFWGray,
		"lfw-pairs":       recipeLFWPairs,
	}
}

// checkRecipes checks that every recipe a data set's files name exists, reads only sources the
// data set lists, and writes only files of the data set that name it.
func checkRecipes(spec Spec) error {
	for _, f := range spec.Files {
		if f.Recipe == "" {
			continue
		}
		r, ok := recipes[f.Recipe]
		if !ok {
			return fmt.Errorf("file %s: unknown recipe %q", f.Name, f.Recipe)
		}
		for _, src := range r.sources {
			if _, err := spec.Source(src); err != nil {
				return fmt.Errorf("file %s: recipe %s: %w", f.Name, f.Recipe, err)
			}
		}
		for _, out := range r.outputs {
			o, err := spec.File(out)
			if err != nil || o.Recipe != f.Recipe {
				return fmt.Errorf("file %s: recipe %s writes %s, which is not a file of %s made by that recipe", f.Name, f.Recipe, out, spec.Name)
			}
		}
	}
	return nil
}

// build is what a recipe's build function works with: the downloaded sources, the data set's
// other files, and a place to write its outputs.
type build struct {
	src     Source
	spec    Spec
	dir     string            // staging folder inside the cache, removed afterwards
	sources map[string]string // source name -> downloaded file
	written map[string]bool
}

// source opens the downloaded upstream archive called name, as it was served.
func (b *build) source(name string) (io.ReadCloser, error) {
	path, ok := b.sources[name]
	if !ok {
		return nil, fmt.Errorf("recipe asked for source %q, which it did not declare", name)
	}
	return os.Open(path)
}

// file opens another (verified, decompressed) file of the data set, fetching it when needed.
func (b *build) file(ctx context.Context, name string) (io.ReadCloser, error) {
	f, err := b.spec.File(name)
	if err != nil {
		return nil, err
	}
	return b.src.open(ctx, b.spec, f)
}

// create writes output name into the staging folder, compressed as the manifest stores it;
// write gets the uncompressed content's writer.
func (b *build) create(name string, write func(w io.Writer) error) error {
	f, err := b.spec.File(name)
	if err != nil {
		return err
	}
	b.written[name] = true
	return safefile.Write(filepath.Join(b.dir, name), func(w io.Writer) error {
		if f.Compression != "gzip" {
			return write(w)
		}
		gz := gzip.NewWriter(w) // the content is checked, not the compressed bytes
		if err := write(gz); err != nil {
			return err
		}
		return gz.Close()
	})
}

// runRecipe builds every output of the recipe that makes file f of spec into the cache. The
// sources are downloaded into a staging folder inside the cache, which is removed whatever
// happens: after an error, a mismatch or a cancellation the cache holds none of the outputs.
func (s Source) runRecipe(ctx context.Context, spec Spec, f FileSpec) error {
	r, ok := recipes[f.Recipe]
	if !ok {
		return fmt.Errorf("dataset %s: %s: unknown recipe %q", spec.Name, f.Name, f.Recipe)
	}
	if s.Cache == "" {
		return fmt.Errorf("dataset %s: %s is not in the mirror (%q) and no cache folder is set to build it into", spec.Name, f.Name, s.Mirror)
	}
	setDir := filepath.Join(s.Cache, spec.Name)
	unlock := lockDownload(filepath.Join(setDir, ".recipe-"+f.Recipe))
	defer unlock()
	if _, ok := s.localPath(spec.Name, f.Name); ok {
		return nil // another goroutine built it while this one waited
	}
	if err := os.MkdirAll(setDir, 0o755); err != nil {
		return fmt.Errorf("dataset %s: %w", spec.Name, err)
	}
	dir, err := os.MkdirTemp(setDir, ".recipe-"+f.Recipe+"-*")
	if err != nil {
		return fmt.Errorf("dataset %s: %w", spec.Name, err)
	}
	defer os.RemoveAll(dir)
	s.logf("dataset: building %s from upstream (recipe %s; %s)", strings.Join(r.outputs, ", "), f.Recipe, sourceSizes(spec, r.sources))
	b := &build{src: s, spec: spec, dir: dir, sources: map[string]string{}, written: map[string]bool{}}
	for _, name := range r.sources {
		u, _ := spec.Source(name) // checkRecipes vouches for it
		path := filepath.Join(dir, "source-"+name)
		if err := s.fetchUpstream(ctx, spec.Name, u, path); err != nil {
			return err
		}
		b.sources[name] = path
	}
	note, err := r.build(ctx, b)
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("dataset %s: recipe %s: %w", spec.Name, f.Recipe, ctx.Err())
		}
		return fmt.Errorf("dataset %s: recipe %s: %w", spec.Name, f.Recipe, err)
	}
	for _, out := range r.outputs {
		if !b.written[out] {
			return fmt.Errorf("dataset %s: recipe %s wrote no %s", spec.Name, f.Recipe, out)
		}
	}
	// Check every output before any of them enters the cache.
	sums := map[string]string{}
	for _, out := range r.outputs {
		o, _ := spec.File(out)
		file, err := os.Open(filepath.Join(dir, out))
		if err != nil {
			return fmt.Errorf("dataset %s: %w", spec.Name, err)
		}
		_, content, err := hashFile(ctx, file, o.Compression)
		file.Close()
		if err != nil {
			return fmt.Errorf("dataset %s: recipe %s: reading back %s: %w", spec.Name, f.Recipe, out, err)
		}
		switch {
		case content == o.SHA256:
		case r.loose[out]:
			sums[out] = content
		default:
			return fmt.Errorf("dataset %s: recipe %s built %s with sha256 %s, want %s: the upstream data differ from the reference copy (nothing was kept)",
				spec.Name, f.Recipe, out, content, o.SHA256)
		}
	}
	for _, out := range r.outputs {
		dest := filepath.Join(setDir, out)
		if sum, ok := sums[out]; ok {
			side := fmt.Sprintf("sha256 %s\nrecipe %s\n%s\n", sum, f.Recipe, strings.TrimSpace(note))
			if err := safefile.Write(dest+recipeNoteSuffix, func(w io.Writer) error {
				_, err := io.WriteString(w, side)
				return err
			}); err != nil {
				return fmt.Errorf("dataset %s: %w", spec.Name, err)
			}
		}
		if err := os.Rename(filepath.Join(dir, out), dest); err != nil {
			return fmt.Errorf("dataset %s: %w", spec.Name, err)
		}
		markVerified(dest)
	}
	if note != "" {
		s.logf("dataset: %s: %s", spec.Name, note)
	}
	return nil
}

// recipeNoteSuffix names the note a recipe keeps beside an output that is not byte-identical to
// the reference copy.
const recipeNoteSuffix = ".recipe"

// acceptedByRecipe reports whether path, whose decompressed content has sha256 content, is an
// output a recipe built and checked (its note in the cache names that sha256).
func acceptedByRecipe(path, content string) bool {
	note, err := os.ReadFile(path + recipeNoteSuffix)
	if err != nil {
		return false
	}
	first, _, _ := strings.Cut(string(note), "\n")
	return first == "sha256 "+content
}

// fetchUpstream downloads source u, as it is served, to path, checking its sha256 when known
// (and no stand-in upstream serves it).
func (s Source) fetchUpstream(ctx context.Context, set string, u UpstreamSpec, path string) error {
	return s.get(ctx, set, u.Name, u.URL, func(body *bufio.Reader) error {
		file, err := os.Create(path)
		if err != nil {
			return err
		}
		h := sha256.New()
		_, err = io.Copy(io.MultiWriter(file, h), body)
		if cerr := file.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
		// A stand-in upstream (Source.Upstream) may re-pack the archive: its outputs are checked.
		if got := hex.EncodeToString(h.Sum(nil)); u.SHA256 != "" && got != u.SHA256 && s.Upstream == "" {
			return fmt.Errorf("checksum mismatch: sha256 of the download is %s, want %s", got, u.SHA256)
		}
		return nil
	})
}

// sourceSizes says how much a recipe downloads, for its log line.
func sourceSizes(spec Spec, names []string) string {
	var total int64
	for _, n := range names {
		u, _ := spec.Source(n)
		if u.Bytes == 0 {
			return "downloads " + strings.Join(names, ", ")
		}
		total += u.Bytes
	}
	return fmt.Sprintf("downloads %s, %s", strings.Join(names, ", "), byteSize(total))
}

// tarMembers is a tar archive's regular files by path.
type tarMembers map[string][]byte

// sorted returns the member paths in byte order.
func (m tarMembers) sorted() []string {
	paths := make([]string, 0, len(m))
	for p := range m {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	return paths
}

// errMissing is wrapped by recipes when an upstream archive lacks a member they need.
var errMissing = errors.New("missing from the upstream archive")

// readTar reads the gzip-compressed tar source called name and keeps the regular files for
// which keep returns a path (their path in the output), checking ctx between members.
func (b *build) readTar(ctx context.Context, name string, keep func(path string) (string, bool)) (tarMembers, error) {
	rc, err := b.source(name)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	gz, err := gzip.NewReader(bufio.NewReaderSize(rc, 1<<16))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	members := tarMembers{}
	err = format.WalkTar(ctxReader{ctx: ctx, r: gz}, name, func(path string, _ int64, body io.Reader) error {
		out, ok := keep(path)
		if !ok {
			return nil
		}
		data, err := io.ReadAll(body)
		if err != nil {
			return err
		}
		members[out] = data
		return nil
	})
	if err != nil {
		return nil, err
	}
	return members, nil
}

// writeTar writes output name as a canonical tar (format.TarWriter) of members in the given
// order, all with modification time mtime.
func (b *build) writeTar(name string, mtime time.Time, members tarMembers, order []string) error {
	return b.create(name, func(w io.Writer) error {
		tw := format.NewTarWriter(w, mtime)
		for _, p := range order {
			if err := tw.Add(p, members[p]); err != nil {
				return err
			}
		}
		return tw.Close()
	})
}

// stripTop drops the first folder of a path (the <repo>-<commit>/ of a GitHub archive).
func stripTop(path string) string {
	_, rest, _ := strings.Cut(path, "/")
	return rest
}
