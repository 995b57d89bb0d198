/*
 * TOML text -> values (toml.h): the checks around toml++ and the stack it runs on.
 *
 * Key decisions:
 * - toml++ recurses once per level of a document (table headers, dotted keys, nested arrays
 *   and inline tables) and overflows the stack near 50,000 levels. Program output is hostile,
 *   so two bounds hold together: toml++'s own cap of 256 nested values, and a key of at most
 *   ASSAY_TOML_MAX_KEY_PARTS parts (checked here before toml++ sees the text); the worst
 *   document is then some 33,000 levels deep, and the parse runs on a thread of its own with
 *   a 256 MiB stack (address space only: pages are used as touched), whatever stack the
 *   caller has.
 * - The thread is joined before returning: to the caller this is an ordinary call.
 * - toml++ builds its own tree before assay's values are made (about 35 bytes per byte of a
 *   text of small values), outside the arena and so outside the verification budget: texts over
 *   ASSAY_TOML_MAX_TEXT (12 MiB, some 420 MB of toml++ at worst, under the default 512 MiB
 *   budget) are refused with ASSAY_ETOOBIG. Configuration files are far smaller. Within
 *   that, 40 bytes per byte of text are charged to the arena for as long as toml++ runs, so
 *   a text whose tree could pass the arena's limit (the verification budget) is refused
 *   before it is read. toml++ cannot be interrupted: the budget's time is checked before it
 *   starts and while its tree is converted (toml.cc); its own run is linear in the text.
 */
#include <pthread.h>
#include <string.h>

#include "toml/toml_int.h"
#include "util/banned.h"

#define PARSE_STACK (256u * 1024 * 1024)
/* toml++'s tree per byte of text, at worst (measured about 35; see the file comment) */
#define TOMLPP_BYTES_PER_BYTE 40u

/* Length of the string starting at text[i] (a quote), up to and including its end quote (or to
 * the end of the line or text when unterminated: toml++ reports those). */
static size_t skip_string(const char *t, size_t len, size_t i)
{
	char q = t[i];
	bool multi = i + 2 < len && t[i + 1] == q && t[i + 2] == q;
	size_t j = i + (multi ? 3 : 1);

	for (; j < len; j++) {
		if (q == '"' && t[j] == '\\') {
			j++;
			continue;
		}
		if (!multi && t[j] == '\n')
			return j - i;
		if (t[j] == q && (!multi || (j + 2 < len && t[j + 1] == q && t[j + 2] == q)))
			return j - i + (multi ? 3 : 1);
	}
	return len - i;
}

int assay_toml__check_keys(const char *text, size_t len, assay_err *err)
{
	size_t dots = 0, line = 1, line_start = 0;

	for (size_t i = 0; i < len; i++) {
		switch (text[i]) {
		case '"':
		case '\'': {
			size_t n = skip_string(text, len, i);

			for (size_t k = i; k < i + n; k++)
				if (text[k] == '\n') {
					line++;
					line_start = k + 1;
				}
			i += n - 1;
			break;
		}
		case '#':
			while (i + 1 < len && text[i + 1] != '\n')
				i++;
			break;
		case '\n':
			line++;
			line_start = i + 1;
			/* fall through */
		case '=':
		case ',':
		case '[':
		case ']':
		case '{':
		case '}':
			dots = 0;
			break;
		case '.':
			if (++dots >= ASSAY_TOML_MAX_KEY_PARTS) {
				size_t col = 1;

				for (size_t k = line_start; k < i; k++)
					col += ((unsigned char)text[k] & 0xc0) != 0x80;
				return assay_err_set(err, ASSAY_EPARSE, NULL, (int)line, (int)col,
						     "a key of more than %d parts",
						     ASSAY_TOML_MAX_KEY_PARTS);
			}
			break;
		default:
			break;
		}
	}
	return 0;
}

struct job {
	assay_value *out;
	assay_arena *a;
	const char *text;
	size_t len;
	assay_err *err;
	int rc;
};

