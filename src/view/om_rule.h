/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A workload group's rule of the metrics ("GROUP:comm:REGEX" or
 * "GROUP:cmdline:REGEX" in the settings file) and its match, bounded.
 *
 * The subject is a task's name or command line: text of other users,
 * hostile. The expression is PCRE2's (a backtracking engine) with its
 * limits set on every match: at most OM_RULE_MATCH_LIMIT steps,
 * OM_RULE_DEPTH_LIMIT nested backtracking points and OM_RULE_HEAP_LIMIT
 * KiB of memory. A match that reaches one of them is no match (the rule
 * does not hold for that task), OM_RULE_LIMIT. A sample's matches stop
 * once they have taken OM_RULE_SAMPLE_MS milliseconds together
 * (OM_RULE_SPENT: not tried); om_series.c decides what follows of both.
 *
 * The expression is read as POSIX's extended ones were, where the two
 * agree (REG_EXTENDED | REG_NOSUB, unanchored): '.' matches a newline,
 * '$' only the end, characters are UTF-8 ones (a byte that is not UTF-8
 * is matched by nothing), [[:alpha:]] and the like are Unicode's. The
 * man page (GROUP RULES in LIMITS, and the settings file) says where
 * PCRE2's syntax differs.
 */
#ifndef STALLTOP_OM_RULE_H
#define STALLTOP_OM_RULE_H

#include <stdbool.h>
#include <stddef.h>

/* One match's limits (pcre2_set_match_limit, _depth_limit, _heap_limit).
 * A pattern that runs through the subject once needs about as many steps
 * as the subject has characters (a command line: at most 64 KiB). */
#define OM_RULE_MATCH_LIMIT 100000
#define OM_RULE_DEPTH_LIMIT 100000
#define OM_RULE_HEAP_LIMIT 8192       /* KiB */

/* The time a sample's matches may take together. */
#define OM_RULE_SAMPLE_MS 100

struct om_rule_re;

/* A user's rule: tasks whose comm (or command line) matches are GROUP. */
struct om_rule {
	char *group;
	char *text;                /* the rule as written, to name it */
	bool cmdline;              /* match the command line, not comm */
	struct om_rule_re *re;
};

enum om_rule_result {
	OM_RULE_NOMATCH,
	OM_RULE_MATCH,
	OM_RULE_LIMIT,             /* a limit reached: no match */
	OM_RULE_SPENT,             /* the sample's time spent: not tried */
};

/*
 * Parse a rule into r. 0, or -1 with a translated message in err (an
 * expression that does not compile: where in it and why).
 */
int om_rule_parse(struct om_rule *r, const char *text, char *err,
		  size_t errsize);
void om_rule_free(struct om_rule *r);

/* What the matches of a run share: the match data, the limits, the
 * sample's clock, counts. NULL with errno on failure. */
struct om_rule_matcher *om_rule_matcher_new(void);
void om_rule_matcher_free(struct om_rule_matcher *m);

/* The time a sample's matches may take, in ms (OM_RULE_SAMPLE_MS unless
 * set; a test that counts limits, not time, makes it long). */
void om_rule_matcher_set_sample_ms(struct om_rule_matcher *m, double ms);

/* A sample begins: its time to match starts now. */
void om_rule_matcher_begin(struct om_rule_matcher *m);

/* Whether r holds for the subject (NUL-terminated), within the limits. */
enum om_rule_result om_rule_match(struct om_rule_matcher *m,
				  const struct om_rule *r, const char *subject);

/* Matches that reached a limit, since the matcher was made. */
unsigned long om_rule_matcher_limits(const struct om_rule_matcher *m);

/* The limit the last OM_RULE_LIMIT reached, in words (translated). */
const char *om_rule_matcher_limit_name(const struct om_rule_matcher *m);

#endif
