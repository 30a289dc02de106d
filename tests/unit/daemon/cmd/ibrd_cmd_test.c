/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for daemon/cmd/ibrd_cmd.c against lib/ibr_ctl_cmds.c: the
 * protocol's table of commands (what ibrouterctl's usage and the daemon's
 * help list) and the daemon's handlers name the same commands, so that
 * neither lists one the other does not know.
 */
#include "daemon/cmd/ibrd_cmd.h"

#include "lib/ibr_ctl.h"
#include "tests/unit/ibr_test.h"

#include <stdio.h>
#include <string.h>

#define MAX_HANDLERS 128

/* Every command of the table has a handler, and its usage starts with its words. */
static void test_every_command_handled(void)
{
	for (unsigned i = 0; i < ibr_ctl_ncmds; i++) {
		const struct ibr_ctl_cmd *c = &ibr_ctl_cmds[i];
		char words[64];

		snprintf(words, sizeof(words), "%s%s%s", c->word, c->sub ? " " : "",
			 c->sub ? c->sub : "");
		if (!ibrd_cmd_handler(c->word, c->sub))
			fprintf(stderr, "no handler for \"%s\"\n", words);
		CU_ASSERT_PTR_NOT_NULL(ibrd_cmd_handler(c->word, c->sub));
		if (c->usage)
			CU_ASSERT_EQUAL(strncmp(c->usage, words, strlen(words)), 0);
	}
}

/* Every handler is the table's, found by its own words (not by a shorter command's). */
static void test_every_handler_listed(void)
{
	const char *word[MAX_HANDLERS], *sub[MAX_HANDLERS];
	int n = ibrd_cmd_handlers(word, sub, MAX_HANDLERS);

	CU_ASSERT(n > 0 && n < MAX_HANDLERS);
	for (int i = 0; i < n; i++) {
		char *argv[2] = { (char *)word[i], (char *)sub[i] };
		const struct ibr_ctl_cmd *c = ibr_ctl_cmd_find(sub[i] ? 2 : 1, argv);

		if (!c || strcmp(c->word, word[i]) || (c->sub == NULL) != (sub[i] == NULL) ||
		    (c->sub && strcmp(c->sub, sub[i])))
			fprintf(stderr, "handler \"%s %s\" not in the table\n", word[i],
				sub[i] ? sub[i] : "");
		CU_ASSERT_PTR_NOT_NULL_FATAL(c);
		CU_ASSERT_STRING_EQUAL(c->word, word[i]);
		CU_ASSERT((c->sub == NULL) == (sub[i] == NULL));
		if (c->sub && sub[i])
			CU_ASSERT_STRING_EQUAL(c->sub, sub[i]);
	}
	CU_ASSERT_EQUAL((unsigned)n, ibr_ctl_ncmds);
}

/* No command twice, and `show peers` (once missing from ibrouterctl's usage) is there. */
static void test_table(void)
{
	char *peers[2] = { "show", "peers" };

	for (unsigned i = 0; i < ibr_ctl_ncmds; i++)
		for (unsigned j = i + 1; j < ibr_ctl_ncmds; j++)
			CU_ASSERT(strcmp(ibr_ctl_cmds[i].word, ibr_ctl_cmds[j].word) ||
				  (ibr_ctl_cmds[i].sub && ibr_ctl_cmds[j].sub &&
				   strcmp(ibr_ctl_cmds[i].sub, ibr_ctl_cmds[j].sub)));
	CU_ASSERT_PTR_NOT_NULL(ibr_ctl_cmd_find(2, peers));
	CU_ASSERT_PTR_NULL(ibr_ctl_cmd_find(1, peers)); /* "show" alone is no command */
}

static CU_TestInfo tests[] = {
	{ "every command of the table has a handler", test_every_command_handled },
	{ "every handler is in the table", test_every_handler_listed },
	{ "the table: each command once", test_table },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("ibrd_cmd", tests);
}
