/* defects_from: the raw-defect map of another clip (`--defects-from CLIP`) in place of the
 * one the pre-pass finds in the clip itself.
 *
 * Hot, cold and focus pixels belong to the sensor, not to the shot, but a clip can only show
 * them where its scene moves: in a still (tripod) shot, fine detail that stays put looks as
 * steady as a defect, and a clip of fewer than 8 frames gives no map at all. A clip of the
 * same camera body and video mode whose scene moves (or a lens-cap clip) shows them well;
 * borrowing its map repairs the same photosites in the still clip. Only the sites are
 * borrowed (the focus-pixel lattice and the single hot and cold pixels); the stripe gains
 * stay the clip's own, since they follow its ISO and exposure.
 *
 * The other clip's pre-pass is run as for the clip itself (no dark frame: it may have been
 * shot at another ISO). Each of its segments carries its map with where its window starts
 * in the LiveView buffer (VIDF cropPos) and the buffer's size (RAWI). A segment of the clip
 * takes the union of the maps of every segment of the other clip recorded in the same buffer
 * (the same video mode), each moved by the difference of the windows' starts, so a clip
 * whose crop window was placed elsewhere on the sensor still gets its photosites right. Where
 * the windows cannot be placed (no buffer size, or no window position in either clip: legacy
 * RAW), only a segment of the same frame size counts, unmoved.
 * Refused, naming both files: another camera model (IDNT) or body (serial number, when both
 * clips carry one), another binning or line skipping (RAWC), a segment no segment of the
 * other clip shares a buffer with, windows that differ by an odd number of rows or columns
 * (the colours would not line up), and a clip without any map (too few frames). */
#ifndef MP_DEFECTS_FROM_H
#define MP_DEFECTS_FROM_H

#include "common/mp_meta.h"
#include "common/mp_status.h"
#include "analysis/levels_io.h"
#include "reader/mlv_reader.h"

#include "analysis/prepass.h"

typedef struct mp_defect_source {
    rawfix_map map;                       /* width 0: the segment gave none (too few
                                           * frames) */
    int32_t buffer_width, buffer_height;  /* RAWI: the video mode */
    uint32_t crop_x, crop_y;              /* VIDF cropPos: the window's start in the buffer */
    uint32_t first_frame, last_frame;
} mp_defect_source;

typedef struct mp_defects_from {
    char path[1024];
    mp_camera camera;
    mp_raw_capture capture;
    uint32_t count;
    mp_defect_source *segments;           /* malloc'd */
} mp_defects_from;

/* Runs the pre-pass of the clip at path with o's threads, cancel flag and log (its own row
 * phase, no dark frame) and keeps its segments' maps. */
mp_status mp_defects_from_load(const char *path, const mp_prepass_options *o,
                               mp_defects_from *out, mp_error *err);
void mp_defects_from_free(mp_defects_from *d);

/* Replaces the lattice and single defects of every segment of cl (made for clip) with the
 * borrowed ones, logging what each segment had and got. */
mp_status mp_defects_from_apply(const mp_defects_from *d, const mlv_clip *clip,
                                mp_clip_levels *cl, const mp_logger *log, mp_error *err);

/* mp_prepass_run, then mp_defects_from_apply of d unless d is NULL or empty (count 0) or o
 * looks for no defects. The borrowed map is not in the options hash: the sidecar holds the
 * map it gives. */
mp_status mp_defects_from_prepass(const mlv_clip *clip, const mp_prepass_options *o,
                                  const mp_defects_from *d, const char *tool,
                                  mp_clip_levels *out, mp_error *err);

#endif
