/*
 * Unit tests of skill workspaces (src/lib/skill/workspace.c, githash.c): init is idempotent
 * and never copies evals/, snapshots append to history.json, git_hash is HEAD only for a
 * clean skill folder (libgit2), average_score follows the grading files.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "assay/fs.h"
#include "assay/json.h"
#include "assay/skill.h"

static char *tmpdir(void)
{
	char *d = NULL;
	cr_assert_eq(assay_fs_mkdtemp(&d, NULL, "assay-test-ws-", NULL), 0);
	return d;
}

static void put(const char *dir, const char *rel, const char *text)
{
	char *p = assay_path_join(dir, rel);
	cr_assert_eq(assay_fs_mkparents(p, NULL), 0);
	cr_assert_eq(assay_fs_write(p, text, strlen(text), 0644, NULL), 0);
	free(p);
}

static char *make_skill(const char *root)
{
	char *skill = assay_path_join(root, "my-skill");
	put(skill, "SKILL.md", "---\nname: my-skill\ndescription: Use when testing.\n---\n\nBody.\n");
	put(skill, "scripts/run.sh", "echo hi\n");
	return skill;
}

/* Every file below `dir` with its inode, size and modification time, sorted. */
static void listing(assay_buf *out, const char *dir)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort);

	for (int i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.') {
			char *p = assay_path_join(dir, names[i]->d_name);
			struct stat st;
			cr_assert_eq(lstat(p, &st), 0);
			assay_buf_addf(out, "%s %lu %lld %lld.%09ld\n", p, (unsigned long)st.st_ino,
				       (long long)st.st_size, (long long)st.st_mtim.tv_sec,
				       st.st_mtim.tv_nsec);
			if (S_ISDIR(st.st_mode))
				listing(out, p);
			free(p);
		}
		free(names[i]);
	}
	free(names);
}

static assay_value load(assay_arena *a, const char *dir, const char *rel)
{
	char *p = assay_path_join(dir, rel);
	assay_buf b = ASSAY_BUF_INIT;
	assay_value v;
	cr_assert_eq(assay_fs_read(&b, p, 0, NULL), 0, "%s", p);
	cr_assert_eq(assay_json_parse(&v, a, b.ptr, b.len, NULL, NULL), 0);
	assay_buf_release(&b);
	free(p);
	return v;
}

Test(workspace, init_makes_everything_once_and_never_copies_evals)
{
	char *root = tmpdir(), *skill = make_skill(root);
	assay_skill_init_report r;
	assay_buf before = ASSAY_BUF_INIT, after = ASSAY_BUF_INIT;
	assay_arena *a = assay_arena_new(0);

	cr_assert_eq(assay_skill_init(&r, skill, NULL, NULL), 0);
	cr_assert(r.evals && r.config && r.history && r.snapshot && r.grading && r.prompts);
	char *ws = assay_path_join(root, "my-skill-workspace");
	cr_assert_str_eq(r.workspace, ws);
	free(r.workspace);
	cr_assert(assay_fs_exists(ws));
	char *p = assay_path_join(ws, "v0/skill/scripts/run.sh");
	cr_assert(assay_fs_exists(p), "the whole skill is copied");
	free(p);
	p = assay_path_join(ws, "v0/skill/evals");
	cr_assert_not(assay_fs_exists(p), "decision 4: evals/ is never in a snapshot");
	free(p);
	assay_value ev = load(a, skill, "evals/evals.json");
	cr_assert_str_eq(assay_object_get(&ev, "skill")->u.s, skill);
	cr_assert_eq(assay_object_get(&ev, "cases")->len, 0);
	assay_value h = load(a, ws, "history.json");
	const assay_value *v0 = assay_array_get(assay_object_get(&h, "versions"), 0);
	cr_assert_str_eq(assay_object_get(v0, "description")->u.s, "baseline");
	cr_assert_str_eq(assay_object_get(v0, "path")->u.s, "v0/skill");
	cr_assert_eq(assay_object_get(v0, "git_hash")->kind, ASSAY_V_NULL, "no repository");
	cr_assert_eq(assay_object_get(v0, "average_score")->kind, ASSAY_V_NULL);

	listing(&before, root);
	cr_assert_eq(assay_skill_init(&r, skill, NULL, NULL), 0);
	cr_assert_not(r.evals || r.config || r.history || r.snapshot || r.grading || r.prompts);
	free(r.workspace);
	listing(&after, root);
	cr_assert_str_eq(before.ptr, after.ptr, "a second init changes nothing");

	assay_skill_diags d = ASSAY_SKILL_DIAGS_INIT;
	cr_assert_eq(assay_skill_check_workspace(&d, ws, NULL), 0);
	cr_assert_eq(d.errors, 0, "%s", d.nr ? d.v[0].msg : "");
	assay_skill_diags_clear(&d);

	assay_buf_release(&before);
	assay_buf_release(&after);
	assay_arena_free(a);
	assay_fs_remove_tree(root, NULL);
	free(ws);
	free(skill);
	free(root);
}

