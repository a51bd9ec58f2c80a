/* Regression tests for codec bugs found while writing the fuzz targets (tests/fuzz/). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "codec/lzma_frame.h"

/* liblzma makes no progress into an empty output buffer, so an empty payload written by our
 * own encoder was refused ("stream ends after 0 of 0 bytes"). A frame with the wrong size must
 * still be refused. */
static void lzma_empty_payload_round_trips(void **state)
{
    (void)state;
    uint8_t *enc;
    size_t len;
    mp_error err;
    assert_int_equal(mp_lzma_frame_encode((const uint8_t *)"", 0, &enc, &len, &err), MP_OK);
    uint8_t dst[1] = {0x5A};
    assert_int_equal(mp_lzma_frame_decode(enc, len, dst, 0, &err), MP_OK);
    assert_int_equal(dst[0], 0x5A);
    assert_int_equal(mp_lzma_frame_decode(enc, len, dst, 1, &err), MP_ERR_DAMAGED);
    /* No stream after the header: still no bytes for liblzma's range coder to start on. */
    assert_int_equal(mp_lzma_frame_decode(enc, MP_LZMA_FRAME_HEADER, dst, 0, &err),
                     MP_ERR_DAMAGED);
    free(enc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lzma_empty_payload_round_trips),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
