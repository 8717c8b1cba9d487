/* SPDX-License-Identifier: MIT */
/*
 * Variable expansion in job files, following fio's behaviour:
 *
 *  - ${VAR} is replaced by the environment variable's value, or by nothing
 *    when it is unset, as fio does.
 *  - A bare $VAR (letters, digits, '_') is replaced by the environment
 *    variable's value when it is set, and left as written when it is not.
 *    fio 3.33 only expands ${VAR}; iolite's issue asks for both, and a
 *    value with '$' in it that names no set variable is unchanged.
 *  - $ncpus, $pagesize and $mb_memory are replaced by the system's values,
 *    also when followed by more letters ("$ncpusx" -> "2x").
 *  - When a reserved keyword was replaced and the result is an integer
 *    expression (+ - * / % ^ and parentheses), the expression is evaluated:
 *    "size=8*$mb_memory" -> "size=193152". A value that is not a valid
 *    expression is kept as text, so "filename=/tmp/f$ncpus" stays a path.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "job/job_internal.h"
#include "util/log.h"

static int is_keyword_at(const char *s)
{
	return !strncmp(s, "ncpus", 5) || !strncmp(s, "pagesize", 8) ||
	       !strncmp(s, "mb_memory", 9);
}

int job_expand_env(const char *s, struct strbuf *out)
{
	while (*s) {
		if (s[0] == '$' && s[1] == '{') {
			const char *end = strchr(s + 2, '}');
			const char *v;
			char *name;

			if (!end)
				return -1;
			name = xstrndup(s + 2, (size_t)(end - s - 2));
			v = *name ? getenv(name) : NULL;
			if (v)
				strbuf_addstr(out, v);
			free(name);
			s = end + 1;
			continue;
		}
		if (s[0] == '$' && (isalpha((unsigned char)s[1]) || s[1] == '_') &&
		    !is_keyword_at(s + 1)) {
			size_t n = 1;
			const char *v;
			char *name;

			while (isalnum((unsigned char)s[1 + n]) || s[1 + n] == '_')
				n++;
			name = xstrndup(s + 1, n);
			v = getenv(name);
			free(name);
			if (v) {
				strbuf_addstr(out, v);
				s += 1 + n;
				continue;
			}
		}
		strbuf_addch(out, *s++);
	}
	return 0;
}

static uint64_t mb_memory(void)
{
	long pages = sysconf(_SC_PHYS_PAGES);
	long psz = sysconf(_SC_PAGESIZE);

	if (pages <= 0 || psz <= 0)
		return 0;
	return ((uint64_t)pages * (uint64_t)psz) >> 20;
}

/* Returns how many keywords were replaced. */
static int expand_keywords(const char *s, struct strbuf *out)
{
	static const char *const words[] = { "ncpus", "pagesize", "mb_memory" };
	int nr = 0;

	for (; *s; s++) {
		size_t i, len = 0;
		uint64_t v = 0;

		if (*s != '$') {
			strbuf_addch(out, *s);
			continue;
		}
		for (i = 0; i < ARRAY_SIZE(words); i++) {
			len = strlen(words[i]);
			if (!strncmp(s + 1, words[i], len))
				break;
		}
		if (i == ARRAY_SIZE(words)) {
			strbuf_addch(out, *s);
			continue;
		}
		switch (i) {
		case 0:
			v = (uint64_t)sysconf(_SC_NPROCESSORS_ONLN);
			break;
		case 1:
			v = (uint64_t)sysconf(_SC_PAGESIZE);
			break;
		default:
			v = mb_memory();
			break;
		}
		strbuf_addf(out, "%llu", (unsigned long long)v);
		s += len;
		nr++;
	}
	return nr;
}

/*
 * A small recursive-descent evaluator for integer expressions: the same
 * grammar as bc with scale=0 for what job files use. Every step checks
 * for overflow; any error makes the whole value plain text again.
 */
