#include "online/attributes.hpp"

#include <string>

#include "online/mpi_fatal.hpp"
#include "online/online_program.hpp"

namespace simfab::online {

int attribute_rank() {
  const OnlineProgram* p = OnlineProgram::active();
  return p ? p->me() : -1;
}

AttributeStore& AttributeStore::instance() {
  static AttributeStore store;
  return store;
}

int AttributeStore::create_keyval(AttrKind kind, CopyFn copy, DeleteFn del, void* extra) {
  keyvals_.push_back({kind, copy, del, extra});
  return kFirstKeyval + static_cast<int>(keyvals_.size()) - 1;
}

bool AttributeStore::valid_keyval(AttrKind kind, int keyval) const {
  const int i = keyval - kFirstKeyval;
  return i >= 0 && i < static_cast<int>(keyvals_.size()) && keyvals_[static_cast<size_t>(i)].kind == kind;
}

bool AttributeStore::free_keyval(AttrKind kind, int* keyval) {
  if (!keyval || !valid_keyval(kind, *keyval) || !keyvals_[static_cast<size_t>(*keyval - kFirstKeyval)].live)
    return false;
  keyvals_[static_cast<size_t>(*keyval - kFirstKeyval)].live = false;
  *keyval = -1;  // MPI_KEYVAL_INVALID
  return true;
}

void AttributeStore::run_delete(const Key& key, void* value, const char* call) {
  const Keyval& k = keyvals_[static_cast<size_t>(std::get<3>(key) - kFirstKeyval)];
  if (k.del && k.del(std::get<2>(key), std::get<3>(key), value, k.extra) != 0)
    mpi_fatal(call, "the delete callback of keyval " + std::to_string(std::get<3>(key)) + " returned an error");
}

void AttributeStore::set(int rank, AttrKind kind, int object, int keyval, void* value, const char* call) {
  if (!valid_keyval(kind, keyval) || !keyvals_[static_cast<size_t>(keyval - kFirstKeyval)].live)
    mpi_fatal(call, "invalid keyval " + std::to_string(keyval) + " (not created for this kind of object, or freed)");
  const Key key{rank, kind, object, keyval};
  if (const auto it = values_.find(key); it != values_.end()) run_delete(key, it->second, call);
  values_[key] = value;
}

bool AttributeStore::get(int rank, AttrKind kind, int object, int keyval, void** value) const {
  const auto it = values_.find(Key{rank, kind, object, keyval});
  if (it == values_.end()) return false;
  *value = it->second;
  return true;
}

bool AttributeStore::remove(int rank, AttrKind kind, int object, int keyval, const char* call) {
  const Key key{rank, kind, object, keyval};
  const auto it = values_.find(key);
  if (it == values_.end()) return false;
  void* value = it->second;
  values_.erase(it);
  run_delete(key, value, call);
  return true;
}

void AttributeStore::copied(int rank, AttrKind kind, int old_object, int new_object, const char* call) {
  std::vector<std::pair<int, void*>> olds;  // collected first: a callback may set attributes
  for (auto it = values_.lower_bound(Key{rank, kind, old_object, 0});
       it != values_.end() && std::get<0>(it->first) == rank && std::get<1>(it->first) == kind &&
       std::get<2>(it->first) == old_object;
       ++it)
    olds.emplace_back(std::get<3>(it->first), it->second);
  for (const auto& [keyval, value] : olds) {
    const Keyval& k = keyvals_[static_cast<size_t>(keyval - kFirstKeyval)];
    if (!k.copy) continue;
    void* out = nullptr;
    int flag = 0;
    if (k.copy(old_object, keyval, k.extra, value, &out, &flag) != 0)
      mpi_fatal(call, "the copy callback of keyval " + std::to_string(keyval) + " returned an error");
    if (flag) values_[Key{rank, kind, new_object, keyval}] = out;
  }
}

void AttributeStore::erased(int rank, AttrKind kind, int object, const char* call) {
  auto it = values_.lower_bound(Key{rank, kind, object, 0});
  while (it != values_.end() && std::get<0>(it->first) == rank && std::get<1>(it->first) == kind &&
         std::get<2>(it->first) == object) {
    const Key key = it->first;
    void* value = it->second;
    it = values_.erase(it);
    run_delete(key, value, call);
    it = values_.lower_bound(key);  // a callback may have changed the map
  }
}

}  // namespace simfab::online
