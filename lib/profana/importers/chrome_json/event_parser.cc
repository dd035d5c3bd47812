#include "profana/importers/chrome_json/event_parser.h"

#include <cstring>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

#include "fmt/format.h"
#include "profana/base/json_string.h"
#include "profana/importers/chrome_json/json_numbers.h"
#include "profana/importers/chrome_json/shapes_text.h"
#include "profana/model/flop_inputs.h"

namespace profana::json {

namespace od = simdjson::ondemand;
using simdjson::error_code;

namespace {

// key == literal as a compare of the literal's few bytes, inlined: string_view's == went out of
// line to a memcmp call on every field of every event.
template <size_t N>
[[gnu::always_inline]] inline bool Is(std::string_view key, const char (&literal)[N]) {
  return key.size() == N - 1 && std::memcmp(key.data(), literal, N - 1) == 0;
}

// A field's key as written, without unescaping it into the parser's string buffer (a copy per
// field): Kineto's keys never hold escapes. A key that does is unescaped as usual. Inlined: it
// runs on every field, and as a call its frame set-up cost as much as its work.
[[gnu::always_inline]] inline error_code KeyOf(od::field& field, std::string_view* key) {
  const char* begin = field.key().raw();
  // Stage 1 has checked that the string closes. An escaped quote stops the search early, after
  // its backslash, which marks the key as escaped.
  size_t length = 0;
  bool escaped = false;
#if defined(__AVX2__)
  // Most keys are shorter than 32 bytes: one compare finds the closing quote and any backslash
  // before it, with no loop whose exit is mispredicted. simdjson's input is padded by 64 bytes
  // past the document, so the load stays inside the buffer.
  __m256i block = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(begin));
  auto quotes =
      static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(block, _mm256_set1_epi8('"'))));
  if (quotes != 0) {
    length = static_cast<size_t>(__builtin_ctz(quotes));
    auto slashes = static_cast<uint32_t>(
        _mm256_movemask_epi8(_mm256_cmpeq_epi8(block, _mm256_set1_epi8('\\'))));
    escaped = (slashes & ((1u << length) - 1)) != 0;
  } else
#endif
  {
    while (begin[length] != '"') escaped |= begin[length++] == '\\';
  }
  if (escaped) return field.unescaped_key().get(*key);
  *key = std::string_view(begin, length);
  return simdjson::SUCCESS;
}

// The event's own keys, by their length and first letter: a compare or two per field instead of
// a string compare against each key in turn.
enum class EventKey : uint8_t { kOther, kPh, kName, kCat, kTs, kDur, kPid, kTid, kId, kArgs };
EventKey KindOfKey(std::string_view key) {
  switch (key.size()) {
    case 2:
      if (Is(key, "ph")) return EventKey::kPh;
      if (Is(key, "ts")) return EventKey::kTs;
      if (Is(key, "id")) return EventKey::kId;
      break;
    case 3:
      switch (key[0]) {
        case 'c':
          if (Is(key, "cat")) return EventKey::kCat;
          break;
        case 'd':
          if (Is(key, "dur")) return EventKey::kDur;
          break;
        case 'p':
          if (Is(key, "pid")) return EventKey::kPid;
          break;
        case 't':
          if (Is(key, "tid")) return EventKey::kTid;
          break;
        default:
          break;
      }
      break;
    case 4:
      if (Is(key, "name")) return EventKey::kName;
      if (Is(key, "args")) return EventKey::kArgs;
      break;
    default:
      break;
  }
  return EventKey::kOther;
}

// Whether `v` is of type `want`, which the reader then reads (*err: a JSON error met asking).
// Another type notes `field` as the event's first bad field; null is no fault where `null_ok`
// (the field is then left as it was).
bool IsOfType(od::value& v, od::json_type want, StagedEvent* s, const char* field, error_code* err,
              bool null_ok = false) {
  od::json_type type;
  if ((*err = v.type().get(type))) return false;
  if (type == want) return true;
  if (!(null_ok && type == od::json_type::null) && !s->bad_field) s->bad_field = field;
  return false;
}

}  // namespace

