/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * mad_ibsim_test.c - the ibsim transport (mad/mad_ibsim.c) without ibsim: the
 * sim_request byte layout, hostile datagrams, no server, and a fake server
 * thread speaking the control protocol (CONNECT with the node name, GET_PORT,
 * SET_ISSM, DISCONNECT) and echoing data.  tests/lab/ runs it against ibsim.
 */
#include "mad/mad_ibsim.h"

#include "lib/ibr_mad.h"
#include "tests/unit/ibr_test.h"

#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static void test_req_layout(void)
{
	uint8_t req[MAD_IBSIM_REQ_SIZE], mad[IBR_MAD_SIZE];
	const struct mad_addr to = { .lid = 0x1234, .qpn = 1 };
	struct mad_addr from;
	const uint8_t *p;

	ibr_mad_build_sa(mad, IBR_MAD_METHOD_GET, IBR_SA_ATTR_NODE_RECORD, 0, 0, 0x42);
	mad_ibsim_req_encode(req, mad, IBR_MAD_SIZE, &to);
	/* dlid: LID big-endian in the first two bytes of a 32-bit field */
	CU_ASSERT(req[0] == 0x12 && req[1] == 0x34 && req[2] == 0 && req[3] == 0);
	CU_ASSERT(req[4] == 0 && req[5] == 0);	    /* slid 0: ibsim fills in ours */
	CU_ASSERT_EQUAL(ibr_mad_ld32(req + 8), 1);  /* dqp */
	CU_ASSERT_EQUAL(ibr_mad_ld32(req + 12), 1); /* sqp: GMP from QP1 */
	CU_ASSERT_EQUAL(ibr_mad_ld64(req + 24), IBR_MAD_SIZE);
	CU_ASSERT_EQUAL(memcmp(req + 32, mad, IBR_MAD_SIZE), 0);
	/* a DR SMP: both LIDs permissive, from QP0 */
	ibr_mad_build_dr_smp(mad, IBR_MAD_METHOD_GET, IBR_SMP_ATTR_NODE_INFO, 0, 1, 0, NULL, 0);
	mad_ibsim_req_encode(req, mad, IBR_MAD_SIZE, &(struct mad_addr){ .lid = 0xFFFF });
	CU_ASSERT(req[0] == 0xFF && req[1] == 0xFF && req[4] == 0xFF && req[5] == 0xFF);
	CU_ASSERT_EQUAL(ibr_mad_ld32(req + 12), 0);
	/* decode: swapped roles, status, short length zero-filled to 256 */
	ibr_mad_st16(req + 4, 7);
	ibr_mad_st32(req + 12, 1);
	ibr_mad_st32(req + 16, MAD_IBSIM_STATUS_DROPPED);
	ibr_mad_st64(req + 24, 100);
	req[32 + 200] = 0xEE;
	CU_ASSERT_EQUAL(mad_ibsim_req_decode(req, sizeof(req), &p, &from), IBR_MAD_SIZE);
	CU_ASSERT_EQUAL(from.lid, 7);
	CU_ASSERT_EQUAL(from.qpn, 1);
	CU_ASSERT_EQUAL(from.status, MAD_IBSIM_STATUS_DROPPED);
	CU_ASSERT_PTR_EQUAL(p, req + 32);
	CU_ASSERT_EQUAL(p[200], 0);
	/* hostile: wrong datagram sizes, absurd lengths */
	CU_ASSERT_EQUAL(mad_ibsim_req_decode(req, sizeof(req) - 1, &p, &from), 0);
	CU_ASSERT_EQUAL(mad_ibsim_req_decode(req, 0, &p, &from), 0);
	ibr_mad_st64(req + 24, ~0ull);
	CU_ASSERT_EQUAL(mad_ibsim_req_decode(req, sizeof(req), &p, &from), IBR_MAD_SIZE);
}

static void test_no_server(void)
{
	char name[64];

	snprintf(name, sizeof(name), "ibr-unit-none-%d", getpid());
	errno = 0;
	CU_ASSERT_PTR_NULL(mad_ibsim_open(name, "RtrA", 200));
	CU_ASSERT_EQUAL(errno, ECONNREFUSED);
}

/* ---- a fake ibsim server ---- */

struct sim_ctl_rec {
	uint32_t magic, clientid, type, len;
	uint8_t data[64];
};

struct fake_srv {
	char name[64];
	int ctl, out;
	int issm;
	int disconnects;
	int ctl_msgs;
};

static socklen_t addr_of(struct sockaddr_un *sa, const char *fmt, const char *name, unsigned n)
{
	char buf[100];
	int len;

	snprintf(buf, sizeof(buf), fmt, name, n);
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	len = snprintf(sa->sun_path + 1, sizeof(sa->sun_path) - 1, "%s", buf);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 2 + (size_t)len);
}

