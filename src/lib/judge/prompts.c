/*
 * The built-in prompt templates of the three roles and their rendering. `assay skill init`
 * writes them to <workspace>/prompts/<role>.md, where the user edits them; a template file
 * that exists there wins over the built-in one.
 */
#include <string.h>

#include "assay/json.h"
#include "judge/judge_int.h"
#include "util/banned.h"

static const char grader[] =
	"# Grader\n\n"
	"You grade one run of an agent skill against the expectations of an eval case.\n"
	"Grade the artifacts in the outputs, not what the transcript claims; when unsure, fail.\n\n"
	"Rubric (integer scores): 1 criterion unaddressed or contradicted; 2 partially\n"
	"addressed, significant gaps; 3 met minimally, superficial; 4 met well, nuanced;\n"
	"5 exemplary, all nuances covered (structurally unavoidable).\n\n"
	"## Eval prompt\n\n{{eval_prompt}}\n\n"
	"## Expectations\n\n{{expectations}}\n\n"
	"## Transcript\n\n{{transcript}}\n\n"
	"## Outputs\n\n{{outputs}}\n\n"
	"## Executor's notes\n\n{{user_notes}}\n\n"
	"## Answer\n\n"
	"Answer with one JSON object and nothing else:\n"
	"{\"results\": [{\"criterion\": \"<each criterion above, once>\", \"score\": 1-5,\n"
	"  \"reasoning\": \"...\"}],\n"
	" \"claims\": [{\"claim\": \"...\", \"verified\": true|false, \"evidence\": \"...\"}],\n"
	" \"user_notes_summary\": \"...\", \"eval_feedback\": \"suggestions for the eval "
	"cases, or empty\"}\n";

static const char comparator[] =
	"# Blind comparator\n\n"
	"Two outputs, A and B, answer the same eval prompt. You are not told how they were\n"
	"made. Judge which is better for the task; there is no tie.\n\n"
	"## Eval prompt\n\n{{eval_prompt}}\n\n"
	"## Expectations\n\n{{expectations}}\n\n"
	"## Output A\n\n{{output_a}}\n\n"
	"## Output B\n\n{{output_b}}\n\n"
	"## Answer\n\n"
	"Answer with one JSON object and nothing else (scores are integers 1-10):\n"
	"{\"winner\": \"A\"|\"B\", \"reasoning\": \"...\", \"scores\": {\n"
	"  \"description_quality\": {\"A\": n, \"B\": n}, \"convention_compliance\": {\"A\": n, "
	"\"B\": n},\n"
	"  \"type_specific_quality\": {\"A\": n, \"B\": n}, \"token_efficiency\": {\"A\": n, "
	"\"B\": n},\n"
	"  \"content_value\": {\"A\": n, \"B\": n}}}\n";

static const char analyzer[] =
	"# Analyzer\n\n"
	"Version {{winner_version}} of a skill beat version {{loser_version}} in blind\n"
	"comparisons. Explain why, and say what to change next.\n\n"
	"## Winner's skill ({{winner_version}})\n\n{{winner_skill}}\n\n"
	"## Loser's skill ({{loser_version}})\n\n{{loser_skill}}\n\n"
	"## The comparisons\n\n{{comparisons}}\n\n"
	"## Winner's transcript\n\n{{winner_transcript}}\n\n"
	"## Loser's transcript\n\n{{loser_transcript}}\n\n"
	"## Answer\n\n"
	"Answer with one JSON object and nothing else; every suggestion quotes the text to\n"
	"change (before) and its replacement (after):\n"
	"{\"strengths\": [\"...\"], \"weaknesses\": [\"...\"], \"suggestions\": [{\"area\": "
	"\"...\",\n"
	"  \"before\": \"...\", \"after\": \"...\", \"reasoning\": \"...\"}]}\n";

const char *assay_judge_builtin_prompt(assay_judge_role role)
{
	switch (role) {
	case ASSAY_JUDGE_GRADER: return grader;
	case ASSAY_JUDGE_COMPARATOR: return comparator;
	case ASSAY_JUDGE_ANALYZER: return analyzer;
	}
	return grader;
}

const char *assay_judge_role_name(assay_judge_role role)
{
	switch (role) {
	case ASSAY_JUDGE_GRADER: return "grader";
	case ASSAY_JUDGE_COMPARATOR: return "comparator";
	case ASSAY_JUDGE_ANALYZER: return "analyzer";
	}
	return "grader";
}

void assay_judge_render(assay_buf *out, const char *tmpl, const assay_value *request)
{
	const char *p = tmpl;

	while (*p) {
		const char *open = strstr(p, "{{");
		const char *close = open ? strstr(open + 2, "}}") : NULL;

		if (!open || !close) {
			assay_buf_adds(out, p);
			return;
		}
		assay_buf_add(out, p, (size_t)(open - p));
		const assay_value *v = assay_object_getn(request, open + 2,
							 (size_t)(close - open - 2));
		if (v && v->kind == ASSAY_V_STRING)
			assay_buf_add(out, v->u.s, v->len);
		else if (v)
			assay_json_write(out, v, ASSAY_JSON_PRETTY);
		p = close + 2;
	}
}
