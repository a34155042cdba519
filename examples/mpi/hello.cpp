// hello: a C++ MPI program (std::vector, std::string, a class with a constructor and destructor
// run per rank): every rank fills a std::vector with its rank, MPI_Allreduce sums them, and each
// rank checks the closed form. Builds with simfab-cxx:
//   simfab-cxx -O2 -o hello hello.cpp
//   simfab exec -np 4 --cfg online/compute=declared ./hello
// Prints "hello: ... OK" and exits 0 when the sums are right.
#include <mpi.h>

#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

namespace {
struct Greeter {
  std::string name;
  int rank = -1;
  explicit Greeter(int r) : name("rank " + std::to_string(r)), rank(r) {}
};
}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Greeter g(rank);
  std::vector<long> mine(100), sum(100, -1);
  std::iota(mine.begin(), mine.end(), static_cast<long>(rank));  // rank, rank + 1, ...
  MPI_Allreduce(mine.data(), sum.data(), static_cast<int>(mine.size()), MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  int errors = 0;
  for (size_t i = 0; i < sum.size(); ++i)
    if (sum[i] != static_cast<long>(size) * (size - 1) / 2 + static_cast<long>(size) * static_cast<long>(i)) ++errors;
  if (g.name != "rank " + std::to_string(rank)) ++errors;
  int all = 0;
  MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) std::printf("hello: from C++ on %d ranks (%s): %s\n", size, g.name.c_str(), all ? "WRONG" : "OK");
  MPI_Finalize();
  return all ? 1 : 0;
}