static void *run_job(void *p)
{
	struct job *j = p;

	j->rc = assay_toml__parse_cc(j->out, j->a, j->text, j->len, j->err);
	return NULL;
}

int assay_toml_parse(assay_value *out, assay_arena *a, const char *text, size_t len,
		     const char *source, assay_err *err)
{
	struct job j = { out, a, text, len, err, 0 };
	pthread_attr_t attr;
	pthread_t th;
	int rc;

	*out = assay_value_null();
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) {
		/* toml++ skips it; tomllib, reading the text Python decoded, refuses it */
		rc = assay_err_set(err, ASSAY_EPARSE, NULL, 1, 1,
				   "a byte order mark (U+FEFF) is not TOML (tomllib refuses it)");
		goto located;
	}
	if (len > ASSAY_TOML_MAX_TEXT) {
		rc = assay_err_set(err, ASSAY_ETOOBIG, NULL, 0, 0,
				   "a TOML text of %zu MiB is more than the %u MiB assay reads (toml++ "
				   "needs up to 40 times a text's size in memory)",
				   len >> 20, ASSAY_TOML_MAX_TEXT >> 20);
		goto located;
	}
	if ((rc = assay_toml__check_keys(text, len, err)))
		goto located;
	/* toml++'s tree, at worst TOMLPP_BYTES_PER_BYTE times the text, is charged to the
	 * arena before it is built: a text whose tree could pass the budget is refused */
	assay_arena_charge(a, len * TOMLPP_BYTES_PER_BYTE);
	if (assay_arena_check(a)) {
		assay_arena_uncharge(a, len * TOMLPP_BYTES_PER_BYTE);
		rc = assay_err_set(err, ASSAY_ETOOBIG, NULL, 0, 0, "%s",
				   assay_arena_expired(a)
					   ? "the text could not be read in the time allowed"
					   : "the text is larger than the memory allowed for it (toml++ "
					     "needs up to 40 times a text's size)");
		goto located;
	}
	if (pthread_attr_init(&attr)) {
		assay_arena_uncharge(a, len * TOMLPP_BYTES_PER_BYTE);
		return assay_err_set(err, ASSAY_ERROR, source, 0, 0, "cannot start the TOML reader");
	}
	pthread_attr_setstacksize(&attr, PARSE_STACK);
	rc = pthread_create(&th, &attr, run_job, &j);
	pthread_attr_destroy(&attr);
	if (rc) {
		assay_arena_uncharge(a, len * TOMLPP_BYTES_PER_BYTE);
		return assay_err_set(err, ASSAY_ERROR, source, 0, 0,
				     "cannot start the TOML reader: %s", strerror(rc));
	}
	pthread_join(th, NULL);
	assay_arena_uncharge(a, len * TOMLPP_BYTES_PER_BYTE);
	rc = j.rc;
located:
	if (rc && err && source && !err->path[0]) {
		size_t n = strlen(source);

		if (n >= sizeof(err->path))
			n = sizeof(err->path) - 1;
		memcpy(err->path, source, n);
		err->path[n] = '\0';
	}
	return rc;
}

bool assay_toml_datetime(assay_value *out, assay_arena *a, const char *s, size_t len)
{
	char doc[80] = "v = ";
	assay_arena *tmp;
	assay_value v;
	const assay_value *item;
	bool ok = false;

	if (!len || len > 64)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!strchr("0123456789-:.+TtZz ", s[i]) || !s[i])
			return false;
	memcpy(doc + 4, s, len);
	doc[4 + len] = '\n';
	tmp = assay_arena_new(0);
	if (!assay_toml__parse_cc(&v, tmp, doc, len + 5, NULL) && v.len == 1 &&
	    (item = assay_object_get(&v, "v")) && item->kind == ASSAY_V_DATETIME) {
		*out = assay_value_datetime(a, assay_value_datetime_kind(item), item->u.s,
					    item->len);
		ok = true;
	}
	assay_arena_free(tmp);
	return ok;
}
