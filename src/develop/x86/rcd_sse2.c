/* RCD built for level sse2 (see rcd_body.h and meson.build). */
#include "demosaic.h"

#define FN(name) name##_sse2
#include "rcd_body.h"
