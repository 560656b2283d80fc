# What `cmake --install` puts where, and the Debian package CPack builds from
# it (`cpack --config build/CPackConfig.cmake -G DEB`):
#   bin/locksim                     the simulator
#   bin/locksim-timeline, ...       the analysis commands (analysis/pyproject.toml's
#                                   [project.scripts], read here so the two lists
#                                   cannot drift apart)
#   share/locksim/scenarios/        the catalogue: `locksim run NAME` finds it
#                                   beside the binary (sim/cli/catalogue.cc)
#   share/locksim/python/analysis/  the analysis package, with the interactive
#                                   timeline's script, style and vis-timeline
#   share/doc/locksim/              README.md and docs/
include(GNUInstallDirs)

install(TARGETS locksim RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/scenarios/ DESTINATION ${CMAKE_INSTALL_DATADIR}/locksim/scenarios
        FILES_MATCHING PATTERN "*.toml" PATTERN "*.md")

set(locksim_python ${CMAKE_INSTALL_DATADIR}/locksim/python)
file(GLOB locksim_analysis_modules CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/analysis/*.py)
# The trace schema beside the modules: the analysis reads the trace's lines from it.
install(FILES ${locksim_analysis_modules} ${PROJECT_SOURCE_DIR}/analysis/trace_schema.json
        DESTINATION ${locksim_python}/analysis)
set(locksim_web ${PROJECT_SOURCE_DIR}/analysis/web)
install(FILES ${locksim_web}/timeline.js ${locksim_web}/timeline.css DESTINATION ${locksim_python}/analysis/web)
# vis-timeline comes from the npm registry (scripts/setup runs npm ci); the
# interactive pages inline it, so an installation without it cannot write them.
set(locksim_vis ${locksim_web}/node_modules/vis-timeline)
install(CODE "
  if(NOT EXISTS \"${locksim_vis}/standalone/umd/vis-timeline-graph2d.min.js\")
    message(FATAL_ERROR \"locksim install: ${locksim_vis} is missing: run npm ci --omit=dev --prefix ${locksim_web} \"
                        \"(scripts/setup plots does) before installing\")
  endif()")
set(locksim_vis_installed ${locksim_python}/analysis/web/node_modules/vis-timeline)
install(FILES ${locksim_vis}/standalone/umd/vis-timeline-graph2d.min.js DESTINATION ${locksim_vis_installed}/standalone/umd)
install(FILES ${locksim_vis}/LICENSE.md ${locksim_vis}/LICENSE.Apache-2.0.txt ${locksim_vis}/LICENSE.MIT.txt
              ${locksim_vis}/package.json DESTINATION ${locksim_vis_installed})

# One small launcher per console command: it finds the package from its own
# place (bin/../share/locksim/python), so any prefix works, and runs the
# module's main() under Debian's Python, which has matplotlib and pandas.
file(RELATIVE_PATH locksim_bin_to_python ${CMAKE_INSTALL_FULL_BINDIR} ${CMAKE_INSTALL_FULL_DATADIR}/locksim/python)
file(STRINGS ${PROJECT_SOURCE_DIR}/analysis/pyproject.toml locksim_scripts
     REGEX "^locksim-[a-z-]+ = \"analysis\\.[a-z_]+:main\"")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/analysis/pyproject.toml)
foreach(line ${locksim_scripts})
  string(REGEX MATCH "^(locksim-[a-z-]+) = \"analysis\\.([a-z_]+):main\"" _ "${line}")
  set(locksim_command ${CMAKE_MATCH_1})
  set(locksim_module ${CMAKE_MATCH_2})
  configure_file(${PROJECT_SOURCE_DIR}/cmake/console_command.py.in ${PROJECT_BINARY_DIR}/commands/${locksim_command}
                 @ONLY)
  install(PROGRAMS ${PROJECT_BINARY_DIR}/commands/${locksim_command} DESTINATION ${CMAKE_INSTALL_BINDIR})
endforeach()

install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs PATTERN "*.sh" EXCLUDE)

# The Debian package: /usr, its dependencies Debian 12's package names for
# what the binary links (ldd build/locksim) and what the commands import.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME locksim)
set(CPACK_PACKAGE_VENDOR "locksim")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Deterministic fault-injection simulator for distributed-lock safety")
set(CPACK_PACKAGE_DESCRIPTION "Replays lock stories (Redis, Redlock, etcd, ZooKeeper, fencing) under pauses, \
crashes, clock faults and network faults, and reports every safety violation with a witness.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "locksim developers <locksim@localhost>")
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libc6 (>= 2.36), libstdc++6 (>= 12), libgcc-s1, libboost-program-options1.74.0, libtomlplusplus3")
if(LOCKSIM_MIMALLOC)
  string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", libmimalloc2.0")
endif()
string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", python3 (>= 3.11), python3-matplotlib, python3-pandas")
include(CPack)
