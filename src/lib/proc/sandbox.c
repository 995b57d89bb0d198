/*
 * What the case supervisor is told (proc_int.h): the Landlock rules a sandboxed case gets, its
 * limits and its environment; plus the layer names and the ASSAY_SANDBOX_REFUSE test hook.
 *
 * Key decisions:
 * - Readable: the system folders (/usr, /bin, /sbin, /lib*, /etc, /opt, /proc, /sys) and the
 *   caller's read_paths; writable: the working folder, the private tmp_dir, the caller's
 *   write_paths and /dev/null, /dev/zero, /dev/full. Nothing else, so the user's home, /tmp,
 *   the suite and the results folder are unreadable unless the caller lists them.
 * - Landlock can only allow, so a hidden folder below a system folder or a read_path (a suite
 *   under /opt, the expected answers inside a suite whose assets are readable) is carved out by
 *   allowing each sibling on the way down instead of the folder itself. A read_path inside a
 *   hidden folder is still granted: the caller named it.
 *   Symbolic links met on the way are not allowed: Landlock checks the folder a link resolves
 *   to, so allowing a link would allow its target, which may be the hidden folder.
 * - The program file is readable and executable even outside those folders (a test tool in a
 *   build folder). It is found with the PATH search the supervisor will do; the supervisor's
 *   own search decides what runs, this one only what may. Not when it lies in a folder the
 *   case may write (the working folder): it may be a link the case (or an earlier one of a
 *   shared folder) planted to a file outside, which would become readable.
 * - No rule follows a script's "#!" line: the script's author chooses it, and a rule for it
 *   would let a submission make any executable file readable (and run it). A script's
 *   interpreter must lie in a readable folder (system folders, read_paths).
 * - Devices: /dev/null, /dev/zero and /dev/full (read and write), /dev/random and /dev/urandom
 *   (read), nothing else of /dev: no terminal (/dev/tty*, /dev/pts, /dev/ptmx), so a case
 *   cannot read or type into the user's terminal. /dev/stdin, /dev/fd/N and the like are links
 *   into /proc, which is readable.
 * - With tmp_dir set, TMPDIR points at it unless the caller's env sets TMPDIR: the inherited
 *   TMPDIR (often /tmp) would not be writable.
 *
 * Refuses to: allow a path that does not exist at start (it is skipped); follow a symbolic link
 * while carving out hidden folders.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "assay/fs.h"
#include "proc_int.h"
#include "util/banned.h"

extern char **environ;

static const char *const layer_names[ASSAY_SANDBOX_NLAYERS] = {
	"user-namespace", "pid-namespace", "landlock-fs",  "landlock-net",
	"landlock-scope", "seccomp",       "no-new-privs",
};

static const char *const system_roots[] = {
	"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
	"/etc", "/opt", "/proc", "/sys", NULL,
};

/* The only devices: no terminal (/dev/tty*, /dev/pts, /dev/ptmx), no disk, no /dev/shm. */
static const char *const devices_rw[] = { "/dev/null", "/dev/zero", "/dev/full", NULL };
static const char *const devices_ro[] = { "/dev/random", "/dev/urandom", NULL };

#define NROOTS (sizeof(system_roots) / sizeof(system_roots[0]) - 1)

/* The system folders resolved, once per process (/bin is often a link to /usr/bin); NULL for
 * one that does not exist or lies within an earlier one. */
static char *roots_resolved[NROOTS];
static pthread_once_t roots_once = PTHREAD_ONCE_INIT;

#define DEFAULT_PATH "/usr/local/bin:/usr/bin:/bin"

const char *assay_sandbox_layer_name(unsigned layer)
{
	for (int i = 0; i < ASSAY_SANDBOX_NLAYERS; i++)
		if (layer == 1u << i)
			return layer_names[i];
	return "unknown";
}

/* assay_proc_set_program_cpus(): the programs' CPUs, or none (len 0) */
static unsigned char program_cpus[128];
static size_t program_cpus_len;
/* the same mask as -a gives it (two hex digits a byte, its trailing zero bytes left out,
 * which sched_setaffinity reads as zeros): written once here, not at every case's start */
