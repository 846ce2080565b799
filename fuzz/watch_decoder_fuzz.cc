// Feeds arbitrary bytes, split at an input-chosen point, to the watch decoder:
// it must never crash, and a split must not change what it decodes.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "client/watch_decoder.h"

namespace {

std::string decode(std::string_view data, std::size_t cut) {
  kcm::client::WatchDecoder d;
  std::string out;
  auto drain = [&] {
    while (true) {
      auto e = d.next();
      if (!e) {
        out += "error:" + e.error();
        return false;
      }
      if (!*e) return true;
      out += std::string(kcm::client::to_string((*e)->type)) + ";";
    }
  };
  d.feed(data.substr(0, cut));
  if (drain()) {
    d.feed(data.substr(cut));
    drain();
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::size_t cut = data[0] % size;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  const std::string whole = decode(text, text.size());
  const std::string split = decode(text, cut < text.size() ? cut : text.size());
  if (whole != split) __builtin_trap();
  return 0;
}
