// Package chunk splits an extracted document (package extract) into chunks
// sized for embedding and full-text indexing, each with the heading path it
// sits under and its byte range in the document text.
//
// # Algorithm
//
//  1. Sections. Headings turn the flat block list into a tree: a section is a
//     heading plus every block up to the next heading of the same or a higher
//     level. The heading path of a block is the document title (when there is
//     one) followed by the texts of the headings it sits under, outermost
//     first; a heading whose text equals its parent's (DocBook repeats the
//     page title as the first heading) is not repeated.
//  2. Packing. A section whose whole subtree fits TargetTokens is one unit.
//     A larger section is split into its intro (heading plus the blocks before
//     its first subsection) and its subsections, recursively; then consecutive
//     units under the same parent are merged greedily while the sum stays
//     within TargetTokens. A unit that is only headings (a chapter heading
//     directly followed by a subsection) or smaller than MinTokens is merged
//     into the next unit whatever its size, so short sections do not become
//     tiny chunks. A unit within MaxTokens (and MaxChars) is one chunk.
//  3. Windows. A unit over MaxTokens (or MaxChars bytes) is cut into windows of
//     about TargetTokens made of atoms: whole headings, terms and captions
//     (each kept with the atom after it), whole code blocks, table rows, and
//     sentences of flowing text. A window prefers to end at a block boundary
//     (if that keeps at least half a target), completes a block it started
//     when that stays within MaxTokens, absorbs a remainder under MinTokens,
//     and when it must cut inside a block the next window repeats up to
//     OverlapTokens of that block's trailing sentences or code lines. Table
//     rows are never overlapped; instead a window that starts inside a table
//     is prefixed with the table's header row(s) and "\n" (Chunk.PrefixLen
//     says how many bytes of Content that is). Headers over a quarter of the
//     limits are not repeated.
//
// A chunk's HeadingPath is the common prefix of the heading paths of the
// non-heading blocks it holds: a chunk spanning two sibling sections gets
// their parent's path, and a chunk that starts with a section heading still
// gets that section's path. A definition's term and the blocks of its
// definition (extract.Block.Definition) have the term at the end of their
// path, so a chunk of one definition names what it defines.
// Chunk.Sections lists the heading paths of the sections a chunk's text
// lies in. A heading's own " > " is written " › " in a path, so " > "
// always separates headings.
//
// A chunk of a paged document (a PDF: extract.Document.Pages) records the
// pages of its first and last byte (Chunk.PageStart, Chunk.PageEnd), which
// search results and citations show; chunks pack across page breaks like
// any other block boundary.
//
// # Hard limits and the one place they override structure
//
// Every chunk is non-empty, at most MaxChars bytes and, for an additive
// counter such as the default word count, at most MaxTokens tokens. A code
// block is cut only when it alone exceeds MaxTokens or MaxChars, and then on
// line boundaries; a table row only when it alone exceeds the limits. A
// single line, row or sentence that alone exceeds them is cut between words,
// and a single "word" longer than MaxChars between runes: the limits win over
// structure because an oversized chunk cannot be embedded or indexed (a
// tsvector must stay well below 1 MB).
//
// Split is deterministic and linear in the size of the document.
package chunk
