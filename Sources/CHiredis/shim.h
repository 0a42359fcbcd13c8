// Debian's hiredis (libhiredis-dev 0.14), the C client of Redis: the session store (docs/SCALING.md).
#include <hiredis/hiredis.h>
