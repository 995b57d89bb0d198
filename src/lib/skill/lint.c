/*
 * `assay skill lint`: the deterministic convention checks of skill-evals.md section 4, each
 * feeding one of the five convention_compliance keys.
 *
 * Profiles decide severities. Under `agentskills` the errors are exactly the hard rules of the
 * open Agent Skills specification (agentskills.io/specification) as its reference validator
 * (skills-ref, validator.py and parser.py) applies them: SKILL.md present (skill.md accepted),
 * frontmatter opened by "---" and closed by the next "---", a YAML mapping; only name,
 * description, license, allowed-tools, metadata and compatibility; name a non-empty string,
 * NFKC-normalised, at most 64 characters, lower case, letters, digits and hyphens, no leading,
 * trailing or double hyphen, equal to the folder's name; description a non-empty string of at
 * most 1024 characters; compatibility a string of 1-500 characters; allowed-tools a string or
 * a list of strings; metadata a mapping of scalars. Everything else is a warning or info
 * there. `claude-code` adds Claude Code's keys (warnings when unknown) and the platform rules
 * (no XML tags, no reserved words); `writing-skills` adds S1/S4's hard gates (one-line
 * description, word budgets, < 500 lines).
 *
 * Counts are code points (decision 7); words are whitespace-separated tokens (wc -w).
 * Refuses: network access, running the skill's scripts (toolbox skills are only checked for a
 * non-empty scripts/).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <unicase.h>
#include <unictype.h>
#include <uninorm.h>
#include <unistr.h>

#include "assay/fs.h"
#include "assay/yaml.h"
#include "skill/skill_int.h"
#include "util/banned.h"

const char *const assay_skill_convention_keys[ASSAY_SKILL_NKEYS] = {
	"frontmatter", "description_field", "token_efficiency", "progressive_disclosure",
	"type_alignment",
};

enum { K_FM, K_DS, K_TOK, K_PD, K_TYPE };

static const char *const profile_names[] = { "agentskills", "claude-code", "writing-skills" };

int assay_skill_profile_parse(assay_skill_profile *out, const char *name)
{
	for (int i = 0; i < 3; i++)
		if (!strcmp(name, profile_names[i])) {
			*out = (assay_skill_profile)i;
			return 0;
		}
	return ASSAY_EINVALID;
}

const char *assay_skill_profile_name(assay_skill_profile p)
{
	return (unsigned)p < 3 ? profile_names[p] : "unknown";
}

struct lint {
	assay_skill_lint *out;
	const assay_skill_lint_opts *o;
	assay_skill_profile p;
	assay_arena *a;
	char *dir;
	assay_buf text;
	assay_value fm;            /* the frontmatter mapping (null when unusable) */
	size_t fm_len;             /* frontmatter characters */
	const char *body;
	size_t body_len;
	int body_line;             /* line of SKILL.md where the body starts */
	const char *name;          /* valid name string, or NULL */
};

#define E ASSAY_SKILL_ERROR
#define W ASSAY_SKILL_WARNING
#define I ASSAY_SKILL_INFO

/* The severity for the profile: agentskills, claude-code, writing-skills. */
static assay_skill_severity sev(const struct lint *l, assay_skill_severity as,
				assay_skill_severity cc, assay_skill_severity ws)
{
	return l->p == ASSAY_SKILL_PROFILE_AGENTSKILLS ? as
	       : l->p == ASSAY_SKILL_PROFILE_CLAUDE_CODE ? cc : ws;
}

static void add(struct lint *l, const char *id, int key, assay_skill_severity s, int passed,
		int line, const char *fmt, ...) ASSAY_PRINTF(7, 8);
static void add(struct lint *l, const char *id, int key, assay_skill_severity s, int passed,
		int line, const char *fmt, ...)
{
	assay_skill_lint *o = l->out;
	assay_buf b = ASSAY_BUF_INIT;
	va_list ap;

	if (o->nr == o->alloc) {
		o->alloc = o->alloc ? 2 * o->alloc : 32;
		o->checks = assay_xrealloc(o->checks, o->alloc * sizeof(*o->checks));
	}
	va_start(ap, fmt);
	assay_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	o->checks[o->nr++] = (assay_skill_lint_check){ id, key, s, passed,
						       assay_buf_detach(&b, NULL), line };
	if (passed == 0 && s == E)
		o->errors++;
	else if (passed == 0 && s == W)
		o->warnings++;
}

static void summary(struct lint *l, int key, const char *fmt, ...) ASSAY_PRINTF(3, 4);
static void summary(struct lint *l, int key, const char *fmt, ...)
{
	assay_buf b = ASSAY_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	assay_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	free(l->out->summary[key]);
	l->out->summary[key] = assay_buf_detach(&b, NULL);
}

static int line_of(const struct lint *l, const char *p)
{
	int line = 1;

	for (const char *q = l->text.ptr; q < p && q < l->text.ptr + l->text.len; q++)
		line += *q == '\n';
	return line;
}

static int value_line(const struct lint *l, const assay_value *v)
{
	int line, col;

	assay_skill__pos(l->a, v, &line, &col);
	return line;
}

static size_t words(const char *s, size_t n)
{
	size_t count = 0;
	bool in = false;

	for (size_t i = 0; i < n; i++) {
		bool space = isspace((unsigned char)s[i]);
		if (!space && !in)
			count++;
		in = !space;
	}
	return count;
}

static size_t lines(const char *s, size_t n)
{
	size_t count = 0;

	for (size_t i = 0; i < n; i++)
		count += s[i] == '\n';
	return count + (n && s[n - 1] != '\n');
}

/*
 * Frontmatter (FM*)
 */

