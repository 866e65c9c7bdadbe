// Golden model of FLINT's ECC: a (72,64) Hsiao SEC-DED code per 64-bit word (docs/ecc.md).
//
// A NAND page holds page_bytes of data and page_bytes/8 bytes of spare: word w of the page is
// main bytes [8w, 8w+8) (little-endian: byte 8w is bits 7:0) and its check byte is spare byte w.
// A cache line of cl_bytes is cl_bytes/8 consecutive words, so its check bytes are the
// consecutive spare bytes [line * cl_bytes/8, (line+1) * cl_bytes/8).
//
// The H matrix is built here by the Hsiao construction (odd-weight columns, balanced rows),
// from the rule in docs/ecc.md; the RTL carries it as generated localparams, and tb/ecc checks
// the two agree by running the Verilated encoder on unit vectors.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
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

// Spare byte that holds the check bits of main-area word `word`, and the first spare byte of
// cache line `line` of a page (cl_bytes/8 check bytes follow it).
inline constexpr size_t SpareByteOfWord(size_t word) { return word; }
size_t SpareOffsetOfLine(size_t line, size_t cl_bytes);

// Spare bytes the code needs for main_bytes of data (main_bytes must be a multiple of 8).
size_t SpareBytesNeeded(size_t main_bytes);

// Fill spare[0 .. main_bytes/8) with the check bytes of main and any spare bytes past those with
// 0xFF (as an erased cell reads). Throws std::invalid_argument if main_bytes is not a multiple
// of 8 or the spare area is too small. Its signature is the NAND model's SpareFn
// (model/nand/page_content.hpp): `die.SetSpareFn(flint::model::EncodeSpare)` installs the code.
void EncodeSpare(const uint8_t* main, size_t main_bytes, uint8_t* spare, size_t spare_bytes);

// The same as a value: main-area bytes -> spare-area bytes (spare_bytes of them, check bytes
// first, the rest 0xFF). Throws as EncodeSpare.
std::vector<uint8_t> SpareForMain(const std::vector<uint8_t>& main, size_t spare_bytes);
using SpareHook = std::function<std::vector<uint8_t>(const std::vector<uint8_t>&)>;
// A hook bound to one spare size, for a NAND model configured with it.
SpareHook MakeSpareHook(size_t spare_bytes);

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

// Decode cache line `line` of a page given its whole main and spare areas.
DecodedBlock DecodeLine(const std::vector<uint8_t>& page_main,
                        const std::vector<uint8_t>& page_spare, size_t line, size_t cl_bytes);

// ---- correction limit as probabilities (docs/ecc.md) ---------------------------------------

// P(at least k of n bits flipped) for independent flips at raw bit error rate rber.
double BinomialTail(unsigned n, unsigned k, double rber);
// P(a 72-bit codeword holds >= 2 errors): past the guaranteed correction limit.
double WordBeyondLimitProbability(double rber);
// P(at least one of `words` codewords is past the limit).
double BlockBeyondLimitProbability(double rber, size_t words);

}  // namespace flint::model
