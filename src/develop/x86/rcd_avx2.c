/* RCD built for level avx2 (see rcd_body.h and meson.build). */
#include "demosaic.h"

#define FN(name) name##_avx2
#include "rcd_body.h"
