#include "profana/importers/allocator_snapshot/pickle_reader.h"

#include <algorithm>
#include <cstring>

#include "fmt/format.h"
#include "profana/base/flat_hash_map.h"
#include "profana/importers/chrome_json/json_errors.h"

namespace profana::pickle {
namespace {

// Opcodes, as Python's pickletools names them.
enum Op : uint8_t {
  kMark = '(',
  kStop = '.',
  kPop = '0',
  kPopMark = '1',
  kDup = '2',
  kFloat = 'F',
  kInt = 'I',
  kBinInt = 'J',
  kBinInt1 = 'K',
  kLong = 'L',
  kBinInt2 = 'M',
  kNone = 'N',
  kPersId = 'P',
  kBinPersId = 'Q',
  kReduce = 'R',
  kString = 'S',
  kBinString = 'T',
  kShortBinString = 'U',
  kUnicode = 'V',
  kBinUnicode = 'X',
  kAppend = 'a',
  kBuild = 'b',
  kGlobal = 'c',
  kDict = 'd',
  kEmptyDict = '}',
  kAppends = 'e',
  kGet = 'g',
  kBinGet = 'h',
  kInst = 'i',
  kLongBinGet = 'j',
  kList = 'l',
  kEmptyList = ']',
  kObj = 'o',
  kPut = 'p',
  kBinPut = 'q',
  kLongBinPut = 'r',
  kSetItem = 's',
  kTuple = 't',
  kEmptyTuple = ')',
  kSetItems = 'u',
  kBinFloat = 'G',
  kBinBytes = 'B',
  kShortBinBytes = 'C',
  kProto = 0x80,
  kNewObj = 0x81,
  kExt1 = 0x82,
  kExt2 = 0x83,
  kExt4 = 0x84,
  kTuple1 = 0x85,
  kTuple2 = 0x86,
  kTuple3 = 0x87,
  kNewTrue = 0x88,
  kNewFalse = 0x89,
  kLong1 = 0x8a,
  kLong4 = 0x8b,
  kShortBinUnicode = 0x8c,
  kBinUnicode8 = 0x8d,
  kBinBytes8 = 0x8e,
  kEmptySet = 0x8f,
  kAddItems = 0x90,
  kFrozenSet = 0x91,
  kNewObjEx = 0x92,
  kStackGlobal = 0x93,
  kMemoize = 0x94,
  kFrame = 0x95,
  kByteArray8 = 0x96,
  kNextBuffer = 0x97,
  kReadOnlyBuffer = 0x98,
};

// Why an opcode that is not read is refused: it runs code, or it is not data a file can hold.
const char* Refusal(uint8_t op) {
  switch (op) {
    case kGlobal:
    case kStackGlobal:
    case kInst:
      return "it imports a Python object by name";
    case kReduce:
    case kObj:
    case kNewObj:
    case kNewObjEx:
    case kBuild:
      return "it calls Python code to build an object";
    case kPersId:
    case kBinPersId:
      return "it asks the caller for a persistent object";
    case kExt1:
    case kExt2:
    case kExt4:
      return "it imports a Python object from the copyreg extension registry";
    case kNextBuffer:
    case kReadOnlyBuffer:
      return "it takes an out-of-band buffer the file does not hold";
    case kFloat:
    case kInt:
    case kLong:
    case kString:
    case kUnicode:
    case kGet:
    case kPut:
      return "it is the text form of protocol 0, which protocol 2-5 pickles do not use";
    default:
      return nullptr;
  }
}

const char* OpName(uint8_t op) {
  switch (op) {
    case kGlobal:
      return "GLOBAL";
    case kStackGlobal:
      return "STACK_GLOBAL";
    case kInst:
      return "INST";
    case kReduce:
      return "REDUCE";
    case kObj:
      return "OBJ";
    case kNewObj:
      return "NEWOBJ";
    case kNewObjEx:
      return "NEWOBJ_EX";
    case kBuild:
      return "BUILD";
    case kPersId:
      return "PERSID";
    case kBinPersId:
      return "BINPERSID";
    case kExt1:
      return "EXT1";
    case kExt2:
      return "EXT2";
    case kExt4:
      return "EXT4";
    case kNextBuffer:
      return "NEXT_BUFFER";
    case kReadOnlyBuffer:
      return "READONLY_BUFFER";
    case kFloat:
      return "FLOAT";
    case kInt:
      return "INT";
    case kLong:
      return "LONG";
    case kString:
      return "STRING";
    case kUnicode:
      return "UNICODE";
    case kGet:
      return "GET";
    case kPut:
      return "PUT";
    case kAppend:
      return "APPEND";
    case kAppends:
      return "APPENDS";
    case kSetItem:
      return "SETITEM";
    case kSetItems:
      return "SETITEMS";
    case kAddItems:
      return "ADDITEMS";
    case kLong1:
      return "LONG1";
    case kLong4:
      return "LONG4";
    case kBinUnicode:
      return "BINUNICODE";
    case kShortBinUnicode:
      return "SHORT_BINUNICODE";
    case kBinUnicode8:
      return "BINUNICODE8";
    case kBinString:
      return "BINSTRING";
    case kShortBinString:
      return "SHORT_BINSTRING";
    case kBinBytes:
      return "BINBYTES";
    case kShortBinBytes:
      return "SHORT_BINBYTES";
    case kBinBytes8:
      return "BINBYTES8";
    case kByteArray8:
      return "BYTEARRAY8";
    case kFrame:
      return "FRAME";
    case kProto:
      return "PROTO";
    default:
      return "an opcode";
  }
}

}  // namespace

const char* KindName(Kind k) {
  switch (k) {
    case Kind::kNone:
      return "None";
    case Kind::kBool:
      return "bool";
    case Kind::kInt:
      return "int";
    case Kind::kBigInt:
      return "int wider than 64 bits";
    case Kind::kFloat:
      return "float";
    case Kind::kString:
      return "str";
    case Kind::kBytes:
      return "bytes";
    case Kind::kList:
      return "list";
    case Kind::kTuple:
      return "tuple";
    case Kind::kDict:
      return "dict";
    case Kind::kSet:
      return "set";
  }
  return "?";
}

int64_t PickleDocument::Int(ValueId v) const { return static_cast<int64_t>(values_[v.value].a); }

double PickleDocument::Float(ValueId v) const {
  const Value& x = values_[v.value];
  if (x.kind != Kind::kFloat) return static_cast<double>(static_cast<int64_t>(x.a));
  double d;
  std::memcpy(&d, &x.a, sizeof d);
  return d;
}

std::string_view PickleDocument::Text(ValueId v) const {
  const Value& x = values_[v.value];
  if (x.kind != Kind::kString && x.kind != Kind::kBytes) return {};
  return bytes_.substr(x.a, x.b);
}

const std::vector<ValueId>& PickleDocument::Items(ValueId v) const {
  static const std::vector<ValueId> kNoItems;
  const Value& x = values_[v.value];
  bool container = x.kind == Kind::kList || x.kind == Kind::kTuple || x.kind == Kind::kDict ||
                   x.kind == Kind::kSet;
  return container ? items_[x.items] : kNoItems;
}

bool HasPickleMagic(std::string_view bytes) {
  return bytes.size() >= 2 && static_cast<uint8_t>(bytes[0]) == kProto && bytes[1] >= 2 &&
         bytes[1] <= 5;
}

// Python's unpickling machine, without the opcodes that run code: a value stack, the marks
// (positions in the stack where MARK was), and the memo.
class Machine {
 public:
  Machine(std::string_view bytes, const std::string& name, uint64_t max_bytes)
      : bytes_(bytes), name_(name), max_bytes_(max_bytes) {
    doc_.bytes_ = bytes;
  }

