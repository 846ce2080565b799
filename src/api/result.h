// Result<T, E>: a value or an error, for APIs where failure is ordinary
// (parsing user input, calls to the API server). E defaults to a message.
#pragma once

#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace kcm {

template <class E>
struct Unexpected {
  E error;
};

// Deduction helper: `return fail("bad input");` or `return fail(status);`.
template <class E>
Unexpected<std::decay_t<E>> fail(E&& e) {
  return {std::forward<E>(e)};
}
inline Unexpected<std::string> fail(const char* e) { return {std::string(e)}; }

template <class T, class E = std::string>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit by design
  template <class U>
  Result(Unexpected<U> e) : v_(std::in_place_index<1>, E(std::move(e.error))) {}  // NOLINT

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const E& error() const& { return std::get<1>(v_); }
  E&& error() && { return std::get<1>(std::move(v_)); }

 private:
  std::variant<T, E> v_;
};

// Result<void, E>: success or an error (`return {};` for success).
template <class E>
class [[nodiscard]] Result<void, E> {
 public:
  Result() = default;
  template <class U>
  Result(Unexpected<U> e) : error_(E(std::move(e.error))), ok_(false) {}  // NOLINT

  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const E& error() const& { return error_; }

 private:
  E error_{};
  bool ok_ = true;
};


}  // namespace kcm
