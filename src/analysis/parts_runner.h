/* parts_runner: a rawfix_runner (rawfix.h) that splits a pass's parts over up to *threads
 * threads, the calling one among them (rawfix makes no threads of its own). The pre-pass
 * runs the raw-defect accumulator's making, the settling test and the map through it between
 * its pool's runs, when the pool's workers are idle. */
#ifndef MP_PARTS_RUNNER_H
#define MP_PARTS_RUNNER_H

#include <stdint.h>

#include "rawfix/rawfix.h"

/* The runner reads *threads at each run (the caller keeps it alive and may change it). */
rawfix_runner mp_parts_runner(uint32_t *threads);

#endif
