/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_cpu.h - the CPU a figure was measured on: its model as the kernel names it and the
 * instruction sets the CRC engines choose by (benchmarks print it first, the daemon logs it).
 */
#ifndef IBR_CPU_H
#define IBR_CPU_H

#include <stddef.h>

/*
 * "<model> (<features>)" into buf: /proc/cpuinfo's "model name" (x86) or its CPU
 * implementer and part (Arm), and on x86 which of pclmul, avx2, vpclmulqdq, avx512f, gfni it
 * has.  Returns buf.
 */
char *ibr_cpu_describe(char *buf, size_t n);

#endif
