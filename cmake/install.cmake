# Installs profana as a Debian tool is installed: bin/profana, the man page
# share/man/man1/profana.1.gz (help2man, from the --help of profana and of each command) and the
# bash and zsh completions `profana completion` generates. CPack builds the .deb (scripts/package).
include(GNUInstallDirs)
option(PROFANA_INSTALL_DOCS "Generate the man page and shell completions by running profana" ON)

# `cmake --install` and CPack install what is built and never build first (a package test must not
# relink the binary other tests are running): build, then install.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)
install(TARGETS profana RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

if(PROFANA_INSTALL_DOCS)
  set(gen ${CMAKE_BINARY_DIR}/generated)
  set(generated_files ${gen}/completions/profana ${gen}/completions/_profana)
  add_custom_command(
    OUTPUT ${gen}/completions/profana ${gen}/completions/_profana
    COMMAND ${CMAKE_COMMAND} -E make_directory ${gen}/completions
    COMMAND sh -c "\"$1\" completion bash > \"$2/profana\" && \"$1\" completion zsh > \"$2/_profana\""
            sh $<TARGET_FILE:profana> ${gen}/completions
    DEPENDS profana
    COMMENT "Generating bash and zsh completions"
    VERBATIM)
  install(FILES ${gen}/completions/profana
          DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
  install(FILES ${gen}/completions/_profana
          DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
  find_program(HELP2MAN help2man)
  if(HELP2MAN)
    add_custom_command(
      OUTPUT ${gen}/profana.1.gz
      COMMAND bash ${CMAKE_SOURCE_DIR}/cmake/make-manpage.sh ${HELP2MAN} $<TARGET_FILE:profana>
              ${gen}/profana.1.gz
      DEPENDS profana ${CMAKE_SOURCE_DIR}/cmake/make-manpage.sh
      COMMENT "Generating the man page (help2man)"
      VERBATIM)
    list(APPEND generated_files ${gen}/profana.1.gz)
    install(FILES ${gen}/profana.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  else()
    message(WARNING "help2man not found (scripts/bootstrap installs it): no man page is installed")
  endif()
  add_custom_target(profana_install_files ALL DEPENDS ${generated_files})
endif()

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME profana)
set(CPACK_PACKAGE_VENDOR profana)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "offline analysis of PyTorch profiler traces")
set(CPACK_PACKAGE_DESCRIPTION
    "profana reads PyTorch profiler traces (Kineto Chrome-trace JSON, nvprof databases, its own\n"
    "native files) and prints what PyTorch's profiler prints: key_averages tables, stacks for\n"
    "flamegraphs, op trees, queue depth, idle time and memory timelines, plus CI checks.")
set(PROFANA_DEB_MAINTAINER "profana developers" CACHE STRING "Maintainer field of the .deb")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${PROFANA_DEB_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # profana_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)   # Depends: from the libraries the binary links
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_DIRECTORY ${CMAKE_BINARY_DIR}/package)
include(CPack)
