package answer

import (
	"strings"
	"testing"
)

// pygresqlQuery is a Sphinx entry laid out as extraction writes it: the
// signature, then each field's label on its own line above its value
// ("Returns" above "result values as a list of dictionaries"), the
// "Raises" list, then the description (PyGreSQL's query.html, a held-out
// trial).
func pygresqlQuery() []Source {
	const head = "dictresult/dictiter – get query values as dictionaries"
	return []Source{{N: 1, Title: "Query methods", HeadingPath: "Query methods > " + head, Titles: []string{"Query methods", head},
		Content: head + "\n\nQuery.dictresult()\nGet query values as list of dictionaries\n\nReturns\nresult values as a list of dictionaries\n\nReturn type\nlist\n\n" +
			"Raises\n- TypeError – too many (any) parameters\n- MemoryError – internal memory error\n\n" +
			"This method returns query results as a list of dictionaries which have the field names as keys.\n\n" +
			"If the query has duplicate field names, you will get the value for the field with the highest index in the query.\n"}}
}

// TestEntryFieldsStayInTheEntry: a field's label above a value in lower
// case is the entry's field, in the entry's section: read as a caption,
// "Returns result values as a list of dictionaries" started a section of
// its own, which cut the description from the signature, and "This
// method returns …" was quoted after the last Raises item instead of
// under the method it refers to.
func TestEntryFieldsStayInTheEntry(t *testing.T) {
	t.Parallel()
	src := pygresqlQuery()
	us := parseTitledUnits(src[0].Content, src[0].HeadingPath, src[0].Titles)
	var sig, ret, desc *unit
	for i := range us {
		switch {
		case strings.HasPrefix(us[i].text, "Query.dictresult()"):
			sig = &us[i]
		case strings.HasPrefix(us[i].text, "Returns: result values"):
			ret = &us[i]
		case strings.HasPrefix(us[i].text, "This method returns"):
			desc = &us[i]
		}
	}
	if sig == nil || ret == nil || desc == nil {
		t.Fatalf("units %+v: want the signature, a \"Returns: result values …\" field and the description", us)
	}
	if ret.section != sig.section || desc.section != sig.section {
		t.Errorf("sections: signature %d, Returns field %d, description %d; want one", sig.section, ret.section, desc.section)
	}
	q := "Using the classic interface, how do I get query results as a list of dictionaries keyed by column name?"
	r := Extractive(q, src, 0)
	if !strings.Contains(r.Answer, "Query.dictresult()") || !strings.Contains(r.Answer, "This method returns query results") {
		t.Errorf("%s\nAnswer =\n%s\nwant the method with its description", q, r.Answer)
	}
	if strings.HasPrefix(r.Answer, "- MemoryError") || strings.HasPrefix(r.Answer, "Raises") {
		t.Errorf("%s\nAnswer =\n%s\nwant no opening at the Raises field", q, r.Answer)
	}
}

// TestRaisesFieldOpensNoPassage: an entry's "Raises" field, or an item of
// its list, opens a passage only for a question on errors; the prose after
// the fields is no part of the field's definition.
func TestRaisesFieldOpensNoPassage(t *testing.T) {
	t.Parallel()
	const head = "transaction – get the current transaction state"
	src := []Source{{N: 1, Title: "Connection", HeadingPath: "Connection > " + head, Titles: []string{"Connection", head},
		Content: head + "\n\nConnection.transaction()\nGet the current in-transaction status of the server\n\nReturns\nthe current in-transaction status\n\nReturn type\nint\n\n" +
			"Raises\n- TypeError – too many (any) arguments\n- TypeError – invalid connection\n\n" +
			"The status returned by this method can be TRANS_IDLE (currently idle), TRANS_ACTIVE (a command is in progress), TRANS_INTRANS (idle, in a valid transaction block), or TRANS_INERROR (idle, in a failed transaction block). TRANS_UNKNOWN is reported if the connection is bad.\n"}}
	q := "How do I find out whether my connection is idle or stuck inside a failed transaction block?"
	r := Extractive(q, src, 0)
	if !strings.Contains(r.Answer, "TRANS_INERROR") || strings.Contains(r.Answer, "invalid connection") {
		t.Errorf("%s\nAnswer =\n%s\nwant the states without the Raises items", q, r.Answer)
	}
	q = "Which exception does transaction() raise on an invalid connection?"
	if r := Extractive(q, src, 0); !strings.Contains(r.Answer, "TypeError") {
		t.Errorf("%s\nAnswer =\n%s\nwant the Raises item", q, r.Answer)
	}
	const notice = "get/set_notice_receiver – custom notice receiver"
	src = []Source{{N: 1, Title: "Connection", HeadingPath: "Connection > " + notice, Titles: []string{"Connection", notice},
		Content: notice + "\n\nConnection.set_notice_receiver(func)\nSet a custom notice receiver\n\nParameters\nfunc – the custom notice receiver callback function\n\nReturn type\nNone\n\n" +
			"Raises\nTypeError – the specified notice receiver is not callable\n\n" +
			"This method allows setting a custom notice receiver callback function. When a notice or warning message is received from the server, the specified notice receiver function will be called. This function must take one parameter, the Notice object, which provides the following read-only attributes:\n\n" +
			"Notice.pgcnx\nthe connection\n\nNotice.message\nthe full message with a trailing newline\n"}}
	q = "Can I capture server NOTICE and WARNING messages in my Python code with the classic pg module?"
	if r := Extractive(q, src, 0); strings.HasPrefix(r.Answer, "Raises") || !strings.Contains(r.Answer, "notice receiver") {
		t.Errorf("%s\nAnswer =\n%s\nwant the description, not opened by the Raises field", q, r.Answer)
	}
}
