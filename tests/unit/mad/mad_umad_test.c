/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * mad_umad_test.c - the umad transport (mad/mad_umad.c) over a fake
 * libibumad (tests/fakes/fake_umad.c): opening a port that does not exist
 * fails cleanly with errno set, the agents' method masks (13.4.5) are the
 * unsolicited methods each class serves, and the transport never sets IsSM:
 * the port's issm device is never opened (an SMA is no SM, and on an HCA
 * IsSM would tell every SM of the subnet that one lives on the port).
 */
#include "mad/mad_umad.h"

#include "lib/ibr_mad.h"
#include "tests/fakes/fake_umad.h"
#include "tests/unit/ibr_test.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/inotify.h>
#include <unistd.h>

/* methods are 7 bits (the R bit is not part of the mask) */
static bool mask_has(const uint64_t mask[2], uint8_t method)
{
	return (mask[method / 64] >> (method % 64)) & 1;
}

static void test_method_masks(void)
{
	uint64_t m[2];

	mad_umad_method_mask(IBR_MGMT_CLASS_SUBN_DR, m);
	CU_ASSERT(mask_has(m, IBR_MAD_METHOD_GET) && mask_has(m, IBR_MAD_METHOD_SET));
	CU_ASSERT(mask_has(m, IBR_MAD_METHOD_TRAP_REPRESS));
	CU_ASSERT(!mask_has(m, IBR_MAD_METHOD_REPORT) && !mask_has(m, IBR_MAD_METHOD_SEND));
	mad_umad_method_mask(IBR_MGMT_CLASS_SUBN_LID, m);
	CU_ASSERT(mask_has(m, IBR_MAD_METHOD_GET));
	mad_umad_method_mask(IBR_MGMT_CLASS_SUBN_ADM, m);
	CU_ASSERT(mask_has(m, IBR_MAD_METHOD_REPORT));
	CU_ASSERT(!mask_has(m, IBR_MAD_METHOD_GET) && !mask_has(m, IBR_MAD_METHOD_GET_TABLE));
}

static void test_open_missing_port(void)
{
	errno = 0;
	CU_ASSERT_PTR_NULL(mad_umad_open("ibr_no_such_ca", 1));
	CU_ASSERT_NOT_EQUAL(errno, 0);
}

/*
 * A channel over the umad transport registers its agents, and asking it
 * for IsSM fails (-EOPNOTSUPP) without the issm device being asked for or
 * opened (watched with inotify).
 */
static void test_never_issm(void)
{
	char dir[] = "/tmp/ibr-umad.XXXXXX";
	struct mad_chan_config cc = { .name = "umad test", .chan_id = 1 };
	struct mad_transport *tp;
	struct mad_chan *c;
	char ev[4096];
	int in;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	CU_ASSERT_EQUAL_FATAL(fake_umad_reset(dir), 0);
	in = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	CU_ASSERT_FATAL(in >= 0);
	CU_ASSERT_FATAL(inotify_add_watch(in, fake_umad.issm_path, IN_OPEN) >= 0);
	tp = mad_umad_open(FAKE_UMAD_CA, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(tp);
	c = mad_chan_create(tp, &cc);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(fake_umad.registered, 3); /* 0x01, 0x81, 0x03 */
	CU_ASSERT_EQUAL(mad_chan_set_issm(c, true), -EOPNOTSUPP);
	CU_ASSERT_EQUAL(mad_chan_set_issm(c, false), -EOPNOTSUPP);
	mad_chan_destroy(c);
	CU_ASSERT_EQUAL(fake_umad.registered, 0);
	CU_ASSERT_EQUAL(fake_umad.closes, 1);
	CU_ASSERT_EQUAL(fake_umad.issm_path_calls, 0);
	CU_ASSERT(read(in, ev, sizeof(ev)) < 0 && errno == EAGAIN); /* no IN_OPEN */
	close(in);
	unlink(fake_umad.issm_path);
	rmdir(dir);
	fake_umad_fini();
}

static CU_TestInfo tests[] = {
	{ "agents' method masks", test_method_masks },
	{ "a CA that does not exist: NULL, errno set", test_open_missing_port },
	{ "IsSM is never set: the issm device is never opened", test_never_issm },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("sa_mad_umad", tests);
}
