// The report every bench_* executable writes for scripts/bench.py (make bench):
//   {"name", "description", "results": [{"metric", "value", "unit", "note"}...]}
// and the table it prints.
#pragma once
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace flint::bench {

struct Result {
  std::string metric;
  double value;
  std::string unit;
  std::string note;
};

inline void PrintResults(const std::vector<Result>& results) {
  std::printf("%-52s %14s  %s\n", "metric", "value", "unit");
  for (const Result& r : results) {
    std::printf("%-52s %14.4g  %s\n", r.metric.c_str(), r.value, r.unit.c_str());
  }
}

// Returns false (after a message naming `bench`) if the file cannot be written.
inline bool WriteResults(const std::string& path, const std::string& bench, const std::string& name,
                         const std::string& description, const std::vector<Result>& results) {
  std::ofstream f(path);
  if (!f) {
    std::fprintf(stderr, "%s: cannot write %s\n", bench.c_str(), path.c_str());
    return false;
  }
  f << "{\"name\": \"" << name << "\", \"description\": \"" << description << "\", \"results\": [";
  for (std::size_t i = 0; i < results.size(); ++i) {
    char num[64];
    std::snprintf(num, sizeof num, "%.6g", results[i].value);
    f << (i ? ", " : "") << "{\"metric\": \"" << results[i].metric << "\", \"value\": " << num
      << ", \"unit\": \"" << results[i].unit << "\", \"note\": \"" << results[i].note << "\"}";
  }
  f << "]}\n";
  return static_cast<bool>(f);
}

}  // namespace flint::bench
