/* mlvpipe API version. The major number changes when a function, struct or enum changes in
 * a way old callers would notice (and the shared library's soname with it); the minor number
 * when something is added; the patch number for fixes that leave the API as it is. */
#ifndef MLVPIPE_VERSION_H
#define MLVPIPE_VERSION_H

#define MLVPIPE_API_VERSION_MAJOR 1
#define MLVPIPE_API_VERSION_MINOR 1
#define MLVPIPE_API_VERSION_PATCH 0

#define MLVPIPE_API_VERSION_INT(major, minor, patch) (((major) << 16) | ((minor) << 8) | (patch))
#define MLVPIPE_API_VERSION                                                                    \
    MLVPIPE_API_VERSION_INT(MLVPIPE_API_VERSION_MAJOR, MLVPIPE_API_VERSION_MINOR,              \
                            MLVPIPE_API_VERSION_PATCH)

#endif
