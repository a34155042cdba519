// The extern "C" MPI datatype calls: argument checks and the handle out-parameters, on top of
// online/type_constructors.hpp, online/datatype.hpp and online/type_queries.hpp.
#include <simfab/mpi.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "online/arg_check.hpp"
#include "online/basic_types.hpp"
#include "online/mpi_fatal.hpp"
#include "online/attributes.hpp"
#include "online/datatype.hpp"
#include "online/type_constructors.hpp"
#include "online/type_queries.hpp"
#include "online/type_recipes.hpp"

using namespace simfab::online;

namespace {

// A new derived type from `make`, with how it was made (MPI_Type_get_contents).
template <class Make>
int new_type(const char* call, MPI_Datatype* newtype, Make make, TypeRecipe recipe) {
  check_pointer(call, "newtype", newtype);
  *newtype = make();
  record_recipe(*newtype, std::move(recipe));
  return MPI_SUCCESS;
}

// Arrays of n elements as vectors (an array pointer may be null when n is 0).
template <class T>
std::vector<T> list(const T* p, int n) {
  return p && n > 0 ? std::vector<T>(p, p + n) : std::vector<T>{};
}
std::vector<int> join(std::vector<int> a, const std::vector<int>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

const Typemap& layout(const char* call, MPI_Datatype t) { return type_layout(t, call); }

template <class T>
int set_out(const char* call, const char* what, T* out, T value) {
  check_pointer(call, what, out);
  *out = value;
  return MPI_SUCCESS;
}

int64_t status_bytes(const char* call, const MPI_Status* status) {
  check_pointer(call, "status", status);
  return status->simfab_count;
}

}  // namespace

extern "C" {

int MPI_Type_size(MPI_Datatype datatype, int* size) {
  const char* call = "MPI_Type_size";
  return set_out(call, "size", size, to_int_or_undefined(layout(call, datatype).size));
}

int MPI_Type_size_x(MPI_Datatype datatype, MPI_Count* size) {
  const char* call = "MPI_Type_size_x";
  return set_out<MPI_Count>(call, "size", size, layout(call, datatype).size);
}

int MPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint* lb, MPI_Aint* extent) {
  const char* call = "MPI_Type_get_extent";
  const Typemap& t = layout(call, datatype);
  set_out<MPI_Aint>(call, "lb", lb, t.lb);
  return set_out<MPI_Aint>(call, "extent", extent, t.extent());
}

int MPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count* lb, MPI_Count* extent) {
  const char* call = "MPI_Type_get_extent_x";
  const Typemap& t = layout(call, datatype);
  set_out<MPI_Count>(call, "lb", lb, t.lb);
  return set_out<MPI_Count>(call, "extent", extent, t.extent());
}

int MPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint* true_lb, MPI_Aint* true_extent) {
  const char* call = "MPI_Type_get_true_extent";
  const Typemap& t = layout(call, datatype);
  set_out<MPI_Aint>(call, "true_lb", true_lb, t.true_lb);
  return set_out<MPI_Aint>(call, "true_extent", true_extent, t.true_extent());
}

int MPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count* true_lb, MPI_Count* true_extent) {
  const char* call = "MPI_Type_get_true_extent_x";
  const Typemap& t = layout(call, datatype);
  set_out<MPI_Count>(call, "true_lb", true_lb, t.true_lb);
  return set_out<MPI_Count>(call, "true_extent", true_extent, t.true_extent());
}

int MPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return new_type("MPI_Type_contiguous", newtype,
                  [&] { return type_contiguous(count, oldtype, "MPI_Type_contiguous"); },
                  {MPI_COMBINER_CONTIGUOUS, {count}, {}, {oldtype}});
}

int MPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype,
                    MPI_Datatype* newtype) {
  return new_type("MPI_Type_vector", newtype, [&] {
    return type_vector(count, blocklength, stride, oldtype, "MPI_Type_vector");
  }, {MPI_COMBINER_VECTOR, {count, blocklength, stride}, {}, {oldtype}});
}

int MPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                            MPI_Datatype* newtype) {
  return new_type("MPI_Type_create_hvector", newtype, [&] {
    return type_hvector(count, blocklength, stride, oldtype, "MPI_Type_create_hvector");
  }, {MPI_COMBINER_HVECTOR, {count, blocklength}, {stride}, {oldtype}});
}

int MPI_Type_indexed(int count, const int array_of_blocklengths[],
                     const int array_of_displacements[], MPI_Datatype oldtype,
                     MPI_Datatype* newtype) {
  return new_type("MPI_Type_indexed", newtype, [&] {
    return type_indexed(count, array_of_blocklengths, array_of_displacements, oldtype,
                        "MPI_Type_indexed");
  }, {MPI_COMBINER_INDEXED, join(join({count}, list(array_of_blocklengths, count)), list(array_of_displacements, count)),
      {}, {oldtype}});
}

int MPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
                             const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                             MPI_Datatype* newtype) {
  return new_type("MPI_Type_create_hindexed", newtype, [&] {
    return type_hindexed(count, array_of_blocklengths, array_of_displacements, oldtype,
                         "MPI_Type_create_hindexed");
  }, {MPI_COMBINER_HINDEXED, join({count}, list(array_of_blocklengths, count)), list(array_of_displacements, count),
      {oldtype}});
}

int MPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[],
                                  MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return new_type("MPI_Type_create_indexed_block", newtype, [&] {
    return type_indexed_block(count, blocklength, array_of_displacements, oldtype,
                              "MPI_Type_create_indexed_block");
  }, {MPI_COMBINER_INDEXED_BLOCK, join({count, blocklength}, list(array_of_displacements, count)), {}, {oldtype}});
}

int MPI_Type_create_hindexed_block(int count, int blocklength,
                                   const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                                   MPI_Datatype* newtype) {
  return new_type("MPI_Type_create_hindexed_block", newtype, [&] {
    return type_hindexed_block(count, blocklength, array_of_displacements, oldtype,
                               "MPI_Type_create_hindexed_block");
  }, {MPI_COMBINER_HINDEXED_BLOCK, {count, blocklength}, list(array_of_displacements, count), {oldtype}});
}

int MPI_Type_create_struct(int count, const int array_of_blocklengths[],
                           const MPI_Aint array_of_displacements[],
                           const MPI_Datatype array_of_types[], MPI_Datatype* newtype) {
  return new_type("MPI_Type_create_struct", newtype, [&] {
    return type_struct(count, array_of_blocklengths, array_of_displacements, array_of_types,
                       "MPI_Type_create_struct");
  }, {MPI_COMBINER_STRUCT, join({count}, list(array_of_blocklengths, count)), list(array_of_displacements, count),
      list(array_of_types, count)});
}

int MPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                            MPI_Datatype* newtype) {
  return new_type("MPI_Type_create_resized", newtype,
                  [&] { return type_resized(oldtype, lb, extent, "MPI_Type_create_resized"); },
                  {MPI_COMBINER_RESIZED, {}, {lb, extent}, {oldtype}});
}

int MPI_Type_create_subarray(int ndims, const int array_of_sizes[], const int array_of_subsizes[],
                             const int array_of_starts[], int order, MPI_Datatype oldtype,
                             MPI_Datatype* newtype) {
  return new_type("MPI_Type_create_subarray", newtype, [&] {
    return type_subarray(ndims, array_of_sizes, array_of_subsizes, array_of_starts, order, oldtype,
                         "MPI_Type_create_subarray");
  }, {MPI_COMBINER_SUBARRAY,
      join(join(join(join({ndims}, list(array_of_sizes, ndims)), list(array_of_subsizes, ndims)),
                list(array_of_starts, ndims)), {order}),
      {}, {oldtype}});
}

int MPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype* newtype) {
  const int rc = new_type("MPI_Type_dup", newtype, [&] { return type_dup(oldtype, "MPI_Type_dup"); },
                          {MPI_COMBINER_DUP, {}, {}, {oldtype}});
  AttributeStore::instance().copied(attribute_rank(), AttrKind::kType, oldtype, *newtype, "MPI_Type_dup");
  return rc;
}

int MPI_Type_commit(MPI_Datatype* datatype) {
  const char* call = "MPI_Type_commit";
  check_pointer(call, "datatype", datatype);
  type_commit(*datatype, call);
  return MPI_SUCCESS;
}

int MPI_Type_free(MPI_Datatype* datatype) {
  const char* call = "MPI_Type_free";
  check_pointer(call, "datatype", datatype);
  AttributeStore::instance().erased(attribute_rank(), AttrKind::kType, *datatype, call);
  type_free(*datatype, call);
  forget_recipe(*datatype);
  *datatype = MPI_DATATYPE_NULL;
  return MPI_SUCCESS;
}

int MPI_Type_set_name(MPI_Datatype datatype, const char* type_name) {
  const char* call = "MPI_Type_set_name";
  check_pointer(call, "type_name", type_name);
  type_set_name(datatype, type_name, call);
  return MPI_SUCCESS;
}

int MPI_Type_get_name(MPI_Datatype datatype, char* type_name, int* resultlen) {
  const char* call = "MPI_Type_get_name";
  check_pointer(call, "type_name", type_name);
  const std::string name = type_get_name(datatype, call);
  std::memcpy(type_name, name.c_str(), name.size() + 1);
  return set_out(call, "resultlen", resultlen, static_cast<int>(name.size()));
}

