package ingest

import "strconv"

// LoneSurrogate reports whether a JSON text escapes half of a UTF-16
// surrogate pair alone ("\ud800", "\udc01"). encoding/json reads it as
// U+FFFD, as it does invalid UTF-8: "a\ud800b.md" and "a\udc01b.md" were
// stored as one source_uri, the second write replacing the first. A
// backslash is only ever inside a string in JSON, so the escapes are read
// without tracking strings; an escaped backslash ("\\u") escapes nothing.
func LoneSurrogate(body []byte) bool {
	hex4 := func(i int) (int, bool) {
		if i+6 > len(body) || body[i] != '\\' || body[i+1] != 'u' {
			return 0, false
		}
		v, err := strconv.ParseUint(string(body[i+2:i+6]), 16, 16)
		return int(v), err == nil
	}
	for i := 0; i < len(body); i++ {
		if body[i] != '\\' {
			continue
		}
		v, ok := hex4(i)
		if !ok {
			i++ // another escape: skip the escaped byte
			continue
		}
		switch {
		case v >= 0xD800 && v <= 0xDBFF:
			if low, ok := hex4(i + 6); ok && low >= 0xDC00 && low <= 0xDFFF {
				i += 11
				continue
			}
			return true
		case v >= 0xDC00 && v <= 0xDFFF:
			return true
		}
		i += 5
	}
	return false
}
