/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Tests for lib/ibr_fdpass.c: one descriptor with a datagram, and none left
 * open when a peer sends more than one. */
#include "lib/ibr_fdpass.h"
#include "tests/unit/ibr_test.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

/* Descriptors open in this process. */
static int fds_open(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n - 1; /* the directory's own */
}

/* Send "req" with `n` descriptors of /dev/null in one SCM_RIGHTS message. */
static void send_many(int sock, int n)
{
	int fds[8];
	char buf[CMSG_SPACE(sizeof(fds))];
	struct iovec iov = { "req", 3 };
	struct msghdr mh = { .msg_iov = &iov,
			     .msg_iovlen = 1,
			     .msg_control = buf,
			     .msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)n) };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);

	memset(buf, 0, sizeof(buf));
	for (int i = 0; i < n; i++)
		fds[i] = open("/dev/null", O_RDONLY | O_CLOEXEC);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)n);
	memcpy(CMSG_DATA(cm), fds, sizeof(int) * (size_t)n);
	CU_ASSERT_EQUAL(sendmsg(sock, &mh, 0), 3);
	for (int i = 0; i < n; i++)
		close(fds[i]);
}

static void test_none_and_one(void)
{
	int sv[2], fd, tmp;
	char path[] = "/tmp/ibr-fdpass-test.XXXXXX", buf[16];
	struct stat a, b;
	bool refused;

	CU_ASSERT_FATAL(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) == 0);
	CU_ASSERT_EQUAL(ibr_fdpass_send(sv[0], "version", 7, -1, 0), 7);
	CU_ASSERT_EQUAL(ibr_fdpass_recv(sv[1], buf, sizeof(buf), 0, &fd, &refused), 7);
	CU_ASSERT_EQUAL(fd, -1);
	CU_ASSERT_FALSE(refused);
	CU_ASSERT_EQUAL(memcmp(buf, "version", 7), 0);
	/* one descriptor: the same file, close-on-exec on the receiving side */
	tmp = mkstemp(path);
	CU_ASSERT_FATAL(tmp >= 0);
	unlink(path);
	CU_ASSERT_EQUAL(ibr_fdpass_send(sv[0], "capture", 7, tmp, 0), 7);
	CU_ASSERT_EQUAL(ibr_fdpass_recv(sv[1], buf, sizeof(buf), 0, &fd, &refused), 7);
	CU_ASSERT_FALSE(refused);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_NOT_EQUAL(fd, tmp);
	CU_ASSERT_EQUAL(fstat(tmp, &a), 0);
	CU_ASSERT_EQUAL(fstat(fd, &b), 0);
	CU_ASSERT_EQUAL(a.st_ino, b.st_ino);
	CU_ASSERT_EQUAL(a.st_dev, b.st_dev);
	CU_ASSERT(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);
	close(tmp);
	/* a datagram cut short still reports its length (MSG_TRUNC) and its descriptor */
	tmp = open("/dev/null", O_RDONLY | O_CLOEXEC);
	CU_ASSERT_EQUAL(ibr_fdpass_send(sv[0], "0123456789", 10, tmp, 0), 10);
	close(tmp);
	CU_ASSERT_EQUAL(ibr_fdpass_recv(sv[1], buf, 4, MSG_TRUNC, &fd, &refused), 10);
	CU_ASSERT(fd >= 0);
	close(fd);
	CU_ASSERT_EQUAL(ibr_fdpass_recv(sv[1], buf, 4, MSG_DONTWAIT, &fd, &refused), -EAGAIN);
	CU_ASSERT_EQUAL(fd, -1);
	close(sv[0]);
	CU_ASSERT_EQUAL(ibr_fdpass_recv(sv[1], buf, sizeof(buf), 0, &fd, &refused), 0);
	close(sv[1]);
}

/* Two descriptors (room for them in the buffer) or eight (MSG_CTRUNC): refused, none kept. */
static void test_extra(void)
{
	int sv[2], fd, before;
	char buf[16];
	bool refused;

	CU_ASSERT_FATAL(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) == 0);
	before = fds_open();
	for (int n = 2; n <= 8; n += 6) {
		send_many(sv[0], n);
		CU_ASSERT_EQUAL(ibr_fdpass_recv(sv[1], buf, sizeof(buf), 0, &fd, &refused), 3);
		CU_ASSERT_EQUAL(fd, -1);
		CU_ASSERT_TRUE(refused);
		/*
		 * qemu-user keeps the descriptors that did not fit in our
		 * buffer open in the process, where we never see them
		 */
		if (!ibr_test_emulator_skip(fds_open() != before,
					    "qemu-user keeps descriptors past MSG_CTRUNC"))
			CU_ASSERT_EQUAL(fds_open(), before);
	}
	/* what the plugin sessions rely on: recv(2) without control data drops them */
	send_many(sv[0], 3);
	CU_ASSERT_EQUAL(recv(sv[1], buf, sizeof(buf), 0), 3);
	if (!ibr_test_emulator_skip(fds_open() != before,
				    "qemu-user keeps descriptors recv(2) dropped"))
		CU_ASSERT_EQUAL(fds_open(), before);
	close(sv[0]);
	close(sv[1]);
}

static CU_TestInfo tests[] = {
	{ "no descriptor, one descriptor", test_none_and_one },
	{ "more than one descriptor", test_extra },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("ibr_fdpass", tests);
}