error_code EventParser::ReadString(od::value& v, StringId* out, StagedEvent* s, const char* field) {
  error_code err = simdjson::SUCCESS;
  if (!IsOfType(v, od::json_type::string, s, field, &err)) return err;
  // Most strings hold no escape: intern their text in place rather than unescaping a copy. The
  // raw token runs from the opening quote to the next structural character.
  std::string_view token = v.raw_json_token();
  while (token.size() > 2 && token.back() != '"') token.remove_suffix(1);
  if (token.size() >= 2 && std::memchr(token.data(), '\\', token.size()) == nullptr) {
    *out = pool_->Intern(token.substr(1, token.size() - 2));
    return simdjson::SUCCESS;
  }
  std::string_view str;
  err = v.get_string().get(str);
  if (err == simdjson::STRING_ERROR) {
    // simdjson refuses a \u escape of a lone UTF-16 surrogate (\ud800 unpaired), which some
    // writers produce when they cut a name inside a character: that costs the name, not the file.
    size_t used = 0;
    bool replaced = false;
    if (!ParseJsonString(token, &unescaped_, &used, &replaced) || !replaced) return err;
    *out = pool_->Intern(unescaped_);
    if (!s->replaced_string) s->replaced_string = field;
    return simdjson::SUCCESS;
  }
  if (err) return err;
  *out = pool_->Intern(str);
  return simdjson::SUCCESS;
}

error_code EventParser::ReadInt(od::value& v, int64_t* out, StagedEvent* s, const char* field) {
  error_code err = simdjson::SUCCESS;
  if (!IsOfType(v, od::json_type::number, s, field, &err, /*null_ok=*/true)) return err;
  std::string_view token = v.raw_json_token();
  NumberError why;
  if (ParseInteger(token, out, &why, Padding::kEightBytes)) return simdjson::SUCCESS;
  // An id past 2^63 in args (some tools write unsigned 64-bit ids) costs that field only.
  bool arg = std::strncmp(field, "args.", 5) == 0;
  const char*& first = arg ? s->dropped_arg : s->bad_number;
  if (!first) {
    first = field;
    (arg ? s->dropped_arg_why : s->bad_number_why) = why;
  }
  return simdjson::SUCCESS;
}

error_code EventParser::ReadTime(od::value& v, int64_t* out, StagedEvent* s, const char* field) {
  error_code err = simdjson::SUCCESS;
  if (!IsOfType(v, od::json_type::number, s, field, &err)) return err;
  std::string_view token = v.raw_json_token();
  NumberError why = NumberError::kRange;
  if ((!ParseMicrosToNanos(token, out, &why, Padding::kEightBytes) || !TimeInRange(*out)) &&
      !s->bad_number) {
    s->bad_number = field;
    s->bad_number_why = why;
  }
  return simdjson::SUCCESS;
}

// pid and tid are numbers, or strings such as "CPU functions" and "stream 7".
error_code EventParser::ReadIdOrText(od::value& v, int64_t* num, StringId* text, StagedEvent* s,
                                     const char* field) {
  od::json_type type;
  if (auto err = v.type().get(type)) return err;
  if (type == od::json_type::string) return ReadString(v, text, s, field);
  return ReadInt(v, num, s, field);
}

error_code EventParser::ReadCommArg(od::value& v, CommField field) {
  od::json_type type;
  if (auto err = v.type().get(type)) return err;
  std::string& text = comm_[static_cast<size_t>(field)];
  if (type == od::json_type::string) {
    std::string_view str;
    if (v.get_string().get(str)) return simdjson::SUCCESS;  // a lone surrogate: not kept
    text.assign(str);
  } else if (type == od::json_type::number) {
    std::string_view token = v.raw_json_token();
    while (!token.empty() && (token.back() == ' ' || token.back() == '\n' || token.back() == '\r' ||
                              token.back() == '\t'))
      token.remove_suffix(1);
    text.assign(token);
  } else {
    return simdjson::SUCCESS;
  }
  // The separator cannot appear inside a value.
  for (char& c : text)
    if (c == kCommSeparator) c = ' ';
  comm_seen_ |= 1u << static_cast<unsigned>(field);
  return simdjson::SUCCESS;
}