static char program_cpus_hex[2 * sizeof(program_cpus) + 1];

void assay_proc_set_program_cpus(const unsigned char *mask, size_t len)
{
	program_cpus_len = mask ? (len < sizeof(program_cpus) ? len : sizeof(program_cpus)) : 0;
	if (program_cpus_len)
		memcpy(program_cpus, mask, program_cpus_len);
	while (program_cpus_len > 1 && !program_cpus[program_cpus_len - 1])
		program_cpus_len--;
	for (size_t i = 0; i < program_cpus_len; i++)
		snprintf(program_cpus_hex + 2 * i, 3, "%02x", program_cpus[i]);
}

unsigned assay_proc__refuse_hook(void)
{
	const char *v = getenv("ASSAY_SANDBOX_REFUSE");
	unsigned mask = 0;

	while (v && *v) {
		size_t len = strcspn(v, ",");

		if (len == 3 && !strncmp(v, "all", 3))
			mask |= (1u << ASSAY_SANDBOX_NLAYERS) - 1;
		for (int i = 0; i < ASSAY_SANDBOX_NLAYERS; i++)
			if (strlen(layer_names[i]) == len && !strncmp(v, layer_names[i], len))
				mask |= 1u << i;
		v += len;
		if (*v == ',')
			v++;
	}
	return mask;
}

/* ---- the environment ---- */

static bool names_var(const char *entry, const char *name, size_t len)
{
	return strncmp(entry, name, len) == 0 && entry[len] == '=';
}

char **assay_proc__build_env(const assay_proc *p, char **tmpdir_var)
{
	size_t n = 0;
	char **v;
	bool tmpdir_set = false;

	*tmpdir_var = NULL;
	if (!p->clear_env && environ)
		while (environ[n])
			n++;
	v = assay_xmalloc((n + p->env.nr + 2) * sizeof(*v));
	if (n)
		memcpy(v, environ, n * sizeof(*v));
	for (size_t i = 0; i < p->env.nr; i++) {
		char *e = p->env.v[i];
		const char *eq = strchr(e, '=');
		size_t len = eq ? (size_t)(eq - e) : strlen(e);
		size_t kept = 0;

		if (len == 6 && !strncmp(e, "TMPDIR", 6))
			tmpdir_set = true;
		for (size_t j = 0; j < n; j++)
			if (!names_var(v[j], e, len))
				v[kept++] = v[j];
		n = kept;
		if (eq)
			v[n++] = e;
	}
	if (p->sandbox.enabled && p->sandbox.tmp_dir && !tmpdir_set) {
		size_t kept = 0;

		for (size_t j = 0; j < n; j++)
			if (!names_var(v[j], "TMPDIR", 6))
				v[kept++] = v[j];
		n = kept;
		*tmpdir_var = assay_xasprintf("TMPDIR=%s", p->sandbox.tmp_dir);
		v[n++] = *tmpdir_var;
	}
	v[n] = NULL;
	return v;
}

static const char *env_get(char *const *envp, const char *name)
{
	size_t len = strlen(name);

	for (; envp && *envp; envp++)
		if (names_var(*envp, name, len))
			return *envp + len + 1;
	return NULL;
}

/* ---- Landlock rules ---- */

struct rules {
	assay_strvec *argv;
	char *hide[64];
	size_t nhide;
};

static void add_rule(struct rules *r, bool write, const char *path)
{
	assay_strvec_push(r->argv, write ? "-w" : "-r");
	assay_strvec_push(r->argv, path);
}

/* `inner` is `outer` or lies below it. */
static bool path_within(const char *inner, const char *outer)
{
	size_t len = strlen(outer);

	return !strncmp(inner, outer, len) && (inner[len] == '\0' || inner[len] == '/');
}

/*
 * Allows `dir` (resolved, no link) for reading, minus every hidden folder strictly below it. A
 * folder inside a hidden one is skipped, unless `explicit` (a read_path the caller named).
 */
