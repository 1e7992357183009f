/* What every C ABI of oneflow_promote shares (promotion_c_api.h,
 * kernels/cast_c_api.h, functional/functional_c_api.h): the ABI's version,
 * and the whole message of a call's error when the caller's buffer was too
 * small for it. */

#ifndef ONEFLOW_PROMOTE_C_ABI_H_
#define ONEFLOW_PROMOTE_C_ABI_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Raised when a function's signature or meaning changes; functions added
 * alone do not raise it. */
#define ONEFLOW_PROMOTE_ABI_VERSION 1

/* The ABI version of the loaded library: a frontend built against the
 * headers compares it with ONEFLOW_PROMOTE_ABI_VERSION when it loads. */
int oneflow_promote_abi_version(void);

/* The message of this thread's last call into a C ABI of the library ("" when
 * it succeeded), copied into buffer[0..size) as the error buffers are
 * (truncated, NUL-terminated; nothing written when size is 0). Returns the
 * message's full length, so that a caller can size a buffer for it. */
size_t oneflow_promote_last_error(char* buffer, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* ONEFLOW_PROMOTE_C_ABI_H_ */
