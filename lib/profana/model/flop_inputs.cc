#include "profana/model/flop_inputs.h"

#include <cerrno>
#include <cstdlib>

#include "profana/base/json_string.h"

namespace profana {
namespace {

// A cursor over JSON text: the arrays Kineto writes for "Input Dims", "Input type" and
// "Concrete Inputs" (integers, strings, nested arrays). Anything else is a failure.
class Cursor {
 public:
  explicit Cursor(std::string_view text) : s_(text) {}
  void SkipSpace() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\r' || s_[i_] == '\t'))
      ++i_;
  }
  bool Eat(char c) {
    SkipSpace();
    if (i_ < s_.size() && s_[i_] == c) return ++i_, true;
    return false;
  }
  bool Peek(char c) {
    SkipSpace();
    return i_ < s_.size() && s_[i_] == c;
  }
  bool AtEnd() {
    SkipSpace();
    return i_ == s_.size();
  }
  bool Int(int64_t* out) {
    SkipSpace();
    size_t begin = i_;
    if (i_ < s_.size() && s_[i_] == '-') ++i_;
    while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
    if (i_ == begin || (i_ == begin + 1 && s_[begin] == '-')) return false;
    std::string digits(s_.substr(begin, i_ - begin));
    errno = 0;
    long long v = std::strtoll(digits.c_str(), nullptr, 10);
    if (errno == ERANGE) return false;
    *out = v;
    return true;
  }
  bool String(std::string* out) {
    SkipSpace();
    size_t used = 0;
    if (!ParseJsonString(s_.substr(i_), out, &used)) return false;
    i_ += used;
    return true;
  }
  // Any JSON value of the kinds above, skipped.
  bool Skip(int depth = 0) {
    if (depth > 32) return false;
    if (Peek('"')) {
      std::string ignored;
      return String(&ignored);
    }
    if (Eat('[')) {
      if (Eat(']')) return true;
      do {
        if (!Skip(depth + 1)) return false;
      } while (Eat(','));
      return Eat(']');
    }
    int64_t ignored;
    return Int(&ignored);
  }

 private:
  std::string_view s_;
  size_t i_ = 0;
};

// [[4, 16, 32, 32], [32], [], [[128], [128]]]: each entry's integers, or not-ints.
bool ParseDims(std::string_view text, std::vector<FlopInput>* out) {
  Cursor c(text);
  if (!c.Eat('[')) return false;
  if (c.Eat(']')) return c.AtEnd();
  do {
    FlopInput input;
    if (!c.Eat('[')) return false;
    if (!c.Eat(']')) {
      do {
        int64_t d;
        if (c.Peek('[')) {
          input.dims_are_ints = false;
          if (!c.Skip()) return false;
        } else if (c.Int(&d)) {
          input.dims.push_back(d);
        } else {
          return false;
        }
      } while (c.Eat(','));
      if (!c.Eat(']')) return false;
    }
    if (!input.dims_are_ints) input.dims.clear();
    out->push_back(std::move(input));
  } while (c.Eat(','));
  return c.Eat(']') && c.AtEnd();
}

// ["float", "", "Scalar"]; an empty text is an empty list.
bool ParseStrings(std::string_view text, std::vector<std::string>* out) {
  out->clear();
  if (text.empty()) return true;
  Cursor c(text);
  if (!c.Eat('[')) return false;
  if (c.Eat(']')) return c.AtEnd();
  do {
    out->emplace_back();
    if (!c.String(&out->back())) return false;
  } while (c.Eat(','));
  return c.Eat(']') && c.AtEnd();
}

bool IsTensorType(const std::string& type) {
  return !type.empty() && type != "Scalar" && type != "ScalarList" && type != "TensorList";
}

}  // namespace

bool ConcreteIntList(std::string_view text, std::vector<int64_t>* out) {
  Cursor c(text);
  out->clear();
  if (!c.Eat('[')) return false;
  if (c.Eat(']')) return c.AtEnd();
  do {
    int64_t v;
    if (!c.Int(&v)) return false;
    out->push_back(v);
  } while (c.Eat(','));
  return c.Eat(']') && c.AtEnd();
}

bool ConcreteInt(std::string_view text, int64_t* out) {
  Cursor c(text);
  return c.Int(out) && c.AtEnd();
}

bool ParseFlopInputLists(std::string_view joined, std::vector<std::string>* types,
                         std::vector<std::string>* concrete) {
  FlopInputsText text = SplitFlopInputs(joined);
  return ParseStrings(text.types, types) && ParseStrings(text.concrete, concrete);
}

bool ParseFlopInputs(std::string_view joined, std::vector<FlopInput>* out) {
  std::vector<FlopInput> inputs;
  std::vector<std::string> types, concrete;
  if (!ParseDims(SplitFlopInputs(joined).dims, &inputs) ||
      !ParseFlopInputLists(joined, &types, &concrete))
    return false;
  for (size_t k = 0; k < inputs.size(); ++k) {
    if (k < types.size()) inputs[k].is_tensor = IsTensorType(types[k]);
    if (k < concrete.size()) inputs[k].concrete = std::move(concrete[k]);
  }
  *out = std::move(inputs);
  return true;
}

}  // namespace profana
