#include "online/datatype.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <string>

#include "online/handle_table.hpp"
#include "online/mpi_fatal.hpp"
#include "online/typemap_pool.hpp"

namespace simfab::online {

namespace {

struct TypeRecord {
  std::shared_ptr<const Typemap> map;  // interned: ranks that build the same layout share it
  std::string name;   // MPI_Type_set_name's, or the predefined name
  std::string label;  // for messages: the name or "derived datatype 1025"
  bool committed = false;
  bool user_freed = false;
  int32_t retains = 0;
};

using PredefinedRecords = std::array<TypeRecord, static_cast<size_t>(kLastPredefinedType)>;

PredefinedRecords& predefined() {
  static PredefinedRecords records = [] {
    PredefinedRecords r;
    for (MPI_Datatype t = 1; t <= kLastPredefinedType; ++t) {
      const BasicType& b = *basic_type(t);
      r[static_cast<size_t>(t - 1)] = {intern(typemap_predefined(b)), b.name, b.name, true, false, 0};
    }
    return r;
  }();
  return records;
}

HandleTable<TypeRecord>& derived() {
  static HandleTable<TypeRecord> table(kFirstDerivedType);
  return table;
}

TypeRecord* find_record(MPI_Datatype t) {
  if (basic_type(t) != nullptr) return &predefined()[static_cast<size_t>(t - 1)];
  return derived().find(t);
}

TypeRecord& lookup(MPI_Datatype t, const char* call, TypeUse use) {
  if (t == MPI_DATATYPE_NULL) mpi_fatal(call, "MPI_DATATYPE_NULL is not a datatype");
  TypeRecord* r = find_record(t);
  if (r == nullptr || (r->user_freed && use == TypeUse::kQuery)) {
    mpi_fatal(call,
              "invalid datatype " + std::to_string(t) +
                  (t >= kFirstDerivedType ? " (freed, or never created)" : " (no such handle)"));
  }
  if (use == TypeUse::kCommunicate && !r->committed) {
    mpi_fatal(call, r->label + " is not committed (call MPI_Type_commit before using it)");
  }
  return *r;
}

void erase_if_unused(MPI_Datatype t, const TypeRecord& r) {
  if (r.user_freed && r.retains == 0) derived().erase(t);
}

}  // namespace

int64_t type_size(MPI_Datatype t, const char* call) {
  return lookup(t, call, TypeUse::kCommunicate).map->size;
}

int64_t type_extent(MPI_Datatype t, const char* call) {
  return lookup(t, call, TypeUse::kCommunicate).map->extent();
}

void pack(const void* buf, int64_t count, MPI_Datatype t, void* out) {
  typemap_pack(*lookup(t, "pack", TypeUse::kCommunicate).map, static_cast<const std::byte*>(buf),
               count, static_cast<std::byte*>(out));
}

void unpack(const void* in, int64_t count, MPI_Datatype t, void* buf) {
  typemap_unpack(*lookup(t, "unpack", TypeUse::kCommunicate).map, static_cast<const std::byte*>(in),
                 count, static_cast<std::byte*>(buf));
}

bool is_contiguous(MPI_Datatype t) {
  return lookup(t, "is_contiguous", TypeUse::kCommunicate).map->contiguous();
}

const char* type_name(MPI_Datatype t) {
  if (const TypeRecord* r = find_record(t)) return r->label.c_str();
  static std::string invalid;
  invalid = "invalid datatype " + std::to_string(t);
  return invalid.c_str();
}

void type_retain(MPI_Datatype t) {
  TypeRecord& r = lookup(t, "type_retain", TypeUse::kCommunicate);
  if (t >= kFirstDerivedType) ++r.retains;
}

void type_release(MPI_Datatype t) {
  TypeRecord& r = lookup(t, "type_release", TypeUse::kCommunicate);
  if (t < kFirstDerivedType) return;
  SIMFAB_CHECK(r.retains > 0, "type_release without type_retain");
  --r.retains;
  erase_if_unused(t, r);
}

const Typemap& type_layout(MPI_Datatype t, const char* call, TypeUse use) {
  return *lookup(t, call, use).map;
}

MPI_Datatype type_register(Typemap map, bool committed) {
  const MPI_Datatype t = derived().insert({intern(std::move(map)), {}, {}, committed, false, 0});
  derived().find(t)->label = "derived datatype " + std::to_string(t);
  return t;
}

void type_commit(MPI_Datatype t, const char* call) {
  lookup(t, call, TypeUse::kQuery).committed = true;
}

bool type_is_committed(MPI_Datatype t, const char* call) {
  return lookup(t, call, TypeUse::kQuery).committed;
}

void type_free(MPI_Datatype t, const char* call) {
  TypeRecord& r = lookup(t, call, TypeUse::kQuery);
  if (t < kFirstDerivedType) mpi_fatal(call, "cannot free the predefined datatype " + r.label);
  r.user_freed = true;
  erase_if_unused(t, r);
}

void type_set_name(MPI_Datatype t, const char* name, const char* call) {
  TypeRecord& r = lookup(t, call, TypeUse::kQuery);
  r.name.assign(name, std::min(std::strlen(name), static_cast<size_t>(MPI_MAX_OBJECT_NAME - 1)));
  if (!r.name.empty()) {
    r.label = r.name;
  } else {
    r.label = t < kFirstDerivedType ? basic_type(t)->name : "derived datatype " + std::to_string(t);
  }
}

std::string type_get_name(MPI_Datatype t, const char* call) {
  return lookup(t, call, TypeUse::kQuery).name;
}

size_t live_derived_types() { return derived().live(); }

}  // namespace simfab::online
