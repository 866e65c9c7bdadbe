// Golden model of FLINT's ECC: a (72,64) Hsiao SEC-DED code per 64-bit word (docs/ecc.md).
//
// Word w of a page is data bytes [8w, 8w+8) (little-endian: byte 8w is bits 7:0). On the NAND
// the page image interleaves each word with its check byte (codeword w = image bytes [9w, 9w+9),
// model/nand/page_content.hpp), so a cache line with its check bytes is one contiguous slice.
//
// The H matrix is built here by the Hsiao construction (odd-weight columns, balanced rows),
// from the rule in docs/ecc.md; the RTL carries it as generated localparams, and tb/ecc checks
// the two agree by running the Verilated encoder on unit vectors.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/common/types.hpp"

namespace flint::model {

inline constexpr unsigned kSecdedDataBits = 64;
inline constexpr unsigned kSecdedCheckBits = 8;
inline constexpr unsigned kSecdedCodeBits = kSecdedDataBits + kSecdedCheckBits;
inline constexpr size_t kWordBytes = kSecdedDataBits / 8;

// Column of H for code bit b (0..63 data, 64..71 check): the syndrome a flip of that bit gives.
uint8_t SecdedColumn(unsigned code_bit);
// The 64 data-bit columns, index = data bit.
const std::array<uint8_t, kSecdedDataBits>& SecdedDataColumns();

// Check byte of a data word.
uint8_t SecdedEncode(uint64_t data);

struct SecdedWord {
  uint64_t data = 0;         // corrected data (as read when uncorrectable)
  Status status = Status::kOk;
  uint8_t syndrome = 0;
  int corrected_bit = -1;    // code bit flipped back (0..71), -1 if none
};

// Decode a word read with its check byte.
SecdedWord SecdedDecode(uint64_t data, uint8_t check);

// Status of several words together: any uncorrectable -> uncorrectable, else any corrected ->
// corrected, else ok. The rule the cache-line response uses.
Status ReduceStatus(Status a, Status b);

// ---- byte layout: main area + spare area --------------------------------------------------

// Little-endian word `word` of a byte buffer (the buffer must hold 8*(word+1) bytes).
uint64_t LoadWord(const uint8_t* bytes, size_t word);
void StoreWord(uint8_t* bytes, size_t word, uint64_t value);

// Check bytes of `bytes` bytes of data (a multiple of 8), one per word: the encoder's output
// bus for a line. Throws std::invalid_argument for another size.
std::vector<uint8_t> CheckBytes(const uint8_t* data, size_t bytes);

struct DecodedBlock {
  std::vector<uint8_t> data;          // corrected bytes (uncorrectable words as read)
  Status status = Status::kOk;        // reduced over the words
  std::vector<Status> word_status;    // per word
  unsigned corrected_words = 0;
  unsigned uncorrectable_words = 0;
};

// Decode `bytes` bytes of main data (a cache line, a page, any multiple of 8) with their check
// bytes, which start at `check`. Throws std::invalid_argument if bytes is not a multiple of 8.
DecodedBlock DecodeBlock(const uint8_t* main, size_t bytes, const uint8_t* check);

// Decode an interleaved image slice of whole codewords (a cache line as DataOut returns it:
// cl_image_bytes; or a whole page image). Throws std::invalid_argument if image_bytes is not a
// multiple of 9.
DecodedBlock DecodeImage(const uint8_t* image, size_t image_bytes);
// The same decode with no allocation, for a bench's per-line path: writes the corrected data
// (image_bytes / 9 * 8 bytes) to `data` and returns the status reduced over the words. Throws
// std::invalid_argument as DecodeImage does.
Status DecodeImageInto(const uint8_t* image, size_t image_bytes, uint8_t* data);

// ---- correction limit as probabilities (docs/ecc.md) ---------------------------------------

// P(at least k of n bits flipped) for independent flips at raw bit error rate rber.
double BinomialTail(unsigned n, unsigned k, double rber);
// P(a 72-bit codeword holds >= 2 errors): past the guaranteed correction limit.
double WordBeyondLimitProbability(double rber);
// P(at least one of `words` codewords is past the limit).
double BlockBeyondLimitProbability(double rber, size_t words);

}  // namespace flint::model
