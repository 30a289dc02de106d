/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_check.c - the preflight's run (ibrd_check.h): the machine, then each
 * port, then each port's MAD channel, a line a check; the sums at the end.
 */
#include "daemon/check/ibrd_check.h"

#include "lib/ibr_json.h"

#include <stdio.h>
#include <string.h>

int ibrd_check_run(const struct ibrd_conf *c, const char *path, const struct ibrd_check_env *env,
		   FILE *out, bool json)
{
	struct ibr_json j;
	struct ibrd_check k = { .conf = c, .env = env, .out = out, .json = json, .j = &j };

	if (json) {
		ibr_json_init(&j, 0);
		ibr_json_obj_open(&j, NULL);
		ibr_json_str(&j, "config", path);
		ibr_json_arr_open(&j, "checks");
	}
	ibrd_check_say(&k, IBRD_CHECK_OK, "config", "%s: %u ports", path, c->nports);
	ibrd_check_user(&k);
	if (k.user_ok) {
		ibrd_check_modules(&k);
		ibrd_check_memlock(&k);
		ibrd_check_ctl(&k);
		for (unsigned i = 0; i < c->nports; i++)
			ibrd_check_port(&k, i);
		for (unsigned i = 0; i < c->nports; i++)
			ibrd_check_sa(&k, i);
	}
	if (json) {
		ibr_json_close(&j);
		ibr_json_u64(&j, "ok", k.n[IBRD_CHECK_OK]);
		ibr_json_u64(&j, "warn", k.n[IBRD_CHECK_WARN]);
		ibr_json_u64(&j, "fail", k.n[IBRD_CHECK_FAIL]);
		ibr_json_close(&j);
		if (ibr_json_finish(&j) == 0)
			fprintf(out, "%s\n", j.buf);
		ibr_json_free(&j);
	} else {
		fprintf(out, "%u OK, %u WARN, %u FAIL: %s\n", k.n[IBRD_CHECK_OK],
			k.n[IBRD_CHECK_WARN], k.n[IBRD_CHECK_FAIL],
			k.n[IBRD_CHECK_FAIL] ? "something will not work" : "nothing will fail");
	}
	return k.n[IBRD_CHECK_FAIL] ? 1 : 0;
}
