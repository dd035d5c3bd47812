#include "profana/importers/common/pytorch_range.h"

#include <limits>

namespace profana {
namespace {

// Cuts ", KEY = DIGITS" off the end of `text`; false (text unchanged) when it does not end so.
bool CutNumber(std::string_view* text, std::string_view key, int64_t* value) {
  size_t end = text->size(), digits = end;
  while (digits > 0 && (*text)[digits - 1] >= '0' && (*text)[digits - 1] <= '9') --digits;
  if (digits == end || end - digits > 18) return false;
  if (digits < key.size() || text->substr(digits - key.size(), key.size()) != key) return false;
  int64_t v = 0;
  for (size_t i = digits; i < end; ++i) v = v * 10 + ((*text)[i] - '0');
  *value = v;
  text->remove_suffix(end - (digits - key.size()));
  return true;
}

// Cuts ", KEY = [...]" off the end when the brackets from that '[' balance exactly at the end.
// Only one '[' can open such a list: the one the final ']' closes, found scanning back.
bool CutList(std::string_view* text, std::string_view key, std::string_view* list) {
  if (text->empty() || text->back() != ']') return false;
  size_t at = text->size();
  int depth = 0;
  while (at > 0) {
    char c = (*text)[--at];
    if (c == ']') ++depth;
    if (c == '[' && --depth == 0) break;
  }
  if (depth != 0 || at < key.size() || text->substr(at - key.size(), key.size()) != key)
    return false;
  *list = text->substr(at);
  text->remove_suffix(text->size() - (at - key.size()));
  return true;
}

}  // namespace

PyTorchRange ParsePyTorchRange(std::string_view text) {
  PyTorchRange r;
  std::string_view rest = text, ignored;
  bool suffix = CutList(&rest, ", input_op_ids = ", &ignored);
  suffix |= CutList(&rest, ", sizes = ", &r.sizes);
  suffix |= CutNumber(&rest, ", op_id = ", &r.op_id);
  int64_t seq = -1;
  if (CutNumber(&rest, ", seq = ", &seq)) {
    suffix = true;
    r.sequence_nr = seq <= std::numeric_limits<int32_t>::max() ? static_cast<int32_t>(seq) : -1;
  }
  r.name = rest;
  r.is_op = suffix || rest.substr(0, 6) == "aten::";
  return r;
}

}  // namespace profana
