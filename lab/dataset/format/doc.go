// Package format holds pure parsers for every file format in the project's data mirror: ARFF
// (Weka), delimited text that gota cannot read (whitespace-separated columns, ", " separators),
// LIBSVM / svmlight, IDX (MNIST), the TU-Dortmund graph format, Netpbm PGM, tar archives, and
// the conversions from decoded images to the float vectors the experiments use.
//
// Every parser reads from an io.Reader that is already decompressed and takes the file's name,
// which it uses only in error messages. The parsers never open files, never download and never
// panic on bad input: malformed input returns a *[ParseError] that says where ("name:line: what"
// for text, "name: offset N: what" for binary formats) and what is wrong. Sizes announced by
// headers (IDX dimensions, PGM width and height) are capped and never trusted for allocation,
// so a corrupt or hostile header cannot make a parser allocate gigabytes.
//
// Loading, checksums, caching and the mapping from data set names to files live in the parent
// package lab/dataset; this package only turns bytes into values.
package format
