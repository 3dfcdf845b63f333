# What the command-line scripts share (included by analysis.cmake, atoms.cmake
# and device.cmake): run layoutx (with a file as standard input), and check its
# exit status, stdout and stderr. layoutx() leaves out, err and rc in the caller.
function(layoutx)
  execute_process(COMMAND ${LAYOUTX} ${ARGN} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  set(out "${out}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
  set(rc "${rc}" PARENT_SCOPE)
endfunction()

function(layoutx_stdin input)
  set(file "${CMAKE_CURRENT_BINARY_DIR}/layoutx_stdin.txt")
  file(WRITE "${file}" "${input}")
  execute_process(COMMAND ${LAYOUTX} ${ARGN} INPUT_FILE "${file}" OUTPUT_VARIABLE out ERROR_VARIABLE err
                  RESULT_VARIABLE rc)
  file(REMOVE "${file}")
  set(out "${out}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
  set(rc "${rc}" PARENT_SCOPE)
endfunction()

function(fail message)
  message(FATAL_ERROR "${message}\nexit: ${rc}\nstdout:\n${out}\nstderr:\n${err}")
endfunction()

# expect(RC OUT_REGEX ERR_REGEX): an empty OUT_REGEX means stdout must be empty.
function(expect want_rc out_regex err_regex what)
  if(NOT rc EQUAL want_rc)
    fail("${what}: exit ${want_rc} expected")
  endif()
  if(out_regex STREQUAL "")
    if(NOT out STREQUAL "")
      fail("${what}: nothing on stdout expected")
    endif()
  elseif(NOT out MATCHES "${out_regex}")
    fail("${what}: stdout should match ${out_regex}")
  endif()
  if(NOT err MATCHES "${err_regex}")
    fail("${what}: stderr should match ${err_regex}")
  endif()
endfunction()

function(expect_json key want what)
  string(JSON got ERROR_VARIABLE json_error GET "${out}" ${key})
  if(json_error OR NOT got STREQUAL want)
    fail("${what}: JSON ${key} should be ${want} (${json_error})")
  endif()
endfunction()
