/* rawfix_measure's row kernels built for level c (see rows_body.h and meson.build). */
#include "rawfix_rows.h"

#define FN(name) name##_c
#include "rows_body.h"