static bool split_frontmatter(struct lint *l)
{
	const char *t = l->text.ptr, *end;
	size_t n = l->text.len;

	if (n < 3 || strncmp(t, "---", 3)) {
		add(l, "FM2", K_FM, E, 0, 1, "SKILL.md must start with YAML frontmatter (---)");
		return false;
	}
	if (l->p == ASSAY_SKILL_PROFILE_AGENTSKILLS) {
		/* The reference validator: content.split("---", 2). */
		end = memmem(t + 3, n - 3, "---", 3);
	} else {
		/* A line "---" of its own closes it. */
		end = NULL;
		for (const char *q = memchr(t, '\n', n); q && !end; q = memchr(q + 1, '\n',
									   (size_t)(t + n - q - 1))) {
			const char *s = q + 1;
			size_t left = (size_t)(t + n - s);
			if (left >= 3 && !strncmp(s, "---", 3) &&
			    (left == 3 || s[3] == '\n' || (s[3] == '\r' && (left == 4 ||
									    s[4] == '\n'))))
				end = s;
		}
	}
	if (!end) {
		add(l, "FM2", K_FM, E, 0, 1, "SKILL.md frontmatter not properly closed with ---");
		return false;
	}
	assay_yaml_opts yo = ASSAY_YAML_OPTS_INIT;
	assay_err e = ASSAY_ERR_INIT;
	yo.source = l->out->skill_md;
	yo.positions = true;
	l->fm_len = assay_skill__utf8_len(t + 3, (size_t)(end - t - 3));
	if (assay_yaml_parse(&l->fm, l->a, t + 3, (size_t)(end - t - 3), &yo, &e)) {
		add(l, "FM2", K_FM, E, 0, e.line, "Invalid YAML in frontmatter: %s", e.msg);
		l->fm = assay_value_null();
		return false;
	}
	if (l->fm.kind != ASSAY_V_OBJECT) {
		add(l, "FM2", K_FM, E, 0, 1, "SKILL.md frontmatter must be a YAML mapping");
		l->fm = assay_value_null();
		return false;
	}
	add(l, "FM2", K_FM, E, 1, 1, "frontmatter is a YAML mapping");
	end += 3;
	while (end < t + n && *end != '\n')
		end++;
	l->body = end < t + n ? end + 1 : end;
	l->body_len = (size_t)(t + n - l->body);
	l->body_line = line_of(l, l->body);
	return true;
}

/* A non-empty string after stripping white space, or NULL. */
static const assay_value *text_field(struct lint *l, const char *key)
{
	const assay_member *m = assay_object_member(&l->fm, key);

	if (!m) {
		add(l, "FM3", K_FM, E, 0, 1, "Missing required field in frontmatter: %s", key);
		return NULL;
	}
	bool blank = true;
	for (uint32_t i = 0; m->value.kind == ASSAY_V_STRING && i < m->value.len; i++)
		blank &= isspace((unsigned char)m->value.u.s[i]) != 0;
	if (m->value.kind != ASSAY_V_STRING || blank) {
		add(l, "FM3", K_FM, E, 0, value_line(l, assay_member_anchor(m)),
		    "Field '%s' must be a non-empty string", key);
		return NULL;
	}
	add(l, "FM3", K_FM, E, 1, value_line(l, &m->value), "'%s' is a non-empty string", key);
	return &m->value;
}

static const char *const spec_keys[] = { "name", "description", "license", "allowed-tools",
					 "metadata", "compatibility", NULL };
static const char *const cc_keys[] = { "argument-hint", "disable-model-invocation",
				       "user-invocable", "model", "context", "agent", NULL };

static bool in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

static bool has_tag(const assay_value *v)
{
	if (v->kind == ASSAY_V_STRING) {
		const char *lt = memchr(v->u.s, '<', v->len);
		while (lt) {
			const char *gt = memchr(lt + 1, '>', (size_t)(v->u.s + v->len - lt - 1));
			if (gt && gt > lt + 1 && !memchr(lt + 1, '<', (size_t)(gt - lt - 1)))
				return true;
			lt = memchr(lt + 1, '<', (size_t)(v->u.s + v->len - lt - 1));
		}
	} else if (v->kind == ASSAY_V_ARRAY) {
		for (uint32_t i = 0; i < v->len; i++)
			if (has_tag(&v->u.items[i]))
				return true;
	} else if (v->kind == ASSAY_V_OBJECT) {
		for (uint32_t i = 0; i < v->len; i++)
			if (has_tag(&v->u.members[i].value))
				return true;
	}
	return false;
}

