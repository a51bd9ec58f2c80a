/* demosaic: float CFA window -> three float planes. A window is a band of full-width rows of
 * the frame (a processing strip plus context rows); pixels near its edges are filled by the
 * bilinear path, so callers give each strip DEMOSAIC_*_CONTEXT extra rows on both sides. */
#ifndef MP_DEVELOP_DEMOSAIC_H
#define MP_DEVELOP_DEMOSAIC_H

#include <stddef.h>
#include <stdint.h>

#include "develop/develop_dsp.h"


/* Rows of context each side of a strip that make the strip's output identical to developing
 * the whole frame at once (the reach of every step chained, see rcd_body.h). */
#define DEMOSAIC_BILINEAR_CONTEXT 1
#define DEMOSAIC_RCD_CONTEXT 12
#define DEMOSAIC_RCD_SCRATCH 6

/* Bilinear interpolation of the rectangle [x0, x1) x [r0, r1); neighbours outside the window
 * are left out of the averages (the 3x3 neighbourhood of any pixel of a window of at least
 * 2x2 holds every colour). */
void mp_demosaic_bilinear(const demosaic_window *w, uint32_t x0, uint32_t x1, uint32_t r0,
                       uint32_t r1);

/* RCD over the whole window (bilinear within 5 pixels of its edges), built per instruction
 * set level (rcd_body.h); every level gives the same bits. */
void mp_demosaic_rcd_c(const demosaic_window *w);
void mp_demosaic_rcd_sse2(const demosaic_window *w);
void mp_demosaic_rcd_avx2(const demosaic_window *w);
void mp_demosaic_rcd_neon(const demosaic_window *w);

#endif
