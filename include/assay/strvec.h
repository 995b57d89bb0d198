/**
 * @file strvec.h
 * A NULL-terminated array of strings (git's strvec): argv and environment lists.
 * Pushes copy their argument; the vector owns every string. `v` is never NULL.
 * Spec: docs/architecture.md ("Ownership rules": caller-allocated structs).
 */
#ifndef ASSAY_STRVEC_H
#define ASSAY_STRVEC_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct assay_strvec {
	char **v;
	size_t nr;
	size_t alloc;
} assay_strvec;

ASSAY_EXTERN extern char *assay_strvec__empty[];
#define ASSAY_STRVEC_INIT { assay_strvec__empty, 0, 0 }

/** Sets `sv` up empty (as ASSAY_STRVEC_INIT); it owns nothing yet. */
ASSAY_EXTERN void assay_strvec_init(assay_strvec *sv);
/** Appends a copy of `s`. */
ASSAY_EXTERN void assay_strvec_push(assay_strvec *sv, const char *s);
/** Appends `s` itself: the vector takes ownership (it must be malloc'd). */
ASSAY_EXTERN void assay_strvec_push_nodup(assay_strvec *sv, char *s);
/** Appends a printf-formatted string. */
ASSAY_EXTERN void assay_strvec_pushf(assay_strvec *sv, const char *fmt, ...) ASSAY_PRINTF(2, 3);
/** Appends copies of every string of `other`. */
ASSAY_EXTERN void assay_strvec_pushv(assay_strvec *sv, const char *const *other);
/** Frees every string and returns `sv` to ASSAY_STRVEC_INIT. */
ASSAY_EXTERN void assay_strvec_clear(assay_strvec *sv);

#ifdef __cplusplus
}
#endif
#endif
