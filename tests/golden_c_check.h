/* The check of the golden library's C tests (test_golden_c*.c): CHECK(c) reports a condition that
 * does not hold (file, line, the condition) on stderr and counts it in `failures`; the test exits
 * non-zero when failures > 0. */
#pragma once

#include <stdio.h>

static int failures = 0;
#define CHECK(c)                                                                  \
    do {                                                                          \
        if (!(c)) {                                                               \
            fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #c); \
            ++failures;                                                           \
        }                                                                         \
    } while (0)
