// Debian's libqrencode (libqrencode-dev, 4.1): the QR Code encoder behind `make run`'s scan-to-join code.
#include <qrencode.h>
