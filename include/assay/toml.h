/**
 * @file toml.h
 * TOML documents as values (value.h), read as Python's tomllib reads them, through toml++
 * (Debian's libtomlplusplus, behind a small C++ shim). Spec: suite-format.md "Verifiers (built
 * in)" (`toml`); docs/verifiers.md ("yaml, toml, ini": TOML 1.0 as tomllib: dates and times
 * are values of their own, not strings; integers are 64-bit).
 *
 * What a document becomes: a table is an object whose members keep the order in which the
 * document first named their keys (tomllib's dict order); an array is an array; strings,
 * booleans and 64-bit integers are themselves; floats are reals (inf, -inf and nan included);
 * dates and times are datetimes (value.h) whose text is what Python's isoformat() prints for
 * tomllib's object: an offset date-time `1979-05-27T00:32:00.999999-07:00` (`Z` is `+00:00`,
 * fractional seconds cut to microseconds and left out when zero), a local date-time
 * `1979-05-27T07:32:00`, a local date `1979-05-27`, a local time `07:32:00`.
 *
 * Where toml++ and tomllib part (docs/decisions.md): an integer outside 64 bits and a float
 * literal beyond the double range (`1e400`) are errors here (tomllib makes a Python int and
 * inf); a key of more than ASSAY_TOML_MAX_KEY_PARTS dotted parts is refused, since toml++
 * recurses once per part.
 */
#ifndef ASSAY_TOML_H
#define ASSAY_TOML_H

#include "value.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The largest text read, bytes: toml++ needs up to ~35 times a text's size in memory, outside
 *  the arena (and so outside the verification budget). */
#define ASSAY_TOML_MAX_TEXT (12u * 1024 * 1024)

/** The most parts a dotted key or table header may have (`a.b.c` has 3). */
#define ASSAY_TOML_MAX_KEY_PARTS 128

/**
 * Parses `len` bytes of TOML `text` (UTF-8) into `*out`, an object, making the values in `a`.
 * @param out  receives the document (null on failure); its data lives in `a`
 * @param a    the arena the values are made in; its limit bounds the result
 * @param source NULL, or the name put in `err->path` (a file name, "output")
 * @return 0; ASSAY_EPARSE with `err` holding the 1-based line and column and toml++'s message
 *         ("Error while parsing key-value pair: cannot redefine existing integer 'a'"), or
 *         "a key of more than 128 parts"; ASSAY_ETOOBIG when `a` went past its limit or the
 *         text is longer than ASSAY_TOML_MAX_TEXT
 */
ASSAY_EXTERN int assay_toml_parse(assay_value *out, assay_arena *a, const char *text,
				  size_t len, const char *source, assay_err *err);

/**
 * Reads `len` bytes of `s` as one TOML date or time literal (`1979-05-27T07:32:00Z`,
 * `1979-05-27 07:32:00`, `1979-05-27`, `07:32:00.5`) into a datetime value with the text
 * described above, made in `a`. Used to compare a date written as text in a case file with
 * one read from TOML.
 * @return true and fills `out`, or false when `s` is not exactly one such literal
 */
ASSAY_EXTERN bool assay_toml_datetime(assay_value *out, assay_arena *a, const char *s,
				      size_t len);

#ifdef __cplusplus
}
#endif
#endif
