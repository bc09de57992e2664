// Package dataset gets the project's public data sets ready for the lab's algorithms: it reads
// the manifest (datasets/manifest.json), takes each file from a local mirror or a cache or
// downloads it, checks its sha256, and loads it as a Table (gota DataFrame of features plus a
// target, or a gonum matrix for the vector image sets), a [GraphSet], a Faces matrix or a Corpus.
// Seeded helpers draw subsamples and (stratified) splits.
//
// Where files come from: Source.Mirror (a read-only folder <mirror>/<set>/<file>, e.g. the
// shared offline copy) wins; else Source.Cache; else the file's upstream URL is downloaded into
// the cache, atomically and verified. [DefaultSource] reads LAB_DATA_MIRROR and LAB_DATA_CACHE
// ([MirrorEnv], [CacheEnv]).
// Derived files (repacked archives, crops, partial Covertype) have no upstream copy and need a
// mirror; the error says what they were derived from.
//
// Every loader states its missing-value rule (only adult has missing values: its '?', found only
// in categorical columns, is kept as a category of its own and counted in Table.Notes) and checks
// every value: a number that does not parse or
// is not finite is an error naming the file and the row, never a NaN in the frame. Variants of
// a data set that leak the label (gamma and steel_plates "openml", the thesis's columns) say so
// in Table.Notes; their "uci" variants are the honest tasks. The file formats themselves are
// parsed by the sub-package format.
package dataset
