/* The weights of a library opened through the C API are read-only: a
 * stray write into a parameter's global (what an in-place update of a
 * constant would do) faults instead of changing every later result.
 * Arguments: a library compiled from page-weights.mlir. Prints one line
 * per step for FileCheck. */
#define _GNU_SOURCE
#include "RelaxDialect/Runtime/RelaxModule.h"

#include <dlfcn.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

static sigjmp_buf faulted;

static void onFault(int sig) {
  (void)sig;
  siglongjmp(faulted, 1);
}

/* Opens the library, reads and then writes its first and last weight. */
static int probe(const char *path) {
  relax_module *m = NULL;
  if (relax_module_open(path, NULL, &m) != RELAX_OK) {
    printf("open: %s\n", relax_last_error());
    return 1;
  }
  char canonical[PATH_MAX];
  void *self = realpath(path, canonical)
                   ? dlopen(canonical, RTLD_NOW | RTLD_NOLOAD)
                   : NULL;
  volatile float *w = self ? (volatile float *)dlsym(self, "__relax_param_0")
                           : NULL;
  if (!w) {
    printf("no __relax_param_0\n");
    return 1;
  }
  printf("read: %g %g\n", w[0], w[64 * 64 - 1]);
  struct sigaction action = {0};
  action.sa_handler = onFault;
  sigemptyset(&action.sa_mask);
  sigaction(SIGSEGV, &action, NULL);
  if (sigsetjmp(faulted, 1) == 0) {
    w[0] = 42.0f;
    printf("write: stored\n");
  } else {
    printf("write: faulted\n");
  }
  signal(SIGSEGV, SIG_DFL);
  printf("after: %g\n", w[0]);
  dlclose(self);
  relax_module_close(m);
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  /* Twice: a library opened again is filled and protected again. */
  return probe(argv[1]) || probe(argv[1]);
}
