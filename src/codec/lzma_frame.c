/* codec/lzma_frame: MLV LZMA payloads through liblzma.
 * Decoding rebuilds the 13-byte .lzma ("LZMA_alone") header from the payload's 5 property
 * bytes and its size field, so liblzma checks the size and bounds the dictionary memory. */
#include "codec/lzma_frame.h"

#include <lzma.h>
#include <stdlib.h>
#include <string.h>

#include "common/mp_bytes.h"

/* The dictionary is cut to the declared size (at most the largest frame mlvpipe accepts
 * plus padding), so this limit is only a backstop. */
#define DECODER_MEMLIMIT (192u << 20)
#define ENCODER_DICT (8u << 20)

/* LZMA1 properties byte: (pb * 5 + lp) * 9 + lc with lc <= 8, lp <= 4, pb <= 4. */
#define LZMA_PROPS_MAX (9 * 5 * 5)

static int declared_fits(uint32_t declared, size_t frame_size)
{
    return declared >= frame_size && declared - frame_size <= MP_LZMA_FRAME_PADDING_MAX;
}

int mp_lzma_frame_header_fits(const uint8_t *src, size_t len, size_t frame_size)
{
    return len > MP_LZMA_FRAME_HEADER && declared_fits(mp_le32(src), frame_size) &&
           src[4] < LZMA_PROPS_MAX;
}

mp_status mp_lzma_frame_decode(const uint8_t *src, size_t len, uint8_t *dst, size_t dst_size,
                               mp_error *err)
{
    if (len < MP_LZMA_FRAME_HEADER)
        return mp_error_set(err, MP_ERR_DAMAGED, "LZMA: offset 0: payload of %zu bytes is too short",
                            len);
    uint32_t declared = mp_le32(src);
    if (!declared_fits(declared, dst_size))
        return mp_error_set(err, MP_ERR_DAMAGED,
                            "LZMA: offset 0: declared size %u, %s frame size %zu", declared,
                            declared < dst_size ? "short of the" : "far beyond the", dst_size);
    /* A match never reaches further back than the output so far, so a dictionary of the
     * declared size decodes the stream exactly; mlv_dump's 128 MiB dictionaries would
     * otherwise be allocated (and, with MALLOC_PERTURB_, filled) for every frame. */
    uint32_t dict = mp_le32(src + 5), enough = declared > 4096 ? declared : 4096;
    uint8_t header[13];
    header[0] = src[4];
    mp_put_le32(header + 1, dict < enough ? dict : enough);
    mp_put_le32(header + 5, declared);
    mp_put_le32(header + 9, 0);

    lzma_stream strm = LZMA_STREAM_INIT;
    lzma_ret ret = lzma_alone_decoder(&strm, DECODER_MEMLIMIT);
    if (ret != LZMA_OK)
        return mp_error_set(err, MP_ERR_NOMEM, "LZMA: decoder init failed (%d)", (int)ret);
    /* liblzma makes no progress into an empty buffer, so an empty frame gets one spare byte,
     * which the declared size keeps it from filling. */
    uint8_t spare;
    size_t room = dst_size ? dst_size : 1;
    strm.next_out = dst_size ? dst : &spare;
    strm.avail_out = room;
    strm.next_in = header;
    strm.avail_in = sizeof header;
    ret = lzma_code(&strm, LZMA_RUN);
    size_t at = 4;  /* the property bytes, until the header is accepted */
    if (ret == LZMA_OK) {
        strm.next_in = src + MP_LZMA_FRAME_HEADER;
        strm.avail_in = len - MP_LZMA_FRAME_HEADER;
        ret = lzma_code(&strm, LZMA_FINISH);
        at = (size_t)(strm.next_in - src);
    }
    size_t produced = room - strm.avail_out;
    lzma_end(&strm);
    /* with padding declared, the stream goes on past the frame: stopping there is success */
    int padded_stop = ret == LZMA_OK && declared > dst_size;
    if ((ret == LZMA_STREAM_END || padded_stop) && produced == dst_size)
        return MP_OK;
    if (ret == LZMA_MEM_ERROR)
        return mp_error_set(err, MP_ERR_NOMEM, "LZMA: out of memory");
    if (ret == LZMA_MEMLIMIT_ERROR)
        return mp_error_set(err, MP_ERR_DAMAGED, "LZMA: offset 4: dictionary exceeds the memory limit");
    if (ret == LZMA_OPTIONS_ERROR || ret == LZMA_FORMAT_ERROR)
        return mp_error_set(err, MP_ERR_DAMAGED, "LZMA: offset 4: invalid properties");
    return mp_error_set(err, MP_ERR_DAMAGED, "LZMA: offset %zu: %s after %zu of %zu bytes", at,
                        ret == LZMA_BUF_ERROR || ret == LZMA_OK ? "stream ends" : "corrupt stream",
                        produced, dst_size);
}

mp_status mp_lzma_frame_encode(const uint8_t *src, size_t size, uint8_t **out, size_t *out_len,
                               mp_error *err)
{
    *out = NULL;
    *out_len = 0;
    if (size > UINT32_MAX)
        return mp_error_set(err, MP_ERR_ARG, "LZMA: frame of %zu bytes is too large", size);
    lzma_options_lzma opt;
    if (lzma_lzma_preset(&opt, 6))
        return mp_error_set(err, MP_ERR_ARG, "LZMA: preset unavailable");
    /* A dictionary beyond the frame finds nothing more and costs its tables (~12x its size,
     * zeroed for every frame). */
    opt.dict_size = size < LZMA_DICT_SIZE_MIN ? LZMA_DICT_SIZE_MIN
                  : size < ENCODER_DICT       ? (uint32_t)size
                                              : ENCODER_DICT;
    opt.ext_flags = 0;  /* no end marker: the size field says where the stream ends */
    lzma_filter filters[] = {{LZMA_FILTER_LZMA1EXT, &opt}, {LZMA_VLI_UNKNOWN, NULL}};

    size_t cap = MP_LZMA_FRAME_HEADER + size + size / 16 + 4096;
    uint8_t *buf = malloc(cap);
    if (!buf)
        return mp_error_set(err, MP_ERR_NOMEM, "LZMA: out of memory");
    mp_put_le32(buf, (uint32_t)size);
    buf[4] = (uint8_t)((opt.pb * 5 + opt.lp) * 9 + opt.lc);
    mp_put_le32(buf + 5, opt.dict_size);

    lzma_stream strm = LZMA_STREAM_INIT;
    lzma_ret ret = lzma_raw_encoder(&strm, filters);
    if (ret == LZMA_OK) {
        strm.next_in = src;
        strm.avail_in = size;
        strm.next_out = buf + MP_LZMA_FRAME_HEADER;
        strm.avail_out = cap - MP_LZMA_FRAME_HEADER;
        ret = lzma_code(&strm, LZMA_FINISH);
    }
    *out_len = cap - strm.avail_out;
    lzma_end(&strm);
    if (ret != LZMA_STREAM_END) {
        free(buf);
        *out_len = 0;
        return mp_error_set(err, MP_ERR_NOMEM, "LZMA: encoder failed (%d)", (int)ret);
    }
    *out = buf;
    return MP_OK;
}
