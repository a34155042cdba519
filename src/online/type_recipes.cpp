#include "online/type_recipes.hpp"

#include <map>
#include <utility>

namespace simfab::online {

namespace {
std::map<MPI_Datatype, TypeRecipe>& recipes() {
  static std::map<MPI_Datatype, TypeRecipe> r;
  return r;
}
}  // namespace

void record_recipe(MPI_Datatype t, TypeRecipe recipe) { recipes()[t] = std::move(recipe); }

const TypeRecipe* recipe_of(MPI_Datatype t) {
  const auto it = recipes().find(t);
  return it == recipes().end() ? nullptr : &it->second;
}

void forget_recipe(MPI_Datatype t) { recipes().erase(t); }

}  // namespace simfab::online
