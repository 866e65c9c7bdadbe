// The simulator's one argument parser (sim/tools/*): a table of flags, each a switch or a flag
// with a value, its help text and its default, from which `--help` (or `-h`) prints the usage
// and exits 0. Anything the table does not hold, a flag without its value, a number that is not
// one or out of its range is refused: a message naming the flag on stderr, exit 2 (Fail). Also
// the parsing of numbers and comma lists for a tool's own checks, and a progress line for long
// runs.
//
//   flint::cli::Cli cli("flint-x", "--in FILE [options]", "What flint-x does.");
//   cli.Text("--in", "FILE", "the input", &in).Count("--seed", "S", "the seed", &seed);
//   cli.Parse(argc, argv);
//
// A flag's value follows it as the next argument (`--seed 3`) or after '=' (`--seed=3`); given
// twice, the last one counts. The default shown is the bound variable's value when the flag is
// declared (Default() replaces or, with "", hides it).
//
// No library: the Debian packages of CLI11 and cxxopts exist but are not installed by
// scripts/setup.sh, and their own messages would replace the ones the tools' tests pin.
#pragma once
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace flint::cli {

// printf-style formatting of one number.
inline std::string Fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// The shortest text that reads back as exactly `v`.
inline std::string Exact(double v) {
  char buf[40];
  for (int prec = 1; prec <= 17; ++prec) {
    std::snprintf(buf, sizeof buf, "%.*g", prec, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

class Cli {
 public:
  // `synopsis` follows "usage: TOOL " on the first line of the usage; `about` is a paragraph
  // after it.
  explicit Cli(std::string tool, std::string synopsis = "[options]", std::string about = "")
      : tool_(std::move(tool)), synopsis_(std::move(synopsis)), about_(std::move(about)) {}

  const std::string& tool() const { return tool_; }

  [[noreturn]] void Fail(const std::string& msg) const {
    std::cerr << tool_ << ": " << msg << "\n(" << tool_ << " --help lists the options)\n";
    std::exit(2);
  }

  // ---- The flag table ----
  using Setter = std::function<void(const std::string& value)>;

  // A heading in the usage before the flags declared after it ("h3 engine:").
  Cli& Section(std::string title) {
    rows_.push_back({"", "", std::move(title), "", nullptr, nullptr});
    return *this;
  }
  // A switch: `on` runs when it is given.
  Cli& Switch(std::string name, std::string help, std::function<void()> on) {
    rows_.push_back({std::move(name), "", std::move(help), "", nullptr, std::move(on)});
    return *this;
  }
  Cli& Switch(std::string name, std::string help, bool* out) {
    return Switch(std::move(name), std::move(help), [out] { *out = true; });
  }
  // A flag with a value: `set` gets the text; it may call Fail, or throw std::invalid_argument
  // (refused with its message, after the flag's name if the message does not start with it).
  Cli& Value(std::string name, std::string metavar, std::string help, Setter set,
             std::string def = "") {
    rows_.push_back({std::move(name), std::move(metavar), std::move(help), std::move(def),
                     std::move(set), nullptr});
    return *this;
  }
  Cli& Text(std::string name, std::string metavar, std::string help, std::string* out) {
    const std::string def = *out;
    return Value(
        std::move(name), std::move(metavar), std::move(help),
        [out](const std::string& v) { *out = v; }, def);
  }
  // A decimal number in [lo, hi].
  template <class T>
  Cli& Count(std::string name, std::string metavar, std::string help, T* out, uint64_t lo = 0,
             uint64_t hi = std::numeric_limits<T>::max()) {
    const std::string flag = name;
    return Value(
        std::move(name), std::move(metavar), std::move(help),
        [this, out, flag, lo, hi](const std::string& v) {
          *out = static_cast<T>(U64(flag, v, lo, hi));
        },
        std::to_string(*out));
  }
  // A finite number in [lo, hi].
  Cli& Number(std::string name, std::string metavar, std::string help, double* out,
              double lo = -std::numeric_limits<double>::infinity(),
              double hi = std::numeric_limits<double>::infinity()) {
    const std::string flag = name;
    return Value(
        std::move(name), std::move(metavar), std::move(help),
        [this, out, flag, lo, hi](const std::string& v) {
          const double x = Real(flag, v);
          if (x < lo || x > hi) {
            Fail(flag +
                 (std::isinf(hi)   ? " must be at least " + Exact(lo)
                  : std::isinf(lo) ? " must be at most " + Exact(hi)
                                   : " must be in [" + Exact(lo) + ", " + Exact(hi) + "]") +
                 ", not '" + v + "'");
          }
          *out = x;
        },
        Exact(*out));
  }
  // One of `choices`; the metavar lists them.
  Cli& Choice(std::string name, std::string help, std::vector<std::string> choices,
              std::string* out) {
    std::string meta, said;
    for (size_t i = 0; i < choices.size(); ++i) {
      meta += (i ? "|" : "") + choices[i];
      said += (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + choices[i];
    }
    const std::string flag = name;
    return Value(
        std::move(name), meta, std::move(help),
        [this, out, flag, choices, said](const std::string& v) {
          for (const std::string& c : choices) {
            if (c == v) {
              *out = v;
              return;
            }
          }
          Fail(flag + " takes " + said + ", not '" + v + "'");
        },
        *out);
  }
  // Replaces the default shown for the flag declared last ("" hides it).
  Cli& Default(std::string text) {
    rows_.back().def = std::move(text);
    return *this;
  }

  // Parses the command line: --help prints the usage on stdout and exits 0; a refusal exits 2.
  void Parse(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
      std::string a = argv[i];
      if (a == "--help" || a == "-h") {
        std::cout << Usage();
        std::exit(0);
      }
      std::string inline_value;
      bool has_inline = false;
      const size_t eq = a.find('=');
      if (a.rfind("--", 0) == 0 && eq != std::string::npos) {
        inline_value = a.substr(eq + 1);
        a = a.substr(0, eq);
        has_inline = true;
      }
      const Row* row = Find(a);
      if (row == nullptr) {
        Fail(a.rfind("-", 0) == 0 ? "unknown option '" + a + "'"
                                  : "unexpected argument '" + a + "'");
      }
      given_.insert(a);
      if (row->on) {
        if (has_inline) Fail(a + " takes no value");
        row->on();
        continue;
      }
      if (!has_inline && i + 1 >= argc) Fail(a + " needs a value");
      const std::string v = has_inline ? inline_value : argv[++i];
      try {
        row->set(v);
      } catch (const std::invalid_argument& e) {
        const std::string what = e.what();
        Fail(what.rfind(a, 0) == 0 ? what : a + ": " + what);
      }
    }
  }

  // Whether the flag was on the command line.
  bool Given(const std::string& name) const { return given_.count(name) != 0; }

  // The usage, generated from the table.
  std::string Usage() const {
    std::ostringstream o;
    o << "usage: " << tool_ << " " << synopsis_ << "\n";
    if (!about_.empty()) o << "\n" << about_ << (about_.back() == '\n' ? "" : "\n");
    // A table that starts with a section has its own headings.
    o << (!rows_.empty() && rows_.front().name.empty() ? "\n" : "\noptions:\n");
    for (const Row& r : rows_) {
      if (r.name.empty()) {
        o << r.help << "\n";
        continue;
      }
      std::string head = "  " + r.name + (r.metavar.empty() ? "" : " " + r.metavar);
      std::string help = r.help;
      if (!r.def.empty()) help += " (default " + r.def + ")";
      if (head.size() + 2 > kHelpColumn) {
        o << head << "\n";
        head.clear();
      }
      head.resize(kHelpColumn, ' ');
      std::istringstream lines(help);
      std::string line;
      bool first = true;
      while (std::getline(lines, line)) {
        // Long lines wrap at a space to stay within kWidth.
        while (!line.empty()) {
          size_t cut = line.size();
          if (kHelpColumn + cut > kWidth) {
            cut = line.rfind(' ', kWidth - kHelpColumn);
            if (cut == std::string::npos || cut == 0) cut = line.find(' ');
            if (cut == std::string::npos) cut = line.size();
          }
          o << (first ? head : std::string(kHelpColumn, ' ')) << line.substr(0, cut) << "\n";
          first = false;
          line.erase(0, cut < line.size() ? cut + 1 : cut);
        }
      }
    }
    o << "  -h, --help" << std::string(kHelpColumn - 12, ' ') << "this text\n";
    return o.str();
  }

  // ---- Numbers and lists, for the tools' own checks ----

  // A decimal number that fits 64 bits (at most 19 digits), in [lo, hi].
  uint64_t U64(const std::string& flag, const std::string& s, uint64_t lo = 0,
               uint64_t hi = UINT64_MAX) const {
    if (s.empty() || s.size() > 19 || s.find_first_not_of("0123456789") != std::string::npos) {
      Fail(flag + " needs a decimal number, not '" + s + "'");
    }
    const uint64_t v = std::stoull(s);
    if (v < lo || v > hi) {
      Fail(flag +
           (hi == UINT64_MAX ? " must be at least " + std::to_string(lo)
                             : " must be in " + std::to_string(lo) + ".." + std::to_string(hi)) +
           ", not '" + s + "'");
    }
    return v;
  }

  // A finite decimal number (the caller checks its range).
  double Real(const std::string& flag, const std::string& s) const {
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(v)) {
      Fail(flag + " needs a number, not '" + s + "'");
    }
    return v;
  }

  // Comma-separated items, none empty.
  std::vector<std::string> List(const std::string& flag, const std::string& s) const {
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ',')) {
      if (item.empty()) Fail(flag + " has an empty item in '" + s + "'");
      out.push_back(item);
    }
    if (out.empty() || s.back() == ',') Fail(flag + " has an empty item in '" + s + "'");
    return out;
  }

 private:
  static constexpr size_t kHelpColumn = 24;  // where the help texts start
  static constexpr size_t kWidth = 100;      // the usage's lines at most
  struct Row {
    std::string name, metavar, help, def;
    Setter set;                // a flag with a value
    std::function<void()> on;  // a switch
  };
  const Row* Find(const std::string& name) const {
    for (const Row& r : rows_) {
      if (!r.name.empty() && r.name == name) return &r;
    }
    return nullptr;
  }

  std::string tool_, synopsis_, about_;
  std::vector<Row> rows_;
  std::set<std::string> given_;
};

// A progress line on stderr for a run of `total` steps: "tool: 3/8 what, 41 s, ~68 s left".
// Step() prints every step when each is long (min_gap 0), else at most every min_gap seconds
// and at the last step.
class Progress {
 public:
  Progress(std::string tool, uint64_t total, double min_gap_s = 0)
      : tool_(std::move(tool)),
        total_(total),
        min_gap_s_(min_gap_s),
        t0_(std::chrono::steady_clock::now()),
        last_(t0_) {}

  void Step(uint64_t done, const std::string& what = "") {
    const auto now = std::chrono::steady_clock::now();
    const double since = std::chrono::duration<double>(now - last_).count();
    if (done < total_ && min_gap_s_ > 0 && since < min_gap_s_) return;
    last_ = now;
    const double el = std::chrono::duration<double>(now - t0_).count();
    std::cerr << tool_ << ": " << done << "/" << total_ << (what.empty() ? "" : " ") << what << ", "
              << static_cast<uint64_t>(el + 0.5) << " s";
    if (done > 0 && done < total_) {
      const double left = el / static_cast<double>(done) * static_cast<double>(total_ - done);
      std::cerr << ", ~" << static_cast<uint64_t>(left + 0.5) << " s left";
    }
    std::cerr << "\n";
  }

 private:
  std::string tool_;
  uint64_t total_;
  double min_gap_s_;
  std::chrono::steady_clock::time_point t0_, last_;
};

}  // namespace flint::cli