Test(workspace, init_refuses_what_is_not_a_folder)
{
	assay_skill_init_report r;
	cr_assert_eq(assay_skill_init(&r, "/nonexistent/skill", NULL, NULL), ASSAY_ENOTFOUND);
}

Test(workspace, snapshot_appends_a_version_and_refreshes_the_average)
{
	char *root = tmpdir(), *skill = make_skill(root), *ws = assay_path_join(root, "ws");
	assay_skill_init_report r;
	assay_arena *a = assay_arena_new(0);
	int v = -1;

	cr_assert_eq(assay_skill_init(&r, skill, ws, NULL), 0);
	free(r.workspace);
	put(ws, "grading/case-01_v0_run1.json", "{\"overall_score\": 3.0}");
	put(ws, "grading/case-01_v0_run2.json", "{\"overall_score\": 4.0}");
	put(ws, "grading/case-02_v0_run1.json", "{\"overall_score\": 4.0}");
	put(ws, "grading/case-01_v1_run1.json", "{\"overall_score\": 1.0}");
	put(ws, "grading/notes.json", "{\"overall_score\": 1.0}");
	put(skill, "SKILL.md", "---\nname: my-skill\ndescription: Use when testing v1.\n---\n\nB.\n");
	cr_assert_eq(assay_skill_snapshot(ws, "sharper description", false, &v, NULL), 0);
	cr_assert_eq(v, 1);
	assay_value h = load(a, ws, "history.json");
	const assay_value *vs = assay_object_get(&h, "versions");
	cr_assert_eq(vs->len, 2);
	cr_assert_eq(assay_object_get(&h, "current_version")->u.i, 1);
	const assay_value *v0 = assay_array_get(vs, 0), *v1 = assay_array_get(vs, 1);
	cr_assert_eq(assay_value_number(assay_object_get(v0, "average_score")), 3.7,
		     "decision 1: mean of 3, 4, 4 on v0's own entry");
	cr_assert_eq(assay_object_get(v1, "version")->u.i, 1);
	cr_assert_str_eq(assay_object_get(v1, "description")->u.s, "sharper description");
	cr_assert_str_eq(assay_object_get(v1, "path")->u.s, "v1/skill");
	cr_assert_eq(assay_object_get(v1, "average_score")->kind, ASSAY_V_NULL);
	const char *ts = assay_object_get(v1, "timestamp")->u.s;
	cr_assert_eq(strlen(ts), 20);
	cr_assert_eq(ts[19], 'Z');
	assay_buf b = ASSAY_BUF_INIT;
	char *p = assay_path_join(ws, "v1/skill/SKILL.md");
	cr_assert_eq(assay_fs_read(&b, p, 0, NULL), 0);
	cr_assert(strstr(b.ptr, "testing v1"), "the snapshot copies the skill as it is now");
	assay_buf_release(&b);
	free(p);

	cr_assert_eq(assay_skill_refresh_average(ws, 1, NULL), 0);
	h = load(a, ws, "history.json");
	cr_assert_eq(assay_value_number(assay_object_get(assay_array_get(
			     assay_object_get(&h, "versions"), 1), "average_score")), 1.0);

	/* Nothing changed since v1: no v2 unless forced. */
	assay_err same = ASSAY_ERR_INIT;
	cr_assert_eq(assay_skill_snapshot(ws, NULL, false, &v, &same), ASSAY_ENOMATCH);
	cr_assert(strstr(same.msg, "nothing changed since v1"), "%s", same.msg);
	p = assay_path_join(ws, "v2");
	cr_assert_not(assay_fs_exists(p), "a refused snapshot leaves nothing");
	free(p);
	h = load(a, ws, "history.json");
	cr_assert_eq(assay_object_get(&h, "current_version")->u.i, 1);

	/* A v2 left over from elsewhere is never overwritten. */
	p = assay_path_join(ws, "v2");
	cr_assert_eq(assay_fs_mkdirs(p, NULL), 0);
	free(p);
	assay_err err = ASSAY_ERR_INIT;
	cr_assert_eq(assay_skill_snapshot(ws, NULL, true, NULL, &err), ASSAY_EINVALID);
	cr_assert(strstr(err.msg, "already exists"), "%s", err.msg);

	assay_arena_free(a);
	assay_fs_remove_tree(root, NULL);
	free(ws);
	free(skill);
	free(root);
}

