/* mk_bench section "penetration" (issue 3): penetration depth on overlapping
 * pairs, ours (epa.h, when the core has it) against libccd and Bullet. */
#include "bench_c.h"

void section_penetration(const bench_opts *o)
{
    (void)o;
    printf("\n== Section penetration: not available yet (core/include/minkowski/epa.h missing) ==\n");
}
