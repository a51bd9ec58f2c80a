/* codec/lj92_common: what the LJ92 decoder and encoder must agree on (markers, limits,
 * prediction). Internal to src/codec. */
#ifndef MP_LJ92_COMMON_H
#define MP_LJ92_COMMON_H

#include <stdint.h>

enum {
    LJ92_SOI = 0xD8, LJ92_EOI = 0xD9, LJ92_SOF3 = 0xC3, LJ92_DHT = 0xC4, LJ92_SOS = 0xDA,
    LJ92_DRI = 0xDD, LJ92_RST0 = 0xD0,
    LJ92_MAX_COMPONENTS = 4,
    LJ92_MAX_TABLES = 4,
    LJ92_MAX_CODE_LEN = 16,
    LJ92_CATEGORIES = 17,  /* SSSS 0..16 */
};

/* Largest image we decode or encode: X*Nf*Y samples. Matches the frame bound of the
 * library (mp_frame.h) with room for the 2*xRes single-component layout. */
#define LJ92_MAX_SAMPLES (64u * 1024u * 1024u)

/* T.81 H.1.2.1 prediction from left (ra), above (rb) and above-left (rc), each < 2^16.
 * Signed intermediates and arithmetic shifts; the caller reduces the sum modulo 2^16. */
static inline int lj92_predict(unsigned predictor, int ra, int rb, int rc)
{
    switch (predictor) {
    case 1: return ra;
    case 2: return rb;
    case 3: return rc;
    case 4: return ra + rb - rc;
    case 5: return ra + ((rb - rc) >> 1);
    case 6: return rb + ((ra - rc) >> 1);
    default: return (ra + rb) >> 1;
    }
}

#endif
