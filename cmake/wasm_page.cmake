# cmake -DWEB=web -DENGINE=layoutx_engine.js -DOUT=page -P wasm_page.cmake: the
# static explorer page, web/'s files with the engine's script loaded first.
file(MAKE_DIRECTORY ${OUT})
file(GLOB files LIST_DIRECTORIES false ${WEB}/*)
foreach(file IN LISTS files)
  get_filename_component(name ${file} NAME)
  if(NOT name STREQUAL "index.html")
    configure_file(${file} ${OUT}/${name} COPYONLY)
  endif()
endforeach()
configure_file(${ENGINE} ${OUT}/engine.js COPYONLY)
file(READ ${WEB}/index.html html)
string(REPLACE "<script src=\"app.js\"></script>" "<script src=\"engine.js\"></script>\n<script src=\"app.js\"></script>" html "${html}")
file(WRITE ${OUT}/index.html "${html}")
