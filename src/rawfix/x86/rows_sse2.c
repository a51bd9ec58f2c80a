/* rawfix_measure's row kernels built for level sse2 (see rows_body.h and meson.build). */
#include "rawfix_rows.h"

#define FN(name) name##_sse2
#include "rows_body.h"
