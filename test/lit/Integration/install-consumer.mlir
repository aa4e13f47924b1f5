// The installed CMake package works for a downstream project:
// `cmake --install` of this build into a fresh prefix, then test/consumer
// (find_package(RelaxDialect), its own opt tool with a pass of its own over
// the relax C++ API, a C program over the C API) configured, built and run.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cmake --install %relax_obj_root --prefix %t/prefix > %t/install.log
// RUN: %cmake -S %relax_src_root/test/consumer -B %t/build \
// RUN:   -DCMAKE_PREFIX_PATH=%t/prefix %consumer_cmake_flags > %t/configure.log
// RUN: FileCheck %s --check-prefix=CONFIGURE < %t/configure.log
// RUN: %cmake --build %t/build > %t/build.log
// RUN: %t/build/relax-consumer-opt --relax-fuse-ops --consumer-annotate-kernels %s \
// RUN:   | FileCheck %s
//
// The C API of the installed package, from C.
// RUN: %t/build/relax-consumer-capi | FileCheck %s --check-prefix=CAPI
// CAPI: !relax.tensor<[batch, seq * 64], f16>
//
// The package is the installed one, not this build tree.
// CONFIGURE: RelaxDialect 0.1.0 in {{.*}}prefix/lib/cmake/RelaxDialect
//
// What the tree holds.
// RUN: FileCheck %s --check-prefix=TREE < %t/install.log
// TREE-DAG: prefix/bin/relax-opt
// TREE-DAG: prefix/lib/RelaxMLIRPlugin.so
// TREE-DAG: prefix/lib/libRelaxRuntime.so
// TREE-DAG: prefix/lib/libRelaxModule.so
// TREE-DAG: prefix/lib/libRelaxRunJIT.so
// TREE-DAG: prefix/bin/relax-run
// TREE-DAG: prefix/lib/libMLIRRelaxIR.a
// TREE-DAG: prefix/lib/libRelaxCAPI.so
// TREE-DAG: prefix/include/RelaxDialect-c/Dialects.h
// TREE-DAG: prefix/include/RelaxDialect/Relax/IR/RelaxOps.h
// TREE-DAG: prefix/include/RelaxDialect/Relax/IR/RelaxOps.h.inc
// TREE-DAG: prefix/include/RelaxDialect/Relax/IR/RelaxOps.td
// TREE-DAG: prefix/lib/cmake/RelaxDialect/RelaxDialectConfigVersion.cmake
// TREE-DAG: prefix/lib/cmake/RelaxDialect/RelaxDialectTargets.cmake
// TREE-DAG: prefix/lib/libRelaxTokenizer.so
// TREE-DAG: prefix/include/RelaxDialect/Tokenizer/Tokenizer.h
// TREE-DAG: prefix/bin/relax-tokenize
// TREE-DAG: prefix/bin/llama-generate
//
// The tokenizer library from the consumer's program gives the ids of the
// installed relax-tokenize (where the build has tokenizer.json support), and
// the installed llama-generate runs from its prefix.
// RUN: %if tokenizer-json %{ test "$(%t/build/relax-consumer-tokenize %S/../Tokenizer/Inputs/gpt2-bpe.json 'Hello world')" = "$(%t/prefix/bin/relax-tokenize %S/../Tokenizer/Inputs/gpt2-bpe.json --encode 'Hello world')" %}
// RUN: %t/build/relax-consumer-tokenize %t/none.json hi > %t/tokenize.err 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=TOKERR < %t/tokenize.err
// TOKERR: relax-consumer-tokenize: error: {{.*}}none.json: cannot open the file
// RUN: %t/prefix/bin/llama-generate --help | FileCheck %s --check-prefix=LLAMA
// LLAMA: usage: llama-generate MODEL.so
//
// With MPI the collectives' library, its header and the tensor-parallel
// driver are installed (RELAX_HAVE_MPI), and the consumer's program over the
// installed library runs under mpirun: 1 + 2 and 10 + 20 on two ranks.
// RUN: %if mpi %{ FileCheck %s --check-prefix=MPITREE < %t/install.log %}
// MPITREE-DAG: prefix/lib/libRelaxCollectives.so
// MPITREE-DAG: prefix/include/RelaxDialect/Runtime/RelaxCollectives.h
// MPITREE-DAG: prefix/bin/llama-generate-tp
// RUN: %if mpi %{ %mpirun -np 2 %t/build/relax-consumer-mpi | FileCheck %s --check-prefix=CONSUMERMPI %}
// CONSUMERMPI: ranks 2: sum 3 30, 1 collective call(s)
// The installed llama-generate-tp starts from its prefix (its libraries
// load) and refuses a command line without a model.
// RUN: %if mpi %{ %t/prefix/bin/llama-generate-tp > %t/tp-usage.txt 2>&1; test $? -ne 0 %}
// RUN: %if mpi %{ FileCheck %s --check-prefix=LLAMATP < %t/tp-usage.txt %}
// LLAMATP: llama-generate: error: no model library given
//
// The installed relax-opt runs from its prefix (it finds its libraries there).
// RUN: %t/prefix/bin/relax-opt --version | FileCheck %s --check-prefix=VERSION
// VERSION: relax-mlir version 0.1.0
//
// So do relax-compile and relax-run: relax-run runs a library with the
// installed runtime alone, and finds its compiler side (libRelaxRunJIT.so)
// in the prefix for a module to compile or --version.
// RUN: %t/prefix/bin/relax-run --version | FileCheck %s --check-prefix=VERSION
// RUN: %t/prefix/bin/relax-compile %s -o %t/model.so
// RUN: env LD_DEBUG=files %t/prefix/bin/relax-run %t/model.so --random-inputs --dim n=3 2> %t/run.log | FileCheck %s --check-prefix=OUTPUT
// RUN: FileCheck %s --check-prefix=LOADED --implicit-check-not=libLLVM --implicit-check-not=libMLIR < %t/run.log
// RUN: %t/prefix/bin/relax-run %s --random-inputs --dim n=3 | FileCheck %s --check-prefix=OUTPUT
// OUTPUT: output #0: f32 [3, 4] = [
// LOADED: file=libRelaxModule.so {{.*}}needed by {{.*}}prefix/bin/relax-run