void EventParser::JoinCommArgs(StagedEvent* s) {
  comm_joined_.clear();
  for (size_t f = 0; f < kCommFields; ++f) {
    if (f > 0) comm_joined_ += kCommSeparator;
    if (comm_seen_ & (1u << f)) comm_joined_ += comm_[f];
  }
  s->comm = pool_->Intern(comm_joined_);
  comm_seen_ = 0;
}

error_code EventParser::ReadFlopArg(od::value& v, std::string_view* raw) {
  od::json_type type;
  if (auto err = v.type().get(type)) return err;
  if (type != od::json_type::array) return simdjson::SUCCESS;  // not what Kineto writes: ignored
  od::array list;
  if (auto err = v.get_array().get(list)) return err;
  return list.raw_json().get(*raw);
}

void EventParser::JoinFlopInputs(StagedEvent* s) {
  if (!CountsFlops(pool_->Get(s->name))) return;
  profana::JoinFlopInputs(flop_dims_, flop_types_, flop_concrete_, &flop_joined_);
  s->flop_inputs = pool_->Intern(flop_joined_);
}

namespace {

// A number's value as a double, or false for another type.
bool NumberOf(od::value& v, double* out) {
  od::json_type type;
  if (v.type().get(type) || type != od::json_type::number) return false;
  return !v.get_double().get(*out);
}

}  // namespace

error_code EventParser::ReadDeviceArg(std::string_view key, od::value& v, StagedEvent* s) {
  DeviceArgs& a = s->device_args;
  // An integer that must fit in 32 bits (Kineto writes CUPTI's 32-bit values) and not be negative.
  // Another type leaves the field unrecorded, and the event as it is: these args inform, they do
  // not place the event.
  auto int32 = [&](od::value& from, const char* field, int32_t* out) -> error_code {
    od::json_type type;
    if (auto err = from.type().get(type)) return err;
    if (type != od::json_type::number) return simdjson::SUCCESS;
    int64_t value = -1;
    const char* dropped = s->dropped_arg;
    if (auto err = ReadInt(from, &value, s, field)) return err;
    if (s->dropped_arg != dropped || value < 0) return simdjson::SUCCESS;
    if (value > INT32_MAX) {
      if (!s->dropped_arg) s->dropped_arg = field, s->dropped_arg_why = NumberError::kRange;
      return simdjson::SUCCESS;
    }
    *out = static_cast<int32_t>(value);
    s->has_device_args = true;
    return simdjson::SUCCESS;
  };
  // A number of 0 or more (Kineto writes -1 for what it could not work out).
  auto number = [&](double* out) {
    double value = -1;
    if (NumberOf(v, &value) && value >= 0) *out = value, s->has_device_args = true;
    return simdjson::SUCCESS;
  };
  // Three integers: "grid": [8, 1, 4].
  auto dims = [&](const char* field, int32_t(&out)[3]) -> error_code {
    od::json_type type;
    if (auto err = v.type().get(type)) return err;
    if (type != od::json_type::array) return simdjson::SUCCESS;
    od::array values;
    if (auto err = v.get_array().get(values)) return err;
    size_t i = 0;
    for (auto element : values) {
      if (auto err = element.error()) return err;
      int32_t d = -1;
      if (auto err = int32(InPlace(element), field, &d)) return err;
      if (i < 3) out[i] = d;
      ++i;
    }
    return simdjson::SUCCESS;
  };
  switch (key.size()) {
    case 4:
      if (Is(key, "grid")) return dims("args.grid", a.grid);
      break;
    case 5:
      if (Is(key, "block")) return dims("args.block", a.block);
      if (Is(key, "bytes")) {
        od::json_type type;
        if (auto err = v.type().get(type)) return err;
        if (type != od::json_type::number) break;
        const char* dropped = s->dropped_arg;
        int64_t bytes = -1;
        if (auto err = ReadInt(v, &bytes, s, "args.bytes")) return err;
        if (s->dropped_arg == dropped && bytes >= 0) a.bytes = bytes, s->has_device_args = true;
      }
      break;
    case 12:
      if (Is(key, "warps per SM")) return number(&a.warps_per_sm);
      break;
    case 13:
      if (Is(key, "blocks per SM")) return number(&a.blocks_per_sm);
      if (Is(key, "shared memory")) return int32(v, "args.shared memory", &a.shared_memory);
      break;
    case 20:
      if (Is(key, "registers per thread"))
        return int32(v, "args.registers per thread", &a.registers);
      break;
    case 23:
      if (Is(key, "memory bandwidth (GB/s)")) return number(&a.bandwidth);
      break;
    case 25:
      if (Is(key, "est. achieved occupancy %")) return number(&a.occupancy);
      break;
    default:
      break;
  }
  return simdjson::SUCCESS;
}

