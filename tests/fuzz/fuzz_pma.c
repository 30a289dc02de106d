/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * fuzz_pma.c - libFuzzer target for the PerfMgt agent (sma/sma_pma.c).  The
 * input: one byte of arrival port, the rest a MAD (a short one passed with
 * its own length), against a PMA of 3 ports whose totals come from the
 * input's first bytes.  Checks: no crash (ASan/UBSan); a reply is a GetResp
 * echoing TID and AttributeID with a status in {0, 0x4, 0x8, 0xC, 0x1C};
 * a reply fed back is dropped as a response; every counter of a reply to a
 * Set of every counter reads 0 afterwards on a Get.
 */
#include "lib/ibr_mad.h"
#include "sma/sma_pma.h"

#include <stdlib.h>
#include <string.h>

static uint64_t seed;

static void fz_counts(void *arg, uint8_t port, struct sma_pma_counts *out)
{
	uint64_t *v = (uint64_t *)out;

	(void)arg;
	for (size_t i = 0; i < sizeof(*out) / sizeof(uint64_t); i++)
		v[i] = (seed >> (i * 7 % 64)) * (port + i + 1); /* large: the saturation paths */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sma_pma_ops ops = { .counts = fz_counts };
	uint8_t mad[IBR_MAD_SIZE], reply[IBR_MAD_SIZE], again[IBR_MAD_SIZE];
	struct sma_pma *p;
	size_t len;
	uint16_t st;

	if (size < 1)
		return 0;
	seed = 0;
	memcpy(&seed, data, size - 1 < sizeof(seed) ? size - 1 : sizeof(seed));
	len = size - 1 < IBR_MAD_SIZE ? size - 1 : IBR_MAD_SIZE;
	memset(mad, 0, sizeof(mad));
	memcpy(mad, data + 1, len);
	if (!(p = sma_pma_new(3, &ops)))
		return 0;
	if (sma_pma_process(p, data[0], mad, len, reply) == SMA_PMA_REPLY) {
		st = ibr_mad_status(reply);
		if (ibr_mad_method(reply) != IBR_MAD_METHOD_GET_RESP ||
		    ibr_mad_tid(reply) != ibr_mad_tid(mad) ||
		    ibr_mad_attr_id(reply) != ibr_mad_attr_id(mad) ||
		    (st != 0 && st != 0x4 && st != 0x8 && st != 0xC && st != 0x1C))
			abort();
		if (sma_pma_process(p, data[0], reply, sizeof(reply), again) != SMA_PMA_DROP)
			abort();
		/* after a Set of every counter a Get of the same reads zeros */
		if (!st && ibr_mad_method(mad) == IBR_MAD_METHOD_SET &&
		    ibr_mad_ld16(mad + SMA_PMA_DATA_OFFS + 2) == 0xFFFF &&
		    ibr_mad_attr_id(mad) == SMA_PMA_ATTR_PORT_COUNTERS) {
			ibr_mad_set_method(mad, IBR_MAD_METHOD_GET);
			if (sma_pma_process(p, data[0], mad, sizeof(mad), again) != SMA_PMA_REPLY)
				abort();
			for (size_t i = SMA_PMA_DATA_OFFS + 4; i < IBR_MAD_SIZE; i++)
				if (again[i])
					abort();
		}
	}
	sma_pma_free(p);
	return 0;
}