static void allow_read_except_hidden(struct rules *r, const char *dir, bool explicit, int depth)
{
	bool holds_hidden = false;
	DIR *d;
	struct dirent *de;

	for (size_t i = 0; i < r->nhide; i++) {
		if (path_within(dir, r->hide[i]) && !explicit)
			return; /* hidden itself */
		if (path_within(r->hide[i], dir) && strcmp(r->hide[i], dir))
			holds_hidden = true;
	}
	if (!holds_hidden) {
		add_rule(r, false, dir);
		return;
	}
	if (depth > 32 || !(d = opendir(dir)))
		return;
	while ((de = readdir(d))) {
		struct stat st;
		char *path;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		path = assay_path_join(dir, de->d_name);
		if (lstat(path, &st) == 0 && !S_ISLNK(st.st_mode))
			allow_read_except_hidden(r, path, false, depth + 1);
		free(path);
	}
	closedir(d);
}

static bool is_executable_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 0111);
}

static void resolve_roots(void)
{
	for (size_t i = 0; i < NROOTS; i++) {
		char *real = realpath(system_roots[i], NULL);
		bool dup = false;

		for (size_t j = 0; j < i && real && !dup; j++)
			dup = path_within(real, system_roots[j]);
		if (dup) {
			free(real);
			real = NULL;
		}
		roots_resolved[i] = real; /* kept for the life of the process */
	}
}

/*
 * realpath() of a path beneath the system's own folders (/usr, /bin, /sbin, /lib*, /etc): the
 * program file and its folder, looked up for every case. Those folders are root's and no case
 * may write them, so what a path there resolves to is kept for the process (a handful of
 * entries); anything else is resolved every time. Malloc'd, or NULL as realpath().
 */
static char *system_realpath(const char *path)
{
	static const char *const stable[] = { "/usr", "/bin", "/sbin", "/lib", "/lib32",
					      "/lib64", "/libx32", "/etc", NULL };
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static struct {
		char *path, *real;
	} kept[16];
	static unsigned next;
	bool keep = false;
	char *real;

	for (size_t i = 0; stable[i] && !keep; i++)
		keep = path_within(path, stable[i]) && !strstr(path, "/../") && !strstr(path, "/./");
	if (!keep)
		return realpath(path, NULL);
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < 16; i++)
		if (kept[i].path && !strcmp(kept[i].path, path)) {
			real = assay_xstrdup(kept[i].real);
			pthread_mutex_unlock(&lock);
			return real;
		}
	real = realpath(path, NULL);
	if (real) {
		unsigned i = next++ % 16;

		free(kept[i].path);
		free(kept[i].real);
		kept[i].path = assay_xstrdup(path);
		kept[i].real = assay_xstrdup(real);
	}
	pthread_mutex_unlock(&lock);
	return real;
}

/* `dir` (resolved) lies in `folder` (resolved here; NULL: no). */
static bool within_real(const char *dir, const char *folder)
{
	char *real = folder ? realpath(folder, NULL) : NULL;
	bool in = real && path_within(dir, real);

	free(real);
	return in;
}

/* Does `file` lie in `folder`, as written or with `folder` resolved? */
static bool lexically_within(const char *file, const char *folder)
{
	char *real;
	bool in;

	if (!folder)
		return false;
	if (path_within(file, folder))
		return true;
	real = realpath(folder, NULL);
	in = real && path_within(file, real);
	free(real);
	return in;
}

/*
 * Does `file` (absolute, unresolved) lie in a folder the case may write (cwd, tmp_dir,
 * write_paths), or one an earlier case sharing the folder could have written? Such a file, or
 * a folder on the way to it, may be a link the case planted to a file it could not read, which
 * must not become readable by being the program: it gets no rule (it needs none when it really
 * is in the folder). Checked on the path as written (a planted folder link), then resolved.
 */
