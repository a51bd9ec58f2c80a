/* mp_develop_frame's row kernels built for level neon (see rows_body.h and meson.build). */
#include "develop_rows.h"

#define FN(name) name##_neon
#include "rows_body.h"
