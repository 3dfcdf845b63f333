# The static explorer page (WebAssembly, no server): `ninja wasm_page` builds
# it with Debian's emscripten in the build folder's wasm/ (a second CMake tree
# of this project under emcmake: see the EMSCRIPTEN branch at the top), from
# the host's fmt and PEGTL headers. Not part of `all`: the engine compiled
# again by em++ takes minutes. The wasm_browser test checks it once built.
find_program(LAYOUTX_EMCMAKE emcmake)
if(NOT LAYOUTX_EMCMAKE)
  message(STATUS "static explorer page: left out (emscripten's emcmake not found; Debian: apt-get install emscripten)")
  return()
endif()
get_target_property(fmt_include fmt::fmt INTERFACE_INCLUDE_DIRECTORIES)
get_target_property(pegtl_include taocpp::pegtl INTERFACE_INCLUDE_DIRECTORIES)
# Debian's emscripten 3.1.6 finds its node modules (acorn, for the optimizer) there.
set(LAYOUTX_WASM_ENV "")
if(EXISTS /usr/share/nodejs)
  set(LAYOUTX_WASM_ENV NODE_PATH=/usr/share/nodejs)
endif()
set(LAYOUTX_WASM_DIR ${PROJECT_BINARY_DIR}/wasm)
add_custom_target(wasm_page
  COMMAND ${CMAKE_COMMAND} -E env ${LAYOUTX_WASM_ENV} ${LAYOUTX_EMCMAKE} ${CMAKE_COMMAND} -S ${PROJECT_SOURCE_DIR} -B ${LAYOUTX_WASM_DIR}
          -G ${CMAKE_GENERATOR} -DCMAKE_BUILD_TYPE=Release -DCMAKE_UNITY_BUILD=ON
          -DLAYOUTX_FMT_INCLUDE_DIR=${fmt_include} -DLAYOUTX_PEGTL_INCLUDE_DIR=${pegtl_include}
  COMMAND ${CMAKE_COMMAND} -E env ${LAYOUTX_WASM_ENV} ${CMAKE_COMMAND} --build ${LAYOUTX_WASM_DIR}
  COMMENT "The static explorer page (emscripten) in ${LAYOUTX_WASM_DIR}/page" USES_TERMINAL VERBATIM)