  Result<PickleDocument> Run() {
    while (pos_ < bytes_.size()) {
      op_at_ = pos_;
      uint8_t op = static_cast<uint8_t>(bytes_[pos_++]);
      if (op == kStop) {
        if (stack_.size() <= Fence()) return Error("STOP with nothing on the stack");
        doc_.root_ = stack_.back();
        return std::move(doc_);
      }
      PROFANA_RETURN_IF_ERROR(Step(op));
      // Values are named by 32-bit ids (each opcode makes at most one).
      if (doc_.values_.size() >= UINT32_MAX - 1)
        return Status(
            ErrorCode::kTooLarge,
            fmt::format("{}: byte {}: more than 2^32 values in one pickle", name_, op_at_));
      if (max_bytes_ && Used() > max_bytes_)
        return Status(ErrorCode::kTooLarge,
                      fmt::format("{}: byte {}: the unpickled values pass the memory budget of {} "
                                  "bytes (--max-memory)",
                                  name_, op_at_, max_bytes_));
    }
    return Status(ErrorCode::kTruncated,
                  fmt::format("{}: byte {}: the pickle ends before its STOP opcode (cut short?)",
                              name_, bytes_.size()));
  }

 private:
  using Value = PickleDocument::Value;

  Status Error(const std::string& what) const {
    return Status(ErrorCode::kMalformed, fmt::format("{}: byte {}: {}", name_, op_at_, what));
  }
  Status Truncated(uint8_t op, uint64_t need) const {
    return Status(ErrorCode::kTruncated,
                  fmt::format("{}: byte {}: the pickle ends inside {} (it needs {} more bytes, "
                              "{} are left)",
                              name_, op_at_, OpName(op), need, bytes_.size() - pos_));
  }
  uint64_t Used() const {
    return doc_.values_.size() * sizeof(Value) + item_count_ * sizeof(ValueId) +
           doc_.items_.size() * sizeof(std::vector<ValueId>) + stack_.size() * sizeof(ValueId) +
           marks_.size() * sizeof(size_t) +
           memo_.size() * 32;  // the memo's table is at most half full
  }
  size_t Fence() const { return marks_.empty() ? 0 : marks_.back(); }

