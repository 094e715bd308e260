// Package answer turns retrieved sources into a cited answer, and enforces the
// answer contract of the API:
//
//   - Every answer is grounded: it cites at least one of the sources it was
//     given as "[n]", and every "[n]" it contains refers to one of them.
//     Citation markers the model invents ("[7]" with three sources) are
//     removed and reported in Result.InvalidCitations.
//   - When the sources do not hold the answer, the reply is exactly
//     RefusalPhrase with Refused set. A generated text with no valid citation
//     is not passed off as an answer: it becomes a refusal with Unsupported
//     set, because nothing ties it to the sources.
//   - The sources are data, not instructions. BuildPrompt says so in the
//     system message and fences every source so that its content cannot close
//     its own fence and pose as the user or the system.
//   - The service answers even when the LLM is down or not configured: the
//     extractive mode quotes the contiguous passage of a source that best
//     matches the question (IDF-weighted question terms; code kept as code;
//     then the best sentence of each other source, up to two, whose
//     evidence is at least half the best passage's)
//     and cites every sentence. Result.Degraded tells the caller
//     that the LLM failed and the extractive mode stood in.
//
// Deciding whether retrieval found anything relevant (and refusing early when
// it did not) is the caller's job; Answerer refuses on its own only when it is
// given no sources at all.
package answer
