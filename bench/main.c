/* mk_bench: the benchmark program of minkowski (prints tables, asserts nothing).
 *
 *   mk_bench [--quick] [--section NAME] [--family NAME] [--pairs N] [--seed S] [--runs R] [--help]
 *
 * Sections: gjk (distance and Boolean: our variants and libccd, FCL, Bullet),
 * support (hull support: linear scan vs hill-climbing crossover), penetration
 * (signed distance when overlapping; needs the core's epa.h), contact (resting
 * pairs called step after step, as an engine calls them), ray (mk_ray_cast
 * against exact entries, beside Bullet's ray test on convex shapes). */
#define _POSIX_C_SOURCE 200809L /* uname */
#include "bench_c.h"

#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

static void usage(FILE *f)
{
    fprintf(f,
            "usage: mk_bench [options]\n"
            "  --quick          smoke run (few problems; whole run well under 30 s)\n"
            "  --section NAME   only one section: gjk, support, penetration, contact, ray, mesh (default: all)\n"
            "  --family NAME    only one shape family: ellipsoids, boxes, hull-12, hull-60, hull-240,\n"
            "                   hull-1000 (sections gjk, penetration and ray)\n"
            "  --pairs N        problems per shape family and distance category (default 1000, quick 40)\n"
            "  --seed S         random seed (default 1)\n"
            "  --runs R         repeated timing runs, medians over them (default 7, quick 5, at least 5)\n"
            "  --help           this text\n"
            "Prints tables; speed is measured, never asserted.\n");
}

static int parse_int(const char *s, long lo, long hi, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < lo || v > hi)
        return 0;
    *out = v;
    return 1;
}

static void print_peers(void)
{
    printf("peers:");
#ifdef MK_BENCH_HAVE_CCD
    printf(" libccd %s", MK_BENCH_CCD_VERSION);
#else
    printf(" libccd (not found: skipped)");
#endif
#ifdef MK_BENCH_HAVE_FCL
    printf(", FCL %s", MK_BENCH_FCL_VERSION);
#else
    printf(", FCL (not found: skipped)");
#endif
#ifdef MK_BENCH_HAVE_ODE
    printf(", ODE %s", MK_BENCH_ODE_VERSION);
#else
    printf(", ODE (not found: ray rows skipped)");
#endif
#ifdef MK_BENCH_HAVE_BULLET
    printf(", Bullet %s float64", MK_BENCH_BULLET_VERSION);
#else
    printf(", Bullet float64 (not found: skipped)");
#endif
    printf("\n");
}

int main(int argc, char **argv)
{
    bench_opts o = {0, 0, 1, NULL, NULL, 0};
    long v;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--quick") == 0) {
            o.quick = 1;
        } else if (strcmp(a, "--section") == 0 && i + 1 < argc) {
            o.section = argv[++i];
        } else if (strcmp(a, "--family") == 0 && i + 1 < argc) {
            o.family = argv[++i];
        } else if (strcmp(a, "--pairs") == 0 && i + 1 < argc && parse_int(argv[i + 1], 1, 1000000, &v)) {
            o.pairs = (int)v;
            ++i;
        } else if (strcmp(a, "--seed") == 0 && i + 1 < argc && parse_int(argv[i + 1], 0, 0x7fffffffL, &v)) {
            o.seed = (uint64_t)v;
            ++i;
        } else if (strcmp(a, "--runs") == 0 && i + 1 < argc && parse_int(argv[i + 1], 5, 1000, &v)) {
            o.runs = (int)v;
            ++i;
        } else {
            fprintf(stderr, "mk_bench: bad argument '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (o.family) {
        int found = 0;
        for (int f = 0; f < FAM_COUNT; ++f)
            found |= strcmp(o.family, bench_family_name((bench_family)f)) == 0;
        if (!found) {
            fprintf(stderr, "mk_bench: unknown family '%s'\n", o.family);
            return 2;
        }
    }
    if (o.pairs == 0)
        o.pairs = o.quick ? 40 : 1000;
    if (o.runs == 0)
        o.runs = o.quick ? 5 : 7;
    const char *known[] = {"gjk", "support", "penetration", "contact", "ray", "mesh"};
    int run[6] = {1, 1, 1, 1, 1, 1};
    if (o.section) {
        int found = 0;
        for (int k = 0; k < 6; ++k) {
            run[k] = strcmp(o.section, known[k]) == 0;
            found |= run[k];
        }
        if (!found) {
            fprintf(stderr, "mk_bench: unknown section '%s' (gjk, support, penetration, contact, ray, mesh)\n", o.section);
            return 2;
        }
    }

    struct utsname un;
    double t0 = bench_now_ns();
    printf("mk_bench: minkowski %s, mk_real %d bytes, seed %llu, %s%s\n", mk_version(), mk_real_size(),
           (unsigned long long)o.seed, o.quick ? "quick run" : "full run", "");
    if (uname(&un) == 0)
        printf("machine: %s %s %s; clock_gettime(CLOCK_MONOTONIC) pair costs %.0f ns (subtracted)\n", un.sysname,
               un.release, un.machine, bench_clock_overhead_ns());
    print_peers();
    if (run[0])
        section_gjk(&o);
    if (run[1])
        section_support(&o);
    if (run[2])
        section_penetration(&o);
    if (run[3])
        section_contact(&o);
    if (run[4])
        section_ray(&o);
    if (run[5])
        section_mesh(&o);
    printf("\nmk_bench: done in %.1f s\n", (bench_now_ns() - t0) * 1e-9);
    return 0;
}