error_code EventParser::ReadArgs(od::object& args, StagedEvent* s) {
  comm_seen_ = 0;
  for (auto field_result : args) {
    if (auto err = field_result.error()) return err;
    od::field& field = InPlace(field_result);
    std::string_view key;
    if (auto err = KeyOf(field, &key)) return err;
    od::value& v = field.value();
    error_code err = simdjson::SUCCESS;
    switch (key.size() ? key[0] : 0) {
      case 'E':
        if (Is(key, "External id")) err = ReadInt(v, &s->external_id, s, "args.External id");
        break;
      case 'e':
        if (Is(key, "external id"))
          err = ReadInt(v, &s->external_id, s, "args.external id");
        else
          err = ReadDeviceArg(key, v, s);
        break;
      case 'g':
      case 'b':
      case 'r':
      case 's':
      case 'w':
      case 'm':
        err = ReadDeviceArg(key, v, s);
        break;
      case 'c':
        if (Is(key, "correlation")) err = ReadInt(v, &s->correlation, s, "args.correlation");
        break;
      case 'S':
        if (Is(key, "Sequence number"))
          err = ReadInt(v, &s->sequence_nr, s, "args.Sequence number");
        break;
      case 'F':
        if (Is(key, "Fwd thread id")) err = ReadInt(v, &s->fwd_thread, s, "args.Fwd thread id");
        break;
      case 'I':
        if (Is(key, "In msg nelems")) {
          err = ReadCommArg(v, CommField::kInNelems);
        } else if (Is(key, "Input type")) {
          err = ReadFlopArg(v, &flop_types_);
        } else if (Is(key, "Input Dims") || Is(key, "Input dims")) {
          od::json_type type;
          if ((err = v.type().get(type))) break;
          if (type != od::json_type::array) {
            if (!s->bad_field) s->bad_field = "args.Input Dims";
            break;
          }
          od::array dims;
          std::string_view raw;
          if ((err = v.get_array().get(dims)) || (err = dims.raw_json().get(raw))) break;
          flop_dims_ = raw;
          shapes_buffer_.clear();
          // An empty list and no list both print as "[]": both are StringId 0.
          if (RenderPythonShapes(raw, &shapes_buffer_))
            s->input_shapes = shapes_buffer_ == "[]" ? StringId(0) : pool_->Intern(shapes_buffer_);
          else if (!s->bad_field)
            s->bad_field = "args.Input Dims";
        }
        break;
      case 'C':
        if (Is(key, "Call stack"))
          err = ReadString(v, &s->call_stack, s, "args.Call stack");
        else if (Is(key, "Concrete Inputs"))
          err = ReadFlopArg(v, &flop_concrete_);
        else if (Is(key, "Collective name"))
          err = ReadCommArg(v, CommField::kCollectiveName);
        break;
      case 'd':
        if (Is(key, "device"))
          err = ReadInt(v, &s->device, s, "args.device");
        else if (Is(key, "dtype"))
          err = ReadCommArg(v, CommField::kDtype);
        break;
      case 'P':
        if (Is(key, "Process Group Name"))
          err = ReadCommArg(v, CommField::kGroupName);
        else if (Is(key, "Process Group Ranks"))
          err = ReadCommArg(v, CommField::kGroupRanks);
        break;
      case 'G':
        if (Is(key, "Group size")) err = ReadCommArg(v, CommField::kGroupSize);
        break;
      case 'O':
        if (Is(key, "Out msg nelems")) err = ReadCommArg(v, CommField::kOutNelems);
        break;
      case 'D':
        if (Is(key, "Device Type"))
          err = ReadInt(v, &s->device_type, s, "args.Device Type");
        else if (Is(key, "Device Id"))
          err = ReadInt(v, &s->device_id, s, "args.Device Id");
        break;
      case 'B':
        if (Is(key, "Bytes")) {
          s->has_bytes = true;
          err = ReadInt(v, &s->bytes, s, "args.Bytes");
        }
        break;
      case 'A':
        if (Is(key, "Addr")) err = ReadInt(v, &s->addr, s, "args.Addr");
        break;
      case 'T':
        if (Is(key, "Total Allocated"))
          err = ReadInt(v, &s->total_allocated, s, "args.Total Allocated");
        else if (Is(key, "Total Reserved"))
          err = ReadInt(v, &s->total_reserved, s, "args.Total Reserved");
        break;
      case 'n':
        if (Is(key, "name")) err = ReadString(v, &s->arg_name, s, "args.name");
        break;
      default:
        break;
    }
    if (err) return err;
  }
  if (comm_seen_ != 0) JoinCommArgs(s);
  return simdjson::SUCCESS;
}

