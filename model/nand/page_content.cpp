#include "model/nand/page_content.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace flint::model {

uint64_t TagKey(const PageTag& tag) {
  // Distinct fields never alias: each passes through the mixer before the next joins.
  uint64_t k = Mix64(tag.burst ^ 0x46'4c'49'4e'54'00'00'01ULL);  // "FLINT" salt
  k = Mix64(k ^ tag.slice);
  return Mix64(k ^ (static_cast<uint64_t>(tag.generation) << 32));
}

namespace {

// The hook to call: an empty one falls back to ErasedSpare.
const SpareFn& HookOrErased(const SpareFn& fn) {
  static const SpareFn erased = ErasedSpare;
  return fn ? fn : erased;
}

// Bytes [offset, offset+n) of the stream whose word w is word_fn(w), little endian.
template <class WordFn>
void StreamBytes(WordFn word_fn, uint64_t offset, uint64_t n, uint8_t* out) {
  uint64_t pos = offset;
  const uint64_t end = offset + n;
  // Leading partial word.
  if (pos % 8 != 0 && pos < end) {
    const uint64_t w = word_fn(pos / 8);
    for (; pos % 8 != 0 && pos < end; ++pos) *out++ = static_cast<uint8_t>(w >> (8 * (pos % 8)));
  }
  // Whole words.
  for (; pos + 8 <= end; pos += 8) {
    const uint64_t w = word_fn(pos / 8);
    for (int b = 0; b < 8; ++b) out[b] = static_cast<uint8_t>(w >> (8 * b));
    out += 8;
  }
  // Trailing partial word.
  if (pos < end) {
    const uint64_t w = word_fn(pos / 8);
    for (; pos < end; ++pos) *out++ = static_cast<uint8_t>(w >> (8 * (pos % 8)));
  }
}

}  // namespace

void TagBytes(const PageTag& tag, uint64_t offset, uint64_t n, uint8_t* out) {
  const uint64_t key = TagKey(tag);
  StreamBytes([key](uint64_t w) { return TagWord(key, w); }, offset, n, out);
}

void InterleaveImage(const uint8_t* data, uint64_t data_bytes, const SpareFn& spare_fn,
                     uint8_t* image) {
  const SpareFn& fn = HookOrErased(spare_fn);
  for (uint64_t w = 0; w < data_bytes / kCodewordDataBytes; ++w) {
    const uint8_t* d = data + w * kCodewordDataBytes;
    uint8_t* c = image + w * kCodewordBytes;
    uint64_t word = 0;
    for (uint64_t b = 0; b < kCodewordDataBytes; ++b) {
      c[b] = d[b];
      word |= uint64_t{d[b]} << (8 * b);
    }
    c[kCodewordDataBytes] = fn(word);
  }
}

std::vector<uint8_t> ImageFromData(const std::vector<uint8_t>& data, const SpareFn& spare_fn) {
  if (data.size() % kCodewordDataBytes != 0) {
    throw std::invalid_argument("ImageFromData: " + std::to_string(data.size()) +
                                " data bytes is not a whole number of 64-bit words");
  }
  std::vector<uint8_t> image(data.size() / kCodewordDataBytes * kCodewordBytes);
  InterleaveImage(data.data(), data.size(), spare_fn, image.data());
  return image;
}

void SplitImage(const uint8_t* image, uint64_t words, uint8_t* data, uint8_t* checks) {
  for (uint64_t w = 0; w < words; ++w) {
    const uint8_t* c = image + w * kCodewordBytes;
    if (data != nullptr) std::memcpy(data + w * kCodewordDataBytes, c, kCodewordDataBytes);
    if (checks != nullptr) checks[w] = c[kCodewordDataBytes];
  }
}

namespace {

uint64_t WholeCodewords(const std::vector<uint8_t>& image_slice, const char* who) {
  if (image_slice.size() % kCodewordBytes != 0) {
    throw std::invalid_argument(std::string(who) + ": an image slice of " +
                                std::to_string(image_slice.size()) +
                                " bytes is not a whole number of 9-byte codewords");
  }
  return image_slice.size() / kCodewordBytes;
}

}  // namespace

std::vector<uint8_t> DataOfImage(const std::vector<uint8_t>& image_slice) {
  const uint64_t words = WholeCodewords(image_slice, "DataOfImage");
  std::vector<uint8_t> data(words * kCodewordDataBytes);
  SplitImage(image_slice.data(), words, data.data(), nullptr);
  return data;
}

std::vector<uint8_t> ChecksOfImage(const std::vector<uint8_t>& image_slice) {
  const uint64_t words = WholeCodewords(image_slice, "ChecksOfImage");
  std::vector<uint8_t> checks(words);
  SplitImage(image_slice.data(), words, nullptr, checks.data());
  return checks;
}

std::vector<uint8_t> LineDataFromImage(const Config& cfg, const std::vector<uint8_t>& line_image) {
  if (line_image.size() != cfg.cl_image_bytes) {
    throw std::invalid_argument("LineDataFromImage: a cache line's image is " +
                                std::to_string(cfg.cl_image_bytes) + " bytes at config '" +
                                std::string(cfg.name) + "', got " +
                                std::to_string(line_image.size()));
  }
  return DataOfImage(line_image);
}

void TagImageBytes(const PageTag& tag, const SpareFn& spare_fn, uint64_t offset, uint64_t n,
                   uint8_t* out) {
  if (n == 0) return;
  const SpareFn& fn = HookOrErased(spare_fn);
  const uint64_t key = TagKey(tag);
  const uint64_t end = offset + n;
  uint64_t pos = offset;
  for (uint64_t w = WordOfImageByte(offset); pos < end; ++w) {
    const uint64_t base = w * kCodewordBytes;
    const uint64_t word = TagWord(key, w);
    if (pos == base && base + kCodewordBytes <= end) {
      // A whole codeword (the common case: lines and pages are whole codewords).
      for (uint64_t j = 0; j < kCodewordDataBytes; ++j) {
        out[j] = static_cast<uint8_t>(word >> (8 * j));
      }
      out[kCodewordDataBytes] = fn(word);
      out += kCodewordBytes;
      pos += kCodewordBytes;
      continue;
    }
    const uint64_t stop = std::min(end, base + kCodewordBytes);
    for (; pos < stop; ++pos) {
      const uint64_t j = pos - base;
      *out++ = j < kCodewordDataBytes ? static_cast<uint8_t>(word >> (8 * j)) : fn(word);
    }
  }
}

std::vector<uint8_t> ExpectedPageImage(const Config& cfg, const PageTag& tag,
                                       const SpareFn& spare_fn) {
  std::vector<uint8_t> image(cfg.page_image_bytes);
  TagImageBytes(tag, spare_fn, 0, image.size(), image.data());
  return image;
}

std::vector<uint8_t> ExpectedLineImage(const Config& cfg, const PageTag& tag, uint64_t line,
                                       const SpareFn& spare_fn) {
  if (line >= cfg.cl_per_page) {
    throw std::out_of_range("ExpectedLineImage: line " + std::to_string(line) + " outside 0.." +
                            std::to_string(cfg.cl_per_page - 1));
  }
  std::vector<uint8_t> image(cfg.cl_image_bytes);
  TagImageBytes(tag, spare_fn, ImageOffsetOfLine(cfg, line), image.size(), image.data());
  return image;
}

void MaterialiseImage(const Config& cfg, const PageImage& image, const SpareFn& spare_fn,
                      uint64_t offset, uint64_t n, uint8_t* out) {
  if (offset + n > cfg.page_image_bytes) {
    throw std::out_of_range("MaterialiseImage: bytes " + std::to_string(offset) + "+" +
                            std::to_string(n) + " outside the page image (" +
                            std::to_string(cfg.page_image_bytes) + " bytes)");
  }
  switch (image.kind) {
    case ContentKind::kErased: std::memset(out, 0xFF, n); break;
    case ContentKind::kBadMarker: std::memset(out, 0x00, n); break;
    case ContentKind::kBytes: std::memcpy(out, image.bytes->data() + offset, n); break;
    case ContentKind::kGarbage: {
      const uint64_t seed = image.garbage_seed;
      StreamBytes([seed](uint64_t w) { return Mix64(seed ^ Mix64(w)); }, offset, n, out);
      break;
    }
    case ContentKind::kTagged: TagImageBytes(image.tag, spare_fn, offset, n, out); break;
  }
  if (image.corrupt) {
    const uint64_t lo = offset * 8, hi = (offset + n) * 8;
    for (uint32_t bit : *image.corrupt) {
      if (bit >= lo && bit < hi) out[bit / 8 - offset] ^= static_cast<uint8_t>(1u << (bit % 8));
    }
  }
}

std::unordered_map<uint32_t, PageImage>& BlockContent::Overrides() {
  if (!overrides_) overrides_ = std::make_unique<std::unordered_map<uint32_t, PageImage>>();
  return *overrides_;
}

void BlockContent::ProgramTag(uint32_t page, const PageTag& tag) {
  const bool extends = page == run_len_ && (run_len_ == 0 || tag == run_base_.Plus(run_len_));
  if (extends) {
    if (run_len_ == 0) run_base_ = tag;
    ++run_len_;
  } else {
    PageImage img;
    img.kind = ContentKind::kTagged;
    img.tag = tag;
    Overrides()[page] = std::move(img);
  }
  next_page_ = page + 1;
}

void BlockContent::ProgramRun(const PageTag& base, uint32_t n) {
  if (n == 0) return;
  const uint32_t first = next_page_;
  if (first == run_len_ && (run_len_ == 0 || base == run_base_.Plus(run_len_))) {
    if (run_len_ == 0) run_base_ = base;
    run_len_ += n;
    next_page_ += n;
    return;
  }
  for (uint32_t i = 0; i < n; ++i) ProgramTag(first + i, base.Plus(i));
}

void BlockContent::ProgramImage(uint32_t page, PageImage image) {
  Overrides()[page] = std::move(image);
  next_page_ = page + 1;
}

void BlockContent::Corrupt(uint32_t page, const std::vector<uint32_t>& bits) {
  PageImage img = Image(page);
  auto all = std::make_shared<std::vector<uint32_t>>();
  if (img.corrupt) *all = *img.corrupt;
  all->insert(all->end(), bits.begin(), bits.end());
  img.corrupt = std::move(all);
  Overrides()[page] = std::move(img);
}

void BlockContent::Erase() {
  run_len_ = 0;
  next_page_ = 0;
  run_base_ = PageTag{};
  overrides_.reset();
}

PageImage BlockContent::Image(uint32_t page) const {
  if (overrides_) {
    auto it = overrides_->find(page);
    if (it != overrides_->end()) return it->second;
  }
  PageImage img;
  if (page < run_len_) {
    img.kind = ContentKind::kTagged;
    img.tag = run_base_.Plus(page);
  }
  return img;  // past the write pointer: erased
}

uint64_t BlockContent::HeapBytes() const {
  if (!overrides_) return 0;
  // Map object, bucket array, and per node the value plus a next pointer and the cached hash.
  uint64_t bytes = sizeof(*overrides_) +  // NOLINT(bugprone-sizeof-container): the map object
                   overrides_->bucket_count() * sizeof(void*);
  for (const auto& [page, img] : *overrides_) {
    bytes += sizeof(std::pair<const uint32_t, PageImage>) + 2 * sizeof(void*);
    if (img.bytes) bytes += img.bytes->capacity() + 2 * sizeof(void*);
    if (img.corrupt) bytes += img.corrupt->capacity() * sizeof(uint32_t) + 2 * sizeof(void*);
  }
  return bytes;
}

}  // namespace flint::model
