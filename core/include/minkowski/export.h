/* minkowski: export macro and version. */
#ifndef MINKOWSKI_EXPORT_H
#define MINKOWSKI_EXPORT_H

#define MK_VERSION_MAJOR 0
#define MK_VERSION_MINOR 1
#define MK_VERSION_PATCH 0
#define MK_VERSION_STRING "0.1.0"

#if defined(_WIN32) && defined(MK_SHARED_BUILD)
#define MK_API __declspec(dllexport)
#elif defined(__GNUC__)
#define MK_API __attribute__((visibility("default")))
#else
#define MK_API
#endif

#endif
