#include "sim/workload/workload_model.hpp"

#include <algorithm>
#include <stdexcept>

namespace flint::sim {

namespace {

void AddGeneratedModels(std::vector<ModelShape>* out){
#include "flint_models.inc"
}

uint64_t AlignUp(uint64_t x, uint64_t a) {
  return (x + a - 1) / a * a;
}

bool IsPow2(uint64_t x) { return x != 0 && (x & (x - 1)) == 0; }

}  // namespace

uint64_t PrecisionBits(Precision p) {
  switch (p) {
    case Precision::kBf16:
      return 16;
    case Precision::kFp8:
      return 8;
    case Precision::kFp4:
      return 4;
  }
  return 16;
}

std::string_view PrecisionName(Precision p) {
  switch (p) {
    case Precision::kBf16:
      return "bf16";
    case Precision::kFp8:
      return "fp8";
    case Precision::kFp4:
      return "fp4";
  }
  return "?";
}

std::string_view GroupKindName(GroupKind k) {
  switch (k) {
    case GroupKind::kEmbed:
      return "embed";
    case GroupKind::kAttention:
      return "attention";
    case GroupKind::kDenseMlp:
      return "mlp";
    case GroupKind::kRouter:
      return "router";
    case GroupKind::kShared:
      return "shared";
    case GroupKind::kExpert:
      return "expert";
    case GroupKind::kHead:
      return "head";
  }
  return "?";
}

bool ModelShape::IsMoeLayer(uint64_t layer) const {
  if (experts == 0 || layer < first_dense_layers || layer >= layers) return false;
  return (layer - first_dense_layers) % moe_layer_step == moe_layer_step - 1;
}

const std::vector<ModelShape>& AllModels() {
  static const std::vector<ModelShape> models = [] {
    std::vector<ModelShape> out;
    AddGeneratedModels(&out);
    return out;
  }();
  return models;
}

const ModelShape* FindModel(std::string_view name) {
  for (const ModelShape& m : AllModels()) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

WeightLayout::WeightLayout(const ModelShape& model, uint64_t cl_bytes, uint64_t burst_bytes)
    : model_(&model), cl_bytes_(cl_bytes), burst_bytes_(burst_bytes) {
  if (!IsPow2(cl_bytes) || !IsPow2(burst_bytes) || burst_bytes < cl_bytes) {
    throw std::invalid_argument(
        "WeightLayout: cache line and burst must be powers of two, "
        "burst >= line");
  }
  const ModelShape& m = model;
  const uint64_t h = m.hidden;
  const Precision p = m.precision;

  embed_ = AddGroup(GroupKind::kEmbed, -1, -1);
  AddTensor("embed_tokens", m.vocab, h, m.embed_precision);
  CloseGroup();

  layers_.resize(m.layers);
  for (uint64_t l = 0; l < m.layers; ++l) {
    LayerGroups& lg = layers_[l];
    const auto layer = static_cast<int64_t>(l);
    lg.attention = AddGroup(GroupKind::kAttention, layer, -1);
    switch (m.attention) {
      case AttentionKind::kGqa:
        AddTensor("q_proj", m.heads * m.head_dim, h, p);
        AddTensor("k_proj", m.kv_heads * m.head_dim, h, p);
        AddTensor("v_proj", m.kv_heads * m.head_dim, h, p);
        AddTensor("o_proj", h, m.heads * m.head_dim, p);
        break;
      case AttentionKind::kMla:
        AddTensor("q_a_proj", m.q_lora_rank, h, p);
        AddTensor("q_b_proj", m.heads * (m.qk_nope_head_dim + m.qk_rope_head_dim), m.q_lora_rank,
                  p);
        AddTensor("kv_a_proj", m.kv_lora_rank + m.qk_rope_head_dim, h, p);
        AddTensor("kv_b_proj", m.heads * (m.qk_nope_head_dim + m.v_head_dim), m.kv_lora_rank, p);
        AddTensor("o_proj", h, m.heads * m.v_head_dim, p);
        break;
      case AttentionKind::kDsv4:
        AddTensor("q_a_proj", m.q_lora_rank, h, p);
        AddTensor("q_b_proj", m.heads * m.head_dim, m.q_lora_rank, p);
        AddTensor("kv_proj", m.head_dim, h, p);
        // Grouped output: each of o_groups groups maps its heads to o_lora_rank features.
        AddTensor("o_a_proj", m.o_groups * m.o_lora_rank, m.heads * m.head_dim / m.o_groups, p);
        AddTensor("o_b_proj", h, m.o_groups * m.o_lora_rank, p);
        break;
    }
    CloseGroup();
    if (!m.IsMoeLayer(l)) {
      lg.mlp = AddGroup(GroupKind::kDenseMlp, layer, -1);
      AddFfn(m.dense_intermediate, p);
      CloseGroup();
      continue;
    }
    lg.router = AddGroup(GroupKind::kRouter, layer, -1);
    AddTensor("router", m.experts, h, m.router_precision);
    CloseGroup();
    if (m.shared_experts > 0) {
      lg.shared = AddGroup(GroupKind::kShared, layer, -1);
      AddFfn(m.shared_experts * m.shared_intermediate, p);
      CloseGroup();
    }
    for (uint64_t e = 0; e < m.experts; ++e) {
      const uint32_t g = AddGroup(GroupKind::kExpert, layer, static_cast<int64_t>(e));
      if (e == 0) lg.first_expert = g;
      AddFfn(m.expert_intermediate, m.expert_precision);
      CloseGroup();
    }
  }

  head_ = AddGroup(GroupKind::kHead, -1, -1);
  AddTensor("lm_head", m.vocab, h, m.embed_precision);
  CloseGroup();
  total_bursts_ = cursor_ / burst_bytes_;
}

uint32_t WeightLayout::AddGroup(GroupKind kind, int64_t layer, int64_t expert) {
  Group g;
  g.kind = kind;
  g.layer = layer;
  g.expert = expert;
  g.first_tensor = static_cast<uint32_t>(tensors_.size());
  g.offset = AlignUp(cursor_, burst_bytes_);
  cursor_ = g.offset;
  groups_.push_back(g);
  return static_cast<uint32_t>(groups_.size() - 1);
}

void WeightLayout::AddTensor(const char* name, uint64_t rows, uint64_t cols, Precision p) {
  Tensor t;
  t.name = name;
  t.rows = rows;
  t.cols = cols;
  t.precision = p;
  t.bytes = (rows * cols * PrecisionBits(p) + 7) / 8;
  t.offset = AlignUp(cursor_, cl_bytes_);
  t.group = static_cast<uint32_t>(groups_.size() - 1);
  cursor_ = t.offset + t.bytes;
  weight_bytes_ += t.bytes;
  params_ += t.Params();
  tensors_.push_back(t);
  groups_.back().tensor_count++;
}

void WeightLayout::CloseGroup() {
  Group& g = groups_.back();
  g.bytes = cursor_ - g.offset;
  g.first_burst = g.offset / burst_bytes_;
  cursor_ = AlignUp(cursor_, burst_bytes_);
  g.bursts = cursor_ / burst_bytes_ - g.first_burst;
}

void WeightLayout::AddFfn(uint64_t intermediate, Precision p) {
  AddTensor("gate_proj", intermediate, model_->hidden, p);
  AddTensor("up_proj", intermediate, model_->hidden, p);
  AddTensor("down_proj", model_->hidden, intermediate, p);
}

uint32_t WeightLayout::ExpertGroup(uint64_t layer, uint64_t expert) const {
  const LayerGroups& lg = layers_.at(layer);
  if (lg.first_expert == kNone || expert >= model_->experts) {
    throw std::out_of_range("WeightLayout::ExpertGroup: layer " + std::to_string(layer) +
                            " has no expert " + std::to_string(expert));
  }
  return lg.first_expert + static_cast<uint32_t>(expert);
}

uint64_t WeightLayout::GroupWeightBytes(uint32_t g) const {
  uint64_t sum = 0;
  const Group& grp = groups_.at(g);
  for (uint32_t t = grp.first_tensor; t < grp.first_tensor + grp.tensor_count; ++t) {
    sum += tensors_[t].bytes;
  }
  return sum;
}

uint64_t WeightLayout::ActiveParams() const {
  uint64_t active = 0;
  for (const Group& g : groups_) {
    if (g.kind == GroupKind::kEmbed) continue;
    if (g.kind == GroupKind::kExpert && static_cast<uint64_t>(g.expert) >= model_->top_k) continue;
    for (uint32_t t = g.first_tensor; t < g.first_tensor + g.tensor_count; ++t) {
      active += tensors_[t].Params();
    }
  }
  return active;
}

uint32_t WeightLayout::TensorAtLine(uint64_t line) const {
  const uint64_t byte = line * cl_bytes_;
  auto it = std::upper_bound(tensors_.begin(), tensors_.end(), byte,
                             [](uint64_t b, const Tensor& t) { return b < t.offset; });
  if (it == tensors_.begin()) return kNone;
  --it;
  if (byte >= it->offset + it->bytes) return kNone;
  return static_cast<uint32_t>(it - tensors_.begin());
}

}  // namespace flint::sim
