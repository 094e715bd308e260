package ingest

import (
	"maps"
	"path/filepath"
	"slices"
	"strings"
)

// Translations reports the languages a run's files are in by their names:
// documentation ships its translations beside the original, named by a
// language tag between dots (ch01.en.html beside ch01.de.html; a
// directory html.ru beside html), after an underscore (README_de.md
// beside README.md) or as a directory of its own (docs/en/ beside docs/de/,
// or de/ and ja/ beside the original's pages),
// and a user who ingests the whole package stores every language, each
// competing for the first results. Files count as translations of each
// other when their names differ only by such tags and one of them is the
// original (no tag) or English: "shipping.ca.md" beside "shipping.uk.md"
// are countries. tags are the languages found, sorted ("" for the
// original), example a translation's file and exclude a glob (relative to
// any PATH) that leaves its language out; nil when none.
func Translations(files []File) (tags []string, example, exclude string) {
	type variant struct {
		tag, path, glob string
	}
	groups := map[string][]variant{}
	for _, f := range files {
		parts := strings.Split(filepath.ToSlash(f.Path), "/")
		key, tag, glob := untagged(parts)
		if key == "" {
			key = strings.Join(parts, "/")
		}
		groups[key] = append(groups[key], variant{tag, f.Path, glob})
	}
	for _, k := range slices.Sorted(maps.Keys(groups)) {
		vs := groups[k]
		var ts []string
		for _, v := range vs {
			if !slices.Contains(ts, v.tag) {
				ts = append(ts, v.tag)
			}
		}
		if len(ts) < 2 || !slices.Contains(ts, "") && !slices.Contains(ts, "en") {
			continue
		}
		for _, v := range vs {
			if example == "" && v.tag != "" && v.tag != "en" {
				example, exclude = v.path, v.glob
			}
		}
		for _, t := range ts {
			if !slices.Contains(tags, t) {
				tags = append(tags, t)
			}
		}
	}
	if len(tags) < 2 || example == "" {
		return nil, "", ""
	}
	slices.Sort(tags)
	return tags, example, exclude
}

// untagged returns a path's parts with its language tag taken out (the
// key its translations share), the tag, and a glob matching its
// language's files; "" when it has none. The last tag found counts, the
// one nearest the file.
func untagged(parts []string) (key, tag, glob string) {
	for i := len(parts) - 1; i >= 0; i-- {
		part := parts[i]
		file := i == len(parts)-1
		rest := func(p string) string {
			out := slices.Clone(parts)
			out[i] = p
			return strings.Join(out, "/")
		}
		if !file && languageTag(strings.ToLower(part)) {
			// docs/de/guide.md beside docs/en/guide.md, or beside the
			// original's docs/guide.md
			return strings.Join(slices.Delete(slices.Clone(parts), i, i+1), "/"), strings.ToLower(part), "**/" + part
		}
		segs := strings.Split(part, ".")
		last := len(segs)
		if file {
			last-- // a file's extension is no tag
		}
		for j := last - 1; j >= 1; j-- {
			if t := strings.ToLower(segs[j]); languageTag(t) {
				// ch01.de.html, html.ru/index.html
				joined := strings.Join(append(slices.Clone(segs[:j]), segs[j+1:]...), ".")
				g := "*." + segs[j] + ".*"
				if !file {
					g = "**/" + part
				}
				return rest(joined), t, g
			}
		}
		if file && last >= 1 {
			// README_de.md
			stem := segs[0]
			if k := strings.LastIndexByte(stem, '_'); k > 0 && languageTag(strings.ToLower(stem[k+1:])) {
				segs[0] = stem[:k]
				return rest(strings.Join(segs, ".")), strings.ToLower(stem[k+1:]), "*_" + stem[k+1:] + ".*"
			}
		}
	}
	return "", "", ""
}

// languageTag reports an ISO 639-1 code of a language documentation is
// translated into, alone or with a region ("pt-br", "zh_tw", "es-419",
// "ptbr", "zhcn"). Two-letter words that name other things as often ("in",
// "is", "id", "el", "ms", "th", "no"; "ca" and "uk", countries; "hr", a
// department) are left out.
func languageTag(t string) bool {
	base := t
	switch {
	case len(t) >= 5 && len(t) <= 6 && (t[2] == '-' || t[2] == '_'):
		base = t[:2]
	case len(t) == 4 && regionless[t[:2]] && (t[2:] == "br" || t[2:] == "cn" || t[2:] == "tw" || t[2:] == "hk" || t[2:] == "pt"):
		base = t[:2]
	case t == "zh-hans" || t == "zh-hant" || t == "zh_hans" || t == "zh_hant":
		base = "zh"
	}
	return languageCodes[base]
}

// regionless are the languages whose region a name may glue to the code
// ("ptbr", "zhcn").
var regionless = map[string]bool{"pt": true, "zh": true}

var languageCodes = func() map[string]bool {
	m := map[string]bool{}
	for _, c := range strings.Fields("en de fr es it pt ja zh ko ru pl nl sv da fi nb nn cs sk hu ro tr bg sr sl et lv lt ar he fa hi vi eu gl ga cy eo") {
		m[c] = true
	}
	return m
}()
