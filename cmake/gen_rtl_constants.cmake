# SPDX-License-Identifier: Apache-2.0
# Writes the C++ header of the RTL packages' constants, so that the hardware interface is defined
# once, in SystemVerilog (rtl/totex_pkg.sv, rtl/totex_direct_pkg.sv), and the controllers follow it.
#   cmake -DOUT=<header> -DPACKAGES=<pkg.sv>,<pkg.sv> -P gen_rtl_constants.cmake
# Each `localparam <type> NAME = <number>;` of package P becomes
# `inline constexpr int NAME = <number>;` in namespace totex::rtl::P. A localparam line of any
# other form is an error (a constant the C++ side would silently miss).
cmake_minimum_required(VERSION 3.19)
if(NOT OUT OR NOT PACKAGES)
  message(FATAL_ERROR "usage: cmake -DOUT=header -DPACKAGES=a.sv,b.sv -P gen_rtl_constants.cmake")
endif()
string(REPLACE "," ";" PACKAGES "${PACKAGES}")

set(text "// SPDX-License-Identifier: Apache-2.0\n")
string(APPEND text "/// GENERATED at build time by cmake/gen_rtl_constants.cmake from the RTL packages; do not edit.\n")
string(APPEND text "/// Edit the package instead: rtl/<package>.sv is the one definition of these constants.\n")
string(APPEND text "#pragma once\n")
foreach(sv IN LISTS PACKAGES)
  get_filename_component(package ${sv} NAME_WE)
  string(APPEND text "\n/// From ${package}.sv.\nnamespace totex::rtl::${package} {\n")
  file(STRINGS ${sv} lines)
  set(count 0)
  foreach(line IN LISTS lines)
    if(NOT line MATCHES "^[ \t]*localparam[ \t]")
      continue()
    endif()
    if(line MATCHES "^[ \t]*localparam[ \t]+(int unsigned|logic[ \t]*\\[[0-9]+:0\\])[ \t]+([A-Z][A-Z0-9_]*)[ \t]*=[ \t]*([0-9]+'d)?([0-9]+)[ \t]*;")
      string(APPEND text "inline constexpr int ${CMAKE_MATCH_2} = ${CMAKE_MATCH_4};\n")
      math(EXPR count "${count} + 1")
    else()
      message(FATAL_ERROR "${sv}: cannot read this localparam (write `localparam int unsigned NAME = 32'dN;` on one line):\n${line}")
    endif()
  endforeach()
  if(count EQUAL 0)
    message(FATAL_ERROR "${sv}: no localparam found")
  endif()
  string(APPEND text "}  // namespace totex::rtl::${package}\n")
endforeach()

# Rewrite only on change, so that a package comment edit does not rebuild the library.
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUT} "${text}")
endif()
