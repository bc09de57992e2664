package dataset

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/fastkernels/kernellab/datasets"
)

// FileSpec describes one file of a data set as the manifest lists it: the name it has in the
// mirror and the cache, where it comes from, and the checksum that identifies its content.
type FileSpec struct {
	Name         string // file name inside <mirror>/<set>/ and <cache>/<set>/
	URL          string // upstream HTTPS address of exactly this content (or of the archive holding it); "" when derived
	Member       string // path of the content inside the tar or tar.gz archive at URL; "" when URL is the file itself
	DerivedFrom  string // what a file without URL was made from
	Recipe       string // the recipe that builds a file without URL from the data set's Sources (see recipes)
	Compression  string // "gzip", "bzip2" or "": how the stored file is compressed
	SHA256       string // hex sha256 of the decompressed content; "" = not known (checked otherwise)
	StoredSHA256 string // hex sha256 of the compressed file as the mirror stores it, when known
	Optional     bool   // not read by the loaders (documentation, alternative copies)
}

// Spec describes one data set: what it is, its licence and citation, and its files.
type Spec struct {
	Name     string
	Title    string
	Task     string // "regression", "classification", "graphs", "images" or "corpus"
	Target   string // target or label column, in words
	Licence  string
	Citation string
	Homepage string
	Notes    string
	Files    []FileSpec
	Sources  []UpstreamSpec // upstream archives that recipes build files from
}

// UpstreamSpec is an upstream archive a recipe reads: the file is downloaded as it is served
// (never stored in the cache) and, when SHA256 is known, checked against it before use. A
// source without checksum (a GitHub archive of a commit, whose compressed bytes GitHub does not
// promise to keep) is trusted only through the checks of what the recipe builds from it.
type UpstreamSpec struct {
	Name   string // a name for messages and for the recipe to ask for it
	URL    string // HTTPS address
	SHA256 string // hex sha256 of the downloaded bytes; "" = not published
	Bytes  int64  // size, for messages and the README's estimates; 0 = not known
}

// Source returns the upstream archive called name, or an error naming the data set's sources.
func (s Spec) Source(name string) (UpstreamSpec, error) {
	names := make([]string, len(s.Sources))
	for i, u := range s.Sources {
		if u.Name == name {
			return u, nil
		}
		names[i] = u.Name
	}
	return UpstreamSpec{}, fmt.Errorf("dataset %s: no upstream source %q (sources: %s)", s.Name, name, strings.Join(names, ", "))
}

// File returns the file spec called file, or an error listing the data set's files.
func (s Spec) File(file string) (FileSpec, error) {
	names := make([]string, len(s.Files))
	for i, f := range s.Files {
		if f.Name == file {
			return f, nil
		}
		names[i] = f.Name
	}
	return FileSpec{}, fmt.Errorf("dataset %s: no file %q (files: %s)", s.Name, file, strings.Join(names, ", "))
}

type manifestJSON struct {
	Version  int `json:"version"`
	Datasets []struct {
		Name     string `json:"name"`
		Title    string `json:"title"`
		Task     string `json:"task"`
		Target   string `json:"target"`
		Licence  string `json:"licence"`
		Citation string `json:"citation"`
		Homepage string `json:"homepage"`
		Notes    string `json:"notes"`
		Files    []struct {
			Name         string `json:"name"`
			URL          string `json:"url"`
			Member       string `json:"member"`
			DerivedFrom  string `json:"derived_from"`
			Recipe       string `json:"recipe"`
			Compression  string `json:"compression"`
			SHA256       string `json:"sha256"`
			StoredSHA256 string `json:"stored_sha256"`
			Optional     bool   `json:"optional"`
		} `json:"files"`
		Sources []struct {
			Name   string `json:"name"`
			URL    string `json:"url"`
			SHA256 string `json:"sha256"`
			Bytes  int64  `json:"bytes"`
		} `json:"sources"`
	} `json:"datasets"`
}

var (
	manifestOnce  sync.Once
	manifestSpecs []Spec
	manifestErr   error
)

// Manifest returns every data set of the embedded manifest (datasets/manifest.json), sorted by
// name. It is parsed and validated once per process (unique names, known tasks and compressions,
// 64-digit hex checksums, HTTPS URLs, an upstream url or a registered recipe for every file the loaders need); callers get
// their own copy of the slice.
func Manifest() ([]Spec, error) {
	manifestOnce.Do(func() { manifestSpecs, manifestErr = parseManifest(datasets.Manifest) })
	if manifestErr != nil {
		return nil, manifestErr
	}
	out := make([]Spec, len(manifestSpecs))
	for i, s := range manifestSpecs {
		s.Files = append([]FileSpec(nil), s.Files...)
		out[i] = s
	}
	return out, nil
}

// Lookup returns the data set called name; for an unknown name the error lists the known ones.
func Lookup(name string) (Spec, error) {
	specs, err := Manifest()
	if err != nil {
		return Spec{}, err
	}
	names := make([]string, len(specs))
	for i, s := range specs {
		if s.Name == name {
			return s, nil
		}
		names[i] = s.Name
	}
	return Spec{}, fmt.Errorf("dataset: unknown data set %q (known: %s)", name, strings.Join(names, ", "))
}

var knownTasks = map[string]bool{"regression": true, "classification": true, "graphs": true, "images": true, "corpus": true}

