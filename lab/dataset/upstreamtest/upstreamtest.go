// Package upstreamtest plays, in tests, the upstream servers the lab's data sets come from,
// using a local data mirror as the source of their content. A [dataset.Source] (or the lab CLI,
// through LAB_DATA_UPSTREAM) pointed at the double fetches https://host/path as
// <double>/host/path, so the download and recipe code runs as it does for a user with internet
// and no mirror.
//
// What it serves: every file of the manifest that has an upstream URL, as the mirror stores it
// (a file taken out of an upstream archive, like houses' cal_housing.data, inside an archive of
// that name); and for every data set built by a recipe, the upstream archive in the upstream's
// layout (other members mixed in, another member order, folder entries, a GitHub archive's top
// folder), re-packed from the mirror's copy of the data. Two things cannot be played from the
// mirror and answer 404 with the reason: covtype's full UCI file (the mirror holds 31,220 of its
// rows) and lfw_pairs' lfw-funneled.tgz (the mirror holds the crops, not the JPEGs).
package upstreamtest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/fastkernels/kernellab/lab/dataset"
)

// NewServer starts a double serving from mirror (laid out <mirror>/<set>/<file>) on 127.0.0.1.
// Archives are made on first request and kept in memory. The caller closes the server.
func NewServer(mirror string) (*httptest.Server, error) {
	h, err := NewHandler(mirror)
	if err != nil {
		return nil, err
	}
	return httptest.NewServer(h), nil
}

// Handler serves GET /<host>/<path> for the manifest's upstream addresses.
type Handler struct {
	routes map[string]route // "host/path" -> how to make it
	mu     sync.Mutex
	made   map[string][]byte
	// Requests counts the requests per "host/path", for tests that check what was downloaded.
	Requests map[string]int
}

type route struct {
	make    func() ([]byte, error)
	missing string // why the mirror cannot play this address
}

// NewHandler prepares the routes of every upstream address of the manifest.
func NewHandler(mirror string) (*Handler, error) {
	specs, err := dataset.Manifest()
	if err != nil {
		return nil, err
	}
	h := &Handler{routes: map[string]route{}, made: map[string][]byte{}, Requests: map[string]int{}}
	for _, spec := range specs {
		dir := filepath.Join(mirror, spec.Name)
		for _, f := range spec.Files {
			if f.URL == "" {
				continue
			}
			key, err := routeKey(f.URL)
			if err != nil {
				return nil, err
			}
			file := filepath.Join(dir, f.Name)
			switch {
			case f.Member != "":
				h.routes[key] = route{make: func() ([]byte, error) { return memberArchive(file, f) }}
			default:
				h.routes[key] = route{make: func() ([]byte, error) { return os.ReadFile(file) }}
			}
			if _, err := os.Stat(file); err != nil {
				h.routes[key] = route{missing: fmt.Sprintf("the mirror has no %s/%s", spec.Name, f.Name)}
			}
		}
		for _, u := range spec.Sources {
			key, err := routeKey(u.URL)
			if err != nil {
				return nil, err
			}
			layout, ok := layouts[spec.Name]
			if !ok {
				h.routes[key] = route{missing: fmt.Sprintf("%s cannot be re-made from the mirror's %s", u.Name, spec.Name)}
				continue
			}
			h.routes[key] = route{make: func() ([]byte, error) {
				members, err := layout(dir)
				if err != nil {
					return nil, err
				}
				return upstreamTarGz(members)
			}}
		}
	}
	return h, nil
}

func routeKey(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("upstreamtest: bad url %q", raw)
	}
	return u.Host + u.EscapedPath(), nil
}

// ServeHTTP answers GET /<host>/<path> with the content, its Content-Length set.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	key := strings.TrimPrefix(r.URL.EscapedPath(), "/")
	h.mu.Lock()
	defer h.mu.Unlock()
	h.Requests[key]++
	rt, ok := h.routes[key]
	switch {
	case !ok:
		http.Error(w, "upstreamtest: no upstream file at "+key, http.StatusNotFound)
		return
	case rt.missing != "":
		http.Error(w, "upstreamtest: "+rt.missing, http.StatusNotFound)
		return
	}
	data, ok := h.made[key]
	if !ok {
		var err error
		if data, err = rt.make(); err != nil {
			http.Error(w, "upstreamtest: "+err.Error(), http.StatusInternalServerError)
			return
		}
		h.made[key] = data
	}
	w.Header().Set("Content-Length", fmt.Sprint(len(data)))
	w.Write(data)
}

