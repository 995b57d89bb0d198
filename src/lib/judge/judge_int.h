/*
 * Internals of the judges (never installed): a judge is the part every kind shares (the
 * model, the tries, the cache; judge.c) and one kind of judge behind struct
 * assay_judge__kind (how one question is sent and its answer read: command.c, chat.c,
 * anthropic.c), found by its type name in kinds.c's table. docs/architecture.md, "Adding a
 * judge", walks through adding a kind.
 */
#ifndef ASSAY_JUDGE_INT_H
#define ASSAY_JUDGE_INT_H

#include "assay/buf.h"
#include "assay/judge.h"

/* One question as a kind sends it: everything borrowed for the call. */
struct assay_judge__question {
	const char *role;           /* "grader", "comparator" or "analyzer" */
	const char *system;         /* the system message an API judge sends with the prompt */
	const char *prompt;         /* the role's template rendered with `request` */
	size_t prompt_len;
	const assay_value *request; /* the request object the prompt was rendered from */
};

struct assay_judge;

/*
 * A kind of judge: assay_judge_config.type names it. A kind keeps its own settings in the
 * state `open` makes; the judge keeps what every kind shares (struct assay_judge below).
 * Several threads may call `ask` on one judge at once: it must not change the state.
 */
struct assay_judge__kind {
	const char *name; /* assay_judge_config.type: "command", "http", ... */
	/*
	 * Checks that `cfg` holds what this kind needs and makes its state in *self (NULL is
	 * allowed when it needs none; copies what it keeps of `cfg`). 0, or ASSAY_EINVALID with
	 * the setting that is missing in `err`.
	 */
	int (*open)(void **self, const assay_judge_config *cfg, assay_err *err);
	/*
	 * One try: sends `q` (j->self is the state `open` made; j->model and j->timeout_s are the
	 * judge's), appends the answer's text to `answer` and adds what the try cost to
	 * st->tokens_in and st->tokens_out. 0, or a negative code with the reason in `err`: the
	 * try failed and judge.c may try again.
	 */
	int (*ask)(const struct assay_judge *j, const struct assay_judge__question *q,
		   assay_buf *answer, assay_judge_stats *st, assay_err *err);
	/* Frees the state `open` made (NULL allowed). */
	void (*release)(void *self);
};

/*
 * The kind named `name` (kinds.c's table). NULL with ASSAY_EINVALID in `err` for a name that
 * is not in it ("judge type must be \"command\", ... not \"x\"": every name in the table).
 */
const struct assay_judge__kind *assay_judge__kind_find(const char *name, assay_err *err);

struct assay_judge {
	const struct assay_judge__kind *kind;
	void *self;               /* the kind's state */
	char *model;              /* never NULL ("" when not set) */
	double timeout_s, backoff_s, price_in, price_out;
	int retries;
	char *prompts_dir, *cache_dir;
};

/* What the API judges (chat.c, anthropic.c) share: http.c. */

/* One POST of assay_judge__post_json: all borrowed, for the length of the call. */
struct assay_judge__post {
	const char *url;
	const char *const *headers; /* NULL-terminated, each "Name: value"; NULL for none */
	double timeout_s;	    /* the whole request, in seconds */
	const assay_value *req;	    /* the body, written as JSON */
};

/*
 * POSTs `p->req` as JSON to `p->url` with `p->headers` ("Content-Type: application/json" is
 * added) within `p->timeout_s`; the reply, HTTP 200 and JSON, is read into `reply` (which the
 * caller keeps, and releases, as long as it uses `v`: the parser may borrow from it) and parsed
 * into `v` in `a`. 0, or ASSAY_ERROR with the reason (the URL first).
 */
int assay_judge__post_json(const struct assay_judge__post *p, assay_buf *reply, assay_value *v,
			   assay_arena *a, assay_err *err);
/* A chat message {"role": role, "content": text}, made in `a`. */
assay_value assay_judge__message(assay_arena *a, const char *role, const char *text);
/* `base` without its trailing slashes, then `path` (malloc'd). */
char *assay_judge__endpoint(const char *base, const char *path);
/* Appends `n` bytes of `s` without surrounding white space and without a ``` fence around. */
void assay_judge__unfence(assay_buf *answer, const char *s, size_t n);
/* usage.<name> as a count of tokens added to *to (a non-integer or negative one adds none). */
void assay_judge__add_tokens(const assay_value *usage, const char *name, long long *to);

/* An API judge's state: where it posts and the environment variable holding its key. */
struct assay_judge__api {
	char *base_url;
	char *api_key_env; /* NULL: no key sent */
};
/*
 * Makes the state of an API judge from `base_url` and `api_key_env` (copied; "" counts as
 * NULL). Returns it (free with assay_judge__api_release).
 */
struct assay_judge__api *assay_judge__api_new(const char *base_url, const char *api_key_env);
void assay_judge__api_release(void *api);
/*
 * The header carrying the key: `prefix` then the value of the environment variable
 * api->api_key_env ("Authorization: Bearer " + key), malloc'd; NULL when the variable is not
 * set, is empty, or none is named.
 */
char *assay_judge__key_header(const struct assay_judge__api *api, const char *prefix);

#endif
