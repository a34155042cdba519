// Attributes (MPI-3.1 §6.7): keyvals with copy and delete callbacks, and the values programs attach
// to communicators, datatypes and windows with MPI_{Comm,Type,Win}_set_attr (and MPI-1's
// MPI_Attr_put). One store per run; everything is per rank, since a handle names different objects
// in different ranks.
//
// Keyvals are numbered from kFirstKeyval (the predefined MPI_TAG_UB .. MPI_LASTUSEDCODE come
// first) across all ranks, never reused. Semantics (the standard's):
//   - copied(kind, old, new): when an object is duplicated (MPI_Comm_dup, MPI_Type_dup), each
//     attribute of `old` whose keyval's copy callback sets flag is attached to `new` with the value
//     the callback wrote;
//   - erased(kind, object): when an object is freed, each attribute's delete callback runs, in
//     keyval order, and the attributes are removed;
//   - set() on an attribute that exists runs its delete callback first; remove() runs it too;
//   - a keyval freed while attributes use it stays valid for them until they are deleted.
// A callback's non-zero return is an MPI error: the run stops (mpi_fatal) naming the call.
// Complexity: O(log A) per get/set/remove (A: the attributes of the run), O(attributes of the
// object) per copy or free. Thread-safety: none (ranks run one at a time).
#pragma once

#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

namespace simfab::online {

enum class AttrKind : uint8_t { kComm, kType, kWin };

class AttributeStore {
 public:
  static constexpr int kFirstKeyval = 64;
  using CopyFn = int (*)(int handle, int keyval, void* extra, void* in, void* out, int* flag);
  using DeleteFn = int (*)(int handle, int keyval, void* value, void* extra);

  static AttributeStore& instance();

  int create_keyval(AttrKind kind, CopyFn copy, DeleteFn del, void* extra);
  // MPI_*_free_keyval: *keyval becomes MPI_KEYVAL_INVALID. False for a keyval that is not a live one
  // of `kind`.
  bool free_keyval(AttrKind kind, int* keyval);
  bool valid_keyval(AttrKind kind, int keyval) const;

  void set(int rank, AttrKind kind, int object, int keyval, void* value, const char* call);
  bool get(int rank, AttrKind kind, int object, int keyval, void** value) const;
  bool remove(int rank, AttrKind kind, int object, int keyval, const char* call);
  void copied(int rank, AttrKind kind, int old_object, int new_object, const char* call);
  void erased(int rank, AttrKind kind, int object, const char* call);

 private:
  struct Keyval {
    AttrKind kind;
    CopyFn copy;
    DeleteFn del;
    void* extra;
    bool live = true;
  };
  using Key = std::tuple<int, AttrKind, int, int>;  // rank, kind, object, keyval
  void run_delete(const Key& key, void* value, const char* call);
  std::vector<Keyval> keyvals_;
  std::map<Key, void*> values_;
};

// The rank whose attributes a call uses: the running rank, or -1 outside ranks (datatype calls
// need no rank).
int attribute_rank();

}  // namespace simfab::online
