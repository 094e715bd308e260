package answer

import (
	"strings"
	"testing"
)

// TestClassNameHeadingNamesItsSection: a chunk packing a model page's short
// sections, each headed by its class's name in camel case, quotes a
// section's sentence with the class it describes, not as if the class above
// it were meant.
func TestClassNameHeadingNamesItsSection(t *testing.T) {
	t.Parallel()
	content := "Models\n\nTimeFramedModel\n\nAn abstract base class for any model that expresses a time-range.\n\n" +
		"TimeStampedModel\n\nThis abstract base class just provides self-updating created and modified fields on any model that inherits from it.\n\n" +
		"StatusModel\n\nPulls together StatusField and MonitorField into an abstract base class for any model with a status."
	srcs := []Source{{N: 1, Title: "Models", HeadingPath: "Models", Content: content,
		Titles: []string{"TimeFramedModel", "TimeStampedModel", "StatusModel"}}}
	r := Extractive("Is there a base class that gives my model created and modified fields?", srcs, 3)
	if !strings.Contains(r.Answer, "TimeStampedModel: This abstract base class just provides self-updating created and modified fields") {
		t.Errorf("answer does not name the class its quote describes:\n%s", r.Answer)
	}
	// A title in words stays a title: "Getting Started" names no class.
	if nameHeading("Getting Started") || !nameHeading("TimeStampedModel") || nameHeading("Models") || nameHeading("PostgreSQL") {
		t.Errorf("nameHeading: a class name in camel case is a name; a title, a single capitalised word or a name with a run of capitals is not")
	}
}
