/* native/backend.h - the native backend: fork N tasks onto one SGA and count (native.c). */
#ifndef SGA_NATIVE_BACKEND_H
#define SGA_NATIVE_BACKEND_H

#include "lib/backend.h"

extern const struct backend_ops native_backend;

#endif