  // Reads n little-endian bytes as an unsigned number.
  bool Fixed(uint8_t op, size_t n, uint64_t* out, Status* st) {
    if (bytes_.size() - pos_ < n) {
      *st = Truncated(op, n);
      return false;
    }
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i) v |= uint64_t{static_cast<uint8_t>(bytes_[pos_ + i])} << (8 * i);
    pos_ += n;
    *out = v;
    return true;
  }

  ValueId NewValue(Kind kind, uint64_t a = 0, uint64_t b = 0) {
    Value v;
    v.kind = kind, v.a = a, v.b = b, v.offset = op_at_;
    if (kind == Kind::kList || kind == Kind::kTuple || kind == Kind::kDict || kind == Kind::kSet) {
      v.items = static_cast<uint32_t>(doc_.items_.size());
      doc_.items_.emplace_back();
    }
    doc_.values_.push_back(v);
    return ValueId(static_cast<uint32_t>(doc_.values_.size() - 1));
  }
  void Push(ValueId v) { stack_.push_back(v); }
  Status Pop(ValueId* v) {
    if (stack_.size() <= Fence()) return Error("stack underflow: nothing to take");
    *v = stack_.back();
    stack_.pop_back();
    return Status::Ok();
  }

  // Adds `item` to `container`: the container must not sit inside another yet, nor be the item.
  Status Add(ValueId container, ValueId item) {
    Value& c = doc_.values_[container.value];
    if (c.contained)
      return Error(
          fmt::format("adding to a {} that is already inside another value (not a "
                      "pickle of plain data)",
                      KindName(c.kind)));
    if (container == item) return Error(fmt::format("a {} inside itself", KindName(c.kind)));
    Value& i = doc_.values_[item.value];
    i.contained = true;
    if (i.depth + 1 > c.depth) {
      if (i.depth + 1u > json::kMaxJsonDepth)
        return Error(fmt::format("values nested deeper than {} levels", json::kMaxJsonDepth));
      c.depth = static_cast<uint16_t>(i.depth + 1);
    }
    doc_.items_[c.items].push_back(item);
    ++item_count_;
    return Status::Ok();
  }

