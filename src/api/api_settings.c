/* Settings structs of any API version (version.h): what the caller's header laid out, over
 * this library's defaults, and this library's defaults into the caller's struct. */
#include <string.h>

#include "api_internal.h"

mlvpipe_status mp_api_settings_in(void *full, size_t full_size, const void *given, size_t size,
                                  size_t oldest, const char *what, mlvpipe_error *err)
{
    mp_error e;
    if (!given || size < oldest)
        return mp_api_status(mp_error_set(&e, MP_ERR_ARG, "%s settings of %zu bytes; API 4.0's "
                                          "have %zu", what, given ? size : 0, oldest), &e, err);
    /* a newer header's members this library does not know must be left at their default,
     * zero, or the caller asked for something it cannot do */
    for (size_t i = full_size; i < size; i++)
        if (((const unsigned char *)given)[i])
            return mp_api_status(mp_error_set(&e, MP_ERR_ARG, "%s settings: byte %zu of %zu "
                                              "is set, a member of a newer API than this "
                                              "library's %d.%d", what, i, size,
                                              MLVPIPE_API_VERSION_MAJOR,
                                              MLVPIPE_API_VERSION_MINOR), &e, err);
    memcpy(full, given, size < full_size ? size : full_size);
    return MLVPIPE_OK;
}

mlvpipe_status mp_api_reserved_zero(const int *reserved, size_t count, const char *what,
                                    mlvpipe_error *err)
{
    mp_error e;
    for (size_t i = 0; i < count; i++)
        if (reserved[i])
            return mp_api_status(mp_error_set(&e, MP_ERR_ARG, "%s settings: reserved[%zu] is "
                                              "set, a member of a newer API than this "
                                              "library's %d.%d", what, i,
                                              MLVPIPE_API_VERSION_MAJOR,
                                              MLVPIPE_API_VERSION_MINOR), &e, err);
    return MLVPIPE_OK;
}

void mp_api_settings_out(void *given, size_t size, const void *full, size_t full_size)
{
    memcpy(given, full, size < full_size ? size : full_size);
    if (size > full_size)
        memset((unsigned char *)given + full_size, 0, size - full_size);
}