struct expr {
	const char *p;
	int bad;
};

static int64_t expr_sum(struct expr *e);

static void expr_ws(struct expr *e)
{
	while (*e->p == ' ' || *e->p == '\t')
		e->p++;
}

static int64_t expr_primary(struct expr *e)
{
	int64_t v = 0;

	expr_ws(e);
	if (*e->p == '(') {
		e->p++;
		v = expr_sum(e);
		expr_ws(e);
		if (*e->p != ')')
			e->bad = 1;
		else
			e->p++;
		return v;
	}
	if (*e->p < '0' || *e->p > '9') {
		e->bad = 1;
		return 0;
	}
	while (*e->p >= '0' && *e->p <= '9') {
		if (__builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, *e->p - '0', &v))
			e->bad = 1;
		e->p++;
	}
	return v;
}

static int64_t expr_unary(struct expr *e)
{
	int64_t v;

	expr_ws(e);
	if (*e->p == '-') {
		e->p++;
		v = expr_unary(e);
		if (__builtin_sub_overflow((int64_t)0, v, &v))
			e->bad = 1;
		return v;
	}
	if (*e->p == '+') {
		e->p++;
		return expr_unary(e);
	}
	return expr_primary(e);
}

/* '^' binds tightest and to the right, as in bc. */
static int64_t expr_power(struct expr *e)
{
	int64_t base = expr_unary(e), exp, v = 1;

	expr_ws(e);
	if (*e->p != '^')
		return base;
	e->p++;
	exp = expr_power(e);
	if (exp < 0) {
		e->bad = 1;
		return 0;
	}
	while (exp-- > 0 && !e->bad)
		if (__builtin_mul_overflow(v, base, &v))
			e->bad = 1;
	return v;
}

static int64_t expr_product(struct expr *e)
{
	int64_t v = expr_power(e), r;
	char op;

	for (;;) {
		expr_ws(e);
		op = *e->p;
		if (op != '*' && op != '/' && op != '%')
			return v;
		e->p++;
		r = expr_power(e);
		if (op == '*') {
			if (__builtin_mul_overflow(v, r, &v))
				e->bad = 1;
		} else if (r == 0 || (v == INT64_MIN && r == -1)) {
			e->bad = 1;
		} else {
			v = op == '/' ? v / r : v % r;
		}
	}
}

static int64_t expr_sum(struct expr *e)
{
	int64_t v = expr_product(e), r;
	char op;

	for (;;) {
		expr_ws(e);
		op = *e->p;
		if (op != '+' && op != '-')
			return v;
		e->p++;
		r = expr_product(e);
		if (op == '+' ? __builtin_add_overflow(v, r, &v) :
				__builtin_sub_overflow(v, r, &v))
			e->bad = 1;
	}
}

int job_eval_expr(const char *s, int64_t *out)
{
	struct expr e = { s, 0 };
	int64_t v = expr_sum(&e);

	expr_ws(&e);
	if (e.bad || *e.p)
		return -EINVAL;
	*out = v;
	return 0;
}

void job_expand_keywords(const char *s, struct strbuf *out)
{
	struct strbuf tmp = STRBUF_INIT;
	int64_t v;

	if (!expand_keywords(s, &tmp)) {
		strbuf_addstr(out, s);
	} else if (strpbrk(tmp.buf, "+-*/%^()") &&
		   !job_eval_expr(tmp.buf, &v)) {
		strbuf_addf(out, "%lld", (long long)v);
	} else {
		strbuf_addstr(out, tmp.buf);
	}
	strbuf_release(&tmp);
}

char *job_expand_vars(const char *val)
{
	struct strbuf env = STRBUF_INIT, out = STRBUF_INIT;

	if (job_expand_env(val, &env)) {
		strbuf_release(&env);
		return NULL;
	}
	job_expand_keywords(strbuf_str(&env), &out);
	strbuf_release(&env);
	return strbuf_detach(&out);
}
