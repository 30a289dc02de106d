/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * fake_umad.h - a fake libibumad for tests: exactly the umad_* entry points
 * mad/mad_umad.c uses, linked into a test instead of the real library (the
 * test's definitions come first), so that the umad transport runs with no
 * HCA.  One CA, FAKE_UMAD_CA, with one port, 1.  Sends are recorded and
 * dropped, nothing is ever received.  umad_get_port() answers from
 * fake_umad.port; the port's umad device is `dir`/umad0 beside its issm
 * device (a test may create it).  Faults: the CA absent (umad_open_port
 * fails with ENODEV, or EOPNOTSUPP as without ib_umad), and a receive
 * error (a device that went: its fd reads ENODEV).  umad_get_issm_path() names a file in
 * the directory given to fake_umad_reset() (the port's issm device as the
 * kernel would have it), so that a test can watch whether anyone opens it.
 */
#ifndef FAKE_UMAD_H
#define FAKE_UMAD_H

#include <stddef.h>

#define FAKE_UMAD_CA "fake_umad0"

struct fake_umad {
	char issm_path[256]; /* the fake issm device (a plain file) */
	unsigned opens, closes;
	unsigned registered; /* agents registered and not unregistered */
	unsigned classes[8]; /* the management class of each registration */
	unsigned nclasses;
	unsigned issm_path_calls; /* umad_get_issm_path() calls */
	unsigned sends;
	int fd;	     /* what umad_get_fd() returns: an eventfd that never fires */
	int open_rc; /* not 0: umad_open_port() fails with it (-ENODEV: no such CA yet) */
	int recv_rc; /* not 0: umad_recv() fails with it (-ENODEV: the device went) */
	/* what umad_get_port() says of port 1 (reset: LID 8, SM LID 2, Active, fec0::1) */
	struct {
		unsigned lid, sm_lid, state;
		unsigned long long prefix;
	} port;
};

extern struct fake_umad fake_umad;

/* Forget everything; the issm device becomes `dir`/issm0 (created empty). 0 or -errno. */
int fake_umad_reset(const char *dir);
/* Close the fake's descriptor. */
void fake_umad_fini(void);

#endif
