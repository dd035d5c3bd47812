# `profana --version` names the git commit it was built from. cmake/write-version.cmake writes
# one small source (build/generated/version.cc) at configure time and again on every build, but
# changes the file only when the commit changed: a commit recompiles that file and relinks.
set(PROFANA_VERSION_SOURCE ${CMAKE_BINARY_DIR}/generated/version.cc)
set(PROFANA_VERSION_ARGS -DSOURCE_DIR=${CMAKE_SOURCE_DIR} -DVERSION=${PROJECT_VERSION}
    -DOUTPUT=${PROFANA_VERSION_SOURCE} -P ${CMAKE_SOURCE_DIR}/cmake/write-version.cmake)
execute_process(COMMAND ${CMAKE_COMMAND} ${PROFANA_VERSION_ARGS})
add_custom_target(profana_version_source
                  COMMAND ${CMAKE_COMMAND} ${PROFANA_VERSION_ARGS}
                  BYPRODUCTS ${PROFANA_VERSION_SOURCE}
                  COMMENT "" VERBATIM)
target_sources(profana_cli PRIVATE ${PROFANA_VERSION_SOURCE})
add_dependencies(profana_cli profana_version_source)