static bool in_case_folder(const assay_proc *p, const char *file)
{
	const char *slash = strrchr(file, '/');
	const char *const *w = p->sandbox.write_paths;
	char *dir, *real = NULL;
	bool in = false;

	if (slash) {
		dir = slash == file ? assay_xstrdup("/")
				    : assay_xstrndup(file, (size_t)(slash - file));
		real = system_realpath(dir);
		free(dir);
	}
	/* The common case, a program in a system folder, which holds no case folder: both the
	 * path as written and the resolved one lie in system folders (no more lookups). */
	pthread_once(&roots_once, resolve_roots);
	for (size_t i = 0; real && !w && i < NROOTS; i++) {
		const char *root = roots_resolved[i];

		if (root && path_within(real, root) && !(p->cwd && path_within(p->cwd, root)) &&
		    !(p->sandbox.tmp_dir && path_within(p->sandbox.tmp_dir, root))) {
			for (size_t j = 0; j < NROOTS; j++)
				if (path_within(file, system_roots[j]) &&
				    !(p->cwd && path_within(p->cwd, system_roots[j])) &&
				    !(p->sandbox.tmp_dir && path_within(p->sandbox.tmp_dir,
									system_roots[j]))) {
					free(real);
					return false;
				}
			break;
		}
	}
	in = lexically_within(file, p->cwd) || lexically_within(file, p->sandbox.tmp_dir);
	for (size_t i = 0; !in && w && w[i]; i++)
		in = lexically_within(file, w[i]);
	if (!in && real) {
		in = within_real(real, p->cwd) || within_real(real, p->sandbox.tmp_dir);
		for (size_t i = 0; !in && w && w[i]; i++)
			in = within_real(real, w[i]);
	}
	free(real);
	return in;
}

/*
 * The last PATH search (`prog` found as `found` along `path`) whose folders up to the one it
 * found the program in are absolute and none the case may write (cwd, tmp_dir, write_paths:
 * Landlock keeps a case's writes there): every case of a run with the same PATH finds the same
 * file there, and a program named without a folder (jq, python3) cost a stat per PATH folder
 * before it, for every case. On use, the folders are checked against that case's folders and the
 * file found is checked again (one stat); a PATH with a relative folder (the case's own folder)
 * or one the case may write before the program is searched each time.
 */
static pthread_mutex_t search_lock = PTHREAD_MUTEX_INITIALIZER;
static char *search_path, *search_prog, *search_found;
static size_t search_upto;
static long search_uid; /* whom it searched as (searcher()) */

/* Whom the program's PATH search runs as: the uid of the sandbox's ids when assay is root
 * (proc.h assay_sandbox uid), else -1 (assay's own). */
static long searcher(const assay_proc *p)
{
	uid_t uid;
	gid_t gid;

	return assay_proc__case_ids(&p->sandbox, &uid, &gid) ? (long)uid : -1;
}

/* Can the program reach and run `file`, as the supervisor's search, which skips what it cannot
 * (init/supervise.c exec_program), will find out? With assay's own ids: any executable file.
 * As the sandbox's, a folder on the way that it may not search hides the file from it: root's
 * PATH often holds /root/... (pyenv's shims), and the program as nobody then runs another file
 * of that name, or none; the sandbox must let it read that one, not root's. */
static bool reachable(const assay_proc *p, const char *file)
{
	char *closed;

	if (!is_executable_file(file))
		return false;
	if (file[0] != '/')
		return true; /* in the case's folder, given to it */
	closed = assay_sandbox_unreachable(&p->sandbox, file);
	if (!closed)
		return true;
	free(closed);
	return false;
}

static bool unwritable_folders(const assay_proc *p, const char *path, size_t len)
{
	const char *const *w = p->sandbox.write_paths;
	bool ok = true;

	for (const char *dir = path; ok && dir < path + len;) {
		const char *end = memchr(dir, ':', (size_t)(path + len - dir));
		size_t n = end ? (size_t)(end - dir) : (size_t)(path + len - dir);
		char *d = assay_xstrndup(dir, n);

		ok = d[0] == '/' && !strstr(d, "/..") && !strstr(d, "/./") &&
		     !(p->cwd && (path_within(d, p->cwd) || path_within(p->cwd, d))) &&
		     !(p->sandbox.tmp_dir &&
		       (path_within(d, p->sandbox.tmp_dir) || path_within(p->sandbox.tmp_dir, d)));
		for (size_t i = 0; ok && w && w[i]; i++)
			ok = !path_within(d, w[i]) && !path_within(w[i], d);
		free(d);
		dir += n + 1;
	}
	return ok;
}

