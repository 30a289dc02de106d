/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for daemon/port/ibrd_mad.c over a fake libibumad
 * (tests/fakes/fake_umad.c): a `mad = umad` port whose device is not there
 * at start (ib_umad not loaded, no HCA yet) does not stop the daemon: its
 * MAD channel is lost until it comes, said once at warning level, tried
 * again at a bounded rate (1 s, doubling to 10 s), counted, and when it
 * comes the core's loop starts its SA client (d->chan_new); a channel
 * whose device goes later (its fd reads ENODEV) is taken off, its SA client
 * stopped first (d->chan_dead), and lost again the same way.
 */
#include "daemon/ibrd.h"
#include "daemon/learn/ibrd_learn.h"
#include "daemon/port/ibrd_port.h"
#include "tests/fakes/fake_umad.h"
#include "tests/unit/ibr_test.h"

#include "lib/ibr_log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <syslog.h>
#include <unistd.h>

#define SEC 1000000000ull

static const char conf_text[] =
	"router { node-guid = 0x2 }\n"
	"port \"a\" { data = none lid = 1 subnet-prefix = \"fec0:0:0:1::\" mad = umad "
	"umad-ca = \"" FAKE_UMAD_CA "\" }\n"
	"port \"b\" { data = none lid = 2 subnet-prefix = \"fec0:0:0:2::\" }\n";

/* What the daemon logged: the warnings' count, the last one. */
static struct {
	unsigned warnings, lost_msgs, here_msgs;
	char last[512];
} LOG;

static void log_sink(int pri, const char *msg)
{
	if (getenv("IBRD_TEST_VERBOSE"))
		fprintf(stderr, "%s\n", msg);
	if (pri <= LOG_WARNING)
		LOG.warnings++;
	LOG.lost_msgs += strstr(msg, "lost until it comes") != NULL;
	LOG.here_msgs += strstr(msg, "is here after") != NULL;
	snprintf(LOG.last, sizeof(LOG.last), "%s", msg);
}

static struct ibrd d;
static char dir[] = "/tmp/ibr-madtest.XXXXXX";

static void d_new(void)
{
	memset(&d, 0, sizeof(d));
	memset(&LOG, 0, sizeof(LOG));
	log_set_sink(log_sink);
	CU_ASSERT_EQUAL_FATAL(fake_umad_reset(dir), 0);
	d.conf = ibrd_conf_load_string(conf_text, "t.conf", stderr);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d.conf);
	d.sigfd = -1;
	d.epfd = epoll_create1(EPOLL_CLOEXEC);
	CU_ASSERT_FATAL(d.epfd >= 0);
	CU_ASSERT_EQUAL_FATAL(ibrd_rooms_new(&d), 0);
	CU_ASSERT_EQUAL_FATAL(ibrd_state_build(&d, d.conf, NULL, NULL, NULL), 0);
}

static void d_free(void)
{
	ibrd_sa_stop(&d);
	ibrd_mad_stop(&d);
	router_rib_free(&d.rib);
	ibrd_rooms_free(&d);
	ibrd_conf_free(d.conf);
	close(d.epfd);
	fake_umad_fini();
}

static struct ibrd_mad_info info(uint32_t i)
{
	struct ibrd_mad_info x;

	ibrd_mad_info(&d, i, &x);
	return x;
}

/*
 * Not there at start: the daemon starts, the port lost (said once), tried
 * again after 1, 2, 4 ... s up to 10 s; when it comes it is attached and
 * its SA client starts.
 */
