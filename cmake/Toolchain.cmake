# Fast-build defaults measured in ../shared/BUILD-NOTES.md: ccache and lld-22
# when present. Both can be turned off for unusual toolchains.
option(RELAX_USE_CCACHE "Use ccache when found" ON)
option(RELAX_USE_LLD "Link with lld-22 when found" ON)

if(RELAX_USE_CCACHE)
  find_program(RELAX_CCACHE ccache)
  if(RELAX_CCACHE)
    set(CMAKE_C_COMPILER_LAUNCHER ${RELAX_CCACHE})
    set(CMAKE_CXX_COMPILER_LAUNCHER ${RELAX_CCACHE})
  endif()
endif()

if(RELAX_USE_LLD AND EXISTS "${RELAX_LLVM_PREFIX}/bin/ld.lld")
  # g++ looks for `ld.lld` on its program path; -B puts llvm-22's first so the
  # older system lld is not picked up.
  foreach(kind EXE SHARED MODULE)
    string(APPEND CMAKE_${kind}_LINKER_FLAGS
           " -fuse-ld=lld -B${RELAX_LLVM_PREFIX}/bin")
  endforeach()
endif()
