/* Internals of the judges (never installed). */
#ifndef ASSAY_JUDGE_INT_H
#define ASSAY_JUDGE_INT_H

#include "assay/buf.h"
#include "assay/judge.h"

struct assay_judge {
	bool http;                /* chat completions or, with `anthropic`, the Messages API */
	bool anthropic;
	assay_strvec argv;
	bool sandbox;
	char *base_url, *model, *api_key_env;
	double timeout_s, backoff_s, price_in, price_out;
	int retries;
	char *prompts_dir, *cache_dir;
};

/* One try of a command judge: `in` on stdin, stdout into `answer`. 0, or -1 with `why`. */
int assay_judge__command(const struct assay_judge *j, const char *in, size_t len,
			 assay_buf *answer, char *why, size_t whysize);
/* One try of an http judge (either wire format): the answer's text into `answer`, the
 * reply's token counts added to *tokens_in and *tokens_out. 0, or -1 with `why`. */
int assay_judge__http(const struct assay_judge *j, const char *system, const char *prompt,
		      assay_buf *answer, long long *tokens_in, long long *tokens_out, char *why,
		      size_t whysize);

#endif