func parseManifest(data []byte) ([]Spec, error) {
	var m manifestJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("dataset manifest: %w", err)
	}
	if m.Version != 1 {
		return nil, fmt.Errorf("dataset manifest: version %d, want 1", m.Version)
	}
	specs := make([]Spec, 0, len(m.Datasets))
	seen := map[string]bool{}
	for i, d := range m.Datasets {
		where := fmt.Sprintf("dataset manifest: entry %d (%q)", i, d.Name)
		if !validName(d.Name) {
			return nil, fmt.Errorf("%s: name must be non-empty and hold only a-z, 0-9, '_'", where)
		}
		if seen[d.Name] {
			return nil, fmt.Errorf("%s: duplicate name", where)
		}
		seen[d.Name] = true
		if !knownTasks[d.Task] {
			return nil, fmt.Errorf("%s: unknown task %q", where, d.Task)
		}
		if len(d.Files) == 0 {
			return nil, fmt.Errorf("%s: no files", where)
		}
		spec := Spec{Name: d.Name, Title: d.Title, Task: d.Task, Target: d.Target, Licence: d.Licence,
			Citation: d.Citation, Homepage: d.Homepage, Notes: d.Notes}
		files := map[string]bool{}
		for _, f := range d.Files {
			fs := FileSpec{Name: f.Name, URL: f.URL, Member: f.Member, DerivedFrom: f.DerivedFrom, Recipe: f.Recipe,
				Compression: f.Compression, SHA256: f.SHA256, StoredSHA256: f.StoredSHA256, Optional: f.Optional}
			if err := validateFile(fs); err != nil {
				return nil, fmt.Errorf("%s: %w", where, err)
			}
			if files[fs.Name] {
				return nil, fmt.Errorf("%s: duplicate file %q", where, fs.Name)
			}
			files[fs.Name] = true
			spec.Files = append(spec.Files, fs)
		}
		for _, u := range d.Sources {
			us := UpstreamSpec{Name: u.Name, URL: u.URL, SHA256: u.SHA256, Bytes: u.Bytes}
			if err := validateUpstream(us); err != nil {
				return nil, fmt.Errorf("%s: %w", where, err)
			}
			if _, err := spec.Source(us.Name); err == nil {
				return nil, fmt.Errorf("%s: duplicate source %q", where, us.Name)
			}
			spec.Sources = append(spec.Sources, us)
		}
		if err := checkRecipes(spec); err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		specs = append(specs, spec)
	}
	sort.Slice(specs, func(i, j int) bool { return specs[i].Name < specs[j].Name })
	return specs, nil
}

func validName(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return true
}

func validateFile(f FileSpec) error {
	if f.Name == "" || f.Name == "." || f.Name == ".." || strings.ContainsAny(f.Name, `/\`) {
		return fmt.Errorf("file %q: not a plain file name", f.Name)
	}
	switch f.Compression {
	case "", "gzip", "bzip2":
	default:
		return fmt.Errorf("file %s: unknown compression %q (want gzip, bzip2 or empty)", f.Name, f.Compression)
	}
	if f.SHA256 == "" && !f.Optional {
		return fmt.Errorf("file %s: a file the loaders need must have a sha256", f.Name)
	}
	if f.SHA256 != "" && !isHexSHA256(f.SHA256) {
		return fmt.Errorf("file %s: sha256 %q is not 64 lower-case hex digits", f.Name, f.SHA256)
	}
	if f.StoredSHA256 != "" {
		if f.Compression == "" {
			return fmt.Errorf("file %s: stored_sha256 is only for compressed files", f.Name)
		}
		if !isHexSHA256(f.StoredSHA256) {
			return fmt.Errorf("file %s: stored_sha256 %q is not 64 lower-case hex digits", f.Name, f.StoredSHA256)
		}
	}
	if f.URL == "" && f.DerivedFrom == "" {
		return fmt.Errorf("file %s: no url and no derived_from", f.Name)
	}
	if f.URL == "" && f.Recipe == "" && !f.Optional {
		return fmt.Errorf("file %s: a file the loaders need must have an upstream url or a recipe that builds it", f.Name)
	}
	if f.URL != "" && f.Recipe != "" {
		return fmt.Errorf("file %s: both an url and a recipe", f.Name)
	}
	if f.URL != "" && !strings.HasPrefix(f.URL, "https://") {
		return fmt.Errorf("file %s: url %q is not HTTPS", f.Name, f.URL)
	}
	if f.Member != "" && f.URL == "" {
		return fmt.Errorf("file %s: member %q without the url of its archive", f.Name, f.Member)
	}
	return nil
}

func validateUpstream(u UpstreamSpec) error {
	if u.Name == "" || strings.ContainsAny(u.Name, `/\`) {
		return fmt.Errorf("source %q: not a plain name", u.Name)
	}
	if !strings.HasPrefix(u.URL, "https://") {
		return fmt.Errorf("source %s: url %q is not HTTPS", u.Name, u.URL)
	}
	if u.SHA256 != "" && !isHexSHA256(u.SHA256) {
		return fmt.Errorf("source %s: sha256 %q is not 64 lower-case hex digits", u.Name, u.SHA256)
	}
	if u.Bytes < 0 {
		return fmt.Errorf("source %s: negative size", u.Name)
	}
	return nil
}

func isHexSHA256(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
			return false
		}
	}
	return true
}
