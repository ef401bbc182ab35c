/* Assertions for hot test loops (shared by the suites). */
#ifndef MK_TESTS_REQUIRE_H
#define MK_TESTS_REQUIRE_H

#include <check.h>

/* Asserts only when the condition fails: Check records every assertion it
 * is handed (a write per call), and some loops make millions. */
#define REQUIRE(cond, ...)                                                                                              \
    do {                                                                                                               \
        if (!(cond))                                                                                                   \
            ck_abort_msg(__VA_ARGS__);                                                                                 \
    } while (0)

#endif
