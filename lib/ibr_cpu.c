/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* ibr_cpu.c - the CPU a figure was measured on (ibr_cpu.h). */
#include "lib/ibr_cpu.h"

#include <stdio.h>
#include <string.h>
#if defined(__aarch64__)
#include <sys/auxv.h>
#endif

/* The value of the first /proc/cpuinfo line whose key is `key`, or "". */
static void cpuinfo(const char *key, char *out, size_t n)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];
	size_t k = strlen(key);

	out[0] = '\0';
	while (f && fgets(line, sizeof(line), f)) {
		char *v = strchr(line, ':');

		if (!v || strncmp(line, key, k) ||
		    (line[k] != ' ' && line[k] != '\t' && line[k] != ':'))
			continue;
		for (v++; *v == ' '; v++)
			;
		v[strcspn(v, "\n")] = '\0';
		snprintf(out, n, "%s", v);
		break;
	}
	if (f)
		fclose(f);
}

char *ibr_cpu_describe(char *buf, size_t n)
{
	char model[256], feat[128] = "";

	cpuinfo("model name", model, sizeof(model));
	if (!model[0]) { /* Arm: implementer and part numbers */
		char impl[32], part[32];

		cpuinfo("CPU implementer", impl, sizeof(impl));
		cpuinfo("CPU part", part, sizeof(part));
		snprintf(model, sizeof(model), "%s%s%s%s", impl[0] ? "implementer " : "unknown",
			 impl, part[0] ? " part " : "", part);
	}
#if defined(__x86_64__)
	__builtin_cpu_init();
	{
		static const char *const f[] = { "pclmul", "avx2", "vpclmulqdq", "avx512f",
						 "gfni" };
		const int has[] = { __builtin_cpu_supports("pclmul"),
				    __builtin_cpu_supports("avx2"),
				    __builtin_cpu_supports("vpclmulqdq"),
				    __builtin_cpu_supports("avx512f"),
				    __builtin_cpu_supports("gfni") };
		size_t len = 0;

		for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
			if (has[i])
				len += (size_t)snprintf(feat + len, sizeof(feat) - len, "%s%s",
							len ? " " : "", f[i]);
	}
#elif defined(__aarch64__)
	{
		/* what the engines need: PMULL (pmull) and the CRC32 instructions (armcrc) */
		unsigned long hw = getauxval(AT_HWCAP);

		snprintf(feat, sizeof(feat), "%s%s%s", (hw & HWCAP_PMULL) ? "pmull" : "",
			 (hw & HWCAP_PMULL) && (hw & HWCAP_CRC32) ? " " : "",
			 (hw & HWCAP_CRC32) ? "crc32" : "");
	}
#endif
	snprintf(buf, n, "%s%s%s%s", model, feat[0] ? " (" : "", feat, feat[0] ? ")" : "");
	return buf;
}
