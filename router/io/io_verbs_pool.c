/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* io_verbs_pool.c - receive buffers with references (io_verbs_pool.h). */
#include "router/io/io_verbs_pool.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

size_t io_verbs_pool_bytes(uint32_t n)
{
	/* hugepages spare the HCA's and the CPU's TLBs; 4 KiB pages otherwise */
	return ((size_t)(n + IO_VERBS_BOUNCE) * IO_VERBS_BUFSZ + (2u << 20) - 1) &
	       ~(size_t)((2u << 20) - 1);
}

void io_verbs_pool_bounce_give(struct io_verbs_pool *p, struct io_verbs_buf *b)
{
	b->state = IO_VERBS_BUF_FREE;
	b->next = p->bounce_head;
	p->bounce_head = b->idx;
	p->nbounce_free++;
}

int io_verbs_pool_init(struct io_verbs_pool *p, uint32_t n, uint8_t owner)
{
	memset(p, 0, sizeof(*p));
	if (!n)
		return -EINVAL;
	p->nbufs = n;
	p->memlen = io_verbs_pool_bytes(n);
	p->mem = mmap(NULL, p->memlen, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	p->huge = p->mem != MAP_FAILED;
	if (!p->huge)
		p->mem = mmap(NULL, p->memlen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			      -1, 0);
	if (p->mem == MAP_FAILED) {
		p->mem = NULL;
		return -ENOMEM;
	}
	p->buf = calloc(n + IO_VERBS_BOUNCE, sizeof(*p->buf));
	if (!p->buf) {
		io_verbs_pool_fini(p);
		return -ENOMEM;
	}
	p->free_head = IO_VERBS_NIL;
	atomic_init(&p->ret_head, IO_VERBS_NIL);
	atomic_init(&p->nheld, 0);
	p->bounce_head = IO_VERBS_NIL;
	for (uint32_t i = n + IO_VERBS_BOUNCE; i-- > 0;) {
		struct io_verbs_buf *b = &p->buf[i];

		b->base = p->mem + (size_t)i * IO_VERBS_BUFSZ;
		b->idx = i;
		b->owner = owner;
		b->m.port = owner;
		b->m.priv = b;
		atomic_init(&b->refs, 0);
		if (i < n)
			io_verbs_pool_give(p, b);
		else
			io_verbs_pool_bounce_give(p, b);
	}
	return 0;
}

void io_verbs_pool_fini(struct io_verbs_pool *p)
{
	if (p->mem)
		munmap(p->mem, p->memlen);
	free(p->buf);
	p->mem = NULL;
	p->buf = NULL;
}

struct io_verbs_buf *io_verbs_pool_take(struct io_verbs_pool *p)
{
	struct io_verbs_buf *b;

	if (p->free_head == IO_VERBS_NIL)
		return NULL;
	b = &p->buf[p->free_head];
	p->free_head = b->next;
	p->nfree--;
	b->state = IO_VERBS_BUF_POSTED;
	return b;
}

void io_verbs_pool_hold(struct io_verbs_pool *p, struct io_verbs_buf *b)
{
	b->state = IO_VERBS_BUF_HELD;
	atomic_store_explicit(&b->refs, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&p->nheld, 1, memory_order_relaxed);
}

void io_verbs_pool_give(struct io_verbs_pool *p, struct io_verbs_buf *b)
{
	b->state = IO_VERBS_BUF_FREE;
	b->next = p->free_head;
	p->free_head = b->idx;
	p->nfree++;
}

void io_verbs_buf_unref(struct io_verbs_pool *p, struct io_verbs_buf *b)
{
	uint32_t head;

	if (atomic_fetch_sub_explicit(&b->refs, 1, memory_order_acq_rel) != 1)
		return;
	if (io_verbs_buf_is_bounce(p, b)) {
		io_verbs_pool_bounce_give(p, b);
		return;
	}
	/* the last reference: push on the owner's return stack (release: the owner reads next) */
	head = atomic_load_explicit(&p->ret_head, memory_order_relaxed);
	do
		b->next = head;
	while (!atomic_compare_exchange_weak_explicit(&p->ret_head, &head, b->idx,
						      memory_order_release, memory_order_relaxed));
}

struct io_verbs_buf *io_verbs_pool_bounce_take(struct io_verbs_pool *p)
{
	struct io_verbs_buf *b;

	if (p->bounce_head == IO_VERBS_NIL)
		return NULL;
	b = &p->buf[p->bounce_head];
	p->bounce_head = b->next;
	p->nbounce_free--;
	b->state = IO_VERBS_BUF_HELD;
	return b;
}

uint32_t io_verbs_pool_collect(struct io_verbs_pool *p)
{
	uint32_t i = atomic_exchange_explicit(&p->ret_head, IO_VERBS_NIL, memory_order_acquire);
	uint32_t n = 0;

	while (i != IO_VERBS_NIL) {
		struct io_verbs_buf *b = &p->buf[i];

		i = b->next;
		io_verbs_pool_give(p, b);
		n++;
	}
	atomic_fetch_sub_explicit(&p->nheld, n, memory_order_relaxed);
	return n;
}