static void *fake_srv_run(void *arg)
{
	struct fake_srv *s = arg;
	struct sim_ctl_rec m;
	struct sockaddr_un from, sa;
	socklen_t fl;

	for (;;) {
		fl = sizeof(from);
		if (recvfrom(s->ctl, &m, sizeof(m), 0, (struct sockaddr *)&from, &fl) !=
		    (ssize_t)sizeof(m))
			break;
		s->ctl_msgs++;
		if (m.magic != 0xdeadbeef)
			m.type = 0;
		else if (m.type == 1) { /* CONNECT: node must be RtrA; data socket connect */
			uint32_t id;

			memcpy(&id, m.data, 4);
			if (strcmp((char *)m.data + 12, "RtrA") != 0) {
				m.type = 0;
			} else {
				connect(s->out, (struct sockaddr *)&sa,
					addr_of(&sa, "%s:in%u", s->name, id));
				id = 4; /* client id */
				memcpy(m.data, &id, 4);
			}
		} else if (m.type == 3) { /* GET_PORT */
			uint16_t lid = 9;

			memcpy(m.data, &lid, 2);
			m.data[2] = 4;
		} else if (m.type == 9) {
			memcpy(&s->issm, m.data, sizeof(int));
		} else if (m.type == 2) {
			s->disconnects++;
		}
		sendto(s->ctl, &m, sizeof(m), 0, (struct sockaddr *)&from, fl);
		if (m.type == 2)
			break;
	}
	return NULL;
}

static void test_fake_server(void)
{
	struct fake_srv s = { 0 };
	struct sockaddr_un sa;
	struct mad_transport *tp;
	pthread_t th;
	uint16_t lid = 0;
	uint8_t state = 0, mad[IBR_MAD_SIZE], req[MAD_IBSIM_REQ_SIZE];

	snprintf(s.name, sizeof(s.name), "ibr-unit-fake-%d", getpid());
	s.ctl = socket(AF_UNIX, SOCK_DGRAM, 0);
	s.out = socket(AF_UNIX, SOCK_DGRAM, 0);
	CU_ASSERT_FATAL(bind(s.ctl, (struct sockaddr *)&sa, addr_of(&sa, "%s:ctl", s.name, 0)) ==
			0);
	CU_ASSERT_FATAL(bind(s.out, (struct sockaddr *)&sa, addr_of(&sa, "%s:out%u", s.name, 4)) ==
			0);
	pthread_create(&th, NULL, fake_srv_run, &s);
	/* an unknown node is refused */
	CU_ASSERT_PTR_NULL(mad_ibsim_open(s.name, "Nowhere", 500));
	CU_ASSERT_EQUAL(errno, ENODEV);
	tp = mad_ibsim_open(s.name, "RtrA", 500);
	CU_ASSERT_PTR_NOT_NULL_FATAL(tp);
	CU_ASSERT_EQUAL(mad_ibsim_client_id(tp), 4);
	CU_ASSERT(mad_ibsim_sock_id(tp) & 0x40000000u);
	CU_ASSERT_EQUAL(mad_ibsim_get_port(tp, &lid, &state), 0);
	CU_ASSERT(lid == 9 && state == 4);
	CU_ASSERT_EQUAL(tp->ops->set_issm(tp, true), 0);
	CU_ASSERT_EQUAL(s.issm, 1);
	ibr_mad_build_get(mad, IBR_MGMT_CLASS_SUBN_LID, IBR_SMP_ATTR_NODE_INFO, 0, 5);
	CU_ASSERT_EQUAL(tp->ops->send(tp, mad, IBR_MAD_SIZE, &(struct mad_addr){ .lid = 9 }, 100),
			0);
	CU_ASSERT_EQUAL(tp->ops->send(tp, mad, 10, &(struct mad_addr){ .lid = 9 }, 100), -EMSGSIZE);
	/* close: IsSM cleared before DISCONNECT */
	tp->ops->close(tp);
	pthread_join(th, NULL);
	CU_ASSERT_EQUAL(s.issm, 0);
	CU_ASSERT_EQUAL(s.disconnects, 1);
	/* the Get reached the server's data socket as a 288-byte sim_request */
	CU_ASSERT_EQUAL(recv(s.out, req, sizeof(req), MSG_DONTWAIT), (ssize_t)sizeof(req));
	CU_ASSERT(req[0] == 0 && req[1] == 9);
	CU_ASSERT_EQUAL(ibr_mad_tid(req + 32), 5);
	close(s.ctl);
	close(s.out);
}

static CU_TestInfo tests[] = {
	{ "sim_request layout, decode of hostile datagrams", test_req_layout },
	{ "no server: ECONNREFUSED", test_no_server },
	{ "fake server: CONNECT by node, GET_PORT, IsSM, DISCONNECT", test_fake_server },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("sa_mad_ibsim", tests);
}
