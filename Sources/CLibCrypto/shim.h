// Debian's OpenSSL libcrypto (libssl-dev): SHA-256 for the tokens a shared store keeps hashed; reading PEM
// certificates and keys to check `serve --tls-cert --tls-key` before lws loads them; and making the local CA and the
// server certificate of `refreshkit cert` (docs/HTTPS.md).
#include <openssl/sha.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/bn.h>
#include <openssl/rand.h>
