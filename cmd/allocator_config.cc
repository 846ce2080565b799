// jemalloc's configuration for kcm and kcm-local, linked into both (cmd/CMakeLists.txt).
//
// Both processes spend much of their time allocating and freeing the JSON of
// objects. jemalloc, configured as below, does that with about a quarter less
// CPU than glibc's malloc (a third with its defaults). One arena (instead of
// four per core) and a background thread that returns unused pages keep the
// peak resident memory where glibc's was; with jemalloc's defaults it was 30 %
// higher (docs/benchmarks.md, Deployment benchmark). MALLOC_CONF in the
// environment still overrides these options.
#include <jemalloc/jemalloc.h>

extern "C" {
const char* malloc_conf = "narenas:1,background_thread:true";
}
