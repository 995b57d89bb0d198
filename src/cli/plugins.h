/* --plugin: verifier plug-ins named on the command line (plugin.h). */
#ifndef ASSAY_CLI_PLUGINS_H
#define ASSAY_CLI_PLUGINS_H

/*
 * Loads every shared object of `list` (paths separated by ':'), before the suite is loaded so
 * that its cases may name their verifiers. Prints "assay: error: PATH: ..." and returns
 * non-zero at the first that cannot be loaded; 0 when all loaded.
 */
int cli_load_plugins(const char *list);

#endif
