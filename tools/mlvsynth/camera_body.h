/* camera_body: the bodies mlvsynth can say it was shot on (IDNT) and the LiveView raw buffer
 * each records its window from with --camera-geometry (RAWI raw_info, VIDF crop/pan). */
#ifndef MLVSYNTH_CAMERA_BODY_H
#define MLVSYNTH_CAMERA_BODY_H

#include <stdint.h>

typedef struct camera_body {
    const char *key;              /* --camera value */
    const char *name;             /* IDNT cameraName */
    uint32_t model;               /* IDNT cameraModel */
    uint32_t buffer_width, buffer_height;   /* default LiveView buffer (1080p mode) */
    uint32_t ob_left, ob_top, ob_right;     /* its optical-black borders */
} camera_body;

/* The body of a --camera key, or NULL. */
const camera_body *camera_body_find(const char *key);
/* The default body: the 5D Mark III. */
const camera_body *camera_body_default(void);
/* The keys, for --help: "5d3, eosm, ...". */
const char *camera_body_keys(void);

#endif
