/* Tests for lib/ibr_pcap.c: the file layout tshark reads (pcap, LINKTYPE_ERF,
 * ERF type 21), byte for byte, and error handling. */
#include "lib/ibr_pcap.h"
#include "tests/unit/ibr_test.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static size_t slurp(const char *path, uint8_t *buf, size_t cap)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return 0;
	n = fread(buf, 1, cap, f);
	fclose(f);
	return n;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void test_layout(void)
{
	char path[] = "/tmp/ibr-pcap-test.XXXXXX";
	int fd = mkstemp(path);
	struct ibr_pcap pc;
	struct timespec ts = { 1700000000, 500000000 }; /* x.5 s */
	uint8_t pkt[10] = { 0xf0, 0x02, 0, 5, 0, 2, 0, 3, 0xaa, 0xbb };
	uint8_t hdr[4] = { 1, 2, 3, 4 }, tail[2] = { 9, 9 };
	struct iovec iov[2] = { { hdr, 4 }, { tail, 2 } };
	uint8_t buf[256];
	size_t n;

	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	CU_ASSERT_EQUAL_FATAL(ibr_pcap_open(&pc, path), 0);
	CU_ASSERT_EQUAL(ibr_pcap_write(&pc, &ts, pkt, sizeof(pkt), 1), 0);
	CU_ASSERT_EQUAL(ibr_pcap_writev(&pc, &ts, iov, 2, 2), 0);
	CU_ASSERT_EQUAL(pc.records, 2);
	CU_ASSERT_EQUAL(ibr_pcap_close(&pc), 0);
	n = slurp(path, buf, sizeof(buf));
	unlink(path);
	CU_ASSERT_EQUAL_FATAL(n, 24 + (16 + 16 + 10) + (16 + 16 + 6));
	CU_ASSERT_EQUAL(le32(buf), 0xa1b2c3d4);
	CU_ASSERT_EQUAL(le32(buf + 20), 197); /* LINKTYPE_ERF */
	/* record 1: pcap header, then ERF header, then the packet */
	CU_ASSERT_EQUAL(le32(buf + 24), 1700000000);
	CU_ASSERT_EQUAL(le32(buf + 28), 500000);
	CU_ASSERT_EQUAL(le32(buf + 32), 26);
	CU_ASSERT_EQUAL(le32(buf + 36), 26);
	/* ERF timestamp 32.32: seconds in the high word, .5 = 0x80000000 */
	CU_ASSERT_EQUAL(le32(buf + 40), 0x80000000u);
	CU_ASSERT_EQUAL(le32(buf + 44), 1700000000u);
	CU_ASSERT_EQUAL(buf[48], 21);		     /* type InfiniBand */
	CU_ASSERT_EQUAL(buf[49], 0x05);		     /* varying length, interface 1 */
	CU_ASSERT_EQUAL(buf[50] << 8 | buf[51], 26); /* rlen */
	CU_ASSERT_EQUAL(buf[54] << 8 | buf[55], 10); /* wlen */
	CU_ASSERT_EQUAL(memcmp(buf + 56, pkt, sizeof(pkt)), 0);
	/* record 2: the pieces joined */
	CU_ASSERT_EQUAL(le32(buf + 66 + 8), 22);
	CU_ASSERT_EQUAL(buf[66 + 16 + 9], 0x06);
	CU_ASSERT_EQUAL(memcmp(buf + 66 + 32, "\x01\x02\x03\x04\x09\x09", 6), 0);
}

static void test_errors(void)
{
	struct ibr_pcap pc;
	struct timespec ts = { 0, 0 };
	static uint8_t big[70000];

	CU_ASSERT_EQUAL(ibr_pcap_open(&pc, "/nonexistent-dir/x.pcap"), -ENOENT);
	CU_ASSERT_EQUAL_FATAL(ibr_pcap_open(&pc, "/dev/null"), 0);
	CU_ASSERT_EQUAL(ibr_pcap_write(&pc, &ts, big, sizeof(big), 0), -EMSGSIZE);
	CU_ASSERT_EQUAL(pc.records, 0);
	CU_ASSERT_EQUAL(ibr_pcap_close(&pc), 0);
	/* a full disk is reported, and sticks */
	if (access("/dev/full", W_OK) == 0) {
		CU_ASSERT_EQUAL_FATAL(ibr_pcap_open(&pc, "/dev/full"), 0);
		for (int i = 0; i < 1000; i++)
			ibr_pcap_write(&pc, &ts, big, 60000, 0);
		CU_ASSERT_EQUAL(ibr_pcap_close(&pc), -ENOSPC);
	}
}

static CU_TestInfo tests[] = {
	{ "file layout", test_layout },
	{ "errors", test_errors },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("ibr_pcap", tests);
}
