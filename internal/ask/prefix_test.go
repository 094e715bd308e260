package ask

import "testing"

func TestHeaderPrefix(t *testing.T) {
	t.Parallel()
	body := "2203E | too_many_json_object_members\n42P01 | undefined_table"
	for _, c := range []struct{ first, want string }{
		{"Error Code | Condition Name\n2203E | too_many_json_object_members", "Error Code | Condition Name\n"},
		{"2203E | too_many_json_object_members", ""},
		{"unrelated", ""},
		{"", ""},
	} {
		if got := headerPrefix(c.first, body); got != c.want {
			t.Errorf("headerPrefix(%q) = %q, want %q", c.first, got, c.want)
		}
	}
}
