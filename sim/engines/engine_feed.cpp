#include "sim/engines/engine_feed.hpp"

#include <stdexcept>
#include <string>

namespace flint::sim {

model::SourceReply EngineFeed::Ask(uint64_t now) {
  using Kind = DecodeGenerator::Reply::Kind;
  const DecodeGenerator::Reply g = gen_.Poll(now > offset_ ? now - offset_ : 0);
  model::SourceReply r;
  switch (g.kind) {
    case Kind::kDone:
      break;
    case Kind::kWait:
      r.kind = model::SourceReply::Kind::kWait;
      r.wake = g.wake == DecodeGenerator::kNoWake ? model::SourceReply::kNoWake : g.wake + offset_;
      break;
    case Kind::kRequest:
      r.kind = model::SourceReply::Kind::kRequest;
      r.request = model::BbcRequest{next_id_++, offset_ + g.request.cycle, g.request.sm,
                                    g.request.address};
      if (gen_.max_outstanding() != 0) sm_of_.emplace(r.request.id, g.request.sm);
      break;
  }
  return r;
}

void EngineFeed::Deliver(const model::BbcResponse& r) {
  if (gen_.max_outstanding() == 0) return;
  const auto it = sm_of_.find(r.id);
  if (it == sm_of_.end()) {
    throw std::logic_error("engine feed: a response for request " + std::to_string(r.id) +
                           ", which is not outstanding");
  }
  gen_.Respond(it->second, r.cycle - offset_);
  sm_of_.erase(it);
}

DecodeStream::DecodeStream(DecodeGenerator& gen, Hints hints)
    : gen_(gen), feed_(gen), kind_(hints), closed_(gen.options().loop == WorkLoop::kClosed) {
  options_.oracle = hints == Hints::kOracle;
  if (kind_ != Hints::kNone && !closed_) hints_ = MakeH3Hints(gen_, options_);
}

void DecodeStream::Start(uint64_t cycle) {
  start_ = cycle;
  feed_.set_service_start(cycle);
  if (kind_ != Hints::kNone && closed_) closed_hints_.emplace(gen_, options_, cycle);
}

model::H3Model::HintReply DecodeStream::AskHint(uint64_t now) {
  if (closed_hints_) return closed_hints_->Ask(now);
  model::H3Model::HintReply r;
  if (next_ == hints_.size()) return r;
  r.kind = model::H3Model::HintReply::Kind::kHint;
  r.hint = hints_[next_++];
  r.hint.cycle += start_;
  return r;
}

size_t DecodeStream::hint_count() const {
  return closed_hints_ ? closed_hints_->size() : hints_.size();
}

}  // namespace flint::sim
