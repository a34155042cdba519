#include "mpi/op_text.hpp"

namespace simfab {

std::string context_text(uint32_t context) {
  std::string out = context & 1 ? " (collective)" : "";
  if (context >= 2) out += " on communicator " + std::to_string(context / 2);
  return out;
}

std::string describe_stuck_op(const Op& op) {
  const std::string tag = op.tag == kAnyTag ? std::string("any") : std::to_string(op.tag);
  const std::string coll = context_text(op.context);
  const std::string size = std::to_string(op.amount) + " B";
  switch (op.kind) {
    case OpKind::kRecv:
      return "recv of " + size + " from " +
             (op.peer == kAnySource ? std::string("any rank") : "rank " + std::to_string(op.peer)) + " tag " + tag +
             coll + " never matched by a send";
    case OpKind::kSend:
      if (op.flags & op_flag::kStarted)
        return "rendezvous send of " + size + " to rank " + std::to_string(op.peer) + " tag " + tag + coll +
               " never matched by a recv";
      return "send of " + size + " to rank " + std::to_string(op.peer) + " tag " + tag + coll + " never started";
    case OpKind::kProbe:
      return "probe for a message from " +
             (op.peer == kAnySource ? std::string("any rank") : "rank " + std::to_string(op.peer)) + " tag " + tag +
             coll + " that never came";
    case OpKind::kCalc:
      return "calc never finished";
  }
  return {};
}

}  // namespace simfab
