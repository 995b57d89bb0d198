/**
 * @file plugin.h
 * Verifier plug-ins: code of the suite's author that decides an attribute. Two kinds:
 *
 * 1. A program (the `command` verifier, verify.h): assay runs it through the process layer
 *    (proc.h) with one JSON request on its standard input,
 *      {"group", "case", "attribute", "actual", "expected", "options"}
 *    and reads one JSON answer from its standard output,
 *      {"is_correct": true|false, "diff": ANY, "weight": NUMBER > 0 (optional),
 *       "score": NUMBER in [0, 1] (optional: partial credit)}.
 *    `actual` is the attribute as captured: text as a string, status_code as an integer, a file
 *    not produced as null; `expected` is as the case wrote it; `options` is the verify entry.
 *    Options: `run` (argv: a list, or a shell-quoted string; required), `timeout` (seconds per
 *    request, default 60), `persistent` (default false: a process per attribute; true: one
 *    process per distinct `run` for the whole run, reading one request per line and answering
 *    one JSON line each, JSON Lines, so an expensive checker starts once).
 *    A program that cannot start, times out, dies, or prints no valid answer makes the
 *    attribute a verifier error (the case is reported as an error, never silently scored),
 *    with its exit status and the end of its standard error in the message.
 *
 * 2. A shared object (the C ABI): it exports one `assay_plugin` struct, named by
 *    ASSAY_PLUGIN_SYMBOL, listing verifiers (verify.h) that assay registers under their names;
 *    they receive the same assay_verify_call as the built-in ones and make their diff with the
 *    value functions of value.h (the assay program exports them). Loaded with dlopen() from a
 *    path given by the suite or on the command line; a plug-in built for another ABI version
 *    is refused with a clear message. examples/plugin/ is one, with its build line.
 *
 * The plug-in is trusted (the suite's author wrote it); the program under test is not, and
 * never runs a plug-in: plug-in programs run as assay's user, outside the case's sandbox.
 * Spec: suite-format.md "Verifiers (built in)" (`command`); docs/verifiers.md ("command:
 * plug-in programs", "Shared-object plug-ins").
 */
#ifndef ASSAY_PLUGIN_H
#define ASSAY_PLUGIN_H

#include <stdint.h>

#include "verify.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The plug-in ABI this assay speaks; bumped whenever assay_plugin or verify.h changes shape. */
#define ASSAY_PLUGIN_ABI_VERSION 1u

/** The name of the symbol a shared-object plug-in exports (an `assay_plugin`). */
#define ASSAY_PLUGIN_SYMBOL "assay_plugin_entry"

/** What a shared-object plug-in exports, as `const assay_plugin assay_plugin_entry = {...};`. */
typedef struct assay_plugin {
	uint32_t abi_version;   /**< ASSAY_PLUGIN_ABI_VERSION as the plug-in was built */
	uint32_t size;          /**< sizeof(assay_plugin) as the plug-in was built */
	const char *name;       /**< the plug-in's name, for messages */
	const assay_verifier *const *verifiers; /**< NULL-terminated; each is registered under
						     its name, which no verifier may have yet
						     (a built-in or another plug-in's): the load
						     fails rather than replace one */
	/** NULL, or called once after loading, before any of its verifiers runs: 0, or an error
	 *  code with `err` set (the load fails). */
	int (*init)(assay_err *err);
} assay_plugin;

/** Initialises a plug-in's struct with the ABI version and size of this header. */
#define ASSAY_PLUGIN_INIT(name, verifiers, init)                                              \
	{ ASSAY_PLUGIN_ABI_VERSION, (uint32_t)sizeof(assay_plugin), (name), (verifiers), (init) }

/**
 * Loads the shared object at `path` (dlopen, RTLD_NOW | RTLD_LOCAL), checks its ABI version,
 * runs its init and registers its verifiers. Loading a path already loaded does nothing. The
 * object stays loaded for the rest of the process. Not thread-safe: load plug-ins at start-up.
 * @param out  NULL, or receives the plug-in (borrowed, valid for the life of the process)
 * @return 0; ASSAY_ENOTFOUND (no such file); ASSAY_EINVALID (dlopen's message, no
 *         ASSAY_PLUGIN_SYMBOL, "plug-in 'x' was built for plug-in ABI 2; this assay speaks
 *         ABI 1", a verifier without name or function, a verifier name that is taken
 *         already (a built-in's, another plug-in's) or listed twice, a path that is not a
 *         regular file, or init's refusal), with `err`
 */
ASSAY_EXTERN int assay_plugin_load(const char *path, const assay_plugin **out, assay_err *err);


/**
 * Names the Python interpreter that runs Python verifiers (`verifier: {python: FILE, class:
 * NAME}` in suite.yaml; verification.md "Verifier Protocol"): a path, or a name looked up in
 * PATH. NULL or "" goes back to the default: the ASSAY_PYTHON environment variable when set,
 * else `python3`. The string is copied. Not thread-safe: call it before a run.
 */
ASSAY_EXTERN void assay_python_set(const char *python);

/** The interpreter Python verifiers run with (see assay_python_set); borrowed. */
ASSAY_EXTERN const char *assay_python_get(void);

/** One case for a Python verifier. Everything is borrowed. */
typedef struct assay_python_call {
	const char *file;          /**< absolute path of the verifier's .py file */
	const char *class_name;    /**< the class to build (`Verifier` by default) */
	const assay_value *config; /**< the checkpoint's configuration (a mapping), or NULL */
	const char *group_name;
	const char *case_name;
	const assay_value *actual;   /**< a mapping: the CaseResult attributes (output, stderr,
					  status_code, files as path -> content, execution_time,
					  ...) */
	const assay_value *expected; /**< a mapping: the case's expected values, as written */
	double timeout;            /**< seconds for this case's answer (<= 0: 60) */
	size_t memory;             /**< the process's data limit in bytes (0: none) */
	assay_arena *arena;        /**< where the results are made */
} assay_python_call;

/**
 * Verifies one case with a Python verifier: one persistent process per distinct (interpreter,
 * file, class, configuration), started at the first case (its class built once with the
 * configuration), running assay's embedded bridge in the sandbox (every layer the kernel grants;
 * no network; it reads the system folders, the verifier's folder and the interpreter's
 * installation). The call's `actual` and `expected` reach the verifier as objects read by
 * attribute. assay_plugins_shutdown() stops the processes.
 * @param results receives a mapping NAME -> {diff, is_correct, weight} in `call->arena`: what
 *                the verifier returned, each VerificationResult validated as the contract's
 *                model does (no extra key, weight > 0, a diff JSON can write)
 * @return 0; ASSAY_EINVALID (the verifier cannot be built, raised, returned something else, did
 *         not answer within the timeout, died; the message names the file, the class and the
 *         interpreter, with Python's message or the end of its standard error); ASSAY_ENOTFOUND
 *         or ASSAY_EIO (the file cannot be read); all with `err` set
 */
ASSAY_EXTERN int assay_python_verify(assay_value *results, const assay_python_call *call,
				     assay_err *err);

#ifdef __cplusplus
}
#endif
#endif
