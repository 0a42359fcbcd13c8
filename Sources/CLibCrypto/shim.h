// Debian's OpenSSL libcrypto (libssl-dev): only SHA-256, for the tokens a shared store keeps hashed.
#include <openssl/sha.h>
