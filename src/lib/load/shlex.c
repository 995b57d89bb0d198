/*
 * POSIX shell word splitting without expansion (suite-format.md: "A string is split with POSIX
 * shell quoting rules (no expansion, no globbing)"). Refuses: variables, globs, command
 * substitution, operators — `$x`, `*`, `|` and `;` are ordinary characters here.
 */
#include <string.h>

#include "assay/buf.h"
#include "assay/suite.h"
#include "util/banned.h"

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

int assay_shell_split(assay_strvec *out, const char *s, assay_err *err)
{
	assay_buf word = ASSAY_BUF_INIT;
	bool in_word = false;
	int rc = 0;

	for (const char *p = s; *p; p++) {
		if (is_blank(*p)) {
			if (in_word) {
				assay_strvec_push(out, word.ptr);
				assay_buf_reset(&word);
				in_word = false;
			}
			continue;
		}
		in_word = true;
		if (*p == '\'') {
			const char *end = strchr(p + 1, '\'');
			if (!end) {
				rc = assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
						   "unterminated single quote in '%s'", s);
				goto out;
			}
			assay_buf_add(&word, p + 1, (size_t)(end - p - 1));
			p = end;
		} else if (*p == '"') {
			for (p++; *p != '"'; p++) {
				if (!*p) {
					rc = assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
							   "unterminated double quote in '%s'", s);
					goto out;
				}
				if (*p == '\\' && p[1] && strchr("$`\"\\\n", p[1])) {
					p++;
					if (*p == '\n')
						continue; /* line continuation */
				}
				assay_buf_addch(&word, *p);
			}
		} else if (*p == '\\') {
			if (!p[1]) {
				rc = assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
						   "trailing backslash in '%s'", s);
				goto out;
			}
			p++;
			if (*p != '\n')
				assay_buf_addch(&word, *p);
			else if (!word.len)
				in_word = false;
		} else {
			assay_buf_addch(&word, *p);
		}
	}
	if (in_word)
		assay_strvec_push(out, word.ptr);
out:
	assay_buf_release(&word);
	return rc;
}
