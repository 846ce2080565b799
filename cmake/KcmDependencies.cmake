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
