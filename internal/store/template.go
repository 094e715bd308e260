package store

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/google/uuid"
)

// SQL templates fill what PostgreSQL cannot take as a bind parameter: a
// typmod (vector(<dims>)), a constant a partial index's predicate must match
// (model_id = <id>), an identifier in DDL (an index name). A template is SQL
// text with named placeholders, /* TEMPLATE: name */, as in river's
// sqlctemplate. A placeholder is replaced only by a TemplateValue, and a
// TemplateValue can only be an integer, a UUID literal or a validated
// identifier, never free text: nothing a caller passes can end a literal,
// start a comment or add a statement.

// ErrTemplate is returned by renderTemplate when the values do not match the
// template's placeholders, and by TemplateIdent for a name that is not a
// plain identifier.
var ErrTemplate = errors.New("store: SQL template")

// TemplateValue is what may replace a template placeholder; construct it with
// TemplateInt, TemplateUUID or TemplateIdent.
type TemplateValue struct {
	text string
}

// TemplateInt is the decimal integer n.
func TemplateInt(n int64) TemplateValue { return TemplateValue{strconv.FormatInt(n, 10)} }

// TemplateUUID is id as a quoted uuid literal ('…'::uuid).
func TemplateUUID(id uuid.UUID) TemplateValue { return TemplateValue{"'" + id.String() + "'::uuid"} }

// identRE is an unquoted PostgreSQL identifier of ragd's own names: lower-case
// ASCII letters, digits and underscores, not starting with a digit.
var identRE = regexp.MustCompile(`^[a-z_][a-z0-9_]*$`)

// TemplateIdent is name as a double-quoted identifier. Errors: ErrTemplate
// unless name is 1-63 characters of [a-z0-9_] not starting with a digit.
func TemplateIdent(name string) (TemplateValue, error) {
	if len(name) > 63 || !identRE.MatchString(name) {
		return TemplateValue{}, fmt.Errorf("%w: %q is not a plain identifier", ErrTemplate, name)
	}
	return TemplateValue{`"` + name + `"`}, nil
}

// placeholderRE matches a placeholder; its name is group 1.
var placeholderRE = regexp.MustCompile(`/\* TEMPLATE: ([a-z_][a-z0-9_]*) \*/`)

// renderTemplate replaces every placeholder of sql by its value, in one pass
// (a value is never searched for placeholders). Errors: ErrTemplate for a
// placeholder without a value, a value without a placeholder, or a zero
// TemplateValue.
func renderTemplate(sql string, values map[string]TemplateValue) (string, error) {
	used := make(map[string]bool, len(values))
	var missing []string
	out := placeholderRE.ReplaceAllStringFunc(sql, func(m string) string {
		name := placeholderRE.FindStringSubmatch(m)[1]
		v, ok := values[name]
		if !ok || v.text == "" {
			missing = append(missing, name)
			return m
		}
		used[name] = true
		return v.text
	})
	if len(missing) > 0 {
		return "", fmt.Errorf("%w: no value for %s", ErrTemplate, strings.Join(missing, ", "))
	}
	for name := range values {
		if !used[name] {
			return "", fmt.Errorf("%w: no placeholder %s", ErrTemplate, name)
		}
	}
	return out, nil
}