static void test_lost_at_start(void)
{
	static const uint64_t waits[] = { 2, 4, 8, 10, 10 };
	uint64_t t;
	unsigned warnings;

	d_new();
	fake_umad.open_rc = -EOPNOTSUPP; /* libibumad without ib_umad */
	CU_ASSERT_EQUAL(ibrd_mad_start(&d), 0);
	CU_ASSERT_PTR_NULL(d.chan[0]);
	CU_ASSERT_TRUE(info(0).configured);
	CU_ASSERT_TRUE(info(0).lost);
	CU_ASSERT_EQUAL(info(0).err, -EOPNOTSUPP);
	CU_ASSERT_EQUAL(info(0).losses, 1);
	CU_ASSERT_FALSE(info(1).configured); /* mad = none */
	CU_ASSERT_EQUAL(LOG.lost_msgs, 1);
	CU_ASSERT(strstr(LOG.last, "ib_umad") != NULL);
	CU_ASSERT_EQUAL(ibrd_sa_start(&d), 0);
	CU_ASSERT_PTR_NULL(d.sa[0]); /* no channel, no client */
	/* the next try in a second, not before; the loop's deadline says so */
	t = info(0).next_try_ns;
	CU_ASSERT_EQUAL(ibrd_mad_deadline(&d), t);
	ibrd_mad_tick(&d, t - 1);
	CU_ASSERT_EQUAL(info(0).tries, 0);
	warnings = LOG.warnings;
	ibrd_mad_tick(&d, t);
	CU_ASSERT_EQUAL(info(0).tries, 1);
	CU_ASSERT_EQUAL(LOG.warnings, warnings); /* the same error: not said again */
	/* then 2 s, 4 s, 8 s, 10 s, 10 s: a bounded rate */
	for (size_t i = 0; i < sizeof(waits) / sizeof(waits[0]); i++) {
		CU_ASSERT_EQUAL(info(0).next_try_ns - t, waits[i] * SEC);
		t = info(0).next_try_ns;
		ibrd_mad_tick(&d, t);
	}
	CU_ASSERT_EQUAL(info(0).tries, 6);
	CU_ASSERT_EQUAL(LOG.warnings, warnings);
	CU_ASSERT_PTR_NULL(d.chan[0]);
	CU_ASSERT_EQUAL(d.chan_new, 0);
	/* another reason: said once more */
	fake_umad.open_rc = -ENODEV;
	ibrd_mad_tick(&d, info(0).next_try_ns);
	CU_ASSERT_EQUAL(LOG.warnings, warnings + 1);
	CU_ASSERT_EQUAL(info(0).err, -ENODEV);
	/* it comes: attached, the core told (chan_new), its SA client starts */
	fake_umad.open_rc = 0;
	ibrd_mad_tick(&d, info(0).next_try_ns);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d.chan[0]);
	CU_ASSERT_FALSE(info(0).lost);
	CU_ASSERT_EQUAL(info(0).err, 0);
	CU_ASSERT_EQUAL(info(0).tries, 8);
	CU_ASSERT_EQUAL(d.chan_new, 1u);
	CU_ASSERT_EQUAL(LOG.here_msgs, 1);
	CU_ASSERT(fake_umad.registered >= 3); /* SMP classes and the SA's */
	CU_ASSERT_EQUAL(ibrd_sa_start(&d), 0);
	CU_ASSERT_PTR_NOT_NULL(d.sa[0]);
	CU_ASSERT(ibrd_mad_deadline(&d) != UINT64_MAX); /* the channel's timers now */
	d_free();
	CU_ASSERT_EQUAL(fake_umad.registered, 0);
	CU_ASSERT_EQUAL(fake_umad.opens, fake_umad.closes);
}

/*
 * A device that goes: its channel reads ENODEV, taken off the loop, its SA
 * client stopped (what it learned with it), then closed: lost again, and
 * back when the device is.
 */
