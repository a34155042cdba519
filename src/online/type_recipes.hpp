// TypeRecipe: how a derived datatype was made, for MPI_Type_get_envelope / MPI_Type_get_contents
// (MPI-3.1 §4.1.13): the combiner and the integer, address and datatype arguments of its
// constructor, in the standard's order (Table 4.1). Recorded by each MPI_Type_* constructor
// (abi_datatype.cpp), forgotten by MPI_Type_free; a handle without a recipe is a named
// (predefined) type. Complexity: O(log T) per lookup (T live derived types). Thread-safety: none.
#pragma once

#include <simfab/mpi.h>

#include <vector>

namespace simfab::online {

struct TypeRecipe {
  int combiner = MPI_COMBINER_NAMED;
  std::vector<int> ints;
  std::vector<MPI_Aint> addresses;
  std::vector<MPI_Datatype> types;
};

void record_recipe(MPI_Datatype t, TypeRecipe recipe);
const TypeRecipe* recipe_of(MPI_Datatype t);  // nullptr: a named type
void forget_recipe(MPI_Datatype t);

}  // namespace simfab::online