  // A new container of `kind` holding the stack's values above position `from`, which it takes.
  Status Collect(Kind kind, size_t from) {
    ValueId c = NewValue(kind);
    for (size_t i = from; i < stack_.size(); ++i) PROFANA_RETURN_IF_ERROR(Add(c, stack_[i]));
    stack_.resize(from);
    Push(c);
    return Status::Ok();
  }
  Status PopMark(size_t* from) {
    if (marks_.empty()) return Error("no MARK to take items from");
    *from = marks_.back();
    marks_.pop_back();
    return Status::Ok();
  }
  // The items above the last mark, added to the container just below it (APPENDS, SETITEMS,
  // ADDITEMS).
  Status AddMarked(Kind want, bool pairs) {
    size_t from = 0;
    PROFANA_RETURN_IF_ERROR(PopMark(&from));
    if (from == 0 || from <= Fence()) return Error("no container below the MARK");
    ValueId c = stack_[from - 1];
    if (doc_.values_[c.value].kind != want)
      return Error(fmt::format("adding items to a {} (a {} was expected)",
                               KindName(doc_.values_[c.value].kind), KindName(want)));
    if (pairs && (stack_.size() - from) % 2) return Error("a key without a value after the MARK");
    for (size_t i = from; i < stack_.size(); ++i) PROFANA_RETURN_IF_ERROR(Add(c, stack_[i]));
    stack_.resize(from);
    return Status::Ok();
  }
  Status Text(uint8_t op, size_t len_bytes, Kind kind) {
    Status st;
    uint64_t n = 0;
    if (!Fixed(op, len_bytes, &n, &st)) return st;
    if (n > bytes_.size() - pos_) return Truncated(op, n);
    std::string_view text = bytes_.substr(pos_, n);
    if (kind == Kind::kString) {
      size_t bad = json::FirstInvalidUtf8(text);
      if (bad != text.size())
        return Status(
            ErrorCode::kMalformed,
            fmt::format("{}: byte {}: a string that is not valid UTF-8", name_, pos_ + bad));
    }
    Push(NewValue(kind, pos_, n));
    pos_ += n;
    return Status::Ok();
  }
  // LONG1 / LONG4: n bytes of little-endian two's complement.
  Status Long(uint8_t op, size_t len_bytes) {
    Status st;
    uint64_t n = 0;
    if (!Fixed(op, len_bytes, &n, &st)) return st;
    if (len_bytes == 4 && n > INT32_MAX) return Error("LONG4 with a negative length");
    if (n > bytes_.size() - pos_) return Truncated(op, n);
    const uint8_t* p = reinterpret_cast<const uint8_t*>(bytes_.data() + pos_);
    pos_ += n;
    if (n == 0) {
      Push(NewValue(Kind::kInt, 0));
      return Status::Ok();
    }
    bool negative = p[n - 1] & 0x80;
    uint8_t extension = negative ? 0xff : 0x00;
    // Wider than 8 bytes, it fits only when every extra byte is sign extension of the eighth.
    if (n > 8) {
      bool fits = ((p[7] & 0x80) != 0) == negative;
      for (size_t i = 8; i < n && fits; ++i) fits = p[i] == extension;
      if (!fits) {
        Push(NewValue(Kind::kBigInt));
        return Status::Ok();
      }
    }
    uint64_t v = 0;
    for (size_t i = 0; i < 8; ++i) v |= uint64_t{i < n ? p[i] : extension} << (8 * i);
    Push(NewValue(Kind::kInt, v));
    return Status::Ok();
  }
  Status Memo(uint64_t index) {
    if (stack_.size() <= Fence()) return Error("memo store with nothing on the stack");
    auto [slot, inserted] = memo_.try_emplace(index, stack_.back());
    if (!inserted) *slot = stack_.back();
    return Status::Ok();
  }
  Status Recall(uint64_t index) {
    const ValueId* v = memo_.find(index);
    if (!v) return Error(fmt::format("memo entry {} was never stored", index));
    Push(*v);
    return Status::Ok();
  }