static void commit_all(git_repository *repo)
{
	git_index *idx;
	git_oid tree_id, commit_id;
	git_tree *tree;
	git_signature *sig;
	char *paths[] = { "*" };
	git_strarray ps = { paths, 1 };

	cr_assert_eq(git_repository_index(&idx, repo), 0);
	cr_assert_eq(git_index_add_all(idx, &ps, 0, NULL, NULL), 0);
	cr_assert_eq(git_index_write(idx), 0);
	cr_assert_eq(git_index_write_tree(&tree_id, idx), 0);
	cr_assert_eq(git_tree_lookup(&tree, repo, &tree_id), 0);
	cr_assert_eq(git_signature_new(&sig, "t", "t@example.com", 1700000000, 0), 0);
	git_oid parent_id;
	git_commit *parent = NULL;
	if (!git_reference_name_to_id(&parent_id, repo, "HEAD"))
		cr_assert_eq(git_commit_lookup(&parent, repo, &parent_id), 0);
	cr_assert_eq(git_commit_create_v(&commit_id, repo, "HEAD", sig, sig, NULL, "c", tree,
					 parent ? 1 : 0, parent), 0);
	git_commit_free(parent);
	git_signature_free(sig);
	git_tree_free(tree);
	git_index_free(idx);
}

Test(workspace, git_hash_is_head_only_for_a_clean_skill)
{
	char *root = tmpdir(), *skill = make_skill(root), hash[41];
	git_repository *repo;
	git_oid head;

	cr_assert_not(assay_skill_git_hash(hash, skill), "in no repository: null");
	git_libgit2_init();
	cr_assert_eq(git_repository_init(&repo, root, 0), 0);
	cr_assert_not(assay_skill_git_hash(hash, skill), "no commit yet: null");
	put(root, "other.txt", "x\n");
	commit_all(repo);
	cr_assert_eq(git_reference_name_to_id(&head, repo, "HEAD"), 0);
	cr_assert(assay_skill_git_hash(hash, skill));
	cr_assert_str_eq(hash, git_oid_tostr_s(&head));

	put(root, "elsewhere.txt", "untracked, outside the skill\n");
	cr_assert(assay_skill_git_hash(hash, skill), "changes outside the skill do not count");
	put(skill, "new.md", "untracked\n");
	cr_assert_not(assay_skill_git_hash(hash, skill), "an untracked file in the skill: null");
	char *p = assay_path_join(skill, "new.md");
	remove(p);
	free(p);
	put(skill, "SKILL.md", "changed\n");
	cr_assert_not(assay_skill_git_hash(hash, skill), "a modified file: null");
	commit_all(repo);
	cr_assert(assay_skill_git_hash(hash, skill), "committed again");

	git_repository_free(repo);
	git_libgit2_shutdown();
	assay_fs_remove_tree(root, NULL);
	free(skill);
	free(root);
}
