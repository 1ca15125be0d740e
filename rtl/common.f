// The package every RTL family uses. File-list format (read by Verilator -F, CMake
// cmake/TotexRtl.cmake, rtl/filelist.sh and totex's model cache): one path per line relative to
// this file, `-F other.f` includes another list, `//` starts a comment.
totex_pkg.sv