  Status Step(uint8_t op) {
    Status st;
    uint64_t n = 0;
    if (const char* why = Refusal(op))
      return Error(
          fmt::format("opcode {} (0x{:02x}) refused: {}; profana reads only the data "
                      "opcodes of an allocator snapshot and never runs pickle code",
                      OpName(op), op, why));
    switch (op) {
      case kProto:
        if (!Fixed(op, 1, &n, &st)) return st;
        if (n > 5) return Error(fmt::format("pickle protocol {} (profana reads 2 to 5)", n));
        return Status::Ok();
      case kFrame:  // a read-ahead hint; its length must be there
        if (!Fixed(op, 8, &n, &st)) return st;
        if (n > bytes_.size() - pos_) return Truncated(op, n);
        return Status::Ok();
      case kMark:
        marks_.push_back(stack_.size());
        if (marks_.size() > json::kMaxJsonDepth)
          return Error(fmt::format("more than {} MARKs open", json::kMaxJsonDepth));
        return Status::Ok();
      case kPop:
        if (stack_.size() > Fence()) {
          stack_.pop_back();
          return Status::Ok();
        }
        if (marks_.empty()) return Error("stack underflow: POP with nothing on the stack");
        marks_.pop_back();
        return Status::Ok();
      case kPopMark: {
        size_t from = 0;
        PROFANA_RETURN_IF_ERROR(PopMark(&from));
        stack_.resize(from);
        return Status::Ok();
      }
      case kDup:
        if (stack_.size() <= Fence()) return Error("stack underflow: DUP with nothing to copy");
        Push(stack_.back());
        return Status::Ok();
      case kNone:
        Push(NewValue(Kind::kNone));
        return Status::Ok();
      case kNewTrue:
      case kNewFalse:
        Push(NewValue(Kind::kBool, op == kNewTrue));
        return Status::Ok();
      case kBinInt:
        if (!Fixed(op, 4, &n, &st)) return st;
        Push(NewValue(Kind::kInt, static_cast<uint64_t>(int64_t{static_cast<int32_t>(n)})));
        return Status::Ok();
      case kBinInt1:
      case kBinInt2:
        if (!Fixed(op, op == kBinInt1 ? 1 : 2, &n, &st)) return st;
        Push(NewValue(Kind::kInt, n));
        return Status::Ok();
      case kLong1:
        return Long(op, 1);
      case kLong4:
        return Long(op, 4);
      case kBinFloat: {
        if (bytes_.size() - pos_ < 8) return Truncated(op, 8);
        uint64_t bits = 0;  // big-endian
        for (int i = 0; i < 8; ++i) bits = bits << 8 | static_cast<uint8_t>(bytes_[pos_ + i]);
        pos_ += 8;
        Push(NewValue(Kind::kFloat, bits));
        return Status::Ok();
      }
      case kShortBinUnicode:
      case kShortBinString:
        return Text(op, 1, Kind::kString);
      case kBinUnicode:
      case kBinString:
        return Text(op, 4, Kind::kString);
      case kBinUnicode8:
        return Text(op, 8, Kind::kString);
      case kShortBinBytes:
        return Text(op, 1, Kind::kBytes);
      case kBinBytes:
        return Text(op, 4, Kind::kBytes);
      case kBinBytes8:
      case kByteArray8:
        return Text(op, 8, Kind::kBytes);
      case kEmptyList:
        Push(NewValue(Kind::kList));
        return Status::Ok();
      case kEmptyDict:
        Push(NewValue(Kind::kDict));
        return Status::Ok();
      case kEmptySet:
        Push(NewValue(Kind::kSet));
        return Status::Ok();
      case kEmptyTuple:
        Push(NewValue(Kind::kTuple));
        return Status::Ok();
      case kTuple1:
      case kTuple2:
      case kTuple3: {
        size_t k = op - kTuple1 + 1;
        if (stack_.size() < Fence() + k) return Error(fmt::format("stack underflow: TUPLE{}", k));
        return Collect(Kind::kTuple, stack_.size() - k);
      }
      case kTuple:
      case kList:
      case kDict:
      case kFrozenSet: {
        size_t from = 0;
        PROFANA_RETURN_IF_ERROR(PopMark(&from));
        if (op == kDict && (stack_.size() - from) % 2) return Error("DICT with a key but no value");
        return Collect(op == kTuple  ? Kind::kTuple
                       : op == kList ? Kind::kList
                       : op == kDict ? Kind::kDict
                                     : Kind::kSet,
                       from);
      }
      case kAppend:
      case kSetItem: {
        size_t k = op == kAppend ? 1 : 2;
        if (stack_.size() < Fence() + k + 1)
          return Error(fmt::format("stack underflow: {}", OpName(op)));
        ValueId c = stack_[stack_.size() - k - 1];
        Kind want = op == kAppend ? Kind::kList : Kind::kDict;
        if (doc_.values_[c.value].kind != want)
          return Error(fmt::format("{} to a {} (a {} was expected)", OpName(op),
                                   KindName(doc_.values_[c.value].kind), KindName(want)));
        for (size_t i = stack_.size() - k; i < stack_.size(); ++i)
          PROFANA_RETURN_IF_ERROR(Add(c, stack_[i]));
        stack_.resize(stack_.size() - k);
        return Status::Ok();
      }
      case kAppends:
        return AddMarked(Kind::kList, false);
      case kSetItems:
        return AddMarked(Kind::kDict, true);
      case kAddItems:
        return AddMarked(Kind::kSet, false);
      case kBinPut:
      case kLongBinPut:
        if (!Fixed(op, op == kBinPut ? 1 : 4, &n, &st)) return st;
        return Memo(n);
      case kMemoize:
        return Memo(memo_.size());
      case kBinGet:
      case kLongBinGet:
        if (!Fixed(op, op == kBinGet ? 1 : 4, &n, &st)) return st;
        return Recall(n);
      default:
        return Error(
            fmt::format("unknown opcode 0x{:02x} (not a pickle, or a protocol newer than 5)", op));
    }
  }

  std::string_view bytes_;
  const std::string& name_;
  uint64_t max_bytes_;
  size_t pos_ = 0;
  size_t op_at_ = 0;  // where the opcode being run starts
  PickleDocument doc_;
  std::vector<ValueId> stack_;
  std::vector<size_t> marks_;
  FlatHashMap<uint64_t, ValueId> memo_;
  uint64_t item_count_ = 0;
};

Result<PickleDocument> ReadPickle(std::string_view bytes, const std::string& name,
                                  uint64_t max_bytes) {
  return Machine(bytes, name, max_bytes).Run();
}

}  // namespace profana::pickle
