# Every dependency comes from Debian 12 packages (scripts/install-deps lists them).

find_package(Threads REQUIRED)
find_package(Boost 1.81.0 CONFIG REQUIRED COMPONENTS json url)
find_package(OpenSSL 3 REQUIRED)
find_package(yaml-cpp REQUIRED)
find_package(fmt REQUIRED)
find_package(CLI11 REQUIRED)
find_package(ZLIB REQUIRED)
# Wire format of protobuf request bodies (kcm-local's decoder only).
find_package(Protobuf REQUIRED)

# Boost.Asio/Beast are header-only; these definitions keep their compile cost down.
add_library(kcm_boost INTERFACE)
target_link_libraries(kcm_boost INTERFACE Boost::headers Boost::json Boost::url
                                          OpenSSL::SSL OpenSSL::Crypto Threads::Threads)
target_compile_definitions(kcm_boost INTERFACE BOOST_ASIO_NO_DEPRECATED)

if(KCM_BUILD_TESTS)
  find_package(GTest REQUIRED)
endif()
if(KCM_BUILD_BENCH)
  find_package(benchmark REQUIRED)
endif()

# kcm and kcm-local allocate with jemalloc (cmd/allocator_config.cc sets it up):
# measured on the Deployment benchmark, about a quarter less CPU than glibc's
# malloc for the same peak memory (docs/benchmarks.md). Sanitizer and fuzz builds keep the
# sanitizers' allocator.
if(KCM_SANITIZE OR KCM_BUILD_FUZZ)
  set(_kcm_jemalloc_default OFF)
else()
  set(_kcm_jemalloc_default ON)
endif()
option(KCM_JEMALLOC "Link kcm and kcm-local with jemalloc" ${_kcm_jemalloc_default})
if(KCM_JEMALLOC AND (KCM_SANITIZE OR KCM_BUILD_FUZZ))
  message(FATAL_ERROR "KCM_JEMALLOC cannot be combined with KCM_SANITIZE or KCM_BUILD_FUZZ")
endif()
if(KCM_JEMALLOC)
  find_library(KCM_JEMALLOC_LIBRARY jemalloc REQUIRED)
  find_path(KCM_JEMALLOC_INCLUDE_DIR jemalloc/jemalloc.h REQUIRED)
endif()