int MPI_Pack(const void* inbuf, int incount, MPI_Datatype datatype, void* outbuf, int outsize,
             int* position, MPI_Comm) {
  pack_at(inbuf, incount, datatype, outbuf, outsize, position, "MPI_Pack");
  return MPI_SUCCESS;
}

int MPI_Unpack(const void* inbuf, int insize, int* position, void* outbuf, int outcount,
               MPI_Datatype datatype, MPI_Comm) {
  unpack_at(inbuf, insize, position, outbuf, outcount, datatype, "MPI_Unpack");
  return MPI_SUCCESS;
}

int MPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm, int* size) {
  const char* call = "MPI_Pack_size";
  return set_out(call, "size", size, pack_size(incount, datatype, call));
}

int MPI_Get_count(const MPI_Status* status, MPI_Datatype datatype, int* count) {
  const char* call = "MPI_Get_count";
  const int64_t n = count_of_bytes(status_bytes(call, status), datatype, call);
  return set_out(call, "count", count, to_int_or_undefined(n));
}

int MPI_Get_elements(const MPI_Status* status, MPI_Datatype datatype, int* count) {
  const char* call = "MPI_Get_elements";
  const int64_t n = elements_of_bytes(status_bytes(call, status), datatype, call);
  return set_out(call, "count", count, to_int_or_undefined(n));
}

int MPI_Get_elements_x(const MPI_Status* status, MPI_Datatype datatype, MPI_Count* count) {
  const char* call = "MPI_Get_elements_x";
  return set_out<MPI_Count>(call, "count", count,
                            elements_of_bytes(status_bytes(call, status), datatype, call));
}

int MPI_Status_set_elements(MPI_Status* status, MPI_Datatype datatype, int count) {
  const char* call = "MPI_Status_set_elements";
  check_pointer(call, "status", status);
  status->simfab_count = bytes_of_elements(count, datatype, call);
  return MPI_SUCCESS;
}

int MPI_Status_set_elements_x(MPI_Status* status, MPI_Datatype datatype, MPI_Count count) {
  const char* call = "MPI_Status_set_elements_x";
  check_pointer(call, "status", status);
  status->simfab_count = bytes_of_elements(count, datatype, call);
  return MPI_SUCCESS;
}

int MPI_Status_set_cancelled(MPI_Status* status, int flag) {
  check_pointer("MPI_Status_set_cancelled", "status", status);
  status->simfab_cancelled = flag != 0;
  return MPI_SUCCESS;
}

int MPI_Type_get_envelope(MPI_Datatype datatype, int* num_integers, int* num_addresses, int* num_datatypes,
                          int* combiner) {
  const char* call = "MPI_Type_get_envelope";
  layout(call, datatype);  // a valid handle
  const TypeRecipe* r = recipe_of(datatype);
  set_out(call, "num_integers", num_integers, r ? static_cast<int>(r->ints.size()) : 0);
  set_out(call, "num_addresses", num_addresses, r ? static_cast<int>(r->addresses.size()) : 0);
  set_out(call, "num_datatypes", num_datatypes, r ? static_cast<int>(r->types.size()) : 0);
  return set_out(call, "combiner", combiner, r ? r->combiner : MPI_COMBINER_NAMED);
}

int MPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses, int max_datatypes,
                          int array_of_integers[], MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[]) {
  const char* call = "MPI_Type_get_contents";
  layout(call, datatype);
  const TypeRecipe* r = recipe_of(datatype);
  if (!r) mpi_fatal(call, "the datatype is a named (predefined) one: MPI_Type_get_envelope says MPI_COMBINER_NAMED");
  if (max_integers < static_cast<int>(r->ints.size()) || max_addresses < static_cast<int>(r->addresses.size()) ||
      max_datatypes < static_cast<int>(r->types.size()))
    mpi_fatal(call, "the arrays are shorter than MPI_Type_get_envelope's counts");
  std::copy(r->ints.begin(), r->ints.end(), array_of_integers);
  std::copy(r->addresses.begin(), r->addresses.end(), array_of_addresses);
  const std::vector<MPI_Datatype> types = r->types;  // record_recipe below may move r
  for (size_t i = 0; i < types.size(); ++i) {
    // A derived one comes back as a new handle the caller frees (MPI-3.1 §4.1.13), made as the
    // original was.
    if (basic_type(types[i])) {
      array_of_datatypes[i] = types[i];
      continue;
    }
    array_of_datatypes[i] = type_dup(types[i], call);
    if (const TypeRecipe* inner = recipe_of(types[i])) record_recipe(array_of_datatypes[i], *inner);
  }
  return MPI_SUCCESS;
}

}  // extern "C"
