#ifndef ENTITLINT_CLIBYAML_SHIM_H
#define ENTITLINT_CLIBYAML_SHIM_H

/* The system libyaml (0.2.x): its event parser, which YAMLReader composes into nodes. */
#include <yaml.h>

#endif
