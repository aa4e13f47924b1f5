// A parameter's name is taken: the pass names its globals
// @__relax_param_<k> and never renames someone else's symbol.
// RUN: relax-opt %s --relax-externalize-params="file=%t.params" -verify-diagnostics

func.func private @__relax_param_0()
// expected-error@+1 {{'memref.global' op cannot rename to '__relax_param_0': the symbol exists}}
memref.global "private" constant @w : memref<512xf32> = dense<1.0>
