/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Group rules (om_rule.h): parsed, compiled by PCRE2, matched within its
 * limits and the sample's time.
 */
#include <config.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <errno.h>
#include <pcre2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/nls.h"
#include "view/om_rule.h"

struct om_rule_re {
	pcre2_code *code;
};

/*
 * POSIX's extended expressions (REG_EXTENDED) as PCRE2 reads them: '.'
 * matches a newline too, '$' is the end only; UTF-8 characters, and
 * classes of Unicode's properties as a UTF-8 locale has them.
 */
#define OPTIONS (PCRE2_DOTALL | PCRE2_DOLLAR_ENDONLY | PCRE2_UTF | \
		 PCRE2_MATCH_INVALID_UTF | PCRE2_UCP)

/*
 * GNU's word edges \< and \> are PCRE2's literal < and >: refused rather
 * than taken to mean something else. 0, or -1 with the message.
 */
static int check_syntax(const char *re, char *err, size_t errsize)
{
	for (const char *p = re; *p; p++) {
		if (*p != '\\')
			continue;
		if (p[1] == '<' || p[1] == '>') {
			snprintf(err, errsize,
				 _("invalid regular expression at offset %zu: "
				   "\\< and \\> are not word edges here (use \\b)"),
				 (size_t)(p - re));
			return -1;
		}
		if (p[1])
			p++;
	}
	return 0;
}

int om_rule_parse(struct om_rule *r, const char *text, char *err,
		  size_t errsize)
{
	const char *c1 = strchr(text, ':');
	const char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;

	memset(r, 0, sizeof(*r));
	if (!c1 || !c2 || c1 == text) {
		snprintf(err, errsize, "%s",
			 _("a group rule is GROUP:comm:REGEX or GROUP:cmdline:REGEX"));
		return -1;
	}
	size_t flen = (size_t)(c2 - c1 - 1);
	if (flen == 4 && strncmp(c1 + 1, "comm", 4) == 0) {
		r->cmdline = false;
	} else if (flen == 7 && strncmp(c1 + 1, "cmdline", 7) == 0) {
		r->cmdline = true;
	} else {
		snprintf(err, errsize, "%s",
			 _("a group rule matches comm or cmdline"));
		return -1;
	}
	const char *re = c2 + 1;
	if (check_syntax(re, err, errsize) < 0)
		return -1;
	int code;
	PCRE2_SIZE off;
	pcre2_code *c = pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED,
				      OPTIONS, &code, &off, NULL);
	if (!c) {
		PCRE2_UCHAR why[256];
		if (pcre2_get_error_message(code, why, sizeof(why)) < 0)
			snprintf((char *)why, sizeof(why), "%d", code);
		snprintf(err, errsize,
			 _("invalid regular expression at offset %zu: %s"),
			 (size_t)off, (const char *)why);
		return -1;
	}
	r->group = strndup(text, (size_t)(c1 - text));
	r->text = strdup(text);
	r->re = malloc(sizeof(*r->re));
	if (!r->group || !r->text || !r->re) {
		pcre2_code_free(c);
		free(r->group);
		free(r->text);
		free(r->re);
		memset(r, 0, sizeof(*r));
		snprintf(err, errsize, "%s", strerror(ENOMEM));
		return -1;
	}
	r->re->code = c;
	return 0;
}

void om_rule_free(struct om_rule *r)
{
	if (!r || !r->group)
		return;
	pcre2_code_free(r->re->code);
	free(r->re);
	free(r->group);
	free(r->text);
	memset(r, 0, sizeof(*r));
}

/* ---- matching ---- */

struct om_rule_matcher {
	pcre2_match_data *md;
	pcre2_match_context *mc;
	double sample_ms;          /* the time of a sample's matches */
	struct timespec begin;     /* of the sample */
	bool spent;                /* the sample's time is up */
	unsigned long limits;
	int last_limit;            /* the PCRE2 error of the last limit */
};

struct om_rule_matcher *om_rule_matcher_new(void)
{
	struct om_rule_matcher *m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	/* match or not: one pair is enough (0 from pcre2_match is a match) */
	m->md = pcre2_match_data_create(1, NULL);
	m->mc = pcre2_match_context_create(NULL);
	if (!m->md || !m->mc ||
	    pcre2_set_match_limit(m->mc, OM_RULE_MATCH_LIMIT) != 0 ||
	    pcre2_set_depth_limit(m->mc, OM_RULE_DEPTH_LIMIT) != 0 ||
	    pcre2_set_heap_limit(m->mc, OM_RULE_HEAP_LIMIT) != 0) {
		om_rule_matcher_free(m);
		errno = ENOMEM;
		return NULL;
	}
	m->sample_ms = OM_RULE_SAMPLE_MS;
	om_rule_matcher_begin(m);
	return m;
}

void om_rule_matcher_free(struct om_rule_matcher *m)
{
	if (!m)
		return;
	pcre2_match_data_free(m->md);
	pcre2_match_context_free(m->mc);
	free(m);
}

void om_rule_matcher_set_sample_ms(struct om_rule_matcher *m, double ms)
{
	m->sample_ms = ms;
}

void om_rule_matcher_begin(struct om_rule_matcher *m)
{
	clock_gettime(CLOCK_MONOTONIC, &m->begin);
	m->spent = false;
}

static bool time_spent(struct om_rule_matcher *m)
{
	struct timespec now;
	if (m->spent)
		return true;
	clock_gettime(CLOCK_MONOTONIC, &now);
	double ms = (double)(now.tv_sec - m->begin.tv_sec) * 1e3 +
		    (double)(now.tv_nsec - m->begin.tv_nsec) / 1e6;
	m->spent = ms >= m->sample_ms;
	return m->spent;
}

enum om_rule_result om_rule_match(struct om_rule_matcher *m,
				  const struct om_rule *r, const char *subject)
{
	if (time_spent(m))
		return OM_RULE_SPENT;
	int rc = pcre2_match(r->re->code, (PCRE2_SPTR)subject,
			     PCRE2_ZERO_TERMINATED, 0, 0, m->md, m->mc);
	if (rc >= 0)
		return OM_RULE_MATCH;
	if (rc == PCRE2_ERROR_NOMATCH)
		return OM_RULE_NOMATCH;
	/* a limit, or no memory for the match: no match either way */
	m->limits++;
	m->last_limit = rc;
	return OM_RULE_LIMIT;
}

unsigned long om_rule_matcher_limits(const struct om_rule_matcher *m)
{
	return m->limits;
}

const char *om_rule_matcher_limit_name(const struct om_rule_matcher *m)
{
	switch (m->last_limit) {
	case PCRE2_ERROR_MATCHLIMIT:
		return _("the match limit");
	case PCRE2_ERROR_DEPTHLIMIT:
		return _("the depth limit");
	case PCRE2_ERROR_HEAPLIMIT:
		return _("the heap limit");
	case PCRE2_ERROR_NOMEMORY:
		return strerror(ENOMEM);
	default:
		return _("an error of the match");
	}
}