static void check_keys(struct lint *l)
{
	bool ok = true;

	for (uint32_t i = 0; i < l->fm.len; i++) {
		const assay_member *m = &l->fm.u.members[i];
		const char *k = m->key.u.s;

		if (in_list(spec_keys, k))
			continue;
		bool cc = in_list(cc_keys, k);
		if (l->p == ASSAY_SKILL_PROFILE_AGENTSKILLS)
			add(l, "FM4", K_FM, E, 0, value_line(l, &m->key),
			    "Unexpected field in frontmatter: %s (the specification allows name, "
			    "description, license, allowed-tools, metadata, compatibility)", k);
		else if (!cc)
			add(l, "FM4", K_FM, W, 0, value_line(l, &m->key),
			    "Unknown field in frontmatter: %s", k);
		ok &= cc && l->p != ASSAY_SKILL_PROFILE_AGENTSKILLS;
	}
	if (ok)
		add(l, "FM4", K_FM, sev(l, E, W, W), 1, 1, "only known fields");

	const assay_member *m;
	if ((m = assay_object_member(&l->fm, "compatibility"))) {
		size_t n = m->value.kind == ASSAY_V_STRING
				   ? assay_skill__utf8_len(m->value.u.s, m->value.len) : 0;
		if (m->value.kind != ASSAY_V_STRING)
			add(l, "FM5", K_FM, E, 0, value_line(l, &m->key),
			    "Field 'compatibility' must be a string");
		else if (n < 1 || n > 500)
			add(l, "FM5", K_FM, E, 0, value_line(l, &m->value),
			    "Compatibility must be 1-500 characters (%zu chars)", n);
		else
			add(l, "FM5", K_FM, E, 1, value_line(l, &m->value), "compatibility: %zu "
			    "characters", n);
	}
	if ((m = assay_object_member(&l->fm, "allowed-tools"))) {
		bool good = m->value.kind == ASSAY_V_STRING || m->value.kind == ASSAY_V_ARRAY;
		for (uint32_t i = 0; m->value.kind == ASSAY_V_ARRAY && i < m->value.len; i++)
			good &= m->value.u.items[i].kind == ASSAY_V_STRING;
		add(l, "FM6", K_FM, E, good, value_line(l, &m->key), good
		    ? "allowed-tools is a string or a list of strings"
		    : "Field 'allowed-tools' must be either a string or a list of strings");
	}
	if ((m = assay_object_member(&l->fm, "metadata"))) {
		bool good = m->value.kind == ASSAY_V_OBJECT;
		for (uint32_t i = 0; good && i < m->value.len; i++) {
			uint8_t kd = m->value.u.members[i].value.kind;
			good &= kd != ASSAY_V_ARRAY && kd != ASSAY_V_OBJECT;
		}
		add(l, "FM7", K_FM, sev(l, E, W, W), good, value_line(l, &m->key), good
		    ? "metadata maps strings to strings"
		    : "Field 'metadata' must be a map from string keys to string values");
		if (good && !assay_object_get(&m->value, "version"))
			add(l, "FM7", K_FM, I, 0, value_line(l, &m->key),
			    "metadata.version is not set");
	}
	bool tag = false;
	for (uint32_t i = 0; i < l->fm.len; i++)
		if (has_tag(&l->fm.u.members[i].value)) {
			add(l, "FM8", K_FM, sev(l, W, E, E), 0,
			    value_line(l, &l->fm.u.members[i].key),
			    "XML/HTML tag in frontmatter field '%s'", l->fm.u.members[i].key.u.s);
			tag = true;
		}
	if (!tag)
		add(l, "FM8", K_FM, sev(l, W, E, E), 1, 1, "no XML tags in the frontmatter");
	add(l, "FM9", K_FM, W, l->fm_len <= 1024, 1, "frontmatter is %zu characters (%s 1024)",
	    l->fm_len, l->fm_len <= 1024 ? "at most" : "more than");
}

/*
 * Name (NM*)
 */

static char *strip(const char *s, size_t n, size_t *len)
{
	while (n && isspace((unsigned char)*s))
		s++, n--;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	*len = n;
	return assay_xstrndup(s, n);
}

static char *nfkc(const char *s, size_t n, size_t *len)
{
	uint8_t *r = u8_normalize(UNINORM_NFKC, (const uint8_t *)s, n, NULL, len);
	char *out;

	if (!r) {
		*len = n;
		return assay_xstrndup(s, n);
	}
	out = assay_xstrndup((const char *)r, *len);
	free(r);
	return out;
}

static void check_name(struct lint *l, const assay_value *v)
{
	size_t n, dn;
	char *raw = strip(v->u.s, v->len, &n);
	char *name = nfkc(raw, n, &n);
	int line = value_line(l, v);
	size_t chars = assay_skill__utf8_len(name, n);
	bool as = l->p == ASSAY_SKILL_PROFILE_AGENTSKILLS;

	free(raw);
	add(l, "NM1", K_FM, E, chars <= 64, line, chars <= 64
	    ? "name: %zu characters (at most 64)"
	    : "Skill name exceeds 64 character limit (%zu chars)", chars);
	bool lower = true, charset = true;
	if (as) {
		size_t ln;
		uint8_t *low = u8_tolower((const uint8_t *)name, n, NULL, NULL, NULL, &ln);
		lower = low && ln == n && !memcmp(low, name, n);
		free(low);
		for (const uint8_t *p = (const uint8_t *)name; p < (const uint8_t *)name + n;) {
			ucs4_t c;
			int k = u8_mbtouc(&c, p, (size_t)((const uint8_t *)name + n - p));
			if (c != '-' && !uc_is_general_category(c, UC_CATEGORY_L) &&
			    !uc_is_general_category(c, UC_CATEGORY_N))
				charset = false;
			p += k > 0 ? k : 1;
		}
	} else {
		for (size_t i = 0; i < n; i++)
			charset &= (name[i] >= 'a' && name[i] <= 'z') ||
				   (name[i] >= '0' && name[i] <= '9') || name[i] == '-';
	}
	if (!lower)
		add(l, "NM2", K_FM, E, 0, line, "Skill name '%s' must be lowercase", name);
	if (!charset)
		add(l, "NM2", K_FM, E, 0, line, as
		    ? "Skill name '%s' contains invalid characters. Only letters, digits, and "
		      "hyphens are allowed."
		    : "Skill name '%s' may only hold a-z, 0-9 and hyphens", name);
	if (lower && charset)
		add(l, "NM2", K_FM, E, 1, line, "name characters are valid");
	bool edge = n && (name[0] == '-' || name[n - 1] == '-');
	bool dbl = strstr(name, "--") != NULL;
	if (edge)
		add(l, "NM3", K_FM, E, 0, line, "Skill name cannot start or end with a hyphen");
	if (dbl)
		add(l, "NM3", K_FM, E, 0, line, "Skill name cannot contain consecutive hyphens");
	if (!edge && !dbl)
		add(l, "NM3", K_FM, E, 1, line, "hyphens are well placed");

	char *dirname = l->o && l->o->name_dir ? assay_xstrdup(l->o->name_dir)
					       : assay_skill__basename(l->dir);
	char *dir = nfkc(dirname, strlen(dirname), &dn);
	bool match = dn == n && !memcmp(dir, name, n);
	add(l, "NM4", K_FM, sev(l, E, W, W), match, line, match
	    ? "name matches the folder name"
	    : "Directory name '%s' must match skill name '%s'", dirname, name);
	free(dirname);
	free(dir);

	bool reserved = strcasestr(name, "claude") || strcasestr(name, "anthropic");
	add(l, "NM5", K_FM, sev(l, W, E, E), !reserved, line, reserved
	    ? "name '%s' contains a reserved word (claude, anthropic)"
	    : "no reserved word in the name%s", reserved ? name : "");
	l->name = v->u.s;
	free(name);
}

