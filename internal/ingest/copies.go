package ingest

import (
	"crypto/sha256"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ragd-dev/ragd/internal/extract"
)

// An all-in-one copy is an HTML page that gathers the text of the pages
// beside it: the Node.js API documentation's all.html (2,280 of 4,625
// chunks of its tenant, in the first five sources of every question a
// trial asked, ahead of the module pages it repeats), mdBook's print.html.
// A directory's ingest leaves it out (a skipped line, and --include names
// it to ingest it), as it leaves out a Sphinx build's _sources/ copies.
//
// Only large pages found by walking a directory are looked at
// (copyCandidates; a file named on its own is the caller's request): a
// copy of several pages is a large share of the run's HTML, or several
// times the size of the run's median page and copyLargeBytes or more (the
// SQLite documentation's capi3ref.html, 627 KB, a copy of c3ref/'s pages;
// its changes.html of releaselog/'s), or has a generator's name for one
// (copyNames). A candidate is a copy when
// at least copyShare of its paragraphs of copyWords words or more are
// paragraphs of other pages of the run with at most half as many
// paragraphs (a copy gathers smaller pages; versions of one single-page
// manual, of a size, share their paragraphs and copy none), from at least
// copySources of them.
const (
	copyMinShareOfBytes = 0.2
	copyLargeBytes      = 64 << 10
	copyMedianTimes     = 4
	copyMinPages        = 4
	copyWords           = 8
	copyShare           = 0.8
	copySources         = 3
	copyMinParagraphs   = 20
	copyMaxBytes        = 64 << 20
)

// copyCandidates returns the indexes of the HTML files of files that may be
// all-in-one copies: found by walking (not named), at least
// copyMinShareOfBytes of the run's HTML bytes or named as one (copyNames),
// in a run of copyMinPages HTML pages or more.
func copyCandidates(files []File, named map[string]bool) (html []int, candidates []int) {
	sizes := make(map[int]int64)
	var total int64
	for i, f := range files {
		if !htmlFile(f) || extract.Gzipped(f.Path) {
			continue
		}
		st, err := os.Stat(f.Path)
		if err != nil || st.Size() > copyMaxBytes {
			continue
		}
		html = append(html, i)
		sizes[i] = st.Size()
		total += st.Size()
	}
	if len(html) < copyMinPages {
		return html, nil
	}
	bySize := make([]int64, 0, len(html))
	for _, i := range html {
		bySize = append(bySize, sizes[i])
	}
	slices.Sort(bySize)
	large := max(copyLargeBytes, copyMedianTimes*bySize[len(bySize)/2])
	for _, i := range html {
		if named[files[i].SourceURI] {
			continue
		}
		if float64(sizes[i]) >= copyMinShareOfBytes*float64(total) || sizes[i] >= large || copyNames[strings.ToLower(filepath.Base(files[i].Path))] {
			candidates = append(candidates, i)
		}
	}
	return html, candidates
}

// copyNames are the names documentation generators give their all-in-one
// page (mdBook's print.html, whose chapters each carry the book's sidebar,
// so that it is no large share of the bytes; Node.js's all.html): such a
// page is looked at whatever its size, and its paragraphs decide.
var copyNames = map[string]bool{"print.html": true, "all.html": true}

func htmlFile(f File) bool {
	ct := f.ContentType
	if ct == "" {
		ct, _ = extract.TypeFromPath(f.Path)
	}
	c, err := extract.CanonicalType(ct)
	return err == nil && c == extract.TypeHTML
}

