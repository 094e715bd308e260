// Package analyze derives the keyword leg's extra terms: text that ragd
// indexes next to PostgreSQL's own text-search parse of a chunk
// (chunks.keywords, part of the generated tsv column) and sends with a
// question, so that documents and questions are analysed alike whatever the
// tenant's text-search configuration.
//
// PostgreSQL's default parser has four blind spots that matter for retrieval:
//
//   - It splits words at "_", so "effective_io_concurrency" is indexed only
//     as effect, io, concurr. CompoundTerms adds the joined form
//     (effectiveioconcurrency), so an exact identifier also matches as one
//     rare term.
//   - It reads a dotted name (werkzeug.exceptions.NotFound, os.path) as a
//     host and a path (HTTP/1.1, TCP/IP, /etc/passwd) as a file: one
//     lexeme each, so the name alone ("NotFound", "HTTP") matched nothing
//     there. FusedParts adds a dotted name's last part and a path's parts;
//     a document also gets the leading names of its dotted names
//     (request.args of request.args.get), which a question naming the
//     object sends whole.
//   - It drops a URL's scheme with its "://" (redis://localhost, itpc://),
//     so a page that writes only the URL never had the scheme's word.
//     SchemeWords adds each scheme once to a document; a question sends
//     its schemes as alternatives (Alternates), never as required terms.
//   - It makes a run of letters one lexeme whatever the script, and Chinese
//     and Japanese put no spaces between words: every run of CJK characters
//     between punctuation, with any Latin letters glued to it, becomes one
//     lexeme ("PostgreSQL的连接池配置方法"), so no question ever matches it.
//     Keywords and Query add overlapping character bigrams of each CJK run
//     (连接 接池 池配 …; a run of one character stays a unigram), the way
//     Lucene's CJKBigramFilter and Elasticsearch's cjk analyzer index Han,
//     Hiragana, Katakana and Hangul, and separate the Latin and digit pieces
//     glued to the run (PostgreSQL, activity, GPT-4) so they are indexed as
//     words. PostgreSQL parses each bigram as a word and, in the english and
//     simple configurations alike, keeps it unchanged as a lexeme (no stemmer
//     or stop word touches CJK). Thai, Lao, Khmer and Myanmar are written
//     without spaces between words as well (spaces separate phrases) and are
//     bigrammed the same way (Unspaced); Lucene segments Thai with a
//     dictionary, which PostgreSQL does not have, and bigrams need none.
//
// In a document the raw run's lexeme stays in tsv next to its bigrams (the
// generated column parses the content as is); it costs one position per run
// and never matches, because a question's runs are replaced by their bigrams
// (Query), not sent as well: an absent query term would lower the keyword
// leg's idf-based confidence.
//
// Scripts measures which writing systems a text is written in, so a search
// can tell when its embedding model cannot represent the question.
//
// The package is a leaf: ingest and search both call it, and it imports
// nothing of ragd.
package analyze
