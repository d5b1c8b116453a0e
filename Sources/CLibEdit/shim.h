#ifndef TAPEDECK_CLIBEDIT_SHIM_H
#define TAPEDECK_CLIBEDIT_SHIM_H
#include <stdio.h>
#include <stdlib.h>
#include <editline/readline.h>
#endif