/*
 * Description (DS*)
 */

/* Whether the n bytes at s hold w, ignoring ASCII case (s need not end in NUL). */
static bool has_ci(const char *s, size_t n, const char *w)
{
	size_t k = strlen(w);

	for (size_t i = 0; i + k <= n; i++)
		if (!strncasecmp(s + i, w, k))
			return true;
	return false;
}

static bool has_word(const char *s, size_t n, const char *w, bool fold)
{
	size_t k = strlen(w);

	for (size_t i = 0; i + k <= n; i++) {
		bool start = i == 0 || !isalnum((unsigned char)s[i - 1]);
		bool end = i + k == n || !(isalnum((unsigned char)s[i + k]) || s[i + k] == '\'');
		if (start && end && (fold ? !strncasecmp(s + i, w, k) : !strncmp(s + i, w, k)))
			return true;
	}
	return false;
}

static void check_description(struct lint *l, const assay_value *v)
{
	const char *s = v->u.s;
	size_t n = v->len, chars = assay_skill__utf8_len(s, n);
	int line = value_line(l, v);
	bool ws = l->p == ASSAY_SKILL_PROFILE_WRITING_SKILLS;

	add(l, "DS1", K_DS, E, chars <= 1024, line, chars <= 1024
	    ? "description: %zu characters (at most 1024)"
	    : "Description exceeds 1024 character limit (%zu chars)", chars);
	bool multi = memchr(s, '\n', n) != NULL;
	add(l, "DS2", K_DS, sev(l, I, W, E), !multi, line, multi
	    ? "description spans several lines (a block scalar?): keep it on one line"
	    : "description is one line");
	add(l, "DS3", K_DS, W, chars <= 500, line, "description is %zu characters (%s 500)",
	    chars, chars <= 500 ? "at most" : "more than the soft limit of");
	if (chars > 200)
		add(l, "DS3", K_DS, I, 0, line, "descriptions under 200 characters load best");
	static const char *const first[] = { "I", "I'm", "I'll", "I've", NULL };
	static const char *const second[] = { "my", "we", "our", "us", "you", "your", NULL };
	const char *who = NULL;
	for (int i = 0; first[i] && !who; i++)
		if (has_word(s, n, first[i], false))
			who = first[i];
	for (int i = 0; second[i] && !who; i++)
		if (has_word(s, n, second[i], true))
			who = second[i];
	add(l, "DS4", K_DS, W, !who, line, who
	    ? "description is not in the third person ('%s')"
	    : "description is in the third person%s", who ? who : "");
	if (ws) {
		bool trig = n >= 8 && !strncasecmp(s, "Use when", 8);
		add(l, "DS5", K_DS, W, trig, line, trig
		    ? "description starts with the trigger 'Use when'"
		    : "description must start with 'Use when' (writing-skills)");
	} else {
		bool trig = has_word(s, n, "when", true) || has_word(s, n, "use", true);
		add(l, "DS5", K_DS, sev(l, I, W, W), trig, line, trig
		    ? "description says when to use the skill"
		    : "description does not say when to use the skill ('Use when ...')");
	}
	static const char *const markers[] = { " then ", "->", "\xe2\x86\x92", " step",
					       "first,", " dispatches", " runs ", NULL };
	const char *found = NULL;
	for (int i = 0; markers[i] && !found; i++)
		if (strcasestr(s, markers[i]))
			found = markers[i];
	/* " - requires ...": a dash then a verb in the third person */
	for (const char *d = strstr(s, " - "); d && !found; d = strstr(d + 3, " - ")) {
		const char *w = d + 3, *e = w;
		while (isalpha((unsigned char)*e))
			e++;
		if (e - w > 3 && e[-1] == 's' && e[-2] != 's' && islower((unsigned char)*w))
			found = "' - ' and a verb";
	}
	for (size_t i = 0; i + 2 < n && !found; i++)
		if (isdigit((unsigned char)s[i]) && (s[i + 1] == '.' || s[i + 1] == ')') &&
		    s[i + 2] == ' ' && (i == 0 || s[i - 1] == ' '))
			found = "a numbered item";
	add(l, "DS6", K_DS, sev(l, I, I, W), !found, line, found
	    ? "description seems to summarize the workflow ('%s'): say only when to use it"
	    : "description does not summarize the workflow%s", found ? found : "");
	size_t w = words(s, n);
	add(l, "DS7", K_DS, I, w >= 5, line, "description has %zu words", w);
	summary(l, K_DS, "%zu characters, %zu words", chars, w);
}

/*
 * Body (BD*) and references (PD*)
 */

/* Calls fn for each line of the body outside fenced code blocks. */
static bool in_fence_toggle(const char *line, size_t n)
{
	while (n && (*line == ' ')) line++, n--;
	return n >= 3 && (!strncmp(line, "```", 3) || !strncmp(line, "~~~", 3));
}

struct refs {
	char **v;
	int *line;                 /* the line of each, 0 when not counted */
	size_t nr, alloc;
};

