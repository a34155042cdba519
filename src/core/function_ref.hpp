// FunctionRef<R(Args...)>: a non-owning reference to a callable, two words, never allocating.
//
// What std::function is for a stored callback, this is for a callback passed down one call: a
// virtual function can take `FunctionRef<void(LinkId)>` where a template would take `Fn&&`, so a
// route can be streamed out of a polymorphic topology without building a vector.
// INVARIANT: the referenced callable outlives the FunctionRef (pass it only as a parameter).
#pragma once

#include <memory>
#include <type_traits>
#include <utility>

namespace simfab {

template <class Signature>
class FunctionRef;

template <class R, class... Args>
class FunctionRef<R(Args...)> {
 public:
  template <class Fn, class = std::enable_if_t<!std::is_same_v<std::decay_t<Fn>, FunctionRef> &&
                                               std::is_invocable_r_v<R, Fn&, Args...>>>
  FunctionRef(Fn&& fn)  // NOLINT: implicit, like std::function
      : object_(const_cast<void*>(static_cast<const void*>(std::addressof(fn)))),
        call_([](void* o, Args... args) -> R {
          return (*static_cast<std::remove_reference_t<Fn>*>(o))(std::forward<Args>(args)...);
        }) {}

  R operator()(Args... args) const { return call_(object_, std::forward<Args>(args)...); }

 private:
  void* object_;
  R (*call_)(void*, Args...);
};

}  // namespace simfab
