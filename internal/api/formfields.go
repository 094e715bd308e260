package api

import (
	"mime/multipart"
	"reflect"
	"slices"
	"strings"
)

// unknownFormField refuses a multipart form naming a field the form type T
// does not declare (its `form` tags). A JSON body's unknown fields are
// refused the same way; a form's were ignored, so a misspelt field did
// nothing silently, and "Access" for "access" stored a restricted document
// readable by every principal of the tenant.
func unknownFormField[T any](form *multipart.Form) error {
	if form == nil {
		return nil
	}
	var known []string
	rt := reflect.TypeFor[T]()
	for i := range rt.NumField() {
		if name, _, _ := strings.Cut(rt.Field(i).Tag.Get("form"), ","); name != "" {
			known = append(known, name)
		}
	}
	var names []string
	for name := range form.Value {
		names = append(names, name)
	}
	for name := range form.File {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if !slices.Contains(known, name) {
			return invalidf("unknown form field %q (the fields are %s)", name, strings.Join(known, ", "))
		}
	}
	return nil
}