/* Adds a reference once: a second mention keeps the first one's line. */
static void refs_add(struct refs *r, const char *s, size_t n, int line)
{
	for (size_t i = 0; i < r->nr; i++)
		if (strlen(r->v[i]) == n && !strncmp(r->v[i], s, n))
			return;
	if (r->nr == r->alloc) {
		r->alloc = r->alloc ? 2 * r->alloc : 8;
		r->v = assay_xrealloc(r->v, r->alloc * sizeof(*r->v));
		r->line = assay_xrealloc(r->line, r->alloc * sizeof(*r->line));
	}
	r->line[r->nr] = line;
	r->v[r->nr++] = assay_xstrndup(s, n);
}

static void refs_clear(struct refs *r)
{
	for (size_t i = 0; i < r->nr; i++)
		free(r->v[i]);
	free(r->v);
	free(r->line);
	*r = (struct refs){ 0 };
}

static bool is_url(const char *s, size_t n)
{
	return memmem(s, n, "://", 3) || (n >= 7 && !strncasecmp(s, "mailto:", 7)) ||
	       (n && s[0] == '#');
}

static bool looks_like_path(const char *s, size_t n)
{
	static const char *const ext[] = { ".md", ".py", ".sh", ".js", ".ts", ".txt", ".json",
					   ".yaml", ".yml", ".html", ".csv", NULL };
	if (!n || memchr(s, ' ', n) || s[0] == '/' || s[0] == '~' || s[0] == '-' ||
	    !memchr(s, '/', n) || is_url(s, n) || memchr(s, '*', n) || memchr(s, '<', n) ||
	    memchr(s, '$', n) || memchr(s, '{', n))
		return false;
	for (int i = 0; ext[i]; i++) {
		size_t k = strlen(ext[i]);
		if (n > k && !strncmp(s + n - k, ext[i], k))
			return true;
	}
	return false;
}

/*
 * Local link targets of markdown text (outside fences): [x](target) into `links` and
 * `path/x.ext` into `ticks`, each with its line (`first_line` is the line of t's first).
 */
static void find_refs(const char *t, size_t n, int first_line, struct refs *links,
		      struct refs *ticks, bool *backslash)
{
	bool fence = false;
	const char *end = t + n;
	int line_no = first_line;

	for (const char *line = t; line < end; line_no++) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		size_t len = nl ? (size_t)(nl - line) : (size_t)(end - line);

		if (in_fence_toggle(line, len)) {
			fence = !fence;
		} else if (!fence) {
			for (size_t i = 0; i + 1 < len; i++) {
				if (line[i] == ']' && line[i + 1] == '(') {
					size_t j = i + 2, k = j;
					while (k < len && line[k] != ')' && line[k] != ' ')
						k++;
					const char *tg = line + j;
					size_t tn = k - j;
					if (tn && tg[0] == '<')
						tg++, tn -= tn > 1 ? 2 : 1;
					const char *hash = memchr(tg, '#', tn);
					if (hash && hash != tg)
						tn = (size_t)(hash - tg);
					if (tn && !is_url(tg, tn)) {
						if (memchr(tg, '\\', tn) && backslash)
							*backslash = true;
						refs_add(links, tg, tn, line_no);
					}
				} else if (line[i] == '`' && ticks) {
					const char *close = memchr(line + i + 1, '`', len - i - 1);
					if (close) {
						const char *s = line + i + 1;
						size_t sn = (size_t)(close - s);
						if (sn > 2 && s[0] == '.' && s[1] == '/')
							s += 2, sn -= 2;
						if (looks_like_path(s, sn))
							refs_add(ticks, s, sn, line_no);
						i = (size_t)(close - line);
					}
				}
			}
		}
		line = nl ? nl + 1 : end;
	}
}

static bool is_md(const char *s)
{
	size_t n = strlen(s);
	return n > 3 && !strcasecmp(s + n - 3, ".md");
}

/*
 * PD1 tells the two kinds of reference apart: a relative link in Markdown link syntax is the
 * skill pointing at a file of its own, so one that does not resolve inside the skill is an
 * error; a backticked path may name a file the skill tells its reader to create
 * (skill-creator's `evals/evals.json`), so one that does not exist is a warning (issue 20
 * item 8). Each is reported on its own line.
 */
static bool resolves(const struct lint *l, const char *r)
{
	char *p = assay_path_join(l->dir, r);
	bool ok = assay_path_is_contained(r) && assay_fs_exists(p);

	free(p);
	return ok;
}

