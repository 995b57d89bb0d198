/*
 * The C++ half of the TOML reader: toml++ (Debian's libtomlplusplus) parses, and the tree it
 * makes is turned into assay values as Python's tomllib would have made them. Nothing else of
 * assay is C++ here, and no exception leaves this file.
 *
 * Key decisions:
 * - toml++ keeps a table's keys in a sorted map; tomllib keeps the order in which the document
 *   first named them. Each key remembers where it was first written, so members are put back
 *   in that order (a stable sort by line and column).
 * - Dates and times are written as isoformat() writes tomllib's datetime, date and time
 *   objects: fractional seconds cut (not rounded) to microseconds, as tomllib cuts them, and
 *   left out when zero; `Z` and `-00:00` are `+00:00` (timezone.utc, a zero timedelta).
 * - The arena's limit is checked after each container, so a huge document stops early with
 *   ASSAY_ETOOBIG.
 */
#include <toml++/toml.h>

#include <algorithm>
#include <cstdio>
#include <new>
#include <vector>

extern "C" {
#include "toml/toml_int.h"
}

namespace {

struct converter {
	assay_arena *arena;
	bool over = false;
	const toml::node *year_zero = nullptr; /* a date Python cannot hold (datetime.MINYEAR) */

	assay_value datetime(assay_datetime_kind dk, const char *text, int n)
	{
		return assay_value_datetime(arena, dk, text, n > 0 ? (size_t)n : 0);
	}

	static int add_time(char *buf, size_t size, const toml::time &t)
	{
		unsigned micro = t.nanosecond / 1000u;

		if (micro)
			return std::snprintf(buf, size, "%02u:%02u:%02u.%06u", (unsigned)t.hour,
					     (unsigned)t.minute, (unsigned)t.second, micro);
		return std::snprintf(buf, size, "%02u:%02u:%02u", (unsigned)t.hour,
				     (unsigned)t.minute, (unsigned)t.second);
	}

	static int add_date(char *buf, size_t size, const toml::date &d)
	{
		return std::snprintf(buf, size, "%04u-%02u-%02u", (unsigned)d.year, (unsigned)d.month,
				     (unsigned)d.day);
	}

	assay_value date_time(const toml::date_time &dt)
	{
		char buf[80];
		int n = add_date(buf, sizeof(buf), dt.date);


		buf[n++] = 'T';
		n += add_time(buf + n, sizeof(buf) - (size_t)n, dt.time);
		if (!dt.offset)
			return datetime(ASSAY_DT_LOCAL, buf, n);
		int m = dt.offset->minutes;
		char sign = m < 0 ? '-' : '+';
		if (m < 0)
			m = -m;
		n += std::snprintf(buf + n, sizeof(buf) - (size_t)n, "%c%02d:%02d", sign, m / 60,
				   m % 60);
		return datetime(ASSAY_DT_OFFSET, buf, n);
	}

	assay_value scalar(const toml::node &n)
	{
		char buf[40];

		if ((n.is_date() && n.as_date()->get().year == 0) ||
		    (n.is_date_time() && n.as_date_time()->get().date.year == 0)) {
			year_zero = year_zero ? year_zero : &n;
			over = true;
			return assay_value_null();
		}

		switch (n.type()) {
		case toml::node_type::string: {
			const std::string &s = n.as_string()->get();
			return assay_value_string(arena, s.data(), s.size());
		}
		case toml::node_type::integer:
			return assay_value_int(n.as_integer()->get());
		case toml::node_type::floating_point:
			return assay_value_real(n.as_floating_point()->get());
		case toml::node_type::boolean:
			return assay_value_bool(n.as_boolean()->get());
		case toml::node_type::date:
			return datetime(ASSAY_DT_DATE, buf,
					add_date(buf, sizeof(buf), n.as_date()->get()));
		case toml::node_type::time:
			return datetime(ASSAY_DT_TIME, buf,
					add_time(buf, sizeof(buf), n.as_time()->get()));
		case toml::node_type::date_time:
			return date_time(n.as_date_time()->get());
		default:
			return assay_value_null();
		}
	}

	/* Members in the order their keys were first written (tomllib's dict order). */
	assay_value table(const toml::table &t)
	{
		std::vector<std::pair<const toml::key *, const toml::node *>> members;
		assay_value obj = assay_value_object();

		members.reserve(t.size());
		for (auto &&kv : t)
			members.emplace_back(&kv.first, &kv.second);
		std::stable_sort(members.begin(), members.end(), [](const auto &x, const auto &y) {
			const toml::source_position &p = x.first->source().begin;
			const toml::source_position &q = y.first->source().begin;
			return p.line != q.line ? p.line < q.line : p.column < q.column;
		});
		for (auto &m : members) {
			assay_value key = assay_value_string(arena, m.first->data(), m.first->length());
			assay_object_append(arena, &obj, key, node(*m.second));
			if (over)
				break;
		}
		over = over || assay_arena_check(arena) != 0; /* memory, or the budget's time */
		return obj;
	}

	assay_value array(const toml::array &arr)
	{
		assay_value out = assay_value_array();

		for (const toml::node &item : arr) {
			assay_array_push(arena, &out, node(item));
			if (over)
				break;
		}
		over = over || assay_arena_check(arena) != 0;
		return out;
	}

	assay_value node(const toml::node &n)
	{
		if (over)
			return assay_value_null();
		if (const toml::table *t = n.as_table())
			return table(*t);
		if (const toml::array *a = n.as_array())
			return array(*a);
		return scalar(n);
	}
};

} // namespace

extern "C" int assay_toml__parse_cc(assay_value *out, assay_arena *a, const char *text,
				    size_t len, assay_err *err)
{
	*out = assay_value_null();
	try {
		toml::table doc = toml::parse(std::string_view(text, len));
		converter c{ a };
		assay_value v = c.table(doc);

		if (c.year_zero) {
			const toml::source_position &p = c.year_zero->source().begin;

			return assay_err_set(err, ASSAY_EPARSE, NULL, (int)p.line, (int)p.column,
					     "year 0 is out of range (Python's dates start at 1)");
		}
		if (c.over)
			return assay_err_set(err, ASSAY_ETOOBIG, NULL, 0, 0,
					     "the document is larger than the memory allowed for it");
		*out = v;
		return 0;
	} catch (const toml::parse_error &e) {
		const toml::source_position &p = e.source().begin;
		std::string_view d = e.description();

		return assay_err_set(err, ASSAY_EPARSE, NULL, (int)p.line, (int)p.column, "%.*s",
				     (int)std::min<size_t>(d.size(), 400), d.data());
	} catch (const std::bad_alloc &) {
		return assay_err_set(err, ASSAY_ETOOBIG, NULL, 0, 0, "out of memory reading TOML");
	} catch (...) {
		return assay_err_set(err, ASSAY_EPARSE, NULL, 0, 0, "toml++ failed to read the text");
	}
}