// memberArchive is a tar.gz holding the mirror's (decompressed) file f at f.Member, as the
// upstream archive at f.URL holds it.
func memberArchive(file string, f dataset.FileSpec) ([]byte, error) {
	data, err := readContent(file, f.Compression)
	if err != nil {
		return nil, err
	}
	return upstreamTarGz(members{f.Member: data})
}

func readContent(file, compression string) ([]byte, error) {
	raw, err := os.ReadFile(file)
	if err != nil || compression != "gzip" {
		return raw, err
	}
	gz, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(gz)
}

// members are the regular files of a tar archive by path.
type members map[string][]byte

// readTarGz reads the regular files of a tar.gz file.
func readTarGz(file string) (members, error) {
	raw, err := readContent(file, "gzip")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	m := members{}
	tr := tar.NewReader(bytes.NewReader(raw))
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return m, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		if hdr.Typeflag == tar.TypeReg {
			if m[hdr.Name], err = io.ReadAll(tr); err != nil {
				return nil, err
			}
		}
	}
}

// upstreamTarGz writes members as an upstream archive would: a PAX tar (archive/tar's default,
// not the canonical GNU layout of the mirror), in reverse byte order of the paths, a folder
// entry before each file, another mode and owner, gzip-compressed quickly.
func upstreamTarGz(m members) ([]byte, error) {
	paths := make([]string, 0, len(m))
	for p := range m {
		paths = append(paths, p)
	}
	sort.Sort(sort.Reverse(sort.StringSlice(paths)))
	var buf bytes.Buffer
	gz, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	tw := tar.NewWriter(gz)
	for _, p := range paths {
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: path.Dir(p) + "/", Mode: 0o755}); err != nil {
			return nil, err
		}
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: p, Mode: 0o664, Size: int64(len(m[p])), Uname: "upstream"}); err != nil {
			return nil, err
		}
		if _, err := tw.Write(m[p]); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := gz.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// layouts re-make each recipe's upstream archive from the mirror's folder of the data set.
var layouts = map[string]func(dir string) (members, error){
	"corpus_20newsgroups": func(dir string) (members, error) {
		return readTarGz(filepath.Join(dir, "20news-bydate.tar.gz"))
	},
	"corpus_imdb_reviews": func(dir string) (members, error) {
		m, err := readTarGz(filepath.Join(dir, "aclImdb_v1_labeled.tar.gz"))
		if err == nil { // what the real archive holds besides: unlabelled reviews, bag-of-words files
			m["aclImdb/train/unsup/0_0.txt"] = []byte("an unlabelled review")
			m["aclImdb/imdb.vocab"] = []byte("the\nand\n")
			m["aclImdb/train/labeledBow.feat"] = []byte("9 0:9\n")
		}
		return m, err
	},
	"faces_olivetti": func(dir string) (members, error) {
		orl, err := readTarGz(filepath.Join(dir, "orl_faces.tar.gz"))
		if err != nil {
			return nil, err
		}
		const top = "orl-face-recognition-pca-svm-3edc842bc89bddbd3d6bcf12d23a4f9c2a493883/"
		m := members{top + "README.md": []byte("# ORL faces"), top + "reconhecimento_face.py": []byte("pass\n")}
		for p, data := range orl {
			m[top+p] = data
		}
		return m, nil
	},
	"faces_lfw": func(dir string) (members, error) {
		const top = "Gender-Image-Classifier-9aaaad06efad7888c2d12b77c343a0ef1bea17bc/"
		m := members{ // a person with one image (dropped by the recipe) and a file outside lfw/
			top + "lfw/Zed_Single/Zed_Single_0001.jpg": []byte("one image only"),
			top + "male/Aaron_Peirsol_0001.jpg":        []byte("not in lfw/"),
		}
		for k := 1; k <= 4; k++ {
			part, err := readTarGz(filepath.Join(dir, fmt.Sprintf("lfw_gray250_min2_part%dof4.tar.gz", k)))
			if err != nil {
				return nil, err
			}
			for p, data := range part {
				m[top+"lfw/"+strings.TrimPrefix(p, "lfw_gray250/")] = data
			}
		}
		return m, nil
	},
}
