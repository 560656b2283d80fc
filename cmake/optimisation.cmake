# How a Release build is optimised beyond -O3: across files at link time,
# and from a training profile. Neither changes a result (no option here
# touches floating-point semantics); the golden files hold every build to
# the same output. docs/benchmarks.md (*Built from a training profile,
# optimised across files*) has the figures. Both are opt-in since the plain
# Release tree is what the demo and the tests build (scripts/setup): the
# trained tree is scripts/build-trained's (build-trained/), which the
# benchmarks measure.
#
#   LOCKSIM_LTO      OFF by default (a plain Release build compiles and
#                    links fastest); ON, GCC optimises across the
#                    simulator's files when it links a program. A run's hot
#                    path crosses many small files (the world, a process,
#                    the engine, the models), and without it every crossing
#                    is a call.
#   LOCKSIM_PROFILE  empty by default; "generate" builds a tree whose programs
#                    write a training profile (gcda files) into
#                    <build>/profile; a directory builds from the profile in
#                    it. scripts/build-trained configures build-trained/ the
#                    first way, builds locksim, runs scripts/train-profile,
#                    then configures it the second way and builds everything.
#                    Both passes must be one tree: each module includes its
#                    headers through the tree's own view (layers/), and GCC
#                    matches a header's inline functions to their counts by
#                    path.

option(LOCKSIM_LTO "Release builds: optimise across files at link time (scripts/build-trained turns it on)" OFF)
set(LOCKSIM_PROFILE "" CACHE STRING "'generate', a directory holding a training profile, or empty")

set(LOCKSIM_WERROR -Werror)  # sim/CMakeLists.txt: warnings are errors, but see below
set(locksim_release FALSE)
if(CMAKE_BUILD_TYPE STREQUAL "Release" AND NOT LOCKSIM_SANITIZE AND NOT LOCKSIM_LIBFUZZER)
  set(locksim_release TRUE)
endif()

if(LOCKSIM_LTO AND locksim_release)
  include(CheckIPOSupported)
  check_ipo_supported(RESULT locksim_ipo OUTPUT locksim_ipo_why LANGUAGES CXX)
  if(NOT locksim_ipo)
    message(FATAL_ERROR "LOCKSIM_LTO: this compiler cannot optimise at link time (${locksim_ipo_why}); "
                        "configure with -DLOCKSIM_LTO=OFF")
  endif()
  set(CMAKE_INTERPROCEDURAL_OPTIMIZATION ON)
  # GCC 12 warns that std::string's replace (basic_string.tcc) may copy more
  # than 2^63 bytes once inlining across files shows it an operator+ whose
  # length it cannot bound: a false positive of that compiler, like the
  # -Wrestrict one sim/CMakeLists.txt turns off, and noise at link time.
  add_link_options(-Wno-stringop-overflow)
endif()

if(LOCKSIM_PROFILE)
  if(NOT locksim_release)
    message(FATAL_ERROR "LOCKSIM_PROFILE needs a Release build without sanitizers "
                        "(CMAKE_BUILD_TYPE is '${CMAKE_BUILD_TYPE}')")
  endif()
  # The gcda files are named after each object's path inside the tree
  # (-fprofile-prefix-path), not its whole path.
  if(LOCKSIM_PROFILE STREQUAL "generate")
    set(locksim_profile_dir ${CMAKE_BINARY_DIR}/profile)
    add_compile_options(-fprofile-generate=${locksim_profile_dir} -fprofile-prefix-path=${CMAKE_BINARY_DIR})
    add_link_options(-fprofile-generate=${locksim_profile_dir})
  else()
    get_filename_component(locksim_profile_dir "${LOCKSIM_PROFILE}" ABSOLUTE BASE_DIR "${CMAKE_BINARY_DIR}")
    file(GLOB locksim_profile_files "${locksim_profile_dir}/*.gcda")
    if(NOT locksim_profile_files)
      message(FATAL_ERROR "LOCKSIM_PROFILE: no training profile (*.gcda) in ${locksim_profile_dir}; "
                          "scripts/build-trained writes one (build-trained/profile), or leave LOCKSIM_PROFILE empty")
    endif()
    # A profile that does not fit this tree would be ignored without a word
    # (-Wno-missing-profile, below): check at least that the event loop's
    # counts are where this tree's compiler will look for them.
    set(locksim_engine_counts "${locksim_profile_dir}/sim#CMakeFiles#locksim_core.dir#core#engine.cc.gcda")
    if(NOT EXISTS "${locksim_engine_counts}")
      message(FATAL_ERROR "LOCKSIM_PROFILE: ${locksim_profile_dir} has no counts for sim/core/engine.cc as this tree "
                          "names its object (${locksim_engine_counts}); train it again (scripts/build-trained --retrain)")
    endif()
    # An edit since the training leaves a function's counts out of date:
    # GCC drops them (silently, with -Wno-coverage-mismatch; the code stays
    # correct, and scripts/build-trained --retrain brings the profile up to date)
    # and then warns, with no option to turn that off, that a caller's
    # callee has none. So warnings are not errors in this tree; the first
    # pass (generate) builds the same modules at the same optimisation with
    # -Werror, as does the sanitizer build.
    set(LOCKSIM_WERROR "")
    # Code the training never ran is optimised as without a profile, not
    # for size (-fprofile-partial-training): a story the training leaves out
    # must not run slower than in a build without one.
    add_compile_options(-fprofile-use=${locksim_profile_dir} -fprofile-prefix-path=${CMAKE_BINARY_DIR}
                        -fprofile-partial-training -Wno-missing-profile -Wno-coverage-mismatch)
  endif()
endif()

# What --version reports, so a figure can say which build made it.
set(LOCKSIM_BUILD_KIND "${CMAKE_BUILD_TYPE}")
if(CMAKE_INTERPROCEDURAL_OPTIMIZATION)
  string(APPEND LOCKSIM_BUILD_KIND ", link-time optimised")
endif()
if(LOCKSIM_PROFILE STREQUAL "generate")
  string(APPEND LOCKSIM_BUILD_KIND ", writing a training profile")
elseif(LOCKSIM_PROFILE)
  string(APPEND LOCKSIM_BUILD_KIND ", built from a training profile")
endif()
