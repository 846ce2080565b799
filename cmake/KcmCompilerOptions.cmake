# Warnings, sanitizers, debug-info level and the kcm_library() helper every layer uses.

# Line tables only (file:line in backtraces and sanitizer reports, no variables)
# compiles about a third faster than full -g; scripts/test uses it to keep CI
# inside its time budget. Leave it at "full" for a build you step through.
set(KCM_DEBUG_INFO "full" CACHE STRING "Debug information: full (-g) or lines (line tables only)")
set_property(CACHE KCM_DEBUG_INFO PROPERTY STRINGS full lines)
if(KCM_DEBUG_INFO STREQUAL "lines")
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    set(_kcm_line_tables -gline-tables-only)
  else()
    set(_kcm_line_tables -g1)
  endif()
  foreach(_config DEBUG RELWITHDEBINFO)
    string(REGEX REPLACE "(^| )-g( |$)" "\\1${_kcm_line_tables}\\2" CMAKE_CXX_FLAGS_${_config}
           "${CMAKE_CXX_FLAGS_${_config}}")
  endforeach()
elseif(NOT KCM_DEBUG_INFO STREQUAL "full")
  message(FATAL_ERROR "KCM_DEBUG_INFO must be full or lines, not '${KCM_DEBUG_INFO}'")
endif()

# Every build links with lld when it is there (scripts/install-deps installs
# it): an ASan test binary links in 0.7 s instead of 4.9 s with GNU ld, the
# g++ build's largest test binary in 2.0 s instead of 7.7 s.
include(CheckLinkerFlag)
check_linker_flag(CXX -fuse-ld=lld KCM_HAVE_LLD)
if(KCM_HAVE_LLD)
  add_link_options(-fuse-ld=lld)
endif()

add_library(kcm_warnings INTERFACE)
target_compile_options(kcm_warnings INTERFACE -Wall -Wextra -Wno-missing-field-initializers
  # GCC 12 misreports Asio's coroutine frame allocator (a known false positive).
  $<$<CXX_COMPILER_ID:GNU>:-Wno-mismatched-new-delete>)

if(KCM_SANITIZE)
  string(REPLACE "," ";" _kcm_sanitizers "${KCM_SANITIZE}")
  foreach(_s IN LISTS _kcm_sanitizers)
    add_compile_options(-fsanitize=${_s})
    add_link_options(-fsanitize=${_s})
  endforeach()
  add_compile_options(-fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fno-sanitize-recover=undefined)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    # clang 14 cannot emit -fsanitize=function checks for coroutine frames
    # ("Cannot represent a difference across sections"); every other UBSan check stays.
    add_compile_options(-fno-sanitize=function)
  endif()
endif()

if(KCM_BUILD_FUZZ)
  # Coverage for libFuzzer in the libraries (kcm_library) and the fuzz targets
  # only: test code is never fuzzed, and instrumenting it made the combined
  # ASan + fuzz build of the unit tests a quarter slower to compile.
  set(KCM_FUZZ_COVERAGE_OPTIONS -fsanitize=fuzzer-no-link)
  # Fuzz targets need ASan and UBSan; a build that is also KCM_SANITIZE'd
  # (scripts/test's) has them already. Adding them again would do harm: CMake
  # drops repeated options, so a second -fsanitize=undefined would come after
  # the one -fno-sanitize=function kept and re-enable what clang 14 cannot
  # compile in coroutines.
  if(NOT KCM_SANITIZE)
    add_compile_options(-fsanitize=address,undefined -fno-sanitize=function
                        -fno-omit-frame-pointer)
    add_link_options(-fsanitize=address,undefined)
  endif()
endif()

# GCC 12 forgets through a precompiled header that libstdc++ is a system header
# and reports its known false positives in inlined std::string code. clang's
# -Warray-bounds and the ASan/UBSan runs still check this code.
function(kcm_pch_warning_options target)
  target_compile_options(${target} PRIVATE $<$<CXX_COMPILER_ID:GNU>:-Wno-array-bounds
                         -Wno-stringop-overflow -Wno-stringop-overread>)
endfunction()

