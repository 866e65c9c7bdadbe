#include "model/refresh/inplace_model.hpp"

#include <algorithm>
#include <sstream>
#include <utility>

namespace flint::model {

namespace {
const char* OpName(MaintOp op) {
  switch (op) {
    case MaintOp::kReadPage:
      return "ReadPage";
    case MaintOp::kProgramPage:
      return "ProgramPage";
    case MaintOp::kEraseBlock:
      return "EraseBlock";
  }
  return "?";
}
std::string Txn(MaintOp op, uint32_t plane, uint32_t block, uint32_t page) {
  std::ostringstream os;
  os << OpName(op) << " " << plane << "/" << block;
  if (op != MaintOp::kEraseBlock) os << " page " << page;
  return os.str();
}
}  // namespace

InplaceModel::InplaceModel(const Config& cfg, ContentFn content)
    : cfg_(cfg),
      phys_(static_cast<uint32_t>(cfg.phys_planes)),
      blocks_(static_cast<uint32_t>(cfg.blocks)),
      pages_(static_cast<uint32_t>(cfg.pages)),
      lines_(static_cast<uint32_t>(cfg.cl_per_page)),
      line_bytes_(static_cast<uint32_t>(cfg.cl_bytes)),
      content_(std::move(content)) {}

std::string InplaceModel::Fail(const std::string& what) const {
  std::ostringstream os;
  if (busy() && phase_ != Phase::kParked) {
    os << "refresh " << counts_.refreshed << " (block " << plane() << "/" << block() << "): ";
  } else {
    os << "after " << counts_.refreshed << " refreshes: ";
  }
  os << what;
  return os.str();
}

std::vector<uint8_t> InplaceModel::LineData(uint32_t plane, uint32_t block, uint32_t page,
                                            uint32_t line) const {
  const std::vector<uint8_t> data = content_(plane, block, page);
  const auto first = data.begin() + static_cast<std::ptrdiff_t>(line) * line_bytes_;
  return std::vector<uint8_t>(first, first + line_bytes_);
}

// --- inputs ------------------------------------------------------------------------------------
void InplaceModel::Enable() {
  scan_from_ = 0;
  waiting_ = pending_;
}

void InplaceModel::Due(uint32_t plane, uint32_t block) {
  ++counts_.due;
  if (pending_.insert(Index(plane, block)).second) ++counts_.pending;
}

void InplaceModel::Limit(uint32_t, uint32_t) {
  ++counts_.limit;
  counts_.alarm = true;
}

void InplaceModel::CorruptLine(uint32_t plane, uint32_t block, uint32_t page, uint32_t line) {
  corrupt_.insert(LineIndex(plane, block, page, line));
}

void InplaceModel::PoisonLine(uint32_t plane, uint32_t block, uint32_t page, uint32_t line) {
  poison_.insert(LineIndex(plane, block, page, line));
}

void InplaceModel::FailErase(uint32_t plane, uint32_t block) {
  fail_erase_.insert(Index(plane, block));
}

void InplaceModel::FailProgram(uint32_t plane, uint32_t block, uint32_t page) {
  fail_prog_.insert(uint64_t{Index(plane, block)} * pages_ + page);
}

// --- the park ----------------------------------------------------------------------------------
std::string InplaceModel::Park(bool up) {
  if (up) {
    if (phase_ == Phase::kHalting || phase_ == Phase::kHalted) {
      return Fail("the park rose after the failure");
    }
    if (phase_ != Phase::kIdle) return Fail("the park rose again before the block's end");
    if (pending_.empty()) return Fail("the park rose with no block due");
    phase_ = Phase::kParked;
    return "";
  }
  switch (phase_) {
    case Phase::kDone:
      phase_ = Phase::kIdle;
      return "";
    case Phase::kHalting:
    case Phase::kHalted:
      return "";  // the halt releases it
    case Phase::kParked:
      return Fail("the park fell before the block's first ReadPage");
    default:
      return Fail("the park fell before the block's count reset was answered (page " +
                  std::to_string(page_) + ")");
  }
}

// --- transactions ------------------------------------------------------------------------------
std::string InplaceModel::Expect(MaintOp op, const MaintReq& req) const {
  if (req.op != op || req.plane != plane() || req.block != block() ||
      (op != MaintOp::kEraseBlock && req.page != page_)) {
    return Fail(Txn(req.op, req.plane, req.block, req.page) + ", expected " +
                Txn(op, plane(), block(), page_));
  }
  return "";
}

std::string InplaceModel::StartBlock(const MaintReq& req) {
  if (req.op != MaintOp::kReadPage || req.page != 0 || req.plane >= phys_ || req.block >= blocks_) {
    return Fail("the block's first transaction is " + Txn(req.op, req.plane, req.block, req.page) +
                ", expected ReadPage of page 0 of a due block");
  }
  const uint32_t idx = Index(req.plane, req.block);
  if (!pending_.count(idx)) {
    return Fail("a refresh of block " + std::to_string(req.plane) + "/" +
                std::to_string(req.block) + ", which is not due");
  }
  // The scan reaches every block that was due when it resumed before it passes it.
  const uint32_t n = phys_ * blocks_;
  const uint32_t dist = (idx + n - scan_from_) % n;
  for (uint32_t w : waiting_) {
    if (pending_.count(w) && (w + n - scan_from_) % n < dist) {
      return Fail("block " + std::to_string(req.plane) + "/" + std::to_string(req.block) +
                  " refreshed before block " + std::to_string(w / blocks_) + "/" +
                  std::to_string(w % blocks_) + ", due since the scan resumed at index " +
                  std::to_string(scan_from_) + " and nearer to it");
    }
  }
  cur_ = idx;
  page_ = 0;
  line_ = 0;
  page_status_ = MaintStatus::kOk;
  buf_.assign(size_t{pages_} * lines_, {});
  buf_bad_.assign(size_t{pages_} * lines_, false);
  phase_ = Phase::kReadOut;
  ++counts_.read_out;
  return "";
}

std::string InplaceModel::Request(const MaintReq& req, bool parked) {
  const std::string what = Txn(req.op, req.plane, req.block, req.page);
  if (phase_ == Phase::kHalting || phase_ == Phase::kHalted) {
    return Fail(what + " after the failed answer (the die halts)");
  }
  if (!parked) return Fail(what + " while the controller is not parked");
  if (req.tag != 0) return Fail(what + " with tag " + std::to_string(req.tag) + ", expected 0");
  std::string err;
  switch (phase_) {
    case Phase::kParked:
      return StartBlock(req);
    case Phase::kReadReq:
      err = Expect(MaintOp::kReadPage, req);
      if (err.empty()) {
        ++counts_.read_out;
        line_ = 0;
        page_status_ = MaintStatus::kOk;
        phase_ = Phase::kReadOut;
      }
      return err;
    case Phase::kEraseReq:
      err = Expect(MaintOp::kEraseBlock, req);
      if (err.empty()) {
        ++counts_.erased;
        phase_ = Phase::kEraseRsp;
      }
      return err;
    case Phase::kProgReq:
      err = Expect(MaintOp::kProgramPage, req);
      if (err.empty()) {
        line_ = 0;
        phase_ = Phase::kBeats;
      }
      return err;
    case Phase::kIdle:
      return Fail(what + " with the park down");
    default:
      return Fail(what + " while an answer (or the count reset) is awaited");
  }
}

std::string InplaceModel::ReadLine(uint32_t line, const std::vector<uint8_t>& data, Status status) {
  if (phase_ != Phase::kReadOut || line_ >= lines_) {
    return Fail("a read line (" + std::to_string(line) + ") outside a ReadPage's lines");
  }
  const std::string where = "page " + std::to_string(page_) + " line " + std::to_string(line);
  if (line != line_) return Fail(where + " read, expected line " + std::to_string(line_));
  const uint64_t li = LineIndex(plane(), block(), page_, line);
  const Status want = poison_.count(li)    ? Status::kUncorrectable
                      : corrupt_.count(li) ? Status::kCorrected
                                           : Status::kOk;
  if (status != want) {
    return Fail(where + " read with status " + std::string(ToString(status)) + ", expected " +
                std::string(ToString(want)));
  }
  if (want != Status::kUncorrectable && data != LineData(plane(), block(), page_, line)) {
    return Fail(where + " read with data other than the load's");
  }
  const size_t at = size_t{page_} * lines_ + line;
  buf_[at] = data;
  buf_bad_[at] = want == Status::kUncorrectable;
  if (want == Status::kUncorrectable) {
    ++counts_.poisoned;
    page_status_ = MaintStatus::kUncorrectable;
  } else if (want == Status::kCorrected && page_status_ == MaintStatus::kOk) {
    page_status_ = MaintStatus::kCorrected;
  }
  ++line_;
  return "";
}

std::string InplaceModel::WriteBeat(const std::vector<uint8_t>& data, bool poison) {
  if (phase_ != Phase::kBeats || line_ >= lines_) return Fail("a program beat outside a program");
  const std::string where =
      "program of page " + std::to_string(page_) + ", line " + std::to_string(line_);
  const size_t at = size_t{page_} * lines_ + line_;
  if (poison != buf_bad_[at]) {
    return Fail(where +
                (poison ? " poisoned, read correctable" : " not poisoned, read uncorrectable"));
  }
  if (data != buf_[at]) return Fail(where + ": data other than the line read out");
  ++line_;
  return "";
}

std::string InplaceModel::Response(const MaintRsp& rsp) {
  const std::string what = "the answer " + Txn(rsp.op, rsp.plane, rsp.block, rsp.page);
  MaintOp op;
  switch (phase_) {
    case Phase::kReadOut:
      op = MaintOp::kReadPage;
      break;
    case Phase::kEraseRsp:
      op = MaintOp::kEraseBlock;
      break;
    case Phase::kBeats:
      op = MaintOp::kProgramPage;
      break;
    default:
      return Fail(what + " with no transaction out");
  }
  if (rsp.op != op || rsp.plane != plane() || rsp.block != block() || rsp.tag != 0 ||
      (op != MaintOp::kEraseBlock && rsp.page != page_)) {
    return Fail(what + ", expected the answer to " + Txn(op, plane(), block(), page_));
  }
  if (op != MaintOp::kEraseBlock && line_ != lines_) {
    return Fail(what + " after " + std::to_string(line_) + " of " + std::to_string(lines_) +
                " lines");
  }
  MaintStatus want = MaintStatus::kOk;
  if (op == MaintOp::kReadPage) {
    want = page_status_;
  } else if (op == MaintOp::kEraseBlock && fail_erase_.count(cur_)) {
    want = MaintStatus::kEraseFail;
  } else if (op == MaintOp::kProgramPage && fail_prog_.count(uint64_t{cur_} * pages_ + page_)) {
    want = MaintStatus::kProgramFail;
  }
  if (rsp.status != want) {
    return Fail(what + " with status " + std::to_string(static_cast<int>(rsp.status)) +
                ", expected " + std::to_string(static_cast<int>(want)));
  }
  switch (op) {
    case MaintOp::kReadPage:
      if (++page_ == pages_) {
        page_ = 0;
        phase_ = Phase::kEraseReq;
      } else {
        phase_ = Phase::kReadReq;
      }
      break;
    case MaintOp::kEraseBlock:
      if (want == MaintStatus::kEraseFail) {
        fail_erase_.erase(cur_);
        err_ = RefreshErr::kErase;
        phase_ = Phase::kHalting;
        break;
      }
      // Erased: the correctable errors of the block are gone with it (the program writes each
      // line clean again); a poisoned line is written poisoned.
      for (uint32_t p = 0; p < pages_; ++p) {
        for (uint32_t l = 0; l < lines_; ++l) corrupt_.erase(LineIndex(plane(), block(), p, l));
      }
      page_ = 0;
      phase_ = Phase::kProgReq;
      break;
    case MaintOp::kProgramPage:
      ++counts_.programmed;
      if (want == MaintStatus::kProgramFail) {
        fail_prog_.erase(uint64_t{cur_} * pages_ + page_);
        err_ = RefreshErr::kProgram;
        phase_ = Phase::kHalting;
        break;
      }
      phase_ = ++page_ == pages_ ? Phase::kCount : Phase::kProgReq;
      break;
  }
  return "";
}

// --- the read-counter reset, the halt ----------------------------------------------------------
std::string InplaceModel::CounterReset(uint32_t plane, uint32_t block) {
  const std::string what =
      "a count reset of block " + std::to_string(plane) + "/" + std::to_string(block);
  if (phase_ == Phase::kHalting || phase_ == Phase::kHalted) {
    return Fail(what + " after the failed answer (the die halts)");
  }
  if (phase_ != Phase::kCount) return Fail(what + " before the block's last page is programmed");
  if (Index(plane, block) != cur_) return Fail(what + ", not the block refreshed");
  phase_ = Phase::kCountRsp;
  return "";
}

std::string InplaceModel::CounterAnswered() {
  if (phase_ != Phase::kCountRsp) return Fail("a count reset answered that was not asked");
  ++counts_.refreshed;
  pending_.erase(cur_);
  --counts_.pending;
  order_.emplace_back(plane(), block());
  // The scan resumes at the block refreshed; the blocks due now are the ones it must not pass.
  scan_from_ = cur_;
  waiting_ = pending_;
  phase_ = Phase::kDone;
  return "";
}

std::string InplaceModel::Halt(uint32_t code) {
  if (phase_ != Phase::kHalting) {
    return Fail("the die halted (code " + std::to_string(code) + "), the model predicts no halt");
  }
  if (code != static_cast<uint32_t>(err_)) {
    return Fail("the die halted with code " + std::to_string(code) + ", expected " +
                std::to_string(static_cast<int>(err_)));
  }
  phase_ = Phase::kHalted;
  return "";
}

std::string InplaceModel::Counters(const InplaceCounts& rtl) const {
  const std::pair<const char*, std::pair<uint64_t, uint64_t>> rows[] = {
      {"refreshed", {rtl.refreshed, counts_.refreshed}},
      {"read out", {rtl.read_out, counts_.read_out}},
      {"programmed", {rtl.programmed, counts_.programmed}},
      {"erased", {rtl.erased, counts_.erased}},
      {"poisoned", {rtl.poisoned, counts_.poisoned}},
      {"due", {rtl.due, counts_.due}},
      {"limit", {rtl.limit, counts_.limit}},
      {"pending", {rtl.pending, counts_.pending}},
      {"alarm", {rtl.alarm, counts_.alarm}},
  };
  for (const auto& [name, v] : rows) {
    if (v.first != v.second) {
      return Fail(std::string("counter ") + name + " is " + std::to_string(v.first) +
                  ", expected " + std::to_string(v.second));
    }
  }
  return "";
}

}  // namespace flint::model
