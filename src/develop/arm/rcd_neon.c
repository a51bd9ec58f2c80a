/* RCD built for level neon (see rcd_body.h and meson.build). */
#include "demosaic.h"

#define FN(name) name##_neon
#include "rcd_body.h"
