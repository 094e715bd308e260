package api

import (
	"mime/multipart"
	"reflect"
	"slices"
	"strings"

	"github.com/danielgtaylor/huma/v2"
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
	var known, files []string
	rt := reflect.TypeFor[T]()
	fileType, filesType := reflect.TypeFor[huma.FormFile](), reflect.TypeFor[[]huma.FormFile]()
	for i := range rt.NumField() {
		f := rt.Field(i)
		if name, _, _ := strings.Cut(f.Tag.Get("form"), ","); name != "" {
			known = append(known, name)
			if f.Type == fileType || f.Type == filesType {
				files = append(files, name)
			}
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
		// A field sent as the wrong kind of part is read as absent by the
		// form's decoder: "access" sent as a file (-F access=@acl.json)
		// stored a restricted document tenant-wide, and "files" sent as a
		// value dropped a job's file.
		fileField := slices.Contains(files, name)
		if _, asFile := form.File[name]; asFile && !fileField {
			return invalidf("form field %q is a value, not a file (send it as -F %s=<value>, not @file)", name, name)
		}
		if _, asValue := form.Value[name]; asValue && fileField {
			return invalidf("form field %q is a file: send it as a file part (with a file name)", name)
		}
	}
	return nil
}
