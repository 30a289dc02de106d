/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * fake_verbs_ctl - send one command to the control socket of a fake verbs
 * device (fake_verbs.h), for tests whose HCA lives in another process:
 *   fake_verbs_ctl SOCK.ctl down | up | lid LID | gid GID | sm | remove [fatal] | add
 */
#include "tests/fakes/fake_verbs.h"

#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char cmd[128] = "";
	size_t len = 0;
	int fd;

	if (argc < 3 || strlen(argv[1]) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "usage: fake_verbs_ctl SOCKET%s COMMAND...\n",
			FAKE_VERBS_CTL_SUFFIX);
		return 2;
	}
	for (int i = 2; i < argc; i++) {
		int n = snprintf(cmd + len, sizeof(cmd) - len, "%s%s", i > 2 ? " " : "", argv[i]);

		if (n < 0 || (size_t)n >= sizeof(cmd) - len) {
			fprintf(stderr, "fake_verbs_ctl: command too long\n");
			return 2;
		}
		len += (size_t)n;
	}
	strcpy(sa.sun_path, argv[1]);
	fd = socket(AF_UNIX, SOCK_DGRAM, 0);
	if (fd < 0 || sendto(fd, cmd, len, 0, (struct sockaddr *)&sa, sizeof(sa)) != (ssize_t)len) {
		perror("fake_verbs_ctl");
		return 1;
	}
	close(fd);
	return 0;
}
