# layoutx --version names the CuTe it reproduces (ctest cli_version):
#   cmake -DLAYOUTX=path/to/layoutx -P version.cmake
execute_process(COMMAND ${LAYOUTX} --version OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "layoutx --version exited ${rc}\nstderr:\n${err}")
endif()
if(NOT out MATCHES "^layoutx [0-9]+\\.[0-9]+\\.[0-9]+\n")
  message(FATAL_ERROR "layoutx --version should start with the layoutx version, got:\n${out}")
endif()
if(NOT out MATCHES "CUTLASS commit 7107b05 \\(2026-08-20\\)")
  message(FATAL_ERROR "layoutx --version should name CUTLASS commit 7107b05 (2026-08-20), got:\n${out}")
endif()
