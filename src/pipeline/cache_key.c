#include "pipeline/cache_key.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache/frame_cache.h"

#define EDGE_BYTES (64u << 10)

/* Feeds `len` bytes at `offset` of fd (fewer if the file ends). */
static mp_status hash_range(mp_cache_hash *h, int fd, uint64_t offset, size_t len,
                            const char *path, mp_error *err)
{
    uint8_t buf[8192];
    while (len) {
        size_t want = len < sizeof buf ? len : sizeof buf;
        ssize_t n = pread(fd, buf, want, (off_t)offset);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return mp_error_set(err, MP_ERR_IO, "%s: offset %llu: %s", path,
                                (unsigned long long)offset, strerror(errno));
        if (n == 0)
            break;
        mp_cache_hash_update(h, buf, (size_t)n);
        offset += (uint64_t)n;
        len -= (size_t)n;
    }
    return MP_OK;
}

static mp_status hash_chunk(mp_cache_hash *h, const char *path, mp_error *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return mp_error_set(err, MP_ERR_IO, "%s: %s", path, strerror(errno));
    struct stat sb;
    mp_status st = MP_OK;
    if (fstat(fd, &sb) != 0)
        st = mp_error_set(err, MP_ERR_IO, "%s: %s", path, strerror(errno));
    if (st == MP_OK) {
        uint64_t size = (uint64_t)sb.st_size;
        mp_cache_hash_u64(h, size);
        st = hash_range(h, fd, 0, EDGE_BYTES, path, err);
        if (st == MP_OK && size > EDGE_BYTES)
            st = hash_range(h, fd, size > 2 * EDGE_BYTES ? size - EDGE_BYTES : EDGE_BYTES,
                            EDGE_BYTES, path, err);
    }
    close(fd);
    return st;
}

mp_status mp_cache_clip_identify(const mlv_clip *clip, mp_cache_clip_id *out, mp_error *err)
{
    const mlv_clip_info *info = mp_mlv_clip_get_info(clip);
    mp_cache_hash h;
    mp_cache_hash_init(&h, 0);
    mp_cache_hash_u32(&h, info->chunk_count);
    for (uint32_t k = 0; k < info->chunk_count; k++) {
        mp_status st = hash_chunk(&h, mp_mlv_clip_path(clip, k), err);
        if (st != MP_OK)
            return st;
    }
    out->fingerprint = mp_cache_hash_final(&h);
    out->guid = info->guid ? info->guid : out->fingerprint;
    return MP_OK;
}

uint64_t mp_cache_segment_hash(const char *tool, const mp_cache_clip_id *id,
                               const dualiso_levels *lv, const dualiso_options *opt,
                               const rawfix_plan *fix, uint64_t dark)
{
    mp_cache_hash h;
    mp_cache_hash_init(&h, 0);
    mp_cache_hash_str(&h, tool);
    mp_cache_hash_u64(&h, id->fingerprint);
    mp_cache_hash_reconstruction(&h, lv, opt);
    if (fix && mp_rawfix_plan_active(fix)) {
        mp_cache_hash_str(&h, "rawfix");
        mp_cache_hash_u32(&h, (uint32_t)fix->stripes);
        for (uint32_t r = 0; fix->stripes && r < RAWFIX_STRIPE_ROWS; r++)
            for (uint32_t c = 0; c < RAWFIX_STRIPE_COLS; c++)
                mp_cache_hash_f64(&h, fix->inv_gain[r][c]);
        mp_cache_hash_u32(&h, fix->site_count);
        mp_cache_hash_update(&h, fix->sites, (size_t)fix->site_count * sizeof *fix->sites);
    }
    if (dark) {
        mp_cache_hash_str(&h, "dark");
        mp_cache_hash_u64(&h, dark);
    }
    return mp_cache_hash_final(&h);
}
