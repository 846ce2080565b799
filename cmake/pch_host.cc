// The one source of the kcm_library_pch and kcm_test_pch targets, which exist
// to build the precompiled headers that the libraries and test suites reuse
// (cmake/KcmCompilerOptions.cmake, tests/CMakeLists.txt). Nothing to compile.
