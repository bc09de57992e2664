// Package datasets holds the project's data-set manifest: for every data set, its licence,
// citation, homepage, and for every file its upstream URL (or what it is derived from), its
// compression and its sha256. It lives at the top of the repository, next to the README that
// documents the data sets, so that the loaders (lab/dataset), the CLI and the docs share one
// manifest instead of copies that drift apart.
package datasets

import _ "embed"

// Manifest is the JSON text of manifest.json, embedded at build time so that a compiled binary
// can verify and download data without the source tree. Parse it with lab/dataset.Manifest,
// which validates it.
//
//go:embed manifest.json
var Manifest []byte
