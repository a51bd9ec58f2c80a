/* common/mp_md5: MD5 (RFC 1321) of a byte stream, our own: the md5 sink and the tests must not
 * need libav, which is loaded only for movies (movie/av_load.h). */
#ifndef MP_MD5_DIGEST_H
#define MP_MD5_DIGEST_H

#include <stddef.h>
#include <stdint.h>

typedef struct mp_md5 {
    uint32_t state[4];
    uint64_t bytes;
    uint8_t block[64];
} mp_md5;

void mp_md5_init(mp_md5 *m);
void mp_md5_update(mp_md5 *m, const void *data, size_t size);
void mp_md5_final(mp_md5 *m, uint8_t digest[16]);

#endif
