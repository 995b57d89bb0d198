/* --plugin PATH[:PATH...] (plugins.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/plugin.h"
#include "cmd.h"
#include "exit.h"
#include "plugins.h"
#include "util/banned.h"

int cli_load_plugins(const char *list)
{
	char *copy = assay_xstrdup(list), *p = copy;
	int rc = 0;

	while (p && !rc) {
		char *colon = strchr(p, ':');
		assay_err err = ASSAY_ERR_INIT;

		if (colon)
			*colon = '\0';
		if (*p && assay_plugin_load(p, NULL, &err))
			rc = cli_report_err(CLI_EXIT_LOAD, &err);
		p = colon ? colon + 1 : NULL;
	}
	free(copy);
	return rc;
}
