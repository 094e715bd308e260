package ingest

import (
	"path/filepath"
	"slices"
	"strings"
)

// Translations reports the languages a run's files are in by their names:
// documentation ships its translations beside the original, each named by
// a language tag between dots (ch01.en.html, ch01.de.html; a directory
// html.ru beside html.ptbr), and a user who ingests the whole package
// stores every language, each as a source that competes for the first
// results. A tag counts when the same name with another tag in its place
// is among the files too (parallel names: "config.de.html" alone is no
// translation). tags are the languages found (sorted), example two files
// that are translations of each other; nil when fewer than two languages.
func Translations(files []File) (tags []string, example [2]string) {
	type seen struct {
		tags  []string
		paths []string
	}
	byName := map[string]*seen{}
	for _, f := range files {
		parts := strings.Split(filepath.ToSlash(f.Path), "/")
		for i, part := range parts {
			segs := strings.Split(part, ".")
			last := len(segs)
			if i == len(parts)-1 {
				last-- // a file's extension is no tag
			}
			for j := 1; j < last; j++ {
				tag := strings.ToLower(segs[j])
				if !languageTag(tag) {
					continue
				}
				key := strings.Join(parts[:i], "/") + "/" + strings.Join(segs[:j], ".") + ".\x00." + strings.Join(segs[j+1:], ".") + "/" + strings.Join(parts[i+1:], "/")
				s := byName[key]
				if s == nil {
					s = &seen{}
					byName[key] = s
				}
				if !slices.Contains(s.tags, tag) {
					s.tags = append(s.tags, tag)
					s.paths = append(s.paths, f.Path)
				}
			}
		}
	}
	keys := make([]string, 0, len(byName))
	for k := range byName {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		s := byName[k]
		if len(s.tags) < 2 {
			continue
		}
		if example[0] == "" {
			example = [2]string{s.paths[0], s.paths[1]}
		}
		for _, t := range s.tags {
			if !slices.Contains(tags, t) {
				tags = append(tags, t)
			}
		}
	}
	if len(tags) < 2 {
		return nil, [2]string{}
	}
	slices.Sort(tags)
	return tags, example
}

// languageTag reports an ISO 639-1 code of a language documentation is
// translated into, alone or with a region ("pt-br", "zh_tw", "ptbr",
// "zhcn"). Two-letter words that name other things as often ("in", "is",
// "id", "el", "ms", "th", "no") are left out.
func languageTag(t string) bool {
	base := t
	switch {
	case len(t) == 5 && (t[2] == '-' || t[2] == '_'):
		base = t[:2]
	case len(t) == 4 && regionless[t[:2]] && (t[2:] == "br" || t[2:] == "cn" || t[2:] == "tw" || t[2:] == "hk" || t[2:] == "pt"):
		base = t[:2]
	case len(t) == 7 && (t == "zh-hans" || t == "zh-hant" || t == "zh_hans" || t == "zh_hant"):
		base = "zh"
	}
	return languageCodes[base]
}

// regionless are the languages whose region a name may glue to the code
// ("ptbr", "zhcn").
var regionless = map[string]bool{"pt": true, "zh": true}

var languageCodes = func() map[string]bool {
	m := map[string]bool{}
	for _, c := range strings.Fields("en de fr es it pt ja zh ko ru pl nl sv da fi nb nn cs sk hu ro tr uk bg hr sr sl et lv lt ar he fa hi vi ca eu gl ga cy eo") {
		m[c] = true
	}
	return m
}()
