/* dark_load: the dark frame of `--dark FILE` (rawfix/dark.h), made for one clip.
 *
 * FILE is a lens-cap clip (MLV or legacy RAW, any compression): every intact frame is
 * averaged (running sums, so memory does not grow with its length; damaged frames are
 * skipped with a warning). It must match the clip: the same frame size, bit depth and ISO
 * (EXPO), and the same dual-ISO setting (DISO) when both clips carry one; anything else is
 * refused naming what differs (MP_ERR_FORMAT). A clip carrying MLV-App's DARK block (an
 * average MLV-App made, doc/mlv-format.md 4.12) gives that block instead, checked by its own
 * size, depth and ISO: `--dark CLIP` with the converted clip itself uses its own block.
 * FILE may also be one raw photo (a DNG, any compression LibRaw reads: the reader's still
 * source), taken as an average already: size, depth and its Exif ISO are checked (a photo
 * says nothing of dual ISO); or a folder of lens-cap photos, averaged like a clip.
 *
 * Its identity is a hash of the pattern itself (not of the path), so the sidecar's options
 * hash and the frame cache's keys change exactly when the subtracted pattern does. */
#ifndef MP_DARK_LOAD_H
#define MP_DARK_LOAD_H

#include <stdatomic.h>
#include <stdint.h>

#include "common/mp_status.h"
#include "rawfix/dark.h"
#include "reader/mlv_reader.h"

mp_status mp_dark_load(const char *path, const mlv_clip *clip, const atomic_int *cancel,
                       const mp_logger *log, rawfix_dark *out, mp_error *err);

/* 64-bit content hash of the pattern (size, depth, every value); 0 for no dark frame. */
uint64_t mp_dark_hash(const rawfix_dark *d);

#endif
