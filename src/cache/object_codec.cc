#include "cache/object_codec.h"

// ZDICT_optimizeTrainFromBuffer_fastCover is in zstd's "static linking only"
// section; Debian's libzstd exports it (zstd 1.5.4).
#define ZDICT_STATIC_LINKING_ONLY
#include <zdict.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>

namespace kcm::cache {

namespace {

// Bodies shorter than this are kept as text: zstd's frame overhead would eat the gain.
constexpr std::size_t kMinCompressBytes = 64;
// Objects this small teach a dictionary little.
constexpr std::size_t kMinSampleBytes = 256;

struct CCtxDeleter {
  void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); }
};
struct DCtxDeleter {
  void operator()(ZSTD_DCtx* c) const { ZSTD_freeDCtx(c); }
};

// One context per thread: contexts are not thread-safe, dictionaries are.
ZSTD_CCtx* thread_cctx() {
  thread_local std::unique_ptr<ZSTD_CCtx, CCtxDeleter> ctx(ZSTD_createCCtx());
  return ctx.get();
}
std::vector<std::byte>& thread_scratch() {
  thread_local std::vector<std::byte> scratch;
  return scratch;
}
ZSTD_DCtx* thread_dctx() {
  thread_local std::unique_ptr<ZSTD_DCtx, DCtxDeleter> ctx(ZSTD_createDCtx());
  return ctx.get();
}

}  // namespace

class CompressionDictionary {
 public:
  CompressionDictionary(const void* data, std::size_t size, int level)
      : cdict_(ZSTD_createCDict(data, size, level)),
        ddict_(ZSTD_createDDict(data, size)),
        size_(size) {}
  ~CompressionDictionary() {
    ZSTD_freeCDict(cdict_);
    ZSTD_freeDDict(ddict_);
  }
  CompressionDictionary(const CompressionDictionary&) = delete;
  CompressionDictionary& operator=(const CompressionDictionary&) = delete;

  bool ok() const { return cdict_ != nullptr && ddict_ != nullptr; }
  const ZSTD_CDict* cdict() const { return cdict_; }
  const ZSTD_DDict* ddict() const { return ddict_; }
  std::size_t size() const { return size_; }

 private:
  ZSTD_CDict* cdict_;
  ZSTD_DDict* ddict_;
  std::size_t size_;
};

ObjectCodec::ObjectCodec(Options options) : options_(options) {
  training_done_ = !options_.train_dictionary;
}

ObjectCodec::~ObjectCodec() = default;

bool ObjectCodec::has_dictionary() const {
  std::lock_guard lock(mu_);
  return dictionary_ != nullptr;
}

std::size_t ObjectCodec::dictionary_size() const {
  std::lock_guard lock(mu_);
  return dictionary_ ? dictionary_->size() : 0;
}

void ObjectCodec::maybe_train_locked() {
  if (sample_sizes_.size() < options_.samples_for_training) return;
  std::string dict(options_.dictionary_capacity, '\0');
  // ZDICT_trainFromBuffer's own choice (fastCover, d=8, four steps over k), but
  // candidates judged at the level bodies are compressed with: its default
  // judges them at zstd's level 3, which takes twice the CPU and may pick a
  // dictionary for the wrong level. f=16 keeps the frequency table in cache.
  ZDICT_fastCover_params_t params{};
  params.d = 8;
  params.f = 16;
  params.steps = 4;
  params.zParams.compressionLevel = options_.level;
  const std::size_t n = ZDICT_optimizeTrainFromBuffer_fastCover(
      dict.data(), dict.size(), samples_.data(), sample_sizes_.data(),
      static_cast<unsigned>(sample_sizes_.size()), &params);
  if (!ZDICT_isError(n)) {
    auto d = std::make_shared<CompressionDictionary>(dict.data(), n, options_.level);
    if (d->ok()) dictionary_ = std::move(d);
  }
  // One attempt: objects too varied to train on compress well enough alone.
  training_done_ = true;
  samples_ = std::string();
  sample_sizes_ = {};
}

ObjectCodec::Encoded ObjectCodec::encode(std::string_view json) {
  Encoded out;
  out.raw_size = static_cast<std::uint32_t>(json.size());
  if (json.size() < kMinCompressBytes) {
    out.bytes.resize(json.size());
    std::memcpy(out.bytes.data(), json.data(), json.size());
    return out;
  }
  {
    std::lock_guard lock(mu_);
    if (!training_done_ && json.size() >= kMinSampleBytes) {
      samples_.append(json);
      sample_sizes_.push_back(json.size());
      maybe_train_locked();
    }
    out.dictionary = dictionary_;
  }
  // Compressed into the thread's scratch buffer, then copied to a vector of
  // exactly its size: one allocation per body instead of a bound-sized one
  // shrunk afterwards.
  std::vector<std::byte>& buf = thread_scratch();
  buf.resize(std::max(buf.size(), ZSTD_compressBound(json.size())));
  std::size_t n;
  if (out.dictionary) {
    n = ZSTD_compress_usingCDict(thread_cctx(), buf.data(), buf.size(), json.data(), json.size(),
                                 out.dictionary->cdict());
  } else {
    n = ZSTD_compressCCtx(thread_cctx(), buf.data(), buf.size(), json.data(), json.size(),
                          options_.level);
  }
  if (ZSTD_isError(n) || n >= json.size()) {
    out.dictionary = nullptr;
    out.bytes.assign(reinterpret_cast<const std::byte*>(json.data()),
                     reinterpret_cast<const std::byte*>(json.data()) + json.size());
    return out;
  }
  out.bytes.assign(buf.data(), buf.data() + n);
  out.compressed = true;
  return out;
}

Result<std::string> ObjectCodec::decode(const std::byte* data, std::size_t size,
                                        std::uint32_t raw_size, bool compressed,
                                        const CompressionDictionary* dictionary) {
  if (!compressed) return std::string(reinterpret_cast<const char*>(data), size);
  std::string out(raw_size, '\0');
  const std::size_t n =
      dictionary != nullptr
          ? ZSTD_decompress_usingDDict(thread_dctx(), out.data(), out.size(), data, size,
                                       dictionary->ddict())
          : ZSTD_decompressDCtx(thread_dctx(), out.data(), out.size(), data, size);
  if (ZSTD_isError(n)) return fail(std::string("zstd: ") + ZSTD_getErrorName(n));
  if (n != raw_size) return fail("zstd: decoded size mismatch");
  return out;
}

}  // namespace kcm::cache