static void check_references(struct lint *l)
{
	struct refs links = { 0 }, ticks = { 0 };
	bool backslash = false;
	size_t missing = 0, absent = 0, total;

	find_refs(l->body, l->body_len, l->body_line, &links, &ticks, &backslash);
	for (size_t i = 0; i < links.nr; i++)
		if (!resolves(l, links.v[i])) {
			add(l, "PD1", K_PD, E, 0, links.line[i], "link '%s' does not resolve "
			    "inside the skill", links.v[i]);
			missing++;
		}
	for (size_t i = 0; i < ticks.nr; i++) {
		bool linked = false;
		for (size_t m = 0; m < links.nr && !linked; m++)
			linked = !strcmp(links.v[m], ticks.v[i]);
		if (!linked && !resolves(l, ticks.v[i])) {
			add(l, "PD1", K_PD, W, 0, ticks.line[i], "path '%s' is not a file of the "
			    "skill (fine if the skill asks its reader to create it)", ticks.v[i]);
			absent++;
		}
	}
	for (size_t i = 0; i < ticks.nr; i++)
		refs_add(&links, ticks.v[i], strlen(ticks.v[i]), ticks.line[i]);
	total = links.nr;
	if (!missing && !absent)
		add(l, "PD1", K_PD, E, 1, l->body_line, "%zu local references, all resolve",
		    total);
	else if (!missing)
		add(l, "PD1", K_PD, E, 1, l->body_line, "every link resolves");
	add(l, "PD5", K_PD, W, !backslash, l->body_line, backslash
	    ? "a link uses '\\' as a path separator: use '/'" : "links use forward slashes");

	/* PD2 and PD3: the Markdown files SKILL.md links to. */
	bool deep = false, toc_missing = false;
	for (size_t i = 0; i < links.nr; i++) {
		if (!is_md(links.v[i]) || !assay_path_is_contained(links.v[i]))
			continue;
		char *p = assay_path_join(l->dir, links.v[i]);
		assay_buf t = ASSAY_BUF_INIT;
		if (!assay_fs_read(&t, p, 4u << 20, NULL)) {
			struct refs sub = { 0 };
			find_refs(t.ptr, t.len, 1, &sub, NULL, NULL);
			char *slash = strrchr(links.v[i], '/');
			size_t base = slash ? (size_t)(slash - links.v[i] + 1) : 0;
			for (size_t j = 0; j < sub.nr; j++) {
				if (!is_md(sub.v[j]))
					continue;
				char *rel = assay_xasprintf("%.*s%s", (int)base, links.v[i],
							    sub.v[j]);
				bool known = false;
				for (size_t m = 0; m < links.nr; m++)
					known |= !strcmp(links.v[m], rel);
				if (!known) {
					add(l, "PD2", K_PD, W, 0, 0, "%s links to %s, which SKILL.md "
					    "does not link: keep references one level deep",
					    links.v[i], sub.v[j]);
					deep = true;
				}
				free(rel);
			}
			refs_clear(&sub);
			size_t nl = lines(t.ptr, t.len);
			if (nl > 100) {
				size_t head = 0, anchors = 0;
				bool contents = false;
				for (const char *q = t.ptr; q < t.ptr + t.len && head < 30; head++) {
					const char *e = memchr(q, '\n', (size_t)(t.ptr + t.len - q));
					size_t len = e ? (size_t)(e - q) : (size_t)(t.ptr + t.len - q);
					char *ln = assay_xstrndup(q, len);
					if (ln[0] == '#' && strcasestr(ln, "contents"))
						contents = true;
					for (char *a = strstr(ln, "](#"); a; a = strstr(a + 3, "](#"))
						anchors++;
					free(ln);
					q = e ? e + 1 : t.ptr + t.len;
				}
				if (!contents && anchors < 3) {
					add(l, "PD3", K_PD, W, 0, 0, "%s has %zu lines but no table of "
					    "contents near its top", links.v[i], nl);
					toc_missing = true;
				}
			}
		}
		assay_buf_release(&t);
		free(p);
	}
	if (!deep)
		add(l, "PD2", K_PD, W, 1, 0, "references are one level deep");
	if (!toc_missing)
		add(l, "PD3", K_PD, W, 1, 0, "long reference files have a table of contents");
	summary(l, K_PD, "%zu local references%s", total, missing || absent ? ""
		: ", all resolve");
	refs_clear(&links);
	refs_clear(&ticks);
}

static void check_body(struct lint *l)
{
	const char *b = l->body;
	size_t n = l->body_len, nl = lines(b, n), nw = words(b, n);
	bool blank = true, fence = false;
	size_t code_blocks = 0, sections = 0, fence_start = 0, line_no = 0;
	int crit = 0, imp = 0, at_line = 0;
	bool big_block = false, order_bad = false;

	for (size_t i = 0; i < n; i++)
		blank &= isspace((unsigned char)b[i]) != 0;
	add(l, "BD1", K_TOK, E, !blank, l->body_line, blank
	    ? "SKILL.md has no body after the frontmatter" : "body present");
	add(l, "BD2", K_TOK, sev(l, W, W, E), nl < 500, l->body_line,
	    "body is %zu lines (%s 500)", nl, nl < 500 ? "under" : "not under");

	const char *cls = l->o && l->o->budget_class ? l->o->budget_class : NULL;
	const assay_value *md = assay_object_get(&l->fm, "metadata");
	if (!cls && md)
		cls = assay_skill__str(md, "budget");
	if (!cls)
		cls = "other";
	size_t budget = !strcmp(cls, "getting-started") ? 150
			: !strcmp(cls, "frequently-loaded") ? 200 : 500;
	add(l, "BD3", K_TOK, sev(l, I, I, E), nw < budget, l->body_line,
	    "body is %zu words (budget %zu for %s skills)", nw, budget, cls);
	summary(l, K_TOK, "%zu words, %zu lines in the body (budget %zu words, %s)", nw, nl,
		budget, cls);

	for (const char *line = b; line < b + n;) {
		const char *e = memchr(line, '\n', (size_t)(b + n - line));
		size_t len = e ? (size_t)(e - line) : (size_t)(b + n - line);
		line_no++;
		if (in_fence_toggle(line, len)) {
			if (!fence) {
				fence_start = line_no;
				code_blocks++;
			} else if (line_no - fence_start - 1 >= 50) {
				big_block = true;
				add(l, "BD5", K_PD, W, 0, l->body_line + (int)fence_start - 1,
				    "code block of %zu lines: move it to a file",
				    line_no - fence_start - 1);
			}
			fence = !fence;
		} else if (!fence && len > 3 && !strncmp(line, "## ", 3)) {
			sections++;
			/* The heading line alone: `line` runs on into the rest of the body. */
			if (!crit && has_ci(line, len, "critical"))
				crit = (int)line_no;
			if (!imp && has_ci(line, len, "important"))
				imp = (int)line_no;
		} else if (!fence && len > 2 && line[0] == '@') {
			at_line = at_line ? at_line : (int)line_no;
		}
		if (!fence) {
			/* PD4: "@path" force-loads a file */
			for (size_t i = 0; i + 1 < len && !at_line; i++)
				if (line[i] == '@' && (i == 0 || isspace((unsigned char)line[i - 1]))) {
					size_t k = i + 1;
					bool pathy = false;
					while (k < len && (isalnum((unsigned char)line[k]) ||
							   strchr("_./-", line[k]))) {
						pathy |= line[k] == '/' || line[k] == '.';
						k++;
					}
					if (pathy && k > i + 2 && line[k - 1] != '.')
						at_line = (int)line_no;
				}
		}
		line = e ? e + 1 : b + n;
	}
	if (!big_block)
		add(l, "BD5", K_PD, W, 1, l->body_line, "code blocks are under 50 lines");
	add(l, "BD4", K_TOK, I, nl <= 50 && nw < 1000 && code_blocks <= 2 && sections >= 3 &&
	    sections <= 5, l->body_line, "strict profile: %zu lines (~50), %zu words (< 1000), "
	    "%zu code blocks (1-2), %zu sections (3-5)", nl, nw, code_blocks, sections);
	add(l, "PD4", K_PD, W, !at_line, at_line ? l->body_line + at_line - 1 : l->body_line,
	    at_line ? "an @path link force-loads a file: link it instead"
		    : "no @path force-loading");
	order_bad = crit && imp && crit > imp;
	add(l, "PD6", K_PD, sev(l, I, I, W), !order_bad, l->body_line, order_bad
	    ? "'## Important' comes before '## Critical': order Critical > Important > Reference"
	    : "section order is Critical > Important > Reference");
	if (!crit && !imp && nl > 100)
		add(l, "PD6", K_PD, I, 0, l->body_line, "a long body without Critical/Important "
		    "sections");
	static const char *const forbidden[] = { "README.md", "INSTALLATION_GUIDE.md",
						 "CHANGELOG.md", NULL };
	bool any = false;
	for (int i = 0; forbidden[i]; i++) {
		char *p = assay_path_join(l->dir, forbidden[i]);
		if (assay_fs_exists(p)) {
			add(l, "BD6", K_PD, W, 0, 0, "%s in the skill folder: skills keep no "
			    "auxiliary documentation", forbidden[i]);
			any = true;
		}
		free(p);
	}
	if (!any)
		add(l, "BD6", K_PD, W, 1, 0, "no auxiliary documentation files");
}