static void path_search_keep(const assay_proc *p, const char *path, const char *prog,
			     size_t upto, const char *found)
{
	if (!unwritable_folders(p, path, upto))
		return;
	pthread_mutex_lock(&search_lock);
	free(search_path);
	free(search_prog);
	free(search_found);
	search_path = assay_xstrdup(path);
	search_prog = assay_xstrdup(prog);
	search_found = assay_xstrdup(found);
	search_upto = upto;
	search_uid = searcher(p);
	pthread_mutex_unlock(&search_lock);
}

/* @return the kept search's file (the caller frees it) when it was for `path` and `prog`, its
 * folders are none `p` may write, and it is still an executable file; else NULL. */
static char *path_search_kept(const assay_proc *p, const char *path, const char *prog)
{
	char *found = NULL;
	size_t upto = 0;

	pthread_mutex_lock(&search_lock);
	if (search_path && !strcmp(search_path, path) && !strcmp(search_prog, prog) &&
	    search_uid == searcher(p)) {
		found = assay_xstrdup(search_found);
		upto = search_upto;
	}
	pthread_mutex_unlock(&search_lock);
	if (found && (!unwritable_folders(p, path, upto) || !is_executable_file(found))) {
		free(found);
		found = NULL;
	}
	return found;
}

/* The program file as the supervisor's PATH search will find it (resolved), or NULL when it
 * lies in a folder the case may write. */
static char *find_program(const assay_proc *p, char *const *envp)
{
	const char *prog = p->argv.v[0], *path;
	char *cand = NULL, *real;

	if (!*prog)
		return NULL;
	if (strchr(prog, '/')) {
		cand = prog[0] == '/' || !p->cwd ? assay_xstrdup(prog) : assay_path_join(p->cwd, prog);
	} else {
		path = env_get(envp, "PATH");
		if (!path)
			path = DEFAULT_PATH;
		cand = path_search_kept(p, path, prog);
		for (const char *dir = path; !cand;) {
			const char *end = strchrnul(dir, ':');
			char *d = end == dir ? assay_xstrdup(".") : assay_xstrndup(dir, (size_t)(end - dir));

			if (d[0] != '/' && p->cwd) {
				char *abs = assay_path_join(p->cwd, d);
				free(d);
				d = abs;
			}
			cand = assay_path_join(d, prog);
			free(d);
			if (reachable(p, cand)) {
				path_search_keep(p, path, prog, (size_t)(end - path), cand);
				break;
			}
			free(cand);
			cand = NULL;
			dir = end;
			if (!*dir)
				break;
			dir++;
		}
	}
	if (!cand)
		return NULL;
	if (in_case_folder(p, cand)) {
		free(cand);
		return NULL;
	}
	real = system_realpath(cand);
	free(cand);
	return real;
}

static void sandbox_rules(const assay_proc *p, char *const *envp, assay_strvec *argv)
{
	const assay_sandbox *sb = &p->sandbox;
	struct rules r = { argv, { NULL }, 0 };
	char *prog;

	for (size_t i = 0; sb->hide_paths && sb->hide_paths[i] && r.nhide < 64; i++) {
		char *real = sb->paths_resolved ? assay_xstrdup(sb->hide_paths[i])
						: realpath(sb->hide_paths[i], NULL);

		if (real)
			r.hide[r.nhide++] = real;
	}
	pthread_once(&roots_once, resolve_roots);
	for (size_t i = 0; i < NROOTS; i++)
		if (roots_resolved[i])
			allow_read_except_hidden(&r, roots_resolved[i], false, 0);
	for (size_t i = 0; devices_rw[i]; i++)
		add_rule(&r, true, devices_rw[i]);
	for (size_t i = 0; devices_ro[i]; i++)
		add_rule(&r, false, devices_ro[i]);
	if (p->cwd)
		add_rule(&r, true, p->cwd);
	if (sb->tmp_dir)
		add_rule(&r, true, sb->tmp_dir);
	for (size_t i = 0; sb->write_paths && sb->write_paths[i]; i++)
		add_rule(&r, true, sb->write_paths[i]);
	for (size_t i = 0; sb->read_paths && sb->read_paths[i]; i++) {
		char *real = sb->paths_resolved ? assay_xstrdup(sb->read_paths[i])
						: realpath(sb->read_paths[i], NULL);

		if (real)
			allow_read_except_hidden(&r, real, true, 0);
		free(real);
	}
	if ((prog = find_program(p, envp))) {
		add_rule(&r, false, prog);
		free(prog);
	}
	for (size_t i = 0; i < r.nhide; i++)
		free(r.hide[i]);
}

