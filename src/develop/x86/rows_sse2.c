/* mp_develop_frame's row kernels built for level sse2 (see rows_body.h and meson.build). */
#include "develop_rows.h"

#define FN(name) name##_sse2
#include "rows_body.h"
