/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Tests for plugins/posm_queue.c: batches and the bounded queues of the plugin. */
#include "plugins/posm.h"
#include "tests/unit/ibr_test.h"

#include <errno.h>
#include <string.h>

/* A batch of `n` STATS messages through the packer and the buffer. */
static struct posm_batch *mk(unsigned n, bool snapshot)
{
	static struct ibr_plug_pack k;
	struct posm_bbuf b = { 0 };
	struct posm_batch *x;

	for (unsigned i = 0; i < n; i++) {
		ibr_plug_pack_start(&k, IBR_PLUG_STATS, NULL, posm_bbuf_emit, &b, NULL);
		ibr_plug_pack_end(&k);
	}
	x = posm_bbuf_batch(&b, snapshot);
	posm_bbuf_free(&b);
	return x;
}

static void test_batch(void)
{
	struct posm_batch *b = mk(3, true);
	size_t off = 0, n = 0, len;

	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_EQUAL(b->nmsgs, 3);
	CU_ASSERT_TRUE(b->snapshot);
	CU_ASSERT_EQUAL(b->len, 3 * (IBR_PLUG_HDR_LEN + IBR_PLUG_STATS_LEN));
	while ((len = posm_batch_msg_len(b, off))) {
		struct ibr_plug_msg m;

		CU_ASSERT_EQUAL(ibr_plug_parse(b->data + off, len, &m), 0);
		off += len;
		n++;
	}
	CU_ASSERT_EQUAL(n, 3);
	CU_ASSERT_EQUAL(off, b->len);
	/* a cut or lying length ends the walk instead of reading past the batch */
	b->data[8 + 3] = 0xFF;
	CU_ASSERT_EQUAL(posm_batch_msg_len(b, 0), 0);
	CU_ASSERT_EQUAL(posm_batch_msg_len(b, b->len - 4), 0);
	posm_batch_unref(b);
	/* an empty buffer makes no batch */
	{
		struct posm_bbuf e = { 0 };

		CU_ASSERT_PTR_NULL(posm_bbuf_batch(&e, false));
	}
}

static void test_bounded(void)
{
	struct posm_queue q;
	struct posm_batch *b = mk(1, false);

	CU_ASSERT_EQUAL_FATAL(posm_queue_init(&q, 3), 0);
	for (int i = 0; i < 3; i++)
		CU_ASSERT_EQUAL(posm_queue_push(&q, b), 0);
	CU_ASSERT_EQUAL(posm_queue_push(&q, b), -ENOBUFS); /* full: dropped, never waits */
	CU_ASSERT_EQUAL(q.n, 3);
	CU_ASSERT_EQUAL(q.bytes, 3 * b->len);
	CU_ASSERT_EQUAL(atomic_load(&b->ref), 4); /* shared by reference */
	posm_queue_pop(&q);
	CU_ASSERT_EQUAL(posm_queue_push(&q, b), 0); /* the ring wraps */
	CU_ASSERT_PTR_EQUAL(posm_queue_peek(&q), b);
	posm_queue_clear(&q);
	CU_ASSERT_EQUAL(q.n, 0);
	CU_ASSERT_EQUAL(q.bytes, 0);
	CU_ASSERT_PTR_NULL(posm_queue_peek(&q));
	CU_ASSERT_EQUAL(atomic_load(&b->ref), 1);
	posm_queue_pop(&q); /* on empty: nothing */
	posm_queue_free(&q);
	posm_batch_unref(b);
}

static void test_order(void)
{
	struct posm_queue q;
	struct posm_batch *v[5];

	CU_ASSERT_EQUAL_FATAL(posm_queue_init(&q, 4), 0);
	for (int round = 0; round < 3; round++) {
		for (int i = 0; i < 4; i++) {
			v[i] = mk((unsigned)i + 1, false);
			CU_ASSERT_EQUAL(posm_queue_push(&q, v[i]), 0);
			posm_batch_unref(v[i]); /* the queue holds the only reference */
		}
		for (int i = 0; i < 4; i++) {
			CU_ASSERT_EQUAL(posm_queue_peek(&q)->nmsgs, (uint32_t)i + 1);
			posm_queue_pop(&q);
		}
	}
	posm_queue_free(&q);
}

static CU_TestInfo tests[] = {
	{ "batches hold whole messages", test_batch },
	{ "queues are bounded and share batches", test_bounded },
	{ "queues keep order across wraps", test_order },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("posm_queue", tests);
}
