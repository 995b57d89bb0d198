/* Internals of the judges (never installed). */
#ifndef ASSAY_JUDGE_INT_H
#define ASSAY_JUDGE_INT_H

#include "assay/buf.h"
#include "assay/judge.h"

struct assay_judge {
	bool http;
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
/* One try of an http judge: the answer's message content into `answer`. */
int assay_judge__http(const struct assay_judge *j, const char *system, const char *prompt,
		      assay_buf *answer, long long *tokens_in, long long *tokens_out, char *why,
		      size_t whysize);

#endif
