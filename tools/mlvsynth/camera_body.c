/* The bodies (camera_body.h). Model ids as Magic Lantern writes them in IDNT (doc/rawfix.md
 * lists the five with focus pixels). Buffers: the 5D Mark III's 1080p LiveView buffer (ML
 * src/raw.c: skip_top 28, skip_left 146, skip_right 2; 2080 x 1318); the EOS M / EOS M2 /
 * 100D / 650D / 700D record from a 1808-wide buffer in 1080p (mv1080, 1190 rows here) whose left
 * optical black is 72 columns wide (where the focus-pixel maps start, doc/rawfix.md), with
 * the top 28 rows black as on the 5D Mark III. --lv-buffer sets other modes' sizes. */
#include "camera_body.h"

#include <string.h>

static const camera_body bodies[] = {
    {"5d3", "Canon EOS 5D Mark III", 0x80000285u, 2080, 1318, 146, 28, 2},
    {"eosm", "Canon EOS M", 0x80000331u, 1808, 1190, 72, 28, 0},
    {"eosm2", "Canon EOS M2", 0x80000355u, 1808, 1190, 72, 28, 0},
    {"100d", "Canon EOS 100D", 0x80000346u, 1808, 1190, 72, 28, 0},
    {"650d", "Canon EOS 650D", 0x80000301u, 1808, 1190, 72, 28, 0},
    {"700d", "Canon EOS 700D", 0x80000326u, 1808, 1190, 72, 28, 0},
};

const camera_body *camera_body_find(const char *key)
{
    for (size_t i = 0; i < sizeof bodies / sizeof *bodies; i++)
        if (!strcmp(key, bodies[i].key))
            return &bodies[i];
    return NULL;
}

const camera_body *camera_body_default(void)
{
    return &bodies[0];
}

const char *camera_body_keys(void)
{
    return "5d3, eosm, eosm2, 100d, 650d, 700d";
}
