/* RCD built for level c (see rcd_body.h and meson.build). */
#include "demosaic.h"

#define FN(name) name##_c
#include "rcd_body.h"
