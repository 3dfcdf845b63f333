# Run by CPack on the staged files before it builds the Debian package: zsh on
# Debian reads /usr/share/zsh/vendor-completions (its site-functions folder is
# under /usr/local), and Debian's man pages are compressed.
file(GLOB_RECURSE staged_zsh "${CPACK_TEMPORARY_INSTALL_DIRECTORY}/*/share/zsh/site-functions/_layoutx")
foreach(zsh IN LISTS staged_zsh)
  get_filename_component(site "${zsh}" DIRECTORY)
  get_filename_component(zsh_root "${site}" DIRECTORY)
  file(MAKE_DIRECTORY "${zsh_root}/vendor-completions")
  file(RENAME "${zsh}" "${zsh_root}/vendor-completions/_layoutx")
  file(REMOVE "${site}")
endforeach()
file(GLOB_RECURSE staged_man "${CPACK_TEMPORARY_INSTALL_DIRECTORY}/*/share/man/man1/layoutx.1")
foreach(page IN LISTS staged_man)
  get_filename_component(dir "${page}" DIRECTORY)
  file(ARCHIVE_CREATE OUTPUT "${page}.gz" PATHS "${page}" FORMAT raw COMPRESSION GZip)
  file(REMOVE "${page}")
endforeach()
