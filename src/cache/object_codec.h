// Compact storage of whole objects in an informer's cache: each object's JSON
// is zstd-compressed, with a dictionary trained from the first objects the
// informer sees (objects of one resource share most of their text, so a
// dictionary cuts a 5 KB pod to a few hundred bytes). One codec per informer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "api/result.h"

namespace kcm::cache {

// A trained zstd dictionary, shared by every body compressed with it.
class CompressionDictionary;

class ObjectCodec {
 public:
  struct Options {
    // zstd level for bodies. 1, not zstd's default 3: every watch event is
    // compressed, and level 1 costs a third less CPU for slightly larger bodies.
    int level = 1;
    bool train_dictionary = true;
    // Train once this many samples (objects of at least kMinSampleBytes) are in.
    std::size_t samples_for_training = 200;
    std::size_t dictionary_capacity = 32 * 1024;
  };

  // A compressed body: the bytes and the dictionary they need (null: none;
  // `stored` false means the bytes are the raw text, for objects too small to gain).
  struct Encoded {
    std::vector<std::byte> bytes;
    std::shared_ptr<const CompressionDictionary> dictionary;
    std::uint32_t raw_size = 0;
    bool compressed = false;
  };

  ObjectCodec() : ObjectCodec(Options{}) {}
  explicit ObjectCodec(Options options);
  ~ObjectCodec();
  ObjectCodec(const ObjectCodec&) = delete;
  ObjectCodec& operator=(const ObjectCodec&) = delete;

  // Thread-safe. Collects samples and trains the dictionary as objects pass.
  Encoded encode(std::string_view json);

  // The text back. Thread-safe; an error only for corrupt input.
  static Result<std::string> decode(const std::byte* data, std::size_t size, std::uint32_t raw_size,
                                    bool compressed, const CompressionDictionary* dictionary);

  bool has_dictionary() const;
  std::size_t dictionary_size() const;

 private:
  void maybe_train_locked();

  const Options options_;
  mutable std::mutex mu_;
  std::shared_ptr<const CompressionDictionary> dictionary_;
  std::string samples_;
  std::vector<std::size_t> sample_sizes_;
  bool training_done_ = false;
};

}  // namespace kcm::cache