// The fusion pipeline of the project, then the consumer's pass reading the
// symbolic result types.
// CHECK-LABEL: relax.func @main
// CHECK: relax.call_tir @fused_matmul_add_relu({{.*}}) {consumer.elements = "n * 16"}
// CHECK: relax.call_tir @fused_matmul_1_add_1({{.*}}) {consumer.elements = "n * 4"}
// CHECK: tir.prim_func private @fused_matmul_add_relu
relax.func @main(%x: !relax.tensor<[n, 8], f32>, %w0: !relax.tensor<[8, 16], f32>,
                 %b0: !relax.tensor<[16], f32>, %w1: !relax.tensor<[16, 4], f32>,
                 %b1: !relax.tensor<[4], f32>) -> !relax.tensor<[n, 4], f32> {
  %0 = relax.dataflow -> !relax.tensor<[n, 4], f32> {
    %h0 = relax.matmul %x, %w0 : (!relax.tensor<[n, 8], f32>, !relax.tensor<[8, 16], f32>) -> !relax.tensor<[n, 16], f32>
    %h1 = relax.add %h0, %b0 : (!relax.tensor<[n, 16], f32>, !relax.tensor<[16], f32>) -> !relax.tensor<[n, 16], f32>
    %h = relax.relu %h1 : (!relax.tensor<[n, 16], f32>) -> !relax.tensor<[n, 16], f32>
    %y0 = relax.matmul %h, %w1 : (!relax.tensor<[n, 16], f32>, !relax.tensor<[16, 4], f32>) -> !relax.tensor<[n, 4], f32>
    %y = relax.add %y0, %b1 : (!relax.tensor<[n, 4], f32>, !relax.tensor<[4], f32>) -> !relax.tensor<[n, 4], f32>
    relax.output %y : !relax.tensor<[n, 4], f32>
  }
  relax.return %0 : !relax.tensor<[n, 4], f32>
}
