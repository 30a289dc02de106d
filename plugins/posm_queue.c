/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * posm_queue.c - batches of plugin messages and the bounded rings they wait
 * in.  report() builds a batch (a snapshot, or one trap's delta) and puts
 * it in the inbox; the plugin's thread moves it to each daemon's queue,
 * sharing it by reference.  Queues never grow past their bound: a batch
 * that does not fit is dropped and counted by the caller, and the daemon
 * gets a full snapshot once its queue drains, so a slow or absent daemon
 * costs OpenSM a copy at most, never a wait.
 */
#include "plugins/posm.h"
#include "lib/ibr_pkt.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int posm_bbuf_emit(void *ctx, const uint8_t *msg, size_t len)
{
	struct posm_bbuf *b = ctx;

	if (b->err)
		return b->err;
	if (b->len + len > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		uint8_t *n;

		while (cap < b->len + len)
			cap *= 2;
		if (!(n = realloc(b->buf, cap)))
			return b->err = -ENOMEM;
		b->buf = n;
		b->cap = cap;
	}
	memcpy(b->buf + b->len, msg, len);
	b->len += len;
	b->nmsgs++;
	return 0;
}

struct posm_batch *posm_bbuf_batch(struct posm_bbuf *b, bool snapshot)
{
	struct posm_batch *x = NULL;

	if (!b->err && b->len && (x = malloc(sizeof(*x) + b->len))) {
		atomic_init(&x->ref, 1);
		x->nmsgs = b->nmsgs;
		x->len = b->len;
		x->snapshot = snapshot;
		memcpy(x->data, b->buf, b->len);
	}
	b->len = 0;
	b->nmsgs = 0;
	b->err = 0;
	return x;
}

void posm_bbuf_free(struct posm_bbuf *b)
{
	free(b->buf);
	memset(b, 0, sizeof(*b));
}

struct posm_batch *posm_batch_ref(struct posm_batch *b)
{
	atomic_fetch_add(&b->ref, 1);
	return b;
}

void posm_batch_unref(struct posm_batch *b)
{
	if (b && atomic_fetch_sub(&b->ref, 1) == 1)
		free(b);
}

size_t posm_batch_msg_len(const struct posm_batch *b, size_t off)
{
	size_t n;

	if (off + IBR_PLUG_HDR_LEN > b->len)
		return 0;
	n = ibr_be32_get(b->data + off + 8);
	return n >= IBR_PLUG_HDR_LEN && off + n <= b->len ? n : 0;
}

int posm_queue_init(struct posm_queue *q, unsigned cap)
{
	memset(q, 0, sizeof(*q));
	if (!(q->v = calloc(cap, sizeof(*q->v))))
		return -ENOMEM;
	q->cap = cap;
	return 0;
}

void posm_queue_free(struct posm_queue *q)
{
	posm_queue_clear(q);
	free(q->v);
	memset(q, 0, sizeof(*q));
}

int posm_queue_push(struct posm_queue *q, struct posm_batch *b)
{
	if (q->n == q->cap)
		return -ENOBUFS;
	q->v[(q->head + q->n) % q->cap] = posm_batch_ref(b);
	q->n++;
	q->bytes += b->len;
	return 0;
}

struct posm_batch *posm_queue_peek(const struct posm_queue *q)
{
	return q->n ? q->v[q->head] : NULL;
}

void posm_queue_pop(struct posm_queue *q)
{
	struct posm_batch *b;

	if (!q->n)
		return;
	b = q->v[q->head];
	q->v[q->head] = NULL;
	q->head = (q->head + 1) % q->cap;
	q->n--;
	q->bytes -= b->len;
	posm_batch_unref(b);
}

void posm_queue_clear(struct posm_queue *q)
{
	while (q->n)
		posm_queue_pop(q);
	q->head = 0;
}
