/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* fuzz_ctl.c - the control protocol's decoders: request splitting (the
 * daemon reads requests from any local client) and the reply envelope
 * reader (ibrouterctl reads what the socket gives). */
#include "lib/ibr_ctl.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ibr_ctl_reply r;
	char *line, *argv[IBR_CTL_ARGS_MAX];
	int n;

	if (ibr_ctl_reply_parse((const char *)data, size, &r) == 0) {
		if (r.data && (r.data < (const char *)data ||
			       r.data + r.data_len > (const char *)data + size))
			abort();
		if (r.msg)
			(void)strlen(r.msg);
		if (r.text)
			(void)strlen(r.text);
		ibr_ctl_reply_free(&r);
	}
	line = malloc(size + 1);
	if (!line)
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';
	n = ibr_ctl_split(line, argv, IBR_CTL_ARGS_MAX);
	for (int i = 0; i < n; i++)
		if (argv[i] < line || argv[i] > line + size ||
		    argv[i] + strlen(argv[i]) > line + size)
			abort();
	free(line);
	return 0;
}