# kcm_library_pch: the target that owns the libraries' precompiled header
# (cmake/precompiled_headers.h). A compiler uses a precompiled header only when
# the macros and options match those it was built with, so the host compiles
# with what every library of four or more files has: kcm_api's dependencies
# (which define BOOST_*_DYN_LINK, FMT_SHARED, ...) and the warning options. A
# library whose options differ gets an "invalid PCH" warning from -Winvalid-pch.
function(kcm_library_pch_host)
  if(TARGET kcm_library_pch)
    return()
  endif()
  add_library(kcm_library_pch OBJECT ${PROJECT_SOURCE_DIR}/cmake/pch_host.cc)
  target_link_libraries(kcm_library_pch PRIVATE kcm_boost fmt::fmt yaml-cpp kcm_warnings)
  target_precompile_headers(kcm_library_pch PRIVATE ${PROJECT_SOURCE_DIR}/cmake/precompiled_headers.h)
  target_compile_options(kcm_library_pch PRIVATE ${KCM_FUZZ_COVERAGE_OPTIONS})
  kcm_pch_warning_options(kcm_library_pch)
endfunction()

# kcm_use_library_pch(<target>): <target> compiles with the libraries'
# precompiled header. Its options and macros must match the host's: link what
# kcm_api links (kcm_boost, fmt::fmt, yaml-cpp), directly or through a library.
function(kcm_use_library_pch target)
  kcm_library_pch_host()
  target_precompile_headers(${target} REUSE_FROM kcm_library_pch)
  kcm_pch_warning_options(${target})
endfunction()

# kcm_unity_build(<target> SOURCES <.cc>... HEADERS <.h>...): compiles
# <target>'s files in batches of 16 (CMake's unity build) when KCM_UNITY_BUILD
# is on. The files of one library or test suite share most of what they
# instantiate (Boost.JSON, Asio, GoogleTest, the project's own headers), so in
# batches they build in much less time (docs/benchmarks.md, stops 23 and 24;
# batches of 8 and of a whole suite were slower). Hence a helper in a file's
# anonymous namespace needs a name no other file of the target declares in the
# same namespace, and helpers two files share go in a header:
# scripts/check-unity-names fails the build on a clash, before compiling.
function(kcm_unity_build target)
  if(NOT KCM_UNITY_BUILD)
    return()
  endif()
  cmake_parse_arguments(ARG "" "" "SOURCES;HEADERS" ${ARGN})
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 16)
  # GCC takes every file of a batch but the first for a header, and warns that a
  # coroutine's frame (a type) holds a type of that file's anonymous namespace:
  # a hazard in a real header, none in a .cc. The one-by-one build and clang
  # keep the check.
  target_compile_options(${target} PRIVATE $<$<CXX_COMPILER_ID:GNU>:-Wno-subobject-linkage>)
  set(_stamp ${CMAKE_CURRENT_BINARY_DIR}/${target}.names-checked)
  add_custom_command(OUTPUT ${_stamp}
    COMMAND ${PROJECT_SOURCE_DIR}/scripts/check-unity-names ${ARG_SOURCES} ${ARG_HEADERS}
    COMMAND ${CMAKE_COMMAND} -E touch ${_stamp}
    DEPENDS ${PROJECT_SOURCE_DIR}/scripts/check-unity-names ${ARG_SOURCES} ${ARG_HEADERS}
    COMMENT "Checking the names of ${target}'s files for unity-build clashes" VERBATIM)
  add_custom_target(${target}_names DEPENDS ${_stamp})
  add_dependencies(${target} ${target}_names)
endfunction()

# kcm_library(<name> <dir> [DEPS ...]): a static library of every .cc under <dir>
# (not recursing into folders that are libraries of their own is the caller's job:
# keep one library per folder).
function(kcm_library name dir)
  cmake_parse_arguments(ARG "" "" "DEPS" ${ARGN})
  file(GLOB _srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${dir}/*.cc)
  if(NOT _srcs)
    # A folder whose first source has not landed yet: headers only.
    add_library(${name} INTERFACE)
    target_include_directories(${name} INTERFACE ${PROJECT_SOURCE_DIR}/src)
    target_link_libraries(${name} INTERFACE ${ARG_DEPS})
    return()
  endif()
  add_library(${name} STATIC ${_srcs})
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(${name} PUBLIC ${ARG_DEPS} PRIVATE kcm_warnings)
  target_compile_options(${name} PRIVATE ${KCM_FUZZ_COVERAGE_OPTIONS})
  # One precompiled header serves every library (see kcm_library_pch_host): built
  # once, it saves about two file compiles per library.
  list(LENGTH _srcs _count)
  if(_count GREATER_EQUAL 4)
    kcm_use_library_pch(${name})
  endif()
  file(GLOB _hdrs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${dir}/*.h)
  kcm_unity_build(${name} SOURCES ${_srcs} HEADERS ${_hdrs})
endfunction()
