package analyze

import "testing"

func TestFusedParts(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"exception werkzeug.exceptions.RequestEntityTooLarge(description=None)", "RequestEntityTooLarge"},
		{"It speaks HTTP/1.1 over TCP/IP.", "HTTP IP TCP"},
		{"secure_filename(\"../../../etc/passwd\") returns 'etc_passwd'", "passwd etc"},
		{"Edit pg_hba.conf, then call os.path.join().", "pg_hba join"},
		{"Vue.js and settings.py", "Vue settings"},
		{"The end.Next sentence", "Next"},
		// Not fused: numbers, sentence ends, single letters, URLs, mail,
		// times, CJK.
		{"Python 3.13 is out. See e.g. I/O and and/or.", "or and"},
		{"https://docs.python.org/3/library/os.html user@example.com 12:30", ""},
		{"配置.文件", ""},
	} {
		if got := FusedParts(tc.text); got != tc.want {
			t.Errorf("FusedParts(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}