// paragraphHashes returns the hashes of the paragraphs and list items of
// copyWords words or more of the HTML file at path, each once; nil when it
// cannot be read or extracted.
func paragraphHashes(path string) []uint64 {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	doc, err := extract.Extract(extract.TypeHTML, data)
	if err != nil {
		return nil
	}
	seen := map[uint64]bool{}
	var out []uint64
	for _, b := range doc.Blocks {
		if b.Kind != extract.KindParagraph && b.Kind != extract.KindListItem {
			continue
		}
		words := strings.Fields(strings.ToLower(doc.Text[b.Start:b.End]))
		if len(words) < copyWords {
			continue
		}
		h := fnv.New64a()
		h.Write([]byte(strings.Join(words, " ")))
		if v := h.Sum64(); !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// allInOneCopies returns, for each file of files that is an all-in-one
// copy of others of the run, the number of pages its paragraphs come from.
func allInOneCopies(files []File, named map[string]bool) map[int]int {
	html, candidates := copyCandidates(files, named)
	if len(candidates) == 0 {
		return nil
	}
	hashes := make(map[int][]uint64, len(html))
	where := map[uint64][]int{} // paragraph → the files holding it (a few)
	for _, i := range html {
		hs := paragraphHashes(files[i].Path)
		hashes[i] = hs
		for _, h := range hs {
			if len(where[h]) < 4 {
				where[h] = append(where[h], i)
			}
		}
	}
	out := map[int]int{}
	for _, c := range candidates {
		hs := hashes[c]
		if len(hs) < copyMinParagraphs {
			continue
		}
		shared := 0
		sources := map[int]bool{}
		for _, h := range hs {
			other := false
			for _, j := range where[h] {
				if j != c && 2*len(hashes[j]) <= len(hs) {
					other = true
					sources[j] = true
				}
			}
			if other {
				shared++
			}
		}
		if float64(shared) >= copyShare*float64(len(hs)) && len(sources) >= copySources {
			out[c] = len(sources)
		}
	}
	return out
}

// maxIdenticalBytes bounds what identicalCopies reads of one file.
const maxIdenticalBytes = 64 << 20

// identicalCopies returns, for each file of files whose content (as read:
// a gzipped file's decompressed bytes) is byte for byte that of another
// file of the same directory and type, the index of the one kept: the SQLite
// documentation ships changes.html and changelog.html.gz, fileformat.html
// and fileformat2.html, each pair taking two of a question's top ten with
// one text. Kept is a file named on its own, else one not gzipped, else
// the first by source_uri. Only one directory's files are compared: a
// page unchanged between two versions' trees (v1/, v2/) belongs to both.
func identicalCopies(files []File, named map[string]bool) map[int]int {
	byDir := map[[2]string][]int{}
	for i, f := range files {
		k := [2]string{filepath.Dir(f.Path), f.ContentType}
		byDir[k] = append(byDir[k], i)
	}
	out := map[int]int{}
	for _, idx := range byDir {
		if len(idx) < 2 {
			continue
		}
		groups := map[[sha256.Size]byte][]int{}
		for _, i := range idx {
			if sum, ok := contentSum(files[i].Path); ok {
				groups[sum] = append(groups[sum], i)
			}
		}
		for _, g := range groups {
			if len(g) < 2 {
				continue
			}
			keep := g[0]
			better := func(a, b int) bool { // a is kept rather than b
				fa, fb := files[a], files[b]
				if named[fa.SourceURI] != named[fb.SourceURI] {
					return named[fa.SourceURI]
				}
				if ga, gb := extract.Gzipped(fa.Path), extract.Gzipped(fb.Path); ga != gb {
					return gb
				}
				return fa.SourceURI < fb.SourceURI
			}
			for _, i := range g[1:] {
				if better(i, keep) {
					keep = i
				}
			}
			for _, i := range g {
				if i != keep && !named[files[i].SourceURI] {
					out[i] = keep
				}
			}
		}
	}
	return out
}

// contentSum is the SHA-256 of the file's content as ingest reads it
// (decompressed when gzipped); false when it cannot be read or is over
// maxIdenticalBytes.
func contentSum(path string) ([sha256.Size]byte, bool) {
	f, err := os.Open(path)
	if err != nil {
		return [sha256.Size]byte{}, false
	}
	defer f.Close()
	var data []byte
	if extract.Gzipped(path) {
		data, err = gunzip(f, filepath.Base(path), maxIdenticalBytes)
	} else {
		data, err = io.ReadAll(io.LimitReader(f, maxIdenticalBytes+1))
		if len(data) > maxIdenticalBytes {
			err = ErrTooLarge
		}
	}
	if err != nil {
		return [sha256.Size]byte{}, false
	}
	return sha256.Sum256(data), true
}
