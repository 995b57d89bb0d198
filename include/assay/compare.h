/**
 * @file compare.h
 * Comparing two runs of the same suite (A before, B after): the cases that newly fail and newly
 * pass, per-case deltas of score, time and peak memory, an exact McNemar test on the pass/fail
 * flips and paired bootstrap confidence intervals for the mean differences (stats.h), and a
 * verdict: is B significantly worse?
 * Spec: docs/reports.md ("Comparing runs: assay compare"); docs/statistics.md explains the
 * statistics and their sources.
 *
 * Cases are paired by checkpoint, group and id. Each run is a results folder or a reports.jsonl
 * file (render.h: assay_report_each_line). Memory: a few dozen bytes per case of A (the pairs
 * the statistics need), never the report lines.
 */
#ifndef ASSAY_COMPARE_H
#define ASSAY_COMPARE_H

#include <stdint.h>

#include "stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Options; start from ASSAY_COMPARE_OPTS_INIT. Zero fields take their defaults. */
typedef struct assay_compare_opts {
	int version;        /**< ASSAY_COMPARE_OPTS_VERSION */
	double alpha;       /**< significance level in (0, 0.5); 0: 0.05 */
	size_t resamples;   /**< bootstrap resamples; 0: 5000 */
	uint64_t seed;      /**< the bootstrap's seed (the same seed, the same intervals) */
	size_t min_pairs;   /**< fewer paired cases than this and no verdict is given (`worse`
			         stays false, `judged` false); 0: ASSAY_COMPARE_MIN_PAIRS */
} assay_compare_opts;

/* 2 added min_pairs; a version 1 struct (without it) is still read, with the default */
#define ASSAY_COMPARE_OPTS_VERSION 2
#define ASSAY_COMPARE_MIN_PAIRS 10
#define ASSAY_COMPARE_OPTS_INIT                                                                    \
	{ ASSAY_COMPARE_OPTS_VERSION, 0.05, 5000, 1, ASSAY_COMPARE_MIN_PAIRS }

/** How one case compares, as the callback of assay_compare_runs() sees it (borrowed). */
typedef struct assay_compare_case {
	const char *checkpoint, *group, *id;
	bool in_a, in_b;        /**< which runs have the case (at least one) */
	bool passed_a, passed_b;
	double score_a, score_b;
	double time_a, time_b;  /**< seconds the program ran (execution.wall_time, else the
				     case's duration); NaN when unknown */
	double rss_a, rss_b;    /**< peak memory, bytes (execution.max_rss); NaN when unknown */
	const char *why_b;      /**< why the case did not pass in B, or NULL */
} assay_compare_case;

/** Means of A and B over the pairs that have the figure, and the interval of B − A. */
typedef struct assay_compare_measure {
	size_t pairs;           /**< pairs with the figure in both runs */
	double mean_a, mean_b;  /**< NaN without pairs */
	assay_interval diff;    /**< B − A: estimate and bootstrap interval (NaN without pairs) */
} assay_compare_measure;

/** The comparison. */
typedef struct assay_comparison {
	size_t cases_a, cases_b, paired, only_a, only_b;
	size_t passed_a, passed_b;      /**< of the paired cases */
	assay_mcnemar mcnemar;          /**< b: newly failing, c: newly passing */
	assay_compare_measure score, time, rss;
	assay_compare_measure pass;     /**< passing as 1, failing as 0: the pass rates, B − A and
					     its paired bootstrap interval */
	double alpha, confidence;       /**< confidence = 1 − alpha, of every interval */
	bool worse;                     /**< B is significantly worse (docs/statistics.md, "The
					     verdict"): at least min_pairs paired cases, and
					     McNemar's p_b_worse < alpha, or the sign test's
					     p_b_worse < alpha with the score interval below 0.
					     Cases in one run only are never evidence */
	assay_mcnemar sign;             /**< the exact sign test on the paired score changes: b
					     pairs whose score fell, c whose score rose */
	size_t min_pairs;               /**< the minimum paired count in force */
	bool judged;                    /**< paired >= min_pairs: a verdict was possible */
} assay_comparison;

/**
 * Compares run `a` with run `b` (each a results folder or a reports.jsonl file).
 * @param each    NULL, or called with every case: the pairs in B's order, then cases only in
 *                A in A's order
 * @return 0; the errors of assay_report_each_line() naming the run (not a results folder, a
 *         store of a newer assay, a damaged reports.jsonl); ASSAY_EINVALID (bad options, or
 *         a case whose score is NaN or infinite, named with its run). Cases pair by their
 *         checkpoint, group and id, byte for byte.
 */
ASSAY_EXTERN int assay_compare_runs(assay_comparison *out, const char *a, const char *b,
				    const assay_compare_opts *opts,
				    void (*each)(void *payload, const assay_compare_case *c),
				    void *payload, assay_err *err);

/** The page assay_compare_write_html() writes. Zero fields take their defaults. */
typedef struct assay_compare_page {
	const char *path;   /**< where: a file (written whole or not at all), or "-" (standard
				 output) */
	const char *title;  /**< the page's title (the suite's name), or NULL */
	size_t max_flips;   /**< at most this many flips of each kind are listed; 0: 50 */
	bool any_suite;     /**< false: runs that share no case (not runs of one suite) are
				 refused and nothing is written */
} assay_compare_page;

/**
 * Compares run `a` with run `b` as assay_compare_runs() does and writes one self-contained HTML
 * page of it to `page->path`: the flips first (pass -> fail, fail -> pass, at most
 * `page->max_flips` of each) with why, each opening to the expected value and A's and B's
 * actual values side by side; the change of each group's pass rate; the statistics with their
 * intervals; McNemar, the sign test and the verdict.
 * Each run is read twice (the comparison, then the listed flips' values); memory stays flat.
 * @param out       receives the comparison (the verdict decides the exit status)
 * @return 0; assay_compare_runs()'s and assay_report_each_line()'s errors; ASSAY_EINVALID (A
 *         and B share no case, without page->any_suite); ASSAY_EIO
 * Spec: docs/reports.md ("Comparing runs: assay compare", `--format html`).
 */
ASSAY_EXTERN int assay_compare_write_html(assay_comparison *out, const char *a, const char *b,
					  const assay_compare_opts *opts,
					  const assay_compare_page *page, assay_err *err);

#ifdef __cplusplus
}
#endif
#endif
