/*
 * Replays the fuzz targets (tests/fuzz) on their seed corpus and on every input that once made
 * one fail (tests/fuzz/regressions/<target>/), in the ordinary build, so a fixed crash stays
 * fixed. A target that fails aborts, which Criterion reports as a crash of the test.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/buf.h"
#include "assay/fs.h"
#include "fuzz.h"

typedef int (*entry_fn)(const uint8_t *, size_t);

static size_t replay_dir(const char *dir, entry_fn fn)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char *path;
		assay_buf b = ASSAY_BUF_INIT;

		if (e->d_name[0] == '.')
			continue;
		path = assay_path_join(dir, e->d_name);
		if (!assay_fs_read(&b, path, 0, NULL)) {
			fn((const uint8_t *)b.ptr, b.len);
			n++;
		}
		assay_buf_release(&b);
		free(path);
	}
	closedir(d);
	return n;
}

Test(fuzz, json_regressions_and_seeds)
{
	size_t n = replay_dir(ASSAY_FUZZ_DIR "/regressions/json", assay_fuzz_json) +
		   replay_dir(ASSAY_FUZZ_DIR "/corpus/json", assay_fuzz_json);

	cr_assert_gt(n, 0, "no inputs for the json target");
}

Test(fuzz, yaml_regressions_and_seeds)
{
	size_t n = replay_dir(ASSAY_FUZZ_DIR "/regressions/yaml", assay_fuzz_yaml) +
		   replay_dir(ASSAY_FUZZ_DIR "/corpus/yaml", assay_fuzz_yaml);

	cr_assert_gt(n, 0, "no inputs for the yaml target");
}

Test(fuzz, diff_regressions_and_seeds)
{
	size_t n = replay_dir(ASSAY_FUZZ_DIR "/regressions/diff", assay_fuzz_diff) +
		   replay_dir(ASSAY_FUZZ_DIR "/corpus/diff", assay_fuzz_diff);

	cr_assert_gt(n, 0, "no inputs for the diff target");
}

/* The readers of submission output: TOML, INI, CSV (fuzz_formats.c). */
Test(fuzz, format_readers_regressions_and_seeds)
{
	static const struct {
		const char *name;
		entry_fn fn;
	} t[] = { { "toml", assay_fuzz_toml }, { "ini", assay_fuzz_ini }, { "csv", assay_fuzz_csv } };

	for (size_t i = 0; i < 3; i++) {
		char reg[512], seeds[512];

		snprintf(reg, sizeof(reg), "%s/regressions/%s", ASSAY_FUZZ_DIR, t[i].name);
		snprintf(seeds, sizeof(seeds), "%s/corpus/%s", ASSAY_FUZZ_DIR, t[i].name);
		cr_assert_gt(replay_dir(reg, t[i].fn) + replay_dir(seeds, t[i].fn), 0,
			     "no inputs for the %s target", t[i].name);
	}
}

/* The diff target's own check can fire: a document must equal itself. */
Test(fuzz, diff_target_accepts_a_valid_pair)
{
	static const char in[] = "\x01[1, {\"a\": [2, 2]}]\0[{\"a\": [2]}, 1]";

	cr_assert_eq(assay_fuzz_diff((const uint8_t *)in, sizeof(in) - 1), 0);
}
