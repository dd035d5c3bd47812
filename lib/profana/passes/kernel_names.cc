#include "profana/passes/kernel_names.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

namespace profana::passes {
namespace {

constexpr size_t kNone = std::string_view::npos;
// How many lists inside a kernel's own are shortened (reduce_kernel<ReduceOp<func_wrapper_t<
// sum_functor>>>); deeper ones are dropped, so that a nest of shapes and policies stays short.
constexpr int kNestedLists = 2;

bool IsIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// The length of a name at s[i] that holds brackets: `(anonymous namespace)` and `<unnamed>`
// (GCC's and EDG's spelling of an anonymous namespace) and an operator's name (`operator<`,
// `operator()`, `operator ()`, `operator[]`, `operator->`); 0 anywhere else.
size_t NameToken(std::string_view s, size_t i) {
  for (std::string_view t :
       {std::string_view("(anonymous namespace)"), std::string_view("<unnamed>")})
    if (s.substr(i, t.size()) == t) return t.size();
  constexpr std::string_view kOperator = "operator";
  if (s.substr(i, kOperator.size()) != kOperator || (i > 0 && IsIdentChar(s[i - 1]))) return 0;
  size_t j = i + kOperator.size();
  if (j < s.size() && IsIdentChar(s[j])) return 0;  // operators_, operatorFoo
  while (j < s.size() && s[j] == ' ') ++j;
  for (std::string_view pair : {std::string_view("()"), std::string_view("[]")})
    if (s.substr(j, 2) == pair) return j + 2 - i;
  constexpr std::string_view kSymbols = "<>=!+-*/%&|^~,";
  while (j < s.size() && kSymbols.find(s[j]) != kNone) ++j;
  return j - i;
}

char Closing(char open) {
  switch (open) {
    case '<':
      return '>';
    case '(':
      return ')';
    case '[':
      return ']';
    default:
      return '}';
  }
}
bool IsOpening(char c) { return c == '<' || c == '(' || c == '[' || c == '{'; }

// The index of the bracket that closes the one at s[open], or kNone. A '>' closes only a '<'
// (so `->` and a comparison inside parentheses are text); the other closers close their own
// opener and any '<' left open inside it.
size_t Close(std::string_view s, size_t open) {
  std::vector<char> stack{s[open]};
  for (size_t j = open + 1; j < s.size(); ++j) {
    if (size_t t = NameToken(s, j)) {
      j += t - 1;
      continue;
    }
    char c = s[j];
    if (IsOpening(c)) {
      stack.push_back(c);
    } else if (c == '>') {
      if (stack.back() == '<' && !(j > 0 && s[j - 1] == '-')) stack.pop_back();
    } else if (c == ')' || c == ']' || c == '}') {
      while (!stack.empty() && stack.back() == '<' && Closing(stack.back()) != c) stack.pop_back();
      if (stack.empty() || Closing(stack.back()) != c) return kNone;
      stack.pop_back();
    } else {
      continue;
    }
    if (stack.empty()) return j;
  }
  return kNone;
}

// Calls `part(begin, end)` for each piece of s between top-level occurrences of `sep`.
template <typename Part>
void SplitTopLevel(std::string_view s, std::string_view sep, Part&& part) {
  size_t begin = 0;
  for (size_t j = 0; j < s.size();) {
    if (size_t t = NameToken(s, j)) {
      j += t;
    } else if (IsOpening(s[j])) {
      size_t close = Close(s, j);
      j = close == kNone ? s.size() : close + 1;
    } else if (s.substr(j, sep.size()) == sep) {
      part(begin, j);
      j += sep.size();
      begin = j;
    } else {
      ++j;
    }
  }
  part(begin, s.size());
}

// The index of the first top-level `c` in s (an opener), or kNone.
size_t FindTopLevel(std::string_view s, char c) {
  for (size_t j = 0; j < s.size();) {
    if (size_t t = NameToken(s, j)) {
      j += t;
      continue;
    }
    if (s[j] == c) return j;
    if (IsOpening(s[j])) {
      size_t close = Close(s, j);
      if (close == kNone) return kNone;
      j = close + 1;
      continue;
    }
    ++j;
  }
  return kNone;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

// A type without its cv-qualifiers, pointers and references: `const char *` -> `char`.
std::string_view BareType(std::string_view s) {
  s = Trim(s);
  for (std::string_view word : {"const ", "volatile ", "struct ", "class ", "enum "})
    if (s.substr(0, word.size()) == word) s = Trim(s.substr(word.size()));
  for (bool changed = true; changed;) {
    changed = false;
    while (!s.empty() && (s.back() == '*' || s.back() == '&' || s.back() == ' ')) {
      s.remove_suffix(1);
      changed = true;
    }
    for (std::string_view word : {" const", " volatile", " __restrict__"}) {
      if (s.size() >= word.size() && s.substr(s.size() - word.size()) == word) {
        s.remove_suffix(word.size());
        changed = true;
      }
    }
  }
  return s;
}

// s after its last top-level `::`: `at::native::<unnamed>::MulFunctor<float>` ->
// `MulFunctor<float>`.
std::string_view LastComponent(std::string_view s) {
  size_t last = 0;
  SplitTopLevel(s, "::", [&](size_t begin, size_t) { last = begin; });
  return s.substr(last);
}

// The element types of CUDA, PyTorch and CUTLASS kernels (without namespaces): they tell a
// kernel's dtype, not its operation.
bool IsScalarTypeName(std::string_view name) {
  static constexpr std::array<std::string_view, 34> kScalars = {
      "void",          "bool",     "char",          "wchar_t",      "short",      "int",
      "long",          "float",    "double",        "half",         "__half",     "__nv_half",
      "__nv_bfloat16", "Half",     "BFloat16",      "half_t",       "bfloat16_t", "tfloat32_t",
      "int8_t",        "int16_t",  "int32_t",       "int64_t",      "uint8_t",    "uint16_t",
      "uint32_t",      "uint64_t", "size_t",        "ptrdiff_t",    "qint8",      "quint8",
      "qint32",        "complex",  "__nv_fp8_e4m3", "__nv_fp8_e5m2"};
  if (std::find(kScalars.begin(), kScalars.end(), name) != kScalars.end()) return true;
  for (std::string_view prefix : {"Float8_", "float_e4m3", "float_e5m2", "quint4x2"})
    if (name.substr(0, prefix.size()) == prefix) return true;
  // CUDA's and HIP's vector types: float4, half2, uint4, HIP_vector_type<float, 4>.
  if (name == "HIP_vector_type") return true;
  if (name.size() >= 2 && name.back() >= '1' && name.back() <= '4') {
    std::string_view base = name.substr(0, name.size() - 1);
    for (std::string_view vector :
         {"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "longlong",
          "ulonglong", "float", "double", "half", "__half", "__nv_bfloat16"})
      if (base == vector) return true;
  }
  // unsigned long, long long, signed char, unsigned int, ...
  bool any = false;
  for (size_t begin = 0; begin <= name.size();) {
    size_t end = std::min(name.find(' ', begin), name.size());
    std::string_view word = name.substr(begin, end - begin);
    if (word != "unsigned" && word != "signed" && word != "long" && word != "short" &&
        word != "int" && word != "char")
      return false;
    any = true;
    begin = end + 1;
  }
  return any;
}

// Types that carry a kernel's operands, not its operation: the pointer arrays, offset
// calculators and loaders of PyTorch's elementwise kernels and the tensor lists of its foreach
// kernels.
bool IsPlumbingTypeName(std::string_view name) {
  for (std::string_view plumbing :
       {"array", "Array", "OffsetCalculator", "TrivialOffsetCalculator", "LoadWithCast",
        "StoreWithCast", "LoadWithoutCast", "StoreWithoutCast", "TensorListMetadata",
        "TensorListScalarListMetadata", "FusedOptimizerTensorListMetadata", "OpaqueType"})
    if (name == plumbing) return true;
  return false;
}

// Whether a template argument tells nothing about the operation: a literal (`4`, `(int)4`,
// `2ul`, `-1`, `true`, `!T7`, `decltype(nullptr)`), a placeholder (`T2`) or a scalar type.
bool IsPlainArgument(std::string_view arg) {
  arg = Trim(arg);
  if (arg.empty()) return true;
  char c = arg.front();
  if (std::isdigit(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '!' || c == '&' ||
      (c == '(' && NameToken(arg, 0) == 0))
    return true;
  if (arg == "true" || arg == "false" || arg == "nullptr" || arg.substr(0, 9) == "decltype(")
    return true;
  if (arg.size() >= 2 && c == 'T' && std::all_of(arg.begin() + 1, arg.end(), [](char d) {
        return std::isdigit(static_cast<unsigned char>(d)) != 0;
      }))
    return true;
  std::string_view type = LastComponent(BareType(arg));
  size_t list = FindTopLevel(type, '<');
  type = type.substr(0, list);
  return IsScalarTypeName(type) || IsPlumbingTypeName(type);
}

std::string ShortArgument(std::string_view arg, int depth);

// The first two distinguishing arguments of a kernel's template argument list (the second is
// the operation where the first is a family of functors: multi_tensor_apply_kernel's
// <BinaryOpScalarFunctor, multiplies>), or the first of a list inside it, shortened and joined
// by ", "; empty if none.
std::string Distinguishing(std::string_view list, int depth) {
  std::string out;
  int shown = 0;
  SplitTopLevel(list, ",", [&](size_t begin, size_t end) {
    std::string_view arg = list.substr(begin, end - begin);
    if (shown < (depth == 0 ? 2 : 1) && !IsPlainArgument(arg)) {
      out += (shown++ == 0 ? "" : ", ") + ShortArgument(arg, depth);
    }
  });
  return out;
}

// A template argument as a short name: a lambda or local type by the function it is defined in
// (the name before its parameter list, without a return type), any other type by its own name;
// both without namespaces, with their own template list shortened the same way.
std::string ShortArgument(std::string_view arg, int depth) {
  std::string_view name = BareType(arg);
  size_t params = FindTopLevel(name, '(');
  if (params != kNone) {
    name = name.substr(0, params);
    size_t space = kNone;
    SplitTopLevel(name, " ", [&](size_t begin, size_t) { space = begin; });
    name = Trim(name.substr(space == kNone ? 0 : space));
  }
  // A lambda in `sum_functor<...>::operator()` is the functor's.
  std::string_view last = LastComponent(name);
  if (NameToken(last, 0) != 0 && last.size() > 2 && name.size() > last.size() + 2)
    last = LastComponent(name.substr(0, name.size() - last.size() - 2));
  name = last;
  size_t list = FindTopLevel(name, '<');
  if (list == kNone) return std::string(name);
  std::string out(name.substr(0, list));
  size_t close = Close(name, list);
  if (depth < kNestedLists && close != kNone) {
    std::string inner = Distinguishing(name.substr(list + 1, close - list - 1), depth + 1);
    if (!inner.empty()) out += "<" + inner + ">";
  }
  return out;
}

}  // namespace

std::string ShortKernelName(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  for (size_t i = 0; i < name.size();) {
    if (size_t t = NameToken(name, i)) {
      out.append(name.substr(i, t));
      i += t;
      continue;
    }
    char c = name[i];
    if (c != '<' && c != '(') {
      out += c;
      ++i;
      continue;
    }
    size_t close = Close(name, i);
    if (c == '(') {
      out += "(...)";
    } else {
      std::string d =
          close == kNone ? std::string() : Distinguishing(name.substr(i + 1, close - i - 1), 0);
      out += "<" + (d.empty() ? std::string("...") : d) + ">";
    }
    if (close == kNone) break;
    i = close + 1;
  }
  return out;
}

}  // namespace profana::passes
