/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * io_verbs_dev.c - the verbs devices: opened by name, their PDs and the
 * MRs of every port's pool on them, and a device lost and found again
 * (io_verbs.h).
 */
#include "router/io/io_verbs_int.h"

#include "lib/ibr_log.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

int io_verbs_dev_attach(struct io_verbs_dev *d)
{
	struct ibv_device **list;
	int n, rc = -ENODEV;

	if (!(list = ibv_get_device_list(&n)))
		return errno ? -errno : -ENOMEM;
	for (int i = 0; i < n && !d->ctx; i++)
		if (!strcmp(ibv_get_device_name(list[i]), d->name) &&
		    !(d->ctx = ibv_open_device(list[i])))
			rc = errno ? -errno : -EIO;
	ibv_free_device_list(list);
	if (!d->ctx)
		return rc;
	if (!(d->pd = ibv_alloc_pd(d->ctx))) {
		ibv_close_device(d->ctx);
		d->ctx = NULL;
		return -ENOMEM;
	}
	/* async events are read by the control thread's loop: never block it */
	fcntl(d->ctx->async_fd, F_SETFL, fcntl(d->ctx->async_fd, F_GETFL) | O_NONBLOCK);
	d->lost = d->fatal = false;
	return 0;
}

int io_verbs_dev_reg(struct io_verbs *v, unsigned d)
{
	for (unsigned i = 0; i < v->nports; i++)
		if (!v->mr[i][d] &&
		    !(v->mr[i][d] = ibv_reg_mr(v->dev[d].pd, v->port[i].pool.mem,
					       v->port[i].pool.memlen, IBV_ACCESS_LOCAL_WRITE)))
			return errno ? -errno : -ENOMEM;
	return 0;
}

void io_verbs_dev_detach(struct io_verbs *v, unsigned d)
{
	struct io_verbs_dev *dv = &v->dev[d];

	for (unsigned i = 0; i < v->nports; i++) {
		if (v->mr[i][d])
			ibv_dereg_mr(v->mr[i][d]);
		v->mr[i][d] = NULL;
	}
	if (dv->pd)
		ibv_dealloc_pd(dv->pd);
	if (dv->ctx)
		ibv_close_device(dv->ctx);
	dv->pd = NULL;
	dv->ctx = NULL;
}

unsigned io_verbs_ndevs(const struct io_verbs *v)
{
	return v->ndevs;
}

const char *io_verbs_dev_name(const struct io_verbs *v, unsigned d)
{
	return d < v->ndevs ? v->dev[d].name : NULL;
}

bool io_verbs_dev_lost(const struct io_verbs *v, unsigned d)
{
	return d < v->ndevs && v->dev[d].lost;
}

const char *io_verbs_dev_check(const struct io_verbs *v, unsigned d)
{
	const struct io_verbs_dev *dv = &v->dev[d];

	if (d >= v->ndevs || dv->lost || !dv->ctx)
		return NULL;
	if (__atomic_load_n(&dv->fatal, __ATOMIC_ACQUIRE))
		return "a fatal device error";
	/* one stat() a second (the daemon's check): the removal that sends no event */
	if (access(dv->ctx->device->dev_path, F_OK) && (errno == ENOENT || errno == ENOTDIR))
		return "its uverbs device is gone";
	return NULL;
}

bool io_verbs_dev_present(const struct io_verbs *v, unsigned d)
{
	struct ibv_device **list;
	bool found = false;
	int n;

	if (d >= v->ndevs || !(list = ibv_get_device_list(&n)))
		return false;
	for (int i = 0; i < n && !found; i++)
		found = !strcmp(ibv_get_device_name(list[i]), v->dev[d].name);
	ibv_free_device_list(list);
	return found;
}

void io_verbs_dev_lose(struct io_verbs *v, unsigned d)
{
	for (unsigned i = 0; i < v->nports; i++) {
		struct io_verbs_port *p = &v->port[i];

		if (p->dev != &v->dev[d] || p->lost)
			continue;
		__atomic_store_n(&p->up, false, __ATOMIC_RELAXED);
		p->lost = true;
		io_verbs_port_hw_close(p);
	}
	io_verbs_dev_detach(v, d);
	v->dev[d].lost = true;
}

int io_verbs_dev_reopen(struct io_verbs *v, unsigned d)
{
	struct io_verbs_dev *dv = &v->dev[d];
	int rc;

	if (d >= v->ndevs || !dv->lost)
		return d < v->ndevs ? 0 : -EINVAL;
	if ((rc = io_verbs_dev_attach(dv)) || (rc = io_verbs_dev_reg(v, d)))
		goto fail;
	for (unsigned i = 0; i < v->nports; i++) {
		struct io_verbs_port *p = &v->port[i];

		if (p->dev != dv)
			continue;
		p->lost = false;
		if ((rc = io_verbs_port_hw_open(p)))
			goto fail;
		io_verbs_port_start(p);
	}
	return 0;
fail:
	dv->lost = false; /* what did open, closed again */
	io_verbs_dev_lose(v, d);
	return rc;
}