/* ---- the supervisor's argv ---- */

void assay_proc__init_argv(const assay_proc *p, char *const *envp, const char *mode,
			   unsigned refuse, assay_strvec *argv)
{
	const assay_limits *l = &p->limits;
	unsigned flags = 0;

	if (p->sandbox.enabled)
		flags |= ASSAY_INIT_F_SANDBOX | (p->sandbox.required ? ASSAY_INIT_F_REQUIRED : 0) |
			 (p->sandbox.network ? 0 : ASSAY_INIT_F_NO_NET);
	assay_strvec_push(argv, "assay-init");
	assay_strvec_push(argv, ASSAY_INIT_VERSION);
	assay_strvec_push(argv, "-n"); /* ASSAY_PROC__ARGV_NS: assay_proc__spawn() fills it in */
	assay_strvec_push(argv, "0");
	assay_strvec_push(argv, "-u");
	assay_strvec_push(argv, "-");
	assay_strvec_push(argv, "-m");
	assay_strvec_push(argv, mode);
	assay_strvec_push(argv, "-f");
	assay_strvec_pushf(argv, "%x", flags);
	assay_strvec_push(argv, "-R");
	assay_strvec_pushf(argv, "%x", p->sandbox.enabled ? refuse : 0);
	if (p->cwd) { /* -C: a case server makes it (init/protocol.h) */
		assay_strvec_push(argv, p->sandbox.cwd_make ? "-C" : "-c");
		assay_strvec_push(argv, p->cwd);
	}
	if (p->sandbox.tmp_dir && p->sandbox.tmp_make) {
		assay_strvec_push(argv, "-t");
		assay_strvec_push(argv, p->sandbox.tmp_dir);
	}
	if (l->cpu_s > 0) {
		long long s = (long long)l->cpu_s;

		assay_strvec_push(argv, "-l");
		assay_strvec_pushf(argv, "c=%lld", s < l->cpu_s ? s + 1 : s);
	}
	if (l->memory_bytes > 0 && !p->cg) { /* with a cgroup, the cgroup bounds it */
		assay_strvec_push(argv, "-l");
		assay_strvec_pushf(argv, "d=%lld", l->memory_bytes);
	}
	if (l->file_size_bytes > 0) {
		assay_strvec_push(argv, "-l");
		assay_strvec_pushf(argv, "f=%lld", l->file_size_bytes);
	}
	if (l->open_files > 0) {
		assay_strvec_push(argv, "-l");
		assay_strvec_pushf(argv, "n=%ld", l->open_files);
	}
	if (l->processes > 0) {
		assay_strvec_push(argv, "-l");
		assay_strvec_pushf(argv, "p=%ld", l->processes);
	}
	if (program_cpus_len) {
		assay_strvec_push(argv, "-a");
		assay_strvec_push(argv, program_cpus_hex);
	}
	if (p->has_slot) {
		assay_strvec_push(argv, "-k");
		assay_strvec_pushf(argv, "%u", p->slot);
	}
	if (p->sandbox.enabled && !p->sandbox.network && p->sandbox.tcp_port) {
		assay_strvec_push(argv, "-p");
		assay_strvec_pushf(argv, "%u", (unsigned)p->sandbox.tcp_port);
	}
	if (p->sandbox.enabled && p->argv.nr)
		sandbox_rules(p, envp, argv);
	assay_strvec_push(argv, "--");
	assay_strvec_pushv(argv, (const char *const *)p->argv.v);
}
