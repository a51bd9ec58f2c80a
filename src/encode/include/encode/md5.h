/* encode/md5: frame digests, the form of the shared samples' expected_md5.json
 * (doc/mlv-format.md 19): MD5 of the samples as little-endian uint16, row-major,
 * width * height values.
 * The "md5" sink writes one line "NUMBER HEX" per frame (in arrival order) to its path and
 * "audio HEX" for the PCM stream, if any, when finished. */
#ifndef MP_MD5_H
#define MP_MD5_H

#include <stddef.h>
#include <stdint.h>

#include "common/mp_frame.h"
#include "common/mp_status.h"

/* MD5 (RFC 1321) of a byte stream, our own: the md5 sink must not need libav, which is
 * loaded only for movies (movie/av_load.h). */
typedef struct mp_md5 {
    uint32_t state[4];
    uint64_t bytes;
    uint8_t block[64];
} mp_md5;

void mp_md5_init(mp_md5 *m);
void mp_md5_update(mp_md5 *m, const void *data, size_t size);
void mp_md5_final(mp_md5 *m, uint8_t digest[16]);

/* hex gets 32 lowercase digits and a NUL. */
mp_status mp_frame_md5(const mp_frame *f, char hex[33], mp_error *err);

#endif
