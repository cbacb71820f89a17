// The system zlib (inflate for .ipa entries, crc32), linked as a system library.
#include <zlib.h>
