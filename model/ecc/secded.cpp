#include "model/ecc/secded.hpp"

#include <bitset>
#include <cmath>
#include <stdexcept>
#include <string>

#include "model/nand/page_content.hpp"

namespace flint::model {
namespace {

unsigned Weight(unsigned v) { return static_cast<unsigned>(std::bitset<8>(v).count()); }

uint8_t RotateLeft8(uint8_t v, unsigned k) {
  k %= 8;
  return k == 0 ? v : static_cast<uint8_t>((v << k) | (v >> (8 - k)));
}

// Hsiao's rule for 64 data bits and 8 check bits: every column odd and distinct, rows as equal
// as possible. The 56 weight-3 vectors (ascending) plus 8 weight-5 vectors whose ones are 5
// consecutive rows (cyclically) give 21 + 5 = 26 ones in every row.
std::array<uint8_t, kSecdedDataBits> BuildColumns() {
  std::array<uint8_t, kSecdedDataBits> cols{};
  size_t n = 0;
  for (unsigned v = 0; v < 256; ++v) {
    if (Weight(v) == 3) cols[n++] = static_cast<uint8_t>(v);
  }
  for (unsigned k = 0; k < 8; ++k) cols[n++] = RotateLeft8(0x1F, k);
  if (n != kSecdedDataBits) throw std::logic_error("secded: Hsiao construction miscounted");
  // The properties the code's guarantees rest on; a wrong table must not go unnoticed.
  std::bitset<256> seen;
  for (unsigned j = 0; j < kSecdedCheckBits; ++j) seen.set(1u << j);
  for (uint8_t c : cols) {
    if (Weight(c) % 2 == 0 || seen.test(c)) {
      throw std::logic_error("secded: column even or repeated");
    }
    seen.set(c);
  }
  for (unsigned j = 0; j < kSecdedCheckBits; ++j) {
    unsigned ones = 0;
    for (uint8_t c : cols) ones += (c >> j) & 1u;
    if (ones != 26) throw std::logic_error("secded: rows not balanced");
  }
  return cols;
}

// Syndrome -> code bit (0..71) or -1: the decoder's lookup.
std::array<int, 256> BuildSyndromeTable() {
  std::array<int, 256> table{};
  table.fill(-1);
  for (unsigned b = 0; b < kSecdedCodeBits; ++b) table[SecdedColumn(b)] = static_cast<int>(b);
  return table;
}

void RequireWordMultiple(size_t bytes, const char* what) {
  if (bytes % kWordBytes != 0) {
    throw std::invalid_argument(std::string("secded: ") + what + " = " + std::to_string(bytes) +
                                " bytes is not a multiple of the 8-byte code word");
  }
}

}  // namespace

const std::array<uint8_t, kSecdedDataBits>& SecdedDataColumns() {
  static const std::array<uint8_t, kSecdedDataBits> cols = BuildColumns();
  return cols;
}

uint8_t SecdedColumn(unsigned code_bit) {
  if (code_bit < kSecdedDataBits) return SecdedDataColumns()[code_bit];
  if (code_bit < kSecdedCodeBits) return static_cast<uint8_t>(1u << (code_bit - kSecdedDataBits));
  throw std::out_of_range("secded: code bit " + std::to_string(code_bit) + " > 71");
}

namespace {
// The check byte is linear in the data: the XOR of one table entry per data byte (the XOR of
// the columns of that byte's set bits), built once from the H matrix.
std::array<std::array<uint8_t, 256>, 8> BuildEncodeTables() {
  const auto& cols = SecdedDataColumns();
  std::array<std::array<uint8_t, 256>, 8> t{};
  for (unsigned byte = 0; byte < 8; ++byte) {
    for (unsigned v = 0; v < 256; ++v) {
      uint8_t c = 0;
      for (unsigned b = 0; b < 8; ++b) {
        if ((v >> b) & 1u) c ^= cols[byte * 8 + b];
      }
      t[byte][v] = c;
    }
  }
  return t;
}
}  // namespace

uint8_t SecdedEncode(uint64_t data) {
  static const auto tables = BuildEncodeTables();
  uint8_t check = 0;
  for (unsigned byte = 0; byte < 8; ++byte) check ^= tables[byte][(data >> (8 * byte)) & 0xFF];
  return check;
}

SecdedWord SecdedDecode(uint64_t data, uint8_t check) {
  static const std::array<int, 256> table = BuildSyndromeTable();
  SecdedWord out;
  out.data = data;
  out.syndrome = static_cast<uint8_t>(SecdedEncode(data) ^ check);
  if (out.syndrome == 0) {
    out.status = Status::kOk;
    return out;
  }
  const int bit = table[out.syndrome];
  if (bit < 0) {
    out.status = Status::kUncorrectable;  // even syndrome (double error) or an unused odd one
    return out;
  }
  out.status = Status::kCorrected;
  out.corrected_bit = bit;
  if (bit < static_cast<int>(kSecdedDataBits)) out.data ^= uint64_t{1} << bit;
  return out;
}

Status ReduceStatus(Status a, Status b) {
  if (a == Status::kUncorrectable || b == Status::kUncorrectable) return Status::kUncorrectable;
  if (a == Status::kCorrected || b == Status::kCorrected) return Status::kCorrected;
  return Status::kOk;
}

uint64_t LoadWord(const uint8_t* bytes, size_t word) {
  uint64_t v = 0;
  for (size_t k = 0; k < kWordBytes; ++k) {
    v |= static_cast<uint64_t>(bytes[word * kWordBytes + k]) << (8 * k);
  }
  return v;
}

void StoreWord(uint8_t* bytes, size_t word, uint64_t value) {
  for (size_t k = 0; k < kWordBytes; ++k) {
    bytes[word * kWordBytes + k] = static_cast<uint8_t>(value >> (8 * k));
  }
}

std::vector<uint8_t> CheckBytes(const uint8_t* data, size_t bytes) {
  RequireWordMultiple(bytes, "data");
  std::vector<uint8_t> check(bytes / kWordBytes);
  for (size_t w = 0; w < check.size(); ++w) check[w] = SecdedEncode(LoadWord(data, w));
  return check;
}

DecodedBlock DecodeBlock(const uint8_t* main, size_t bytes, const uint8_t* check) {
  RequireWordMultiple(bytes, "block");
  DecodedBlock out;
  out.data.assign(main, main + bytes);
  const size_t words = bytes / kWordBytes;
  out.word_status.resize(words);
  for (size_t w = 0; w < words; ++w) {
    const SecdedWord d = SecdedDecode(LoadWord(main, w), check[w]);
    StoreWord(out.data.data(), w, d.data);
    out.word_status[w] = d.status;
    out.status = ReduceStatus(out.status, d.status);
    out.corrected_words += d.status == Status::kCorrected;
    out.uncorrectable_words += d.status == Status::kUncorrectable;
  }
  return out;
}

DecodedBlock DecodeImage(const uint8_t* image, size_t image_bytes) {
  if (image_bytes % kCodewordBytes != 0) {
    throw std::invalid_argument("secded: an image slice of " + std::to_string(image_bytes) +
                                " bytes is not a whole number of 9-byte codewords");
  }
  const size_t words = image_bytes / kCodewordBytes;
  std::vector<uint8_t> data(words * kWordBytes), check(words);
  SplitImage(image, words, data.data(), check.data());
  return DecodeBlock(data.data(), data.size(), check.data());
}

Status DecodeImageInto(const uint8_t* image, size_t image_bytes, uint8_t* data) {
  if (image_bytes % kCodewordBytes != 0) {
    throw std::invalid_argument("secded: an image slice of " + std::to_string(image_bytes) +
                                " bytes is not a whole number of 9-byte codewords");
  }
  Status status = Status::kOk;
  for (size_t w = 0; w < image_bytes / kCodewordBytes; ++w) {
    const uint8_t* c = image + w * kCodewordBytes;
    const SecdedWord d = SecdedDecode(LoadWord(c, 0), c[kWordBytes]);
    StoreWord(data, w, d.data);
    status = ReduceStatus(status, d.status);
  }
  return status;
}

double BinomialTail(unsigned n, unsigned k, double rber) {
  if (!(rber >= 0.0 && rber <= 1.0)) throw std::invalid_argument("secded: rber outside [0, 1]");
  if (k > n) return 0.0;
  if (rber == 0.0) return k == 0 ? 1.0 : 0.0;
  if (rber == 1.0) return 1.0;
  // Term by term from k up: no 1 - (1-p)^n cancellation at small rber.
  double total = 0.0;
  for (unsigned j = k; j <= n; ++j) {
    const double log_term = std::lgamma(n + 1.0) - std::lgamma(j + 1.0) -
                            std::lgamma(n - j + 1.0) + j * std::log(rber) +
                            (n - j) * std::log1p(-rber);
    total += std::exp(log_term);
  }
  return total;
}

double WordBeyondLimitProbability(double rber) { return BinomialTail(kSecdedCodeBits, 2, rber); }

double BlockBeyondLimitProbability(double rber, size_t words) {
  const double q = WordBeyondLimitProbability(rber);
  return -std::expm1(static_cast<double>(words) * std::log1p(-q));
}

}  // namespace flint::model
