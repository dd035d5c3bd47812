// A data-only reader of Python pickles (protocols 2-5), for the allocator snapshots that
// torch.cuda.memory._dump_snapshot writes. A pickle is a program for Python's unpickling machine,
// and some of its opcodes import and call arbitrary code (GLOBAL, REDUCE, BUILD, ...). This reader
// runs only the opcodes that build plain data: None, bools, ints, floats, str, bytes, lists,
// tuples, dicts, sets, the memo, marks and frames. Every other opcode is refused with its name and
// byte offset; nothing is imported, called or looked up.
//
// Bounds, as for JSON: containers nest at most kMaxJsonDepth levels; every value, item and memo
// entry is counted against the input's --max-memory budget (InputBuffer::max_bytes); lengths and
// counts are checked against the bytes left before anything is allocated. A container that
// already sits inside another is never added to (Python's pickler builds each container whole
// before placing it), so the values form a DAG without cycles and the depth measured when an
// item is added is its final depth. Shared values (the memo) are kept once and referred to.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "profana/base/ids.h"
#include "profana/base/status.h"

namespace profana::pickle {

enum class Kind : uint8_t {
  kNone,
  kBool,
  kInt,     // fits int64_t
  kBigInt,  // LONG1/LONG4 wider than 64 bits: kept by offset only
  kFloat,
  kString,  // UTF-8, checked
  kBytes,   // bytes and bytearray
  kList,
  kTuple,
  kDict,
  kSet,  // set and frozenset
};
const char* KindName(Kind k);  // "None", "int", "str", "dict", ...

using ValueId = Id<struct PickleValueTag>;

// The unpickled value graph. Strings and bytes are views into the input, which must outlive it.
class PickleDocument {
 public:
  ValueId root() const { return root_; }
  Kind kind(ValueId v) const { return values_[v.value].kind; }
  // Byte offset of the opcode that made the value (for messages about it).
  uint64_t offset(ValueId v) const { return values_[v.value].offset; }
  int64_t Int(ValueId v) const;            // kInt and kBool
  double Float(ValueId v) const;           // kFloat; kInt converted
  std::string_view Text(ValueId v) const;  // kString and kBytes
  // Items of a list, tuple or set; a dict's keys and values alternate (key, value, key, ...).
  // Empty for scalars.
  const std::vector<ValueId>& Items(ValueId v) const;
  size_t size() const { return values_.size(); }

 private:
  friend class Machine;
  struct Value {
    Kind kind = Kind::kNone;
    bool contained = false;  // inside some container: never added to again
    uint16_t depth = 1;      // a scalar is 1; a container 1 + its deepest item
    uint32_t items = 0;      // containers: index into items_
    uint64_t a = 0;          // int, float bits, or text offset
    uint64_t b = 0;          // text size
    uint64_t offset = 0;
  };
  std::string_view bytes_;
  std::vector<Value> values_;
  std::vector<std::vector<ValueId>> items_;
  ValueId root_;
};

// Unpickles `bytes` (named `name` in messages). max_bytes bounds the memory the value graph may
// take (0: no bound). Errors: kMalformed for a refused or unknown opcode or a broken stack,
// kTruncated when the bytes end before STOP, kTooLarge past the budget; each message says
// "<name>: byte N: ...".
Result<PickleDocument> ReadPickle(std::string_view bytes, const std::string& name,
                                  uint64_t max_bytes);

// Whether bytes start as a pickle of protocol 2 to 5 does (PROTO 2..5).
bool HasPickleMagic(std::string_view bytes);

}  // namespace profana::pickle
