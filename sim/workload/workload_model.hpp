// LLM shapes (sim/workload/models.toml, compiled in) and their weight layout in HBF: every
// tensor of the model at a fixed model-logical byte address, groups of tensors aligned to the
// 2 MiB (config) burst, and the block striping of bursts across stacks (docs/workloads.md).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace flint::sim {

enum class Precision : uint8_t { kBf16, kFp8, kFp4 };
uint64_t PrecisionBits(Precision p);
std::string_view PrecisionName(Precision p);

enum class AttentionKind : uint8_t { kGqa, kMla, kDsv4 };

// One model as models.toml describes it (field meanings are documented there).
struct ModelShape {
  std::string name;
  std::string display;
  std::string notes;
  bool synthetic = false;
  std::vector<std::string> sources;
  std::vector<std::string> assumed;
  uint64_t layers = 0;
  uint64_t hidden = 0;
  uint64_t vocab = 0;
  Precision precision = Precision::kBf16;
  Precision expert_precision = Precision::kBf16;
  Precision router_precision = Precision::kBf16;
  Precision embed_precision = Precision::kBf16;
  double published_params_b = 0;
  double published_active_b = 0;
  AttentionKind attention = AttentionKind::kGqa;
  uint64_t heads = 0;
  uint64_t kv_heads = 0;
  uint64_t head_dim = 0;
  uint64_t q_lora_rank = 0;
  uint64_t kv_lora_rank = 0;
  uint64_t qk_nope_head_dim = 0;
  uint64_t qk_rope_head_dim = 0;
  uint64_t v_head_dim = 0;
  uint64_t o_groups = 0;
  uint64_t o_lora_rank = 0;
  uint64_t dense_intermediate = 0;
  uint64_t experts = 0;
  uint64_t first_dense_layers = 0;
  uint64_t moe_layer_step = 1;
  uint64_t top_k = 0;
  uint64_t shared_experts = 0;
  uint64_t expert_intermediate = 0;
  uint64_t shared_intermediate = 0;

  bool IsMoe() const { return experts > 0; }
  bool IsMoeLayer(uint64_t layer) const;
};

// Every model of models.toml, in file order.
const std::vector<ModelShape>& AllModels();
// The model named `name`, or nullptr.
const ModelShape* FindModel(std::string_view name);

// What a group of tensors is. A group starts on a burst boundary; its tensors follow each other
// at cache-line boundaries, so one routed expert owns whole bursts (docs/workloads.md, Layout).
enum class GroupKind : uint8_t { kEmbed, kAttention, kDenseMlp, kRouter, kShared, kExpert, kHead };
std::string_view GroupKindName(GroupKind k);

struct Tensor {
  const char* name = "";
  uint64_t rows = 0;  // output features
  uint64_t cols = 0;  // input features (the contiguous dimension)
  Precision precision = Precision::kBf16;
  uint64_t bytes = 0;
  uint64_t offset = 0;  // model-logical byte address, cache-line aligned
  uint32_t group = 0;
  uint64_t Params() const { return rows * cols; }
  uint64_t Lines(uint64_t cl_bytes) const { return (bytes + cl_bytes - 1) / cl_bytes; }
};

struct Group {
  GroupKind kind = GroupKind::kEmbed;
  int64_t layer = -1;   // -1 for the embedding and the LM head
  int64_t expert = -1;  // routed expert id, else -1
  uint32_t first_tensor = 0;
  uint32_t tensor_count = 0;
  uint64_t offset = 0;  // burst aligned
  uint64_t bytes = 0;   // from offset to the end of its last tensor
  uint64_t first_burst = 0;
  uint64_t bursts = 0;
};

// The model's weights laid out in HBF order: embedding; per layer the attention, then either the
// dense MLP or the router, the shared experts and routed experts 0..E-1; the LM head last.
// Norm vectors are left out (they are a few KB and never leave the accelerator's caches).
class WeightLayout {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;
  struct LayerGroups {
    uint32_t attention = kNone;
    uint32_t mlp = kNone;     // dense layers
    uint32_t router = kNone;  // MoE layers
    uint32_t shared = kNone;  // MoE layers with shared experts
    uint32_t first_expert = kNone;
  };

  // cl_bytes and burst_bytes: powers of two, burst a multiple of the line.
  WeightLayout(const ModelShape& model, uint64_t cl_bytes, uint64_t burst_bytes);

  const ModelShape& model() const { return *model_; }
  uint64_t cl_bytes() const { return cl_bytes_; }
  uint64_t burst_bytes() const { return burst_bytes_; }
  uint64_t lines_per_burst() const { return burst_bytes_ / cl_bytes_; }
  const std::vector<Group>& groups() const { return groups_; }
  const std::vector<Tensor>& tensors() const { return tensors_; }
  const LayerGroups& layer(uint64_t l) const { return layers_.at(l); }
  uint32_t embed_group() const { return embed_; }
  uint32_t head_group() const { return head_; }
  uint32_t ExpertGroup(uint64_t layer, uint64_t expert) const;

  uint64_t total_bursts() const { return total_bursts_; }
  uint64_t weight_bytes() const { return weight_bytes_; }  // sum of tensor bytes, no padding
  uint64_t param_count() const { return params_; }
  // Parameters one token activates: everything except the embedding table, with top_k routed
  // experts per MoE layer (the model-card convention, LM head included).
  uint64_t ActiveParams() const;
  // Bytes of a group's tensors (no padding).
  uint64_t GroupWeightBytes(uint32_t g) const;
  // Index of the tensor holding model-logical line `line`, or kNone for padding.
  uint32_t TensorAtLine(uint64_t line) const;

 private:
  uint32_t AddGroup(GroupKind kind, int64_t layer, int64_t expert);
  void AddTensor(const char* name, uint64_t rows, uint64_t cols, Precision p);
  void CloseGroup();
  void AddFfn(uint64_t intermediate, Precision p);

  const ModelShape* model_;
  uint64_t cl_bytes_;
  uint64_t burst_bytes_;
  std::vector<Group> groups_;
  std::vector<Tensor> tensors_;
  std::vector<LayerGroups> layers_;
  uint32_t embed_ = kNone;
  uint32_t head_ = kNone;
  uint64_t cursor_ = 0;  // next free byte
  uint64_t total_bursts_ = 0;
  uint64_t weight_bytes_ = 0;
  uint64_t params_ = 0;
};

// Block striping across stacks (paper Table 2): logical burst b of the model lives on stack
// b mod stacks as that stack's local burst b div stacks.
struct Striping {
  uint32_t stacks = 8;
  uint32_t StackOf(uint64_t burst) const { return static_cast<uint32_t>(burst % stacks); }
  uint64_t LocalBurst(uint64_t burst) const { return burst / stacks; }
  uint64_t GlobalBurst(uint32_t stack, uint64_t local) const { return local * stacks + stack; }
  // Bursts of a model of `total` bursts that land on `stack`.
  uint64_t BurstsOn(uint64_t total, uint32_t stack) const {
    return total / stacks + (stack < total % stacks ? 1 : 0);
  }
};

}  // namespace flint::sim
