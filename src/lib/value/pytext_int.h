/*
 * Text as Python's str sees it, on UTF-8 bytes that may be invalid: case folding
 * (str.casefold), lower case (str.lower) and white space (str.isspace). Internal to the library
 * (never installed): the value module's, for the text verifiers and the INI reader.
 * Bytes that are not UTF-8 are never folded and never white space; they are kept as they are.
 */
#ifndef ASSAY_VALUE_PYTEXT_INT_H
#define ASSAY_VALUE_PYTEXT_INT_H

#include "assay/buf.h"

/*
 * Appends to `out` the `len` bytes at `s` case-folded as Python's str.casefold() folds them
 * (Unicode full case folding, C and F lines of CaseFolding.txt, no normalisation: ß -> ss,
 * ﬁ -> fi, İ -> i + U+0307, σ and ς -> σ). Each maximal valid UTF-8 character is folded on its
 * own (Python's casefold has no context); a byte that does not start a valid character is
 * appended as it is.
 */
void assay_pytext__casefold(assay_buf *out, const char *s, size_t len);

/*
 * Appends to `out` the `len` bytes at `s` lower-cased as Python's str.lower() does (the flexible
 * verifier: verification.md Pattern 1 calls .lower()): full lowercase mappings, no
 * normalisation, a capital sigma as σ or, at the end of a word (Final_Sigma), ς. Unlike
 * casefold, ß stays ß. Bytes that are not UTF-8 are kept as they are.
 */
void assay_pytext__lower(assay_buf *out, const char *s, size_t len);

/*
 * Maps an offset in assay_pytext__casefold(s, len)'s output back to `s`: the offset in `s` of
 * the character whose fold holds byte `folded` (the start of that character, so a position
 * inside the fold of ß maps to the ß), or `len` when `folded` is at or past the end.
 * Linear in `len`: for messages, not for loops.
 */
size_t assay_pytext__fold_origin(const char *s, size_t len, size_t folded);

/*
 * Bytes of the white-space character that starts at `s` (`len` bytes available), or 0 when
 * none does. White space is Python's str.isspace(): general category Zs or bidirectional class
 * WS, B or S, so \t \n \v \f \r \x1c-\x1f, space, U+0085, U+00A0, U+1680, U+2000-U+200A,
 * U+2028, U+2029, U+202F, U+205F and U+3000 (not U+200B, not U+180E).
 */
size_t assay_pytext__space(const char *s, size_t len);

/* Bytes of the white-space character that ends at `s + len`, or 0 (as assay_pytext__space). */
size_t assay_pytext__space_before(const char *s, size_t len);

#endif
