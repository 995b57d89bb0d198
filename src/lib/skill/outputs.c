/*
 * What judges see of a run: its outputs/ files (regular files only, never through a link,
 * sorted, each capped, binary files named but not shown) and its transcript, with the paths
 * that would tell a version (the run folder, the skill snapshot, the workspace) replaced by
 * neutral words, so that a blind comparator cannot read the version from a path.
 *
 * Nothing a run left can pass for this text's structure: each file's content is fenced by
 * more backticks than its longest run (assay_judge_fence), and each name is shown on one line
 * with control characters escaped (assay_judge_escape_line), so a file holding a fence or a
 * name holding newlines cannot open a heading of its own.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "assay/fs.h"
#include "skill/skill_int.h"
#include "util/banned.h"

#define FILE_CAP (64u * 1024)

static void add_redacted(assay_buf *out, const char *s, size_t n, const char *redact[])
{
	for (size_t i = 0; i < n;) {
		bool hit = false;
		for (size_t r = 0; redact && redact[r]; r += 2) {
			size_t k = strlen(redact[r]);
			if (k && i + k <= n && !memcmp(s + i, redact[r], k)) {
				assay_buf_adds(out, redact[r + 1]);
				i += k;
				hit = true;
				break;
			}
		}
		if (!hit)
			assay_buf_addch(out, s[i++]);
	}
}

static void add_file(assay_buf *out, const char *root, const char *rel, const char *redact[])
{
	assay_buf content = ASSAY_BUF_INIT;
	int rc = assay_fs_read_beneath(&content, root, rel, FILE_CAP, NULL);

	if (rc && rc != ASSAY_ETOOBIG) {
		assay_buf_release(&content);
		return;
	}
	assay_buf_adds(out, "### ");
	assay_judge_escape_line(out, rel, strlen(rel));
	assay_buf_adds(out, "\n\n");
	if (memchr(content.ptr, '\0', content.len)) {
		assay_buf_addf(out, "(binary, %zu bytes shown)\n\n", content.len);
	} else {
		assay_buf shown = ASSAY_BUF_INIT;

		add_redacted(&shown, content.ptr, content.len, redact);
		if (rc == ASSAY_ETOOBIG)
			assay_buf_adds(&shown, "\n[... cut at 64 KiB]\n");
		assay_judge_fence(out, shown.ptr ? shown.ptr : "", shown.len);
		assay_buf_adds(out, "\n\n");
		assay_buf_release(&shown);
	}
	assay_buf_release(&content);
}

/* Stops once `out` holds more than `limit` bytes: a run that left a million files costs no
 * more than one that left enough to fill the judge's request. */
static void walk(assay_buf *out, const char *root, const char *rel, const char *redact[],
		 int depth, size_t limit)
{
	char *dir = rel[0] ? assay_path_join(root, rel) : assay_xstrdup(root);
	struct dirent **names = NULL;
	int n = depth > 8 ? -1 : scandir(dir, &names, NULL, alphasort);

	for (int i = 0; i < n; i++) {
		const char *nm = names[i]->d_name;
		struct stat st;
		char *path, *sub;

		if (!strcmp(nm, ".") || !strcmp(nm, "..") || out->len > limit) {
			free(names[i]);
			continue;
		}
		path = assay_path_join(dir, nm);
		sub = rel[0] ? assay_xasprintf("%s/%s", rel, nm) : assay_xstrdup(nm);
		if (!lstat(path, &st)) {
			if (S_ISDIR(st.st_mode))
				walk(out, root, sub, redact, depth + 1, limit);
			else if (S_ISREG(st.st_mode))
				add_file(out, root, sub, redact);
		}
		free(path);
		free(sub);
		free(names[i]);
	}
	free(names);
	free(dir);
}

void assay_skill__run_outputs(assay_buf *out, const char *run_dir, const char *redact[],
			      size_t max)
{
	char *outputs = assay_path_join(run_dir, "outputs");
	size_t start = out->len;

	walk(out, outputs, "", redact, 0, start + (max ? max : SIZE_MAX / 2));
	if (out->len == start)
		assay_buf_adds(out, "(no output files)\n\n");
	add_file(out, run_dir, "transcript.md", redact);
	if (max && out->len - start > max) {
		assay_buf_setlen(out, start + max);
		assay_buf_adds(out, "\n[... cut]\n");
	}
	free(outputs);
}