error_code EventParser::Read(od::value& value, int64_t index, StagedEvent* out) {
  od::object obj;
  if (auto err = value.get_object().get(obj)) {
    if (err == simdjson::INCORRECT_TYPE) {
      fatal_ = fmt::format("event #{}: expected a JSON object, found something else", index);
      return simdjson::INCORRECT_TYPE;
    }
    return err;
  }
  StagedEvent& s = *out;
  // One by one: a chain of assignments reads each back, which stalls on the store just made.
  flop_dims_ = {};
  flop_types_ = {};
  flop_concrete_ = {};
  for (auto field_result : obj) {
    if (auto err = field_result.error()) return err;
    od::field& field = InPlace(field_result);
    std::string_view key;
    if (auto err = KeyOf(field, &key)) return err;
    od::value& v = field.value();
    error_code err = simdjson::SUCCESS;
    switch (KindOfKey(key)) {
      case EventKey::kPh: {
        // A plain "X": its character, once the pool has it (the pool then grows as it did).
        std::string_view token = v.raw_json_token();
        unsigned char c = token.size() >= 3 && token[0] == '"' && token[2] == '"' ? token[1] : 0;
        bool plain = c > ' ' && c < 0x80 && c != '\\';  // the character is the string
        if (plain && (phases_interned_[c / 64] >> (c % 64) & 1)) {
          s.ph = static_cast<char>(c);
          continue;
        }
        StringId ph;
        if ((err = ReadString(v, &ph, &s, "ph"))) return err;
        std::string_view text = pool_->Get(ph);
        s.ph = text.size() == 1 ? text[0] : '?';
        if (text.size() != 1) s.ph_is_text = true, s.ph_text = ph;  // for the message
        if (plain && text.size() == 1 && text[0] == static_cast<char>(c))
          phases_interned_[c / 64] |= uint64_t{1} << (c % 64);
        break;
      }
      case EventKey::kName:
        err = ReadString(v, &s.name, &s, "name");
        break;
      case EventKey::kCat:
        err = ReadString(v, &s.cat, &s, "cat");
        break;
      case EventKey::kTs:
        s.has_ts = true;
        err = ReadTime(v, &s.ts_ns, &s, "ts");
        break;
      case EventKey::kDur:
        s.has_dur = true;
        err = ReadTime(v, &s.dur_ns, &s, "dur");
        break;
      case EventKey::kPid:
        err = ReadIdOrText(v, &s.pid, &s.pid_text, &s, "pid");
        break;
      case EventKey::kTid:
        err = ReadIdOrText(v, &s.tid, &s.tid_text, &s, "tid");
        break;
      case EventKey::kId: {
        od::json_type type;
        if ((err = v.type().get(type))) return err;
        if (type == od::json_type::number) err = ReadInt(v, &s.flow_id, &s, "id");
        break;
      }
      case EventKey::kArgs: {
        od::json_type type;
        if ((err = v.type().get(type))) return err;
        if (type == od::json_type::object) {
          od::object args;
          if ((err = v.get_object().get(args))) return err;
          err = ReadArgs(args, &s);
        } else if (type != od::json_type::null && !s.bad_field) {
          s.bad_field = "args";
        }
        break;
      }
      case EventKey::kOther:
        break;
    }
    if (err) return err;
  }
  // Without input sizes no formula applies.
  if (!flop_dims_.empty()) JoinFlopInputs(&s);
  return simdjson::SUCCESS;
}

}  // namespace profana::json
