/* encode/md5: frame digests, the form of the shared samples' expected_md5.json
 * (doc/mlv-format.md 19): MD5 of the samples as little-endian uint16, row-major,
 * width * height values.
 * The "md5" sink writes one line "NUMBER HEX" per frame (in arrival order) to its path and
 * "audio HEX" for the PCM stream, if any, when finished. */
#ifndef MP_MD5_H
#define MP_MD5_H

#include "common/mp_frame.h"
#include "common/mp_md5.h"
#include "common/mp_status.h"

/* hex gets 32 lowercase digits and a NUL. */
mp_status mp_frame_md5(const mp_frame *f, char hex[33], mp_error *err);

#endif
