# Warnings for project code, as errors. Third-party and generated code (Verilator output) does not get them.
add_library(totex_warnings INTERFACE)
target_compile_options(totex_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion -Wold-style-cast -Werror
  # GCC 12 reports false -Wrestrict positives inside libstdc++ string concatenation at -O2
  # (GCC bug 105651); the warning says nothing about our code.
  $<$<AND:$<CXX_COMPILER_ID:GNU>,$<VERSION_LESS:$<CXX_COMPILER_VERSION>,13>>:-Wno-restrict>)