/*
 * Type alignment (4.5)
 */

static bool scripts_present(const char *dir)
{
	char *p = assay_path_join(dir, "scripts");
	DIR *d = opendir(p);
	struct dirent *e;
	bool any = false;

	while (d && (e = readdir(d)))
		any |= e->d_name[0] != '.';
	if (d)
		closedir(d);
	free(p);
	return any;
}

static void check_type(struct lint *l)
{
	const char *type = l->o && l->o->skill_type ? l->o->skill_type : NULL;
	const assay_value *md = assay_object_get(&l->fm, "metadata");
	const char *b = l->body;
	size_t n = l->body_len;

	if (!type && md)
		type = assay_skill__str(md, "type");
	if (!type) {
		add(l, "TA1", K_TYPE, W, -1, 0, "no type declared (metadata.type or lint.type): "
		    "type alignment not decided");
		summary(l, K_TYPE, "no type declared");
		return;
	}
	char *body = assay_xstrndup(b, n);
	int ok = -1;
	const char *what = "";
	if (!strcmp(type, "discipline")) {
		bool table = false;
		for (char *q = body; q && *q; q = strchr(q, '\n'), q = q ? q + 1 : NULL) {
			char *e = strchr(q, '\n');
			size_t len = e ? (size_t)(e - q) : strlen(q);
			char *ln = assay_xstrndup(q, len);
			if (ln[0] == '|' && (strcasestr(ln, "excuse") ||
					     strcasestr(ln, "rationalization")))
				table = true;
			free(ln);
		}
		ok = table || strcasestr(body, "red flags") || strcasestr(body, "no exceptions") ||
		     strcasestr(body, "violating the letter");
		what = ok ? "has a rationalization table, red flags or loophole closers"
			  : "a discipline skill needs a rationalization table (Excuse | Reality), "
			    "a Red Flags section or loophole closers";
	} else if (!strcmp(type, "technique")) {
		bool steps = false;
		for (const char *q = body; *q; q++)
			if ((q == body || q[-1] == '\n')) {
				const char *s = q;
				while (*s == ' ')
					s++;
				if (isdigit((unsigned char)*s)) {
					while (isdigit((unsigned char)*s))
						s++;
					steps |= (*s == '.' || *s == ')') && s[1] == ' ';
				}
			}
		ok = steps;
		what = ok ? "has numbered steps" : "a technique skill needs numbered steps";
	} else if (!strcmp(type, "reference")) {
		ok = strstr(body, "|---") || strstr(body, "| ---") || strstr(body, "|:--");
		what = ok ? "has lookup tables" : "a reference skill needs tables or lookup sections";
	} else if (!strcmp(type, "toolbox")) {
		ok = scripts_present(l->dir);
		what = ok ? "scripts/ holds its tools" : "a toolbox skill needs a non-empty scripts/";
	} else if (!strcmp(type, "knowledge") || !strcmp(type, "pattern")) {
		what = "not decidable without reading it";
	} else {
		ok = 0;
		what = "unknown type (discipline, technique, reference, toolbox, knowledge, "
		       "pattern)";
	}
	add(l, "TA1", K_TYPE, W, ok, 0, "%s skill: %s", type, what);
	summary(l, K_TYPE, "%s skill: %s", type, what);
	free(body);
}

