package cli

import (
	"bytes"
	"context"
	"flag"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
)

func testEnv() *env { return &env{stdout: io.Discard, stderr: io.Discard} }

// TestEvalForeignFlagIsUsageError: a flag of another eval action (or of no
// action) is a usage error, exit 2 with the action's usage, before anything
// is opened; `ragd eval sets --bm25 --judge` was once accepted silently.
func TestEvalForeignFlagIsUsageError(t *testing.T) {
	for _, c := range []struct{ action, flag string }{
		{"sets", "--bm25"}, {"sets", "--judge"}, {"load", "--top-k=5"}, {"run", "--bm25"}, {"run", "--judge"},
		{"compare", "--plot=x.svg"}, {"tune", "--vector-weight=1"}, {"tune", "--no-store"}, {"beir", "--set=x"},
		{"runs", "--judge"}, {"show", "--no-store"}, {"answers", "--workers=2"}, {"answers", "--plot=x.svg"}, {"load", "--nonsense"},
	} {
		var stderr bytes.Buffer
		code := Run(context.Background(), []string{"eval", c.action, "--tenant", "t", c.flag}, func(string) string { return "" },
			strings.NewReader(""), io.Discard, &stderr)
		if code != 2 || !strings.Contains(stderr.String(), "flag provided but not defined") ||
			!strings.Contains(stderr.String(), "Usage: ragd eval "+c.action) {
			t.Errorf("eval %s %s: exit %d, stderr %q; want 2 with the action's usage", c.action, c.flag, code, stderr.String())
		}
	}

	// Every flag some action defines is refused by each action that does not.
	all := map[string]string{} // flag → an action that defines it
	for _, a := range evalActions {
		fs, _, _ := evalFlags(testEnv(), a.name)
		fs.VisitAll(func(f *flag.Flag) { all[f.Name] = a.name })
	}
	for _, a := range evalActions {
		fs, _, _ := evalFlags(testEnv(), a.name)
		for name, owner := range all {
			if fs.Lookup(name) != nil {
				continue
			}
			fs, _, _ := evalFlags(testEnv(), a.name)
			if _, err := parse(fs, []string{"--" + name}); err == nil {
				t.Errorf("eval %s accepts --%s (a flag of eval %s)", a.name, name, owner)
			}
		}
	}
	if _, _, ok := evalFlags(testEnv(), "nonsense"); ok {
		t.Error("an unknown action has flags")
	}
}

// TestEvalDocumentedFlagsParse: every flag that the usage text, README.md
// or docs/EVAL.md shows for an eval action is one of that action's flags,
// and the documented concrete invocations parse as they stand.
func TestEvalDocumentedFlagsParse(t *testing.T) {
	invocation := regexp.MustCompile(`(?:^|ragd |\s)eval (load|run|compare|tune|beir|sets|runs|show|answers|signals|fit-answerability)\b([^` + "`" + `#\n]*)`)
	flagRe := regexp.MustCompile(`--[a-z][a-z0-9-]*`)
	check := func(where, text string) int {
		n := 0
		for _, m := range invocation.FindAllStringSubmatch(text, -1) {
			action, rest := m[1], m[2]
			if strings.HasPrefix(strings.TrimSpace(rest), "--tenant <slug> ...") {
				continue // the summary line of the usage text
			}
			fs, _, ok := evalFlags(testEnv(), action)
			if !ok {
				t.Errorf("%s: unknown action in %q", where, m[0])
				continue
			}
			for _, f := range flagRe.FindAllString(rest, -1) {
				n++
				if fs.Lookup(strings.TrimPrefix(f, "--")) == nil {
					t.Errorf("%s: eval %s documents %s, which it does not accept (%q)", where, action, f, strings.TrimSpace(m[0]))
				}
			}
			// A whole concrete command (not a synopsis with placeholders,
			// nor prose that wraps mid-command).
			if strings.Contains(rest, "--tenant ") && !strings.ContainsAny(rest, "[<|…") && !strings.Contains(rest, " N") {
				if _, err := parse(fs, strings.Fields(rest)); err != nil {
					t.Errorf("%s: %q does not parse: %v", where, strings.TrimSpace(m[0]), err)
				}
			}
		}
		return n
	}
	for _, a := range evalActions { // each usage entry, continuation lines included
		fs, _, _ := evalFlags(testEnv(), a.name)
		for _, f := range flagRe.FindAllString(a.usage, -1) {
			if fs.Lookup(strings.TrimPrefix(f, "--")) == nil {
				t.Errorf("the usage of eval %s shows %s, which it does not accept", a.name, f)
			}
		}
		fs.VisitAll(func(f *flag.Flag) {
			whatIf := strings.HasPrefix(f.Usage, "what-if:") && strings.Contains(a.usage, "what-if settings")
			if !whatIf && !strings.Contains(a.usage, "--"+f.Name) {
				t.Errorf("the usage of eval %s does not show its flag --%s", a.name, f.Name)
			}
		})
	}
	for _, path := range []string{"../../README.md", "../../docs/EVAL.md"} {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if n := check(path, string(b)); path == "../../docs/EVAL.md" && n < 20 {
			t.Errorf("%s shows %d eval flags; the pattern no longer finds them", path, n)
		}
	}
}
