// Package text turns raw documents into a bag of words: the documents×words count matrix of the
// student slides' topic model (experiment 2), with its vocabulary for the top-word
// tables (slides_table3).
//
// Tokenize follows scikit-learn's CountVectorizer defaults (lower-case, tokens of two or more
// word characters); Build removes stop words (scikit-learn's English list by default), keeps the
// words that occur in enough documents, and returns per-document sorted word IDs and counts,
// which satisfy learn.Documents and from which a compressed-row matrix is built without
// conversion. [FromCorpus] does the same for the lab's corpus loaders, after removing the markup
// that is not text (Usenet headers, HTML line breaks). Bad input gives an error, never a panic.
package text