int assay_skill_lint_run(assay_skill_lint *out, const char *skill_dir,
			 const assay_skill_lint_opts *opts, assay_err *err)
{
	struct lint l = { 0 };
	char *p;

	*out = (assay_skill_lint)ASSAY_SKILL_LINT_INIT;
	if (!assay_fs_is_dir(skill_dir))
		return assay_err_set(err, ASSAY_ENOTFOUND, skill_dir, 0, 0, "not a folder");
	l.out = out;
	l.o = opts;
	l.p = opts ? opts->profile : ASSAY_SKILL_PROFILE_AGENTSKILLS;
	l.a = assay_arena_new(16u << 20);
	l.dir = assay_path_absolute(skill_dir);
	l.text = (assay_buf)ASSAY_BUF_INIT;
	l.fm = assay_value_null();
	out->profile = l.p;
	out->skill_dir = assay_xstrdup(l.dir);

	p = assay_path_join(l.dir, "SKILL.md");
	if (!assay_fs_exists(p) && l.p == ASSAY_SKILL_PROFILE_AGENTSKILLS) {
		free(p);
		p = assay_path_join(l.dir, "skill.md");
	}
	if (!assay_fs_exists(p) || assay_fs_read(&l.text, p, 8u << 20, NULL)) {
		add(&l, "FM1", K_FM, E, 0, 0, "Missing required file: SKILL.md");
		free(p);
		goto out;
	}
	out->skill_md = p;
	add(&l, "FM1", K_FM, E, 1, 0, "%s present", strrchr(p, '/') + 1);
	if (!split_frontmatter(&l))
		goto out;
	check_keys(&l);
	const assay_value *name = text_field(&l, "name");
	const assay_value *desc = text_field(&l, "description");
	if (name)
		check_name(&l, name);
	if (desc)
		check_description(&l, desc);
	if (name && desc) {
		size_t w = words(name->u.s, name->len) + words(desc->u.s, desc->len);
		add(&l, "PD7", K_PD, I, w <= 100, 1, "name and description: %zu words (~100 "
		    "loaded at startup)", w);
	}
	summary(&l, K_FM, "valid YAML frontmatter%s", name && desc ? ", name and description "
		"present" : "");
	check_body(&l);
	check_references(&l);
	check_type(&l);
out:
	assay_buf_release(&l.text);
	assay_arena_free(l.a);
	free(l.dir);
	return 0;
}

void assay_skill_lint_release(assay_skill_lint *l)
{
	for (size_t i = 0; i < l->nr; i++)
		free(l->checks[i].message);
	for (int k = 0; k < ASSAY_SKILL_NKEYS; k++)
		free(l->summary[k]);
	free(l->checks);
	free(l->skill_dir);
	free(l->skill_md);
	*l = (assay_skill_lint)ASSAY_SKILL_LINT_INIT;
}

assay_value assay_skill_lint_compliance(const assay_skill_lint *l, const char *label,
					assay_arena *a)
{
	assay_value cc = assay_value_object();
	const char *what = label ? label : l->skill_md ? l->skill_md : "SKILL.md";

	for (int k = 0; k < ASSAY_SKILL_NKEYS; k++) {
		assay_buf d = ASSAY_BUF_INIT;
		bool failed = false;
		assay_value e = assay_value_object();

		if (*what)
			assay_buf_addf(&d, "%s: ", what);
		for (size_t i = 0; i < l->nr; i++) {
			const assay_skill_lint_check *c = &l->checks[i];
			if (c->key != k || c->severity == ASSAY_SKILL_INFO)
				continue;
			if (c->passed == 0) {
				assay_buf_addf(&d, "%s%s %s", failed ? "; " : "", c->id, c->message);
				failed = true;
			}
		}
		if (!failed)
			assay_buf_adds(&d, l->summary[k] ? l->summary[k]
				       : l->skill_md ? "not checked" : "no SKILL.md");
		/*
		 * grading.json types `passed` as a bool: a key none of whose checks could be
		 * decided (type_alignment of an undeclared or undecidable type) did not fail,
		 * and its details say why (issue 20 item 8).
		 */
		assay_object_set(a, &e, "passed", assay_value_bool(!failed));
		assay_object_set(a, &e, "details", assay_value_string(a, d.ptr, d.len));
		assay_buf_release(&d);
		assay_object_set(a, &cc, assay_skill_convention_keys[k], e);
	}
	return cc;
}

assay_value assay_skill_lint_value(const assay_skill_lint *l, assay_arena *a)
{
	static const char *const sevs[] = { "info", "warning", "error" };
	assay_value v = assay_value_object(), checks = assay_value_array();

	assay_object_set(a, &v, "skill", assay_value_strz(a, l->skill_dir ? l->skill_dir : ""));
	assay_object_set(a, &v, "skill_md", l->skill_md ? assay_value_strz(a, l->skill_md)
							: assay_value_null());
	assay_object_set(a, &v, "profile", assay_value_strz(a, assay_skill_profile_name(l->profile)));
	assay_object_set(a, &v, "convention_compliance", assay_skill_lint_compliance(l, NULL, a));
	for (size_t i = 0; i < l->nr; i++) {
		const assay_skill_lint_check *c = &l->checks[i];
		assay_value e = assay_value_object();

		assay_object_set(a, &e, "id", assay_value_strz(a, c->id));
		assay_object_set(a, &e, "key", assay_value_strz(a, assay_skill_convention_keys[c->key]));
		assay_object_set(a, &e, "severity", assay_value_strz(a, sevs[c->severity]));
		assay_object_set(a, &e, "passed", c->passed < 0 ? assay_value_null()
							       : assay_value_bool(c->passed));
		assay_object_set(a, &e, "message", assay_value_strz(a, c->message));
		assay_object_set(a, &e, "line", c->line ? assay_value_int(c->line)
						      : assay_value_null());
		assay_array_push(a, &checks, e);
	}
	assay_object_set(a, &v, "checks", checks);
	assay_object_set(a, &v, "errors", assay_value_int((int64_t)l->errors));
	assay_object_set(a, &v, "warnings", assay_value_int((int64_t)l->warnings));
	return v;
}
