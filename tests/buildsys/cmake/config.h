/* ringtime.c's config.h under CMake (autotools writes its own). */
