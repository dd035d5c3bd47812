// Reads one Chrome-trace event object into a StagedEvent: its fields checked and converted, its
// strings interned into a StringPool, nothing committed. The whole-file importer interns straight
// into the trace's pool; the streaming importer's parser threads each intern into a pool of their
// own and the merge renames the ids (streaming_import.cc). EventCommitter turns a StagedEvent
// into model rows.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "profana/base/ids.h"
#include "profana/base/string_pool.h"
#include "profana/importers/chrome_json/json_numbers.h"
#include "profana/model/trace.h"
#include "simdjson.h"

namespace profana::json {

// What a simdjson iterator yields (a field, an array element), used where the iterator wrote it:
// it writes one in narrow stores, and moving it out of its result reads it back in one wide load
// that the store buffer cannot forward, a stall of a dozen cycles on every field of every event.
// Check result.error() first.
template <typename T>
T& InPlace(simdjson::simdjson_result<T>& result) {
  return const_cast<T&>(result.value_unsafe());
}

// One event's fields, staged while its object is read; committed only when it is complete,
// so an event cut off by truncation never reaches the builder. Plain data: the streaming
// importer keeps batches of these and renames their StringIds.
struct StagedEvent {
  char ph = 0;  // '?' for a ph of other than one character, which ph_text then holds
  bool ph_is_text = false;
  StringId ph_text;
  StringId name, cat;
  bool has_ts = false, has_dur = false;
  int64_t ts_ns = 0, dur_ns = 0;
  int64_t pid = 0, tid = 0;
  StringId pid_text, tid_text;
  int64_t flow_id = kNoId;
  // args
  int64_t external_id = kNoId, correlation = kNoId;
  int64_t sequence_nr = -1, fwd_thread = 0, device = -1;
  StringId input_shapes, call_stack, arg_name;
  StringId comm;         // EventTable::comm: the collective's args, joined
  StringId flop_inputs;  // EventTable::flop_inputs (model/flop_inputs.h)
  // A device activity's launch configuration and copy size ("grid", "bytes", ...).
  bool has_device_args = false;
  DeviceArgs device_args;
  bool has_bytes = false;
  int64_t bytes = 0, addr = kNoId, total_allocated = kNoId, total_reserved = kNoId;
  int64_t device_type = 0, device_id = -1;
  const char* bad_field = nullptr;    // first field of the wrong type (a string literal)
  const char* bad_number = nullptr;   // first number out of range (a string literal)
  const char* dropped_arg = nullptr;  // first args number out of range: dropped, event kept
  NumberError bad_number_why = NumberError::kNone, dropped_arg_why = NumberError::kNone;
  const char* replaced_string = nullptr;  // first string with a lone surrogate: kept with U+FFFD
};

// A StagedEvent as it starts. Copying it costs a few wide moves where building one zeroes the
// struct with rep stos and writes the defaults again, twice per event on the hot path.
inline const StagedEvent kFreshEvent{};

class EventParser {
 public:
  using error_code = simdjson::error_code;
  explicit EventParser(StringPool* pool) : pool_(pool) {}

  // Reads one element of the events array into *s, which must start as kFreshEvent (the caller
  // makes it so where it is written anyway). A JSON error comes back as the error code; an
  // element that is not an object sets fatal() and returns INCORRECT_TYPE.
  error_code Read(simdjson::ondemand::value& value, int64_t index, StagedEvent* s);
  const std::string& fatal() const { return fatal_; }
  void set_fatal(std::string message) { fatal_ = std::move(message); }

  // Field readers, shared with the header (metadata) reader. A wrong type or an out-of-range
  // number is recorded in *s (the event is then skipped with a diagnostic), not returned.
  error_code ReadString(simdjson::ondemand::value& v, StringId* out, StagedEvent* s,
                        const char* field);
  error_code ReadInt(simdjson::ondemand::value& v, int64_t* out, StagedEvent* s, const char* field);
  error_code ReadTime(simdjson::ondemand::value& v, int64_t* out, StagedEvent* s,
                      const char* field);
  error_code ReadIdOrText(simdjson::ondemand::value& v, int64_t* num, StringId* text,
                          StagedEvent* s, const char* field);

  StringPool* pool() const { return pool_; }

 private:
  error_code ReadArgs(simdjson::ondemand::object& args, StagedEvent* s);
  // One of the args of device work (Kineto's GpuActivity::metadataJson: "grid", "block",
  // "registers per thread", "shared memory", "blocks per SM", "warps per SM", "est. achieved
  // occupancy %", "bytes", "memory bandwidth (GB/s)") into s->device_args; other keys are skipped.
  // A value of another type is ignored; a number out of range is dropped with a diagnostic.
  error_code ReadDeviceArg(std::string_view key, simdjson::ondemand::value& v, StagedEvent* s);
  // One of a collective's args (CommField): its text kept until the args end, then joined into
  // StagedEvent::comm. A value of another type than Kineto writes is ignored (the event stays).
  error_code ReadCommArg(simdjson::ondemand::value& v, CommField field);
  void JoinCommArgs(StagedEvent* s);
  // The raw JSON of one of the args FLOP counts read (an array), kept as a view of the input.
  error_code ReadFlopArg(simdjson::ondemand::value& v, std::string_view* raw);
  // EventTable::flop_inputs, once the event's name is known: for the ops PyTorch counts FLOPs of.
  void JoinFlopInputs(StagedEvent* s);

  StringPool* pool_;
  // The one-character phases ("X", "i", ...) the pool holds already, a bit per ASCII character:
  // those are read from their token, without interning them again.
  uint64_t phases_interned_[2] = {0, 0};
  std::string shapes_buffer_;
  std::string unescaped_;  // a string simdjson refused, unescaped here
  std::string comm_[kCommFields];
  uint32_t comm_seen_ = 0;  // bit per CommField
  std::string comm_joined_;
  // The current event's "Input Dims", "Input type" and "Concrete Inputs" as written: views of the
  // input, which outlives the event's parse.
  std::string_view flop_dims_, flop_types_, flop_concrete_;
  std::string flop_joined_;
  std::string fatal_;
};

}  // namespace profana::json