static void test_lost_later(void)
{
	struct ibrd_ev *ev;

	d_new();
	CU_ASSERT_EQUAL_FATAL(ibrd_mad_start(&d), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d.chan[0]);
	CU_ASSERT_FALSE(info(0).lost);
	CU_ASSERT_EQUAL(info(0).losses, 0);
	CU_ASSERT_EQUAL(ibrd_sa_start(&d), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d.sa[0]);
	ev = (struct ibrd_ev *)d.mad[0]; /* its event, first in the port's state */
	CU_ASSERT_EQUAL(ev->kind, IBRD_EV_MAD);
	ibrd_mad_event(&d, ev); /* nothing to read: nothing happens */
	CU_ASSERT_EQUAL(d.chan_dead, 0);
	fake_umad.recv_rc = -ENODEV;
	ibrd_mad_event(&d, ev);
	CU_ASSERT_EQUAL(d.chan_dead, 1u);
	CU_ASSERT_PTR_NOT_NULL(d.chan[0]); /* until its client is gone */
	ibrd_mad_event(&d, ev);		   /* off the loop: never read again */
	ibrd_mad_tick(&d, ibr_now_ns());
	/* what the core's loop does (ibrouterd.c, loop_channels) */
	ibrd_sa_stop_ports(&d, d.chan_dead);
	CU_ASSERT_PTR_NULL(d.sa[0]);
	ibrd_mad_reap(&d);
	CU_ASSERT_EQUAL(d.chan_dead, 0);
	CU_ASSERT_PTR_NULL(d.chan[0]);
	CU_ASSERT_TRUE(info(0).lost);
	CU_ASSERT_EQUAL(info(0).losses, 1);
	CU_ASSERT_EQUAL(info(0).err, -ENODEV);
	CU_ASSERT_EQUAL(fake_umad.opens, fake_umad.closes);
	/* back */
	fake_umad.recv_rc = 0;
	ibrd_mad_tick(&d, info(0).next_try_ns);
	CU_ASSERT_PTR_NOT_NULL(d.chan[0]);
	CU_ASSERT_EQUAL(d.chan_new, 1u);
	/* dead again, and the channels stopped before the core saw it (a reload): no mark left */
	CU_ASSERT_EQUAL(ibrd_sa_start(&d), 0);
	fake_umad.recv_rc = -EIO;
	ibrd_mad_event(&d, (struct ibrd_ev *)d.mad[0]);
	CU_ASSERT_EQUAL(d.chan_dead, 1u);
	ibrd_sa_stop(&d);
	ibrd_mad_stop(&d);
	CU_ASSERT_EQUAL(d.chan_dead, 0);
	CU_ASSERT_EQUAL(d.chan_new, 0);
	fake_umad.recv_rc = 0;
	d_free();
}

/* A lost port at the end, and an ibsim port that cannot attach still stops the start. */
static void test_stop_and_ibsim(void)
{
	static const char ibsim_text[] =
		"router { node-guid = 0x2 }\n"
		"port \"a\" { data = none lid = 1 subnet-prefix = \"fec0:0:0:1::\" mad = ibsim "
		"ibsim-socket = \"ibr-no-such-ibsim\" ibsim-node = \"RtrA\" }\n";

	d_new();
	fake_umad.open_rc = -ENODEV;
	CU_ASSERT_EQUAL(ibrd_mad_start(&d), 0);
	CU_ASSERT_TRUE(info(0).lost);
	d_free(); /* frees the lost port (ASan: nothing left) */
	CU_ASSERT_EQUAL(fake_umad.opens, 0);

	memset(&d, 0, sizeof(d));
	d.conf = ibrd_conf_load_string(ibsim_text, "t.conf", stderr);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d.conf);
	d.epfd = epoll_create1(EPOLL_CLOEXEC);
	CU_ASSERT_EQUAL_FATAL(ibrd_rooms_new(&d), 0);
	CU_ASSERT_EQUAL_FATAL(ibrd_state_build(&d, d.conf, NULL, NULL, NULL), 0);
	CU_ASSERT(ibrd_mad_start(&d) < 0); /* the simulator is started first */
	CU_ASSERT_PTR_NULL(d.mad[0]);
	d_free();
}

static int suite_init(void)
{
	return mkdtemp(dir) ? 0 : -1;
}

static int suite_fini(void)
{
	char p[sizeof(dir) + 8];

	snprintf(p, sizeof(p), "%s/issm0", dir);
	unlink(p);
	return rmdir(dir);
}

static CU_TestInfo tests[] = {
	{ "umad: not there at start: lost until it comes", test_lost_at_start },
	{ "umad: a device that goes: lost again, back when it is", test_lost_later },
	{ "a lost port at the end; ibsim still stops the start", test_stop_and_ibsim },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run_fixture("ibrd_mad", tests, suite_init, suite_fini);
}
