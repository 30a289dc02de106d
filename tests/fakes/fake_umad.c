/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * fake_umad.c - a fake libibumad: see fake_umad.h.  Compiled against the
 * system's <infiniband/umad.h>, so that the signatures are the library's.
 */
#include "tests/fakes/fake_umad.h"

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <infiniband/umad.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

struct fake_umad fake_umad = { .fd = -1 };

#define FAKE_PORTID 7

int fake_umad_reset(const char *dir)
{
	int fd;

	fake_umad_fini();
	memset(&fake_umad, 0, sizeof(fake_umad));
	fake_umad.fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (fake_umad.fd < 0)
		return -errno;
	snprintf(fake_umad.issm_path, sizeof(fake_umad.issm_path), "%s/issm0", dir);
	fake_umad.port.lid = 8;
	fake_umad.port.sm_lid = 2;
	fake_umad.port.state = 4;
	fake_umad.port.prefix = 0xfec0000000000001ull;
	fd = open(fake_umad.issm_path, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

void fake_umad_fini(void)
{
	if (fake_umad.fd >= 0)
		close(fake_umad.fd);
	fake_umad.fd = -1;
}

int umad_init(void)
{
	return 0;
}

int umad_open_port(const char *ca_name, int portnum)
{
	if (fake_umad.open_rc)
		return fake_umad.open_rc;
	if (!ca_name || strcmp(ca_name, FAKE_UMAD_CA) || (portnum != 0 && portnum != 1))
		return -ENODEV;
	fake_umad.opens++;
	return FAKE_PORTID;
}

int umad_close_port(int portid)
{
	if (portid != FAKE_PORTID)
		return -EINVAL;
	fake_umad.closes++;
	return 0;
}

int umad_get_port(const char *ca_name, int portnum, umad_port_t *port)
{
	if (fake_umad.open_rc)
		return fake_umad.open_rc;
	if (!ca_name || strcmp(ca_name, FAKE_UMAD_CA) || (portnum != 0 && portnum != 1))
		return -ENODEV;
	memset(port, 0, sizeof(*port));
	snprintf(port->ca_name, sizeof(port->ca_name), "%s", ca_name);
	port->portnum = 1;
	port->base_lid = fake_umad.port.lid;
	port->sm_lid = fake_umad.port.sm_lid;
	port->state = fake_umad.port.state;
	port->phys_state = fake_umad.port.state == 1 ? 3 : 5;
	port->gid_prefix = htobe64(fake_umad.port.prefix);
	snprintf(port->link_layer, sizeof(port->link_layer), "InfiniBand");
	return 0;
}

int umad_release_port(umad_port_t *port)
{
	(void)port;
	return 0;
}

int umad_get_issm_path(const char *ca_name, int portnum, char path[], int max)
{
	(void)ca_name, (void)portnum;
	fake_umad.issm_path_calls++;
	if (snprintf(path, (size_t)max, "%s", fake_umad.issm_path) >= max)
		return -ENOSPC;
	return 0;
}

int umad_get_fd(int portid)
{
	return portid == FAKE_PORTID ? fake_umad.fd : -EINVAL;
}

int umad_register(int portid, int mgmt_class, int mgmt_version, uint8_t rmpp_version,
		  long method_mask[16 / sizeof(long)])
{
	(void)mgmt_version, (void)rmpp_version, (void)method_mask;
	if (portid != FAKE_PORTID || fake_umad.nclasses >= 8)
		return -EINVAL;
	fake_umad.classes[fake_umad.nclasses] = (unsigned)mgmt_class;
	fake_umad.registered++;
	return (int)fake_umad.nclasses++;
}

int umad_unregister(int portid, int agentid)
{
	if (portid != FAKE_PORTID || agentid < 0 || (unsigned)agentid >= fake_umad.nclasses)
		return -EINVAL;
	fake_umad.registered--;
	return 0;
}

size_t umad_size(void)
{
	return sizeof(struct ib_user_mad);
}

void *umad_get_mad(void *umad)
{
	return ((struct ib_user_mad *)umad)->data;
}

ib_mad_addr_t *umad_get_mad_addr(void *umad)
{
	return &((struct ib_user_mad *)umad)->addr;
}

int umad_status(void *umad)
{
	return (int)((struct ib_user_mad *)umad)->status;
}

int umad_set_addr(void *umad, int dlid, int dqp, int sl, int qkey)
{
	(void)umad, (void)dlid, (void)dqp, (void)sl, (void)qkey;
	return 0;
}

int umad_set_pkey(void *umad, int pkey_index)
{
	(void)umad, (void)pkey_index;
	return 0;
}

int umad_get_pkey(void *umad)
{
	(void)umad;
	return 0;
}

int umad_send(int portid, int agentid, void *umad, int length, int timeout_ms, int retries)
{
	(void)agentid, (void)umad, (void)length, (void)timeout_ms, (void)retries;
	if (portid != FAKE_PORTID)
		return -EINVAL;
	fake_umad.sends++;
	return 0;
}

int umad_recv(int portid, void *umad, int *length, int timeout_ms)
{
	(void)portid, (void)umad, (void)length, (void)timeout_ms;
	if (fake_umad.recv_rc)
		return fake_umad.recv_rc;
	return -EAGAIN;
}
