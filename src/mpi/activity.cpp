#include "mpi/activity.hpp"

namespace simfab {

const char* call_class_name(CallClass c) {
  switch (c) {
    case CallClass::kCompute: return "compute";
    case CallClass::kP2p: return "p2p";
    case CallClass::kCollective: return "collective";
    case CallClass::kWait: return "wait";
    case CallClass::kOther: break;
  }
  return "other";
}

}  // namespace simfab
