/*
 * The per-I/O cost of fio's own offset work, timed with fio's own code: the source of
 * costs.fio.random-draw-per-io, random-map-per-io, zipf-draw-per-io and pareto-draw-per-io in
 * generic-x86.conf. Not part of blksim's build; it links against a built fio tree.
 *
 * Build and run (fio at f5344384, the commit the test corpora come from):
 *   git clone https://github.com/axboe/fio && cd fio && ./configure --disable-native
 *   make lib/rand.o lib/axmap.o lib/lfsr.o lib/zipf.o lib/pattern.o lib/strntol.o
 *   gcc -O3 -std=gnu99 -include config-host.h -I. -o offcost PATH/TO/fio-offset-cost.c \
 *       lib/zipf.o lib/rand.o lib/axmap.o lib/lfsr.o lib/pattern.o lib/strntol.o -lm
 *   for i in $(seq 15); do taskset -c 1 ./offcost 5242880 1000000; done   # take medians
 *
 * Arguments: blocks in the map (5242880: 20 GiB of 4 KiB, the nowait experiment's device),
 * offsets to draw (1000000: the first fifth of a pass; a run of a few hundred milliseconds
 * touches far less of the map), and 1 for the 64-bit tausworthe (fio switches to it only for
 * more than 2^32 blocks). Each line is one of fio's offset paths (io_u.c get_next_offset()):
 *   seq         get_next_seq_offset(): an addition
 *   taus        __get_next_rand_offset(): __rand() scaled to the blocks (norandommap)
 *   taus+axmap  the same, then random_map_free() (axmap_isset), axmap_next_free() when the
 *               block is taken, and mark_random_map() (axmap_set_nr): fio's default random job
 *   lfsr        random_generator=lfsr: lfsr_next() (no map)
 *   zipf:1.2    random_distribution=zipf:1.2: zipf_next() (no map)
 *   pareto:0.2  random_distribution=pareto:0.2: pareto_next() (no map)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "lib/rand.h"
#include "lib/axmap.h"
#include "lib/lfsr.h"
#include "lib/zipf.h"

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

volatile uint64_t sink;

int main(int argc, char **argv)
{
	uint64_t blocks = argc > 1 ? strtoull(argv[1], NULL, 10) : 5242880ULL;
	uint64_t n = argc > 2 ? strtoull(argv[2], NULL, 10) : blocks;
	int use64 = argc > 3 ? atoi(argv[3]) : 0;
	struct frand_state st;
	struct axmap *m;
	struct fio_lfsr l;
	struct zipf_state z;
	double t0, t1;
	uint64_t i, b = 0, acc = 0, off = 0;

	init_rand_seed(&st, 12345, use64);
	t0 = now();
	for (i = 0; i < n; i++) {
		b += 4096;
		if (b >= blocks * 4096)
			b = 0;
		acc += b;
	}
	t1 = now();
	printf("seq           %.2f ns/io\n", (t1 - t0) / n);
	t0 = now();
	for (i = 0; i < n; i++) {
		uint64_t r = __rand(&st);

		b = blocks * (r / (rand_max(&st) + 1.0));
		acc += b;
	}
	t1 = now();
	printf("taus          %.2f ns/io\n", (t1 - t0) / n);
	m = axmap_new(blocks);
	t0 = now();
	for (i = 0; i < n; i++) {
		uint64_t r = __rand(&st);

		b = blocks * (r / (rand_max(&st) + 1.0));
		if (axmap_isset(m, b)) {
			b = axmap_next_free(m, b);
			if (b == -1ULL) {
				axmap_reset(m);
				continue;
			}
		}
		axmap_set_nr(m, b, 1);
		acc += b;
	}
	t1 = now();
	printf("taus+axmap    %.2f ns/io\n", (t1 - t0) / n);
	lfsr_init(&l, blocks, 12345, 0);
	t0 = now();
	for (i = 0; i < n; i++) {
		if (lfsr_next(&l, &off))
			lfsr_reset(&l, 12345);
		acc += off;
	}
	t1 = now();
	printf("lfsr          %.2f ns/io\n", (t1 - t0) / n);
	zipf_init(&z, blocks, 1.2, 0.0, 12345);
	t0 = now();
	for (i = 0; i < n; i++)
		acc += zipf_next(&z);
	t1 = now();
	printf("zipf:1.2      %.2f ns/io\n", (t1 - t0) / n);
	pareto_init(&z, blocks, 0.2, 0.0, 12345);
	t0 = now();
	for (i = 0; i < n; i++)
		acc += pareto_next(&z);
	t1 = now();
	printf("pareto:0.2    %.2f ns/io\n", (t1 - t0) / n);
	sink = acc;
	return 0;
}
