/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Tests for lib/ibr_pcap.c: the file layout tshark reads (pcap, LINKTYPE_ERF,
 * ERF type 21), byte for byte, and error handling. */
#include "lib/ibr_pcap.h"
#include "tests/unit/ibr_test.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
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
	CU_ASSERT_EQUAL(ibr_pcap_close(&pc), 0); /* never opened: nothing to do */
	CU_ASSERT_EQUAL_FATAL(ibr_pcap_open(&pc, "/dev/null"), 0);
	CU_ASSERT_EQUAL(ibr_pcap_write(&pc, &ts, big, sizeof(big), 0), -EMSGSIZE);
	CU_ASSERT_EQUAL(pc.records, 0);
	CU_ASSERT_EQUAL(ibr_pcap_write(&pc, &ts, big, 60000, 0), 0); /* EMSGSIZE did not stick */
	CU_ASSERT_EQUAL(ibr_pcap_close(&pc), 0);
	/* a full disk fails the open itself (the header is written there), not the close */
	if (access("/dev/full", W_OK) == 0)
		CU_ASSERT_EQUAL(ibr_pcap_open(&pc, "/dev/full"), -ENOSPC);
}

/* ibr_pcap_open creates the file 0600 whatever the umask: captures hold traffic */
static void test_mode(void)
{
	char dir[] = "/tmp/ibr-pcap-test.XXXXXX", path[64];
	struct ibr_pcap pc;
	struct stat st;
	mode_t old = umask(0);

	CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/c.pcap", dir);
	CU_ASSERT_EQUAL(ibr_pcap_open(&pc, path), 0);
	umask(old);
	CU_ASSERT_EQUAL(ibr_pcap_close(&pc), 0);
	CU_ASSERT_EQUAL_FATAL(stat(path, &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 07777, 0600);
	CU_ASSERT_EQUAL(st.st_size, 24);
	unlink(path);
	rmdir(dir);
}

/*
 * From a descriptor: the header is on the file when ibr_pcap_fdopen returns
 * (so that a start fails at once), records reach it through the buffer, and
 * the descriptor is the writer's (closed by ibr_pcap_close).
 */
static void test_fdopen(void)
{
	char path[] = "/tmp/ibr-pcap-test.XXXXXX";
	int fd = mkstemp(path), rfd;
	struct ibr_pcap pc;
	struct timespec ts = { 1, 0 };
	static uint8_t pkt[1000], back[64 * 1024];
	struct stat st;
	unsigned n = 0;

	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL_FATAL(ibr_pcap_fdopen(&pc, fd), 0);
	CU_ASSERT_EQUAL(fstat(fd, &st), 0);
	CU_ASSERT_EQUAL(st.st_size, 24);
	/* past the buffer: some records are on the file before the close */
	while ((n + 1) * (16 + 16 + sizeof(pkt)) + 24 <= 3 * IBR_PCAP_BUF / 2) {
		memset(pkt, (int)n, sizeof(pkt));
		CU_ASSERT_EQUAL(ibr_pcap_write(&pc, &ts, pkt, sizeof(pkt), 0), 0);
		n++;
	}
	CU_ASSERT_EQUAL(fstat(fd, &st), 0);
	CU_ASSERT_EQUAL(st.st_size, 24 + IBR_PCAP_BUF);
	CU_ASSERT_EQUAL(pc.records, n);
	CU_ASSERT_EQUAL(ibr_pcap_close(&pc), 0);
	CU_ASSERT_EQUAL(fcntl(fd, F_GETFD), -1); /* closed */
	rfd = open(path, O_RDONLY);
	CU_ASSERT_FATAL(rfd >= 0);
	CU_ASSERT_EQUAL((size_t)read(rfd, back, sizeof(back)), 24 + n * (32 + sizeof(pkt)));
	close(rfd);
	unlink(path);
	for (unsigned i = 0; i < n; i++)
		CU_ASSERT_EQUAL(back[24 + i * (32 + sizeof(pkt)) + 32 + 999], (uint8_t)i);
	/* a descriptor not open for writing fails at once, and is closed */
	rfd = open("/dev/null", O_RDONLY);
	CU_ASSERT_EQUAL(ibr_pcap_fdopen(&pc, rfd), -EBADF);
	CU_ASSERT_EQUAL(fcntl(rfd, F_GETFD), -1);
}

static void on_alarm(int sig)
{
	(void)sig;
	_exit(3); /* hung in a write loop: the test fails */
}

/*
 * /proc/PID/mem of a process that has exited writes nothing (0, not an
 * error): a write loop that retries spins for ever, as fwrite(3) does.
 */
static void test_zero_write(void)
{
	struct ibr_pcap pc;
	char path[64];
	pid_t pid = fork();
	int fd;

	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		pause();
		_exit(0);
	}
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	if (fd < 0)
		return; /* no /proc, or not allowed to open it here */
	signal(SIGALRM, on_alarm);
	alarm(10);
	CU_ASSERT_EQUAL(ibr_pcap_fdopen(&pc, fd), -EIO);
	alarm(0);
	CU_ASSERT_EQUAL(fcntl(fd, F_GETFD), -1);
}

static CU_TestInfo tests[] = {
	{ "file layout", test_layout },
	{ "errors", test_errors },
	{ "created 0600", test_mode },
	{ "from a descriptor", test_fdopen },
	{ "a write of nothing is an error", test_zero_write },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("ibr_pcap", tests);
}
