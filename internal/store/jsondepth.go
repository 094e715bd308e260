package store

// MaxJSONDepth bounds how deeply a document's metadata and a metadata filter
// nest. PostgreSQL's jsonb containment (@>) recurses through both values: a
// filter of about 9,000 nested arrays matched against metadata as deep ran
// out of stack (SQLSTATE 54001) and the search failed with a 500. Metadata
// is labels to filter on; 32 levels is far more than labels need.
const MaxJSONDepth = 32

// JSONDepth returns how deeply v (decoded JSON: maps, slices, scalars)
// nests: 0 for a scalar, 1 for an object of scalars. It stops counting past
// MaxJSONDepth, so a hostile value costs no more than the check needs.
func JSONDepth(v any) int { return jsonDepth(v, 0) }

func jsonDepth(v any, d int) int {
	if d > MaxJSONDepth {
		return d
	}
	deepest := d
	switch x := v.(type) {
	case map[string]any:
		deepest = d + 1
		for _, e := range x {
			deepest = max(deepest, jsonDepth(e, d+1))
		}
	case []any:
		deepest = d + 1
		for _, e := range x {
			deepest = max(deepest, jsonDepth(e, d+1))
		}
	}
	return deepest
}
