// simfab-sweep-mpi: `simfab sweep` as one process of an MPI job (apps/simfab/sweep_cmd.hpp). simfab
// sweep started by mpirun or srun replaces itself with this program (same arguments), which joins
// the job (MPI_Init) and runs cmd_sweep over MpiSweepTransport: process 0 writes the CSV, the
// others run points. Errors before the points start end every process with process 0's status
// (2: bad input) and its one message; an error after that ends the job (MPI_Abort) with its code.
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "../simfab/sweep_cmd.hpp"
#include "core/error.hpp"
#include "core/interrupt.hpp"
#include "mpi_sweep_transport.hpp"

int main(int argc, char** argv) {
  simfab::MpiSweepTransport mpi(&argc, &argv);
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && args[0] == "sweep") args.erase(args.begin());
  int code = 0;
  try {
    simfab::install_interrupt_handlers();
    code = simfab::cmd_sweep(args, &mpi);
  } catch (const simfab::InputError& e) {
    std::cerr << simfab::format_error(e);
    code = 2;
  } catch (const std::exception& e) {
    std::cerr << "simfab sweep: process " << mpi.rank() << ": internal error: " << e.what() << "\n";
    mpi.abort(1);
  }
  std::fflush(nullptr);
  return code;
}
