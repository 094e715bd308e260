package answer

import (
	"strings"
	"testing"
)

// TestAutodocBasesIsNoDefinition: Sphinx autodoc's "Bases: Exception"
// under a class's signature is not what the class is; the description
// after it is the definition the class's entry opens with ("class
// LoopExit: Bases: Exception" was the whole answer to what LoopExit means).
func TestAutodocBasesIsNoDefinition(t *testing.T) {
	t.Parallel()
	src := Source{N: 1, Title: "hub", HeadingPath: "hub > Exceptions",
		Content: "Exceptions\n\nclass LoopExit\nBases: Exception\n\nException thrown when the hub finishes running.\n\n" +
			"In a normal application, this is never thrown or caught explicitly.\n\nproperty hub\nThe hub that raised the error."}
	r := Extractive("What does a LoopExit exception mean?", []Source{src}, 2)
	if !strings.Contains(r.Answer, "class LoopExit: Exception thrown when the hub finishes running") {
		t.Errorf("answer %q: want the class's description as its definition", r.Answer)
	}
	if strings.Contains(r.Answer, "Bases:") {
		t.Errorf("answer %q: quotes the base classes as the definition", r.Answer)
	}
}

// TestBesideQuotedInsideTheEntry: when the passage opens a definition
// entry, a later sentence of the same entry holding a question term the
// passage lacks is quoted beside it even though the head's evidence,
// credited for the defined term, is more than twice its own; it is quoted
// from after the passage, not with the entry's head again. A sentence of
// the next entry is not.
func TestBesideQuotedInsideTheEntry(t *testing.T) {
	t.Parallel()
	src := Source{N: 1, Title: "hub", HeadingPath: "hub > Exceptions",
		Content: "Exceptions\n\nclass LoopExit\nBases: Exception\n\nException thrown when the hub finishes running.\n\n" +
			"In a normal application, this is never thrown or caught explicitly.\n\n" +
			"Errors in application programming can also lead to this exception being raised.\n\n" +
			"class BlockingSwitchOutError\nBases: AssertionError\n\nRaised when a blocking function is called from a callback. Such a mistake is caught in tests.\n\n" +
			"property loop\nThe event loop the hub runs. It is created on first use.\n\n" +
			"property threadpool\nThe pool of native threads. Its size is set by the configuration."}
	r := Extractive("What does a LoopExit exception mean and what kinds of programming mistakes can cause it?", []Source{src}, 2)
	if !strings.Contains(r.Answer, "class LoopExit: Exception thrown when the hub finishes running") {
		t.Fatalf("answer %q: want LoopExit's entry", r.Answer)
	}
	if !strings.Contains(r.Answer, "Errors in application programming can also lead to this exception being raised [1].") {
		t.Errorf("answer %q: want the entry's sentence on programming errors beside the passage", r.Answer)
	}
	if strings.Count(r.Answer, "class LoopExit") != 1 {
		t.Errorf("answer %q: quotes the entry's head twice", r.Answer)
	}
	if strings.Contains(r.Answer, "BlockingSwitchOutError") || strings.Contains(r.Answer, "Such a mistake") {
		t.Errorf("answer %q: quotes the next entry", r.Answer)
	}
}

// TestAutodocBasesOfAClassWithoutDescription: a class whose entry is only
// its signature and "Bases: …" keeps that line as its definition, and does
// not take the next entry's description (ldap's ADMINLIMIT_EXCEEDED was
// answered with ALIAS_DEREF_PROBLEM's); the base of a described class is
// still quoted for a question on it.
func TestAutodocBasesOfAClassWithoutDescription(t *testing.T) {
	t.Parallel()
	src := Source{N: 1, Title: "ldap", HeadingPath: "ldap > Exceptions",
		Content: "Exceptions\n\nexception ldap.ADMINLIMIT_EXCEEDED\nBases: LDAPError\n\nexception ldap.AFFECTS_MULTIPLE_DSAS\nBases: LDAPError\n\n" +
			"exception ldap.ALIAS_DEREF_PROBLEM\nBases: LDAPError\n\nA problem was encountered when dereferencing an alias."}
	r := Extractive("What is ADMINLIMIT_EXCEEDED?", []Source{src}, 2)
	if !strings.Contains(r.Answer, "ADMINLIMIT_EXCEEDED") || strings.Contains(r.Answer, "dereferencing an alias") {
		t.Errorf("answer %q: want ADMINLIMIT_EXCEEDED's own entry, not the next one's description", r.Answer)
	}
	r = Extractive("What is the base class of ALIAS_DEREF_PROBLEM?", []Source{src}, 2)
	if !strings.Contains(r.Answer, "Bases: LDAPError") {
		t.Errorf("answer %q: want the base class named", r.Answer)
	}
}

// TestBesideEntryEndsAtAnyHead: the entry a passage opens ends at the next
// entry's head even when its term defines no word (a method named by a
// common word, "get(key)"): another method's return value is not quoted
// for the first method at the entry's lower share.
func TestBesideEntryEndsAtAnyHead(t *testing.T) {
	t.Parallel()
	src := Source{N: 1, Title: "Cache", HeadingPath: "Cache > Cache clients",
		Content: "Cache clients\n\nclass MinimalClientInterface\nThe interface a cache client implements.\n\n" +
			"set(key, value[, timeout])\nStores the bytecode in the cache. value is a string and timeout the timeout of the key. " +
			"If timeout is not provided a default timeout or no timeout should be assumed. " +
			"If it is provided it is an integer with the number of seconds the cache item should exist.\n\n" +
			"get(key)\nReturns the value for the cache key. If the item does not exist in the cache the return value must be None."}
	r := Extractive("What does set() do, and what does it return?", []Source{src}, 2)
	if !strings.Contains(r.Answer, "Stores the bytecode in the cache") {
		t.Fatalf("answer %q: want set's entry", r.Answer)
	}
	if strings.Contains(r.Answer, "Returns the value for the cache key") {
		t.Errorf("answer %q: quotes get's entry as set's", r.Answer)
	}
}
