/* rawfix_measure's row kernels built for level neon (see rows_body.h and meson.build). */
#include "rawfix_rows.h"

#define FN(name) name##_neon
#include "rows_body.h"
