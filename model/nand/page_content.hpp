// Procedural page contents and the page image layout (docs/nand_model.md, "Page image" and
// "Contents").
//
// A page holds page_image_bytes = page_bytes + spare_bytes (spare_bytes = page_bytes / 8) as
// page_bytes/8 interleaved codewords of 9 bytes: codeword w is image bytes [9w, 9w+9), the 8
// data bytes of word w (data bytes 8w..8w+7, little endian) followed by that word's check byte.
// Cache line k (cl_bytes of data) is therefore the contiguous image range
// [k * cl_image_bytes, (k+1) * cl_image_bytes), data and check bytes together.
//
// A tagged page's data word w is a splitmix64 hash of the tag and w; its check byte is the spare
// function of that word, installed by whoever owns the code (the ECC encoder), default 0xFF
// (erased). Anyone (golden models, the simulator, tests) computes the expected image with
// ExpectedPageImage / ExpectedLineImage, without a die.
//
// BlockContent stores what a block holds: a run of consecutively tagged pages from page 0 as
// one record (base tag + length), and a sparse map of overrides only for pages that are not
// part of the run (explicit bytes, non-consecutive tags, failed programs, injected corruption).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

#include "flint_config.hpp"
#include "model/nand/nand_types.hpp"

namespace flint::model {

// splitmix64's finaliser: the one mixing function of the model (content, seeds, errors).
inline uint64_t Mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// --- Page image layout ---------------------------------------------------------------------

inline constexpr uint64_t kCodewordDataBytes = 8;  // one 64-bit data word
inline constexpr uint64_t kCodewordBytes = 9;      // the word and its check byte

// Image offset of data byte `data_byte` of a page.
inline constexpr uint64_t ImageOffsetOfData(uint64_t data_byte) {
  return data_byte / kCodewordDataBytes * kCodewordBytes + data_byte % kCodewordDataBytes;
}
// Image offset of the check byte of data word `word`.
inline constexpr uint64_t ImageOffsetOfCheck(uint64_t word) {
  return word * kCodewordBytes + kCodewordDataBytes;
}
// Which codeword an image byte belongs to, and whether it is that codeword's check byte.
inline constexpr uint64_t WordOfImageByte(uint64_t image_byte) {
  return image_byte / kCodewordBytes;
}
inline constexpr bool IsCheckByte(uint64_t image_byte) {
  return image_byte % kCodewordBytes == kCodewordDataBytes;
}
// First image byte of cache line `line` (cl_image_bytes of image per line).
inline uint64_t ImageOffsetOfLine(const Config& cfg, uint64_t line) {
  return line * cfg.cl_image_bytes;
}

// The check (spare) byte of one 64-bit data word: the ECC encoder, e.g.
// `die.SetSpareFn(flint::model::SecdedEncode)`.
using SpareFn = std::function<uint8_t(uint64_t data_word)>;

// The default spare function: 0xFF, an erased check byte (no ECC parity yet).
inline uint8_t ErasedSpare(uint64_t /*data_word*/) { return 0xFF; }

// Interleave `data_bytes` of data (a multiple of 8) with the check bytes `spare_fn` gives:
// writes data_bytes * 9/8 image bytes. An empty spare_fn means ErasedSpare.
void InterleaveImage(const uint8_t* data, uint64_t data_bytes, const SpareFn& spare_fn,
                     uint8_t* image);
// The same as a value. Throws std::invalid_argument if data.size() is not a multiple of 8.
std::vector<uint8_t> ImageFromData(const std::vector<uint8_t>& data,
                                   const SpareFn& spare_fn = ErasedSpare);

// Split `words` whole codewords of an image (a page, a cache line) into their data bytes
// (8 * words) and check bytes (words). Either output may be null.
void SplitImage(const uint8_t* image, uint64_t words, uint8_t* data, uint8_t* checks);
// Data bytes / check bytes of an image slice of whole codewords. Throws std::invalid_argument
// if the slice is not a multiple of 9 bytes.
std::vector<uint8_t> DataOfImage(const std::vector<uint8_t>& image_slice);
std::vector<uint8_t> ChecksOfImage(const std::vector<uint8_t>& image_slice);
// The cl_bytes of data of one cache line's image (cl_image_bytes, as one DataOut returns it).
// Throws std::invalid_argument for a slice of another size.
std::vector<uint8_t> LineDataFromImage(const Config& cfg, const std::vector<uint8_t>& line_image);

// --- Tagged content ------------------------------------------------------------------------

// Seed of a tag's content stream.
uint64_t TagKey(const PageTag& tag);

// Data word `word` (data bytes 8*word .. 8*word+7, little endian) of a tagged page.
inline uint64_t TagWord(uint64_t tag_key, uint64_t word) {
  return Mix64(tag_key ^ (word * 0xd1b54a32d192ed03ULL));
}

// Data bytes [offset, offset+n) of a page programmed with `tag` (data offsets, no check bytes).
void TagBytes(const PageTag& tag, uint64_t offset, uint64_t n, uint8_t* out);

// Image bytes [offset, offset+n) of a page programmed with `tag` under `spare_fn`. Computes
// only the words the range touches.
void TagImageBytes(const PageTag& tag, const SpareFn& spare_fn, uint64_t offset, uint64_t n,
                   uint8_t* out);

// The whole image (page_image_bytes) of a page programmed with `tag`, as read with no errors.
std::vector<uint8_t> ExpectedPageImage(const Config& cfg, const PageTag& tag,
                                       const SpareFn& spare_fn = ErasedSpare);
// The image of cache line `line` of that page (cl_image_bytes: its words, each with its check
// byte), what a DataOut of [line * cl_image_bytes, +cl_image_bytes) returns with no errors.
// Throws std::out_of_range for line >= cl_per_page.
std::vector<uint8_t> ExpectedLineImage(const Config& cfg, const PageTag& tag, uint64_t line,
                                       const SpareFn& spare_fn = ErasedSpare);

// Image bytes [offset, offset+n) of `image`, with its stored corruption applied but no sense
// errors. Throws std::out_of_range past page_image_bytes.
void MaterialiseImage(const Config& cfg, const PageImage& image, const SpareFn& spare_fn,
                      uint64_t offset, uint64_t n, uint8_t* out);

// What one block holds. Pages are programmed in order (the die enforces it), so pages
// [0, programmed()) are programmed and the rest erased.
class BlockContent {
 public:
  uint32_t programmed() const { return next_page_; }
  uint32_t run_length() const { return run_len_; }
  bool has_overrides() const { return overrides_ != nullptr && !overrides_->empty(); }
  std::size_t override_count() const { return overrides_ ? overrides_->size() : 0; }

  // Program the next page (`page` must equal programmed()) with `tag`: O(1) and no allocation
  // when it extends the run of consecutive tags from page 0.
  void ProgramTag(uint32_t page, const PageTag& tag);
  // Program the next `n` pages with tags base, base+1, ...: O(1) when it extends the run.
  void ProgramRun(const PageTag& base, uint32_t n);
  // Program the next page with any image (explicit bytes, garbage): always an override.
  void ProgramImage(uint32_t page, PageImage image);
  // Store flipped bits in a page (kept until erase).
  void Corrupt(uint32_t page, const std::vector<uint32_t>& bits);
  void Erase();

  // The content descriptor of `page`.
  PageImage Image(uint32_t page) const;

  // Heap bytes held beyond sizeof(BlockContent) (approximate for the map's nodes).
  uint64_t HeapBytes() const;

 private:
  std::unordered_map<uint32_t, PageImage>& Overrides();

  PageTag run_base_{};
  uint32_t run_len_ = 0;
  uint32_t next_page_ = 0;
  std::unique_ptr<std::unordered_map<uint32_t, PageImage>> overrides_;
};

}  // namespace flint::model
