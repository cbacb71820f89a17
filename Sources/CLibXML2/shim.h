#ifndef ENTITLINT_CLIBXML2_SHIM_H
#define ENTITLINT_CLIBXML2_SHIM_H

/* Debian's libxml2 is built with ICU; its headers then pull in ICU types that clash with the ICU
   Foundation carries. Entitlint never uses libxml2's ICU support, so switch it off first. */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
#include <libxml/entities.h>
#include <libxml/threads.h>
#include <libxml/dict.h>
#include <stdlib.h>

/* Swift 6 rejects the global `xmlFree` function pointer as not concurrency-safe. */
static inline void entitlint_xmlFree(void *p) { xmlFree(p); }

/* Encoding-conversion and I/O errors go to libxml2's generic error function, which prints to
   stderr whatever the parser options say; the parser still reports them as not well-formed.
   Swift cannot define a variadic C function, hence this one. The setting is per thread. */
static inline void entitlint_ignoreGenericError(void *ctx, const char *msg, ...) { (void)ctx; (void)msg; }
static inline void entitlint_silenceGenericErrors(void) { xmlSetGenericErrorFunc(NULL, entitlint_ignoreGenericError); }

/* The version of the libxml2 loaded at run time (2.9.14 is 20914), not the headers'. */
static inline int entitlint_libxmlVersion(void) { return atoi(xmlParserVersion); }

#endif
