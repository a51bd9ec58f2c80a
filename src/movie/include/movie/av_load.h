/* movie/av_load: libavcodec, libavformat and libavutil, loaded at run time by the code
 * that needs them (movies, join, EXR and PNG pictures) and by nothing else.
 *
 * Why: linking libav maps ~136 shared libraries into every process before main, which costs
 * each start far more CPU than a DNG conversion of a small clip, and leaves a window in
 * which a signal arrives before our handlers exist. So mlvpipe includes libav's headers for
 * types and macros only, and calls libav through one table of function pointers:
 * `mp_libav.avcodec_open2(...)` instead of `avcodec_open2(...)`, same names, same prototypes.
 *
 * mp_libav_load() must have returned MP_OK before the first call through the table. It opens
 * the sonames this build was compiled against (the major versions in libav's headers, e.g.
 * libavcodec.so.59), resolves every function once and is thread-safe; a missing library or
 * function is an error naming it, given again on every later call. MLVPIPE_AV_LIBDIR, when
 * set, is the folder to open the libraries from instead of the loader's search. */
#ifndef MP_AV_LOAD_H
#define MP_AV_LOAD_H

#include <stdarg.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavutil/channel_layout.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libavutil/log.h>
#include <libavutil/mathematics.h>
#include <libavutil/mem.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libavutil/rational.h>

#include "common/mp_status.h"

/* Every libav function mlvpipe calls, with the library that exports it. A function missing
 * here fails the link of libmlvpipe (libav is not linked), so the list cannot fall behind. */
#define MP_LIBAV_FUNCTIONS(X)                                                                 \
    X(AVUTIL, av_buffer_allocz)                                                               \
    X(AVUTIL, av_buffer_pool_get)                                                             \
    X(AVUTIL, av_buffer_pool_init)                                                            \
    X(AVUTIL, av_buffer_pool_uninit)                                                          \
    X(AVUTIL, av_channel_layout_default)                                                      \
    X(AVUTIL, av_color_primaries_name)                                                        \
    X(AVUTIL, av_color_space_name)                                                            \
    X(AVUTIL, av_color_transfer_name)                                                         \
    X(AVUTIL, av_dict_get)                                                                    \
    X(AVUTIL, av_dict_set)                                                                    \
    X(AVUTIL, av_frame_alloc)                                                                 \
    X(AVUTIL, av_frame_free)                                                                  \
    X(AVUTIL, av_frame_get_buffer)                                                            \
    X(AVUTIL, av_frame_make_writable)                                                         \
    X(AVUTIL, av_free)                                                                        \
    X(AVUTIL, av_freep)                                                                       \
    X(AVUTIL, av_get_pix_fmt_name)                                                            \
    X(AVUTIL, av_log_default_callback)                                                        \
    X(AVUTIL, av_log_format_line2)                                                            \
    X(AVUTIL, av_log_set_callback)                                                            \
    X(AVUTIL, av_malloc)                                                                      \
    X(AVUTIL, av_opt_get_int)                                                                 \
    X(AVUTIL, av_opt_set)                                                                     \
    X(AVUTIL, av_opt_set_int)                                                                 \
    X(AVUTIL, av_pix_fmt_desc_get)                                                            \
    X(AVUTIL, av_reduce)                                                                      \
    X(AVUTIL, av_rescale_q)                                                                   \
    X(AVUTIL, av_strerror)                                                                    \
    X(AVCODEC, av_new_packet)                                                                 \
    X(AVCODEC, av_packet_alloc)                                                               \
    X(AVCODEC, av_packet_copy_props)                                                          \
    X(AVCODEC, av_packet_free)                                                                \
    X(AVCODEC, av_packet_move_ref)                                                            \
    X(AVCODEC, av_packet_ref)                                                                 \
    X(AVCODEC, av_packet_rescale_ts)                                                          \
    X(AVCODEC, av_packet_unref)                                                               \
    X(AVCODEC, avcodec_alloc_context3)                                                        \
    X(AVCODEC, avcodec_find_decoder)                                                          \
    X(AVCODEC, avcodec_find_encoder)                                                          \
    X(AVCODEC, avcodec_find_encoder_by_name)                                                  \
    X(AVCODEC, avcodec_free_context)                                                          \
    X(AVCODEC, avcodec_open2)                                                                 \
    X(AVCODEC, avcodec_parameters_alloc)                                                      \
    X(AVCODEC, avcodec_parameters_copy)                                                       \
    X(AVCODEC, avcodec_parameters_free)                                                       \
    X(AVCODEC, avcodec_parameters_from_context)                                               \
    X(AVCODEC, avcodec_parameters_to_context)                                                 \
    X(AVCODEC, avcodec_receive_frame)                                                         \
    X(AVCODEC, avcodec_receive_packet)                                                        \
    X(AVCODEC, avcodec_send_frame)                                                            \
    X(AVCODEC, avcodec_send_packet)                                                           \
    X(AVFORMAT, av_codec_get_id)                                                              \
    X(AVFORMAT, av_codec_get_tag2)                                                            \
    X(AVFORMAT, av_guess_format)                                                              \
    X(AVFORMAT, av_interleaved_write_frame)                                                   \
    X(AVFORMAT, av_read_frame)                                                                \
    X(AVFORMAT, av_write_trailer)                                                             \
    X(AVFORMAT, avformat_alloc_output_context2)                                               \
    X(AVFORMAT, avformat_close_input)                                                         \
    X(AVFORMAT, avformat_find_stream_info)                                                    \
    X(AVFORMAT, avformat_free_context)                                                        \
    X(AVFORMAT, avformat_new_stream)                                                          \
    X(AVFORMAT, avformat_open_input)                                                          \
    X(AVFORMAT, avformat_write_header)                                                        \
    X(AVFORMAT, avio_alloc_context)                                                           \
    X(AVFORMAT, avio_context_free)                                                            \
    X(AVFORMAT, avio_flush)

typedef struct mp_libav_table {
#define MP_LIBAV_FIELD(lib, name) __typeof__(name) *name;
    MP_LIBAV_FUNCTIONS(MP_LIBAV_FIELD)
#undef MP_LIBAV_FIELD
} mp_libav_table;

/* Filled by the first successful mp_libav_load(); read-only after. */
extern mp_libav_table mp_libav;

mp_status mp_libav_load(mp_error *err);

/* libav logs through one process-wide callback. This one (NULL: libav's default, which
 * prints to stderr) is installed now if libav is loaded, else when it loads, so routing the
 * log never loads libav by itself. */
typedef void (*mp_libav_log_fn)(void *avcl, int level, const char *fmt, va_list vl);
void mp_libav_set_log_callback(mp_libav_log_fn fn);

#endif
