// The few libwebsockets things Swift cannot import directly (function-like macros and compound
// option constants). See ../../docs/ARCHITECTURE notes in README.md and transport research §2.1.
#ifndef REFRESHKIT_CLIBWEBSOCKETS_SHIM_H
#define REFRESHKIT_CLIBWEBSOCKETS_SHIM_H

#ifndef NDEBUG
#define NDEBUG 1 /* keep lws-logs.h out of its _DEBUG branch */
#endif
#include <libwebsockets.h>

/// Bytes lws needs in front of every buffer passed to lws_write (a macro expression in C).
enum { RK_LWS_PRE = LWS_PRE };

#endif
