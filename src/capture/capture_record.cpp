// Names and classes of the capture functions (see capture_record.hpp).
#include "capture/capture_record.hpp"

namespace simfab {

namespace {

struct FuncInfo {
  std::string_view name;
  CapClass cls;
};

// In CapFunc order.
constexpr FuncInfo kFuncs[] = {
    {"MPI_Init", CapClass::kInit},
    {"MPI_Init_thread", CapClass::kInit},
    {"MPI_Finalize", CapClass::kFinalize},
    {"MPI_Comm_rank", CapClass::kIgnored},
    {"MPI_Comm_size", CapClass::kIgnored},
    {"MPI_Send", CapClass::kSend},
    {"MPI_Bsend", CapClass::kSend},
    {"MPI_Ssend", CapClass::kSend},
    {"MPI_Rsend", CapClass::kSend},
    {"MPI_Isend", CapClass::kIsend},
    {"MPI_Ibsend", CapClass::kIsend},
    {"MPI_Issend", CapClass::kIsend},
    {"MPI_Irsend", CapClass::kIsend},
    {"MPI_Recv", CapClass::kRecv},
    {"MPI_Irecv", CapClass::kIrecv},
    {"MPI_Sendrecv", CapClass::kSendrecv},
    {"MPI_Sendrecv_replace", CapClass::kSendrecv},
    {"MPI_Wait", CapClass::kCompletion},
    {"MPI_Waitall", CapClass::kCompletion},
    {"MPI_Waitany", CapClass::kCompletion},
    {"MPI_Waitsome", CapClass::kCompletion},
    {"MPI_Test", CapClass::kCompletion},
    {"MPI_Testall", CapClass::kCompletion},
    {"MPI_Testany", CapClass::kCompletion},
    {"MPI_Testsome", CapClass::kCompletion},
    {"MPI_Probe", CapClass::kProbe},
    {"MPI_Iprobe", CapClass::kIgnored},
    {"MPI_Barrier", CapClass::kCollective},
    {"MPI_Bcast", CapClass::kCollective},
    {"MPI_Reduce", CapClass::kCollective},
    {"MPI_Allreduce", CapClass::kCollective},
    {"MPI_Scan", CapClass::kCollective},
    {"MPI_Exscan", CapClass::kCollective},
    {"MPI_Reduce_scatter_block", CapClass::kCollective},
    {"MPI_Reduce_scatter", CapClass::kCollective},
    {"MPI_Gather", CapClass::kCollective},
    {"MPI_Scatter", CapClass::kCollective},
    {"MPI_Allgather", CapClass::kCollective},
    {"MPI_Alltoall", CapClass::kCollective},
    {"MPI_Gatherv", CapClass::kCollective},
    {"MPI_Scatterv", CapClass::kCollective},
    {"MPI_Allgatherv", CapClass::kCollective},
    {"MPI_Alltoallv", CapClass::kCollective},
    {"MPI_Comm_dup", CapClass::kCreation},
    {"MPI_Comm_split", CapClass::kCreation},
    {"MPI_Comm_create", CapClass::kCreation},
    {"MPI_Cart_create", CapClass::kCreation},
    {"MPI_Cart_sub", CapClass::kCreation},
    {"MPI_Comm_split_type", CapClass::kCreation},
    {"MPI_Graph_create", CapClass::kCreation},
    {"MPI_Dist_graph_create", CapClass::kCreation},
    {"MPI_Dist_graph_create_adjacent", CapClass::kCreation},
    {"MPI_Comm_free", CapClass::kFree},
    {"MPI_Mprobe", CapClass::kRecv},
    {"MPI_Improbe", CapClass::kRecv},
    {"MPI_Mrecv", CapClass::kTaken},
    {"MPI_Imrecv", CapClass::kTaken},
    {"MPI_Ibarrier", CapClass::kCollective},
    {"MPI_Ibcast", CapClass::kCollective},
    {"MPI_Ireduce", CapClass::kCollective},
    {"MPI_Iallreduce", CapClass::kCollective},
    {"MPI_Iscan", CapClass::kCollective},
    {"MPI_Iexscan", CapClass::kCollective},
    {"MPI_Ireduce_scatter_block", CapClass::kCollective},
    {"MPI_Ireduce_scatter", CapClass::kCollective},
    {"MPI_Igather", CapClass::kCollective},
    {"MPI_Iscatter", CapClass::kCollective},
    {"MPI_Iallgather", CapClass::kCollective},
    {"MPI_Ialltoall", CapClass::kCollective},
    {"MPI_Igatherv", CapClass::kCollective},
    {"MPI_Iscatterv", CapClass::kCollective},
    {"MPI_Iallgatherv", CapClass::kCollective},
    {"MPI_Ialltoallv", CapClass::kCollective},
    {"MPI_Comm_idup", CapClass::kCreation},
};
static_assert(std::size(kFuncs) == static_cast<size_t>(CapFunc::kCount));

}  // namespace

std::string_view cap_func_name(CapFunc f) { return kFuncs[static_cast<size_t>(f)].name; }
CapClass cap_class(CapFunc f) { return kFuncs[static_cast<size_t>(f)].cls; }

CapFunc cap_blocking(CapFunc f) {
  switch (f) {
    case CapFunc::kIbarrier: return CapFunc::kBarrier;
    case CapFunc::kIbcast: return CapFunc::kBcast;
    case CapFunc::kIreduce: return CapFunc::kReduce;
    case CapFunc::kIallreduce: return CapFunc::kAllreduce;
    case CapFunc::kIscan: return CapFunc::kScan;
    case CapFunc::kIexscan: return CapFunc::kExscan;
    case CapFunc::kIreduceScatterBlock: return CapFunc::kReduceScatterBlock;
    case CapFunc::kIreduceScatter: return CapFunc::kReduceScatter;
    case CapFunc::kIgather: return CapFunc::kGather;
    case CapFunc::kIscatter: return CapFunc::kScatter;
    case CapFunc::kIallgather: return CapFunc::kAllgather;
    case CapFunc::kIalltoall: return CapFunc::kAlltoall;
    case CapFunc::kIgatherv: return CapFunc::kGatherv;
    case CapFunc::kIscatterv: return CapFunc::kScatterv;
    case CapFunc::kIallgatherv: return CapFunc::kAllgatherv;
    case CapFunc::kIalltoallv: return CapFunc::kAlltoallv;
    default: return f;
  }
}

bool cap_rooted(CapFunc f) {
  switch (cap_blocking(f)) {
    case CapFunc::kBcast:
    case CapFunc::kReduce:
    case CapFunc::kGather:
    case CapFunc::kScatter:
    case CapFunc::kGatherv:
    case CapFunc::kScatterv: return true;
    default: return false;
  }
}

bool cap_split_form(CapFunc f) {
  switch (f) {
    case CapFunc::kCommSplit:
    case CapFunc::kCartCreate:
    case CapFunc::kCartSub:
    case CapFunc::kCommSplitType:
    case CapFunc::kGraphCreate:
    case CapFunc::kDistGraphCreate:
    case CapFunc::kDistGraphCreateAdjacent: return true;
    default: return false;
  }
}

}  // namespace simfab
