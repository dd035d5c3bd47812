#include "profana/importers/allocator_snapshot/snapshot_importer.h"

#include <map>
#include <tuple>

#include "fmt/format.h"
#include "profana/base/byte_source.h"
#include "profana/base/flat_hash_map.h"
#include "profana/importers/allocator_snapshot/pickle_reader.h"

namespace profana::snapshot {
namespace {

using pickle::Kind;
using pickle::PickleDocument;
using pickle::ValueId;

// Where a value sits, for messages: "segment #3, block #2", "device 0 history entry #17".
struct Place {
  std::string outer;  // "segment #3"
  const char* inner = nullptr;
  size_t index = 0;

  Place Inner(const char* what, size_t i) const { return Place{outer, what, i}; }
  std::string Text() const {
    if (!inner) return outer;
    return fmt::format("{}{}{} #{}", outer, outer.empty() ? "" : ", ", inner, index);
  }
};

class Reader {
 public:
  Reader(const PickleDocument& doc, const std::string& name, AllocatorSnapshot* out)
      : doc_(doc), name_(name), out_(out), owned_(doc.size(), 0) {}

  Status Root() {
    ValueId root = doc_.root();
    if (doc_.kind(root) == Kind::kList) return Segments(root);  // memory_snapshot()'s list
    if (doc_.kind(root) != Kind::kDict)
      return Fail(root, {},
                  fmt::format("the pickle holds a value of type {}, not an allocator snapshot (a "
                              "dict with 'segments')",
                              pickle::KindName(doc_.kind(root))));
    bool has_segments = false;
    PROFANA_RETURN_IF_ERROR(Fields(root, {}, [&](std::string_view key, ValueId v) -> Status {
      if (key == "segments") {
        has_segments = true;
        return Segments(v);
      }
      if (key == "device_traces") return Traces(v);
      if (key == "allocator_settings") return Settings(v);
      if (key == "external_annotations") return Annotations(v);
      return Status::Ok();
    }));
    if (!has_segments)
      return Fail(root, {}, "a dict without 'segments': not an allocator snapshot");
    return Status::Ok();
  }

 private:
  Status Fail(ValueId v, const Place& p, const std::string& what) const {
    std::string where = p.Text();
    return Status(ErrorCode::kMalformed, fmt::format("{}: byte {}: {}{}{}", name_, doc_.offset(v),
                                                     where, where.empty() ? "" : ": ", what));
  }
  Status Expect(ValueId v, const Place& p, std::string_view key, Kind kind) const {
    if (doc_.kind(v) == kind) return Status::Ok();
    return Fail(v, p,
                fmt::format("'{}' has type {} ({} expected)", key, pickle::KindName(doc_.kind(v)),
                            pickle::KindName(kind)));
  }
  // Calls f(key, value) for each item of a dict whose key is a string; keys of other kinds are
  // not the snapshot's and are passed over.
  template <typename F>
  Status Fields(ValueId dict, const Place& p, F&& f) {
    if (doc_.kind(dict) != Kind::kDict)
      return Fail(dict, p,
                  fmt::format("a value of type {} where a dict was expected",
                              pickle::KindName(doc_.kind(dict))));
    const std::vector<ValueId>& items = doc_.Items(dict);
    for (size_t i = 0; i + 1 < items.size(); i += 2)
      if (doc_.kind(items[i]) == Kind::kString)
        PROFANA_RETURN_IF_ERROR(f(doc_.Text(items[i]), items[i + 1]));
    return Status::Ok();
  }
  // A segment, block or history entry is a dict of its own: read once.
  Status Own(ValueId v, const Place& p) {
    if (owned_[v.value])
      return Fail(v, p, "the same dict is listed a second time (shared rows are not a snapshot)");
    owned_[v.value] = 1;
    return Status::Ok();
  }
  Status Int(ValueId v, const Place& p, std::string_view key, int64_t* out) const {
    if (doc_.kind(v) != Kind::kInt && doc_.kind(v) != Kind::kBool)
      return Expect(v, p, key, Kind::kInt);
    *out = doc_.Int(v);
    return Status::Ok();
  }
  Status Size(ValueId v, const Place& p, std::string_view key, int64_t* out) const {
    PROFANA_RETURN_IF_ERROR(Int(v, p, key, out));
    if (*out < 0 || *out > kMaxSnapshotBytes)
      return Fail(v, p, fmt::format("'{}' is {}, outside 0..2^50", key, *out));
    return Status::Ok();
  }
  Status Address(ValueId v, const Place& p, std::string_view key, uint64_t* out) const {
    int64_t a = 0;
    PROFANA_RETURN_IF_ERROR(Int(v, p, key, &a));
    if (a < 0) return Fail(v, p, fmt::format("'{}' is negative ({})", key, a));
    *out = static_cast<uint64_t>(a);
    return Status::Ok();
  }
  Status Str(ValueId v, const Place& p, std::string_view key, StringId* out) {
    PROFANA_RETURN_IF_ERROR(Expect(v, p, key, Kind::kString));
    *out = out_->strings.Intern(doc_.Text(v));
    return Status::Ok();
  }
  // A frame's text, cut to kMaxSnapshotFrameText bytes at a character boundary.
  Status FrameText(ValueId v, const Place& p, std::string_view key, StringId* out) {
    PROFANA_RETURN_IF_ERROR(Expect(v, p, key, Kind::kString));
    std::string_view text = doc_.Text(v);
    if (text.size() <= kMaxSnapshotFrameText) {
      *out = out_->strings.Intern(text);
      return Status::Ok();
    }
    size_t cut = kMaxSnapshotFrameText;
    while (cut > 0 && (static_cast<uint8_t>(text[cut]) & 0xc0) == 0x80) --cut;
    *out = out_->strings.Intern(std::string(text.substr(0, cut)) + "[...]");
    return Status::Ok();
  }
  Status Bool(ValueId v, const Place& p, std::string_view key, bool* out) const {
    PROFANA_RETURN_IF_ERROR(Expect(v, p, key, Kind::kBool));
    *out = doc_.Int(v) != 0;
    return Status::Ok();
  }

  // A frames list: interned once per list (snapshots share them), each frame dict once.
  Status Frames(ValueId list, const Place& p, SnapshotStackId* out) {
    PROFANA_RETURN_IF_ERROR(Expect(list, p, "frames", Kind::kList));
    if (const uint32_t* known = stacks_.find(list.value)) {
      *out = SnapshotStackId(*known);
      return Status::Ok();
    }
    const std::vector<ValueId>& items = doc_.Items(list);
    if (items.empty()) {
      *out = SnapshotStackId(0);
      return Status::Ok();
    }
    for (ValueId f : items) {
      uint32_t index = 0;
      PROFANA_RETURN_IF_ERROR(Frame(f, p, &index));
      out_->stack_frames.push_back(index);
    }
    out_->stack_offsets.push_back(static_cast<uint32_t>(out_->stack_frames.size()));
    *out = SnapshotStackId(static_cast<uint32_t>(out_->stack_offsets.size() - 2));
    stacks_.try_emplace(list.value, out->value);
    return Status::Ok();
  }
  Status Frame(ValueId dict, const Place& p, uint32_t* out) {
    if (const uint32_t* known = frames_.find(dict.value)) {
      *out = *known;
      return Status::Ok();
    }
    SnapshotFrame f;
    PROFANA_RETURN_IF_ERROR(Fields(dict, p, [&](std::string_view key, ValueId v) -> Status {
      if (key == "name") return FrameText(v, p, key, &f.name);
      if (key == "filename") return FrameText(v, p, key, &f.filename);
      if (key == "line") return Int(v, p, key, &f.line);
      return Status::Ok();
    }));
    // Frames equal in content are one frame (allocation sites compare frames by index).
    auto [known, added] = frame_ids_.try_emplace({f.name.value, f.filename.value, f.line},
                                                 static_cast<uint32_t>(out_->frames.size()));
    if (added) out_->frames.push_back(f);
    *out = known->second;
    frames_.try_emplace(dict.value, *out);
    return Status::Ok();
  }

  Status Segments(ValueId list) {
    PROFANA_RETURN_IF_ERROR(Expect(list, {}, "segments", Kind::kList));
    const std::vector<ValueId>& items = doc_.Items(list);
    for (size_t i = 0; i < items.size(); ++i)
      PROFANA_RETURN_IF_ERROR(Segment(items[i], Place{fmt::format("segment #{}", i)}));
    return Status::Ok();
  }
  Status Segment(ValueId dict, const Place& p) {
    PROFANA_RETURN_IF_ERROR(Own(dict, p));
    SnapshotSegment s;
    ValueId blocks = ValueId::None();
    bool has_address = false, has_size = false;
    PROFANA_RETURN_IF_ERROR(Fields(dict, p, [&](std::string_view key, ValueId v) -> Status {
      if (key == "device") return Int(v, p, key, &s.device);
      has_address |= key == "address";
      has_size |= key == "total_size";
      if (key == "address") return Address(v, p, key, &s.address);
      if (key == "total_size") return Size(v, p, key, &s.total_size);
      if (key == "allocated_size") return Size(v, p, key, &s.allocated_size);
      if (key == "active_size") return Size(v, p, key, &s.active_size);
      if (key == "requested_size") return Size(v, p, key, &s.requested_size);
      if (key == "stream") return Int(v, p, key, &s.stream);
      if (key == "segment_type") return Str(v, p, key, &s.segment_type);
      if (key == "is_expandable") return Bool(v, p, key, &s.is_expandable);
      if (key == "frames") return Frames(v, p, &s.frames);
      if (key == "blocks") {
        blocks = v;
        return Expect(v, p, key, Kind::kList);
      }
      return Status::Ok();
    }));
    if (!has_address || !has_size || !blocks.valid())
      return Fail(dict, p, "a segment needs 'address', 'total_size' and 'blocks'");
    SegmentId id(static_cast<uint32_t>(out_->segments.size()));
    s.first_block = static_cast<uint32_t>(out_->blocks.size());
    const std::vector<ValueId>& items = doc_.Items(blocks);
    uint64_t next = s.address;  // blocks without 'address' follow each other from the segment's
    for (size_t j = 0; j < items.size(); ++j)
      PROFANA_RETURN_IF_ERROR(Block(items[j], p.Inner("block", j), id, &next));
    s.block_count = static_cast<uint32_t>(out_->blocks.size() - s.first_block);
    out_->segments.push_back(s);
    return Status::Ok();
  }
  Status Block(ValueId dict, const Place& p, SegmentId segment, uint64_t* next) {
    PROFANA_RETURN_IF_ERROR(Own(dict, p));
    SnapshotBlock b;
    b.segment = segment;
    b.address = *next;
    bool has_size = false, has_requested = false, has_state = false;
    ValueId history = ValueId::None();
    PROFANA_RETURN_IF_ERROR(Fields(dict, p, [&](std::string_view key, ValueId v) -> Status {
      if (key == "address") return Address(v, p, key, &b.address);
      has_size |= key == "size";
      has_requested |= key == "requested_size";
      if (key == "size") return Size(v, p, key, &b.size);
      if (key == "requested_size") return Size(v, p, key, &b.requested_size);
      if (key == "frames") return Frames(v, p, &b.frames);
      if (key == "history") {
        history = v;
        return Expect(v, p, key, Kind::kList);
      }
      if (key != "state") return Status::Ok();
      PROFANA_RETURN_IF_ERROR(Expect(v, p, key, Kind::kString));
      has_state = true;
      std::string_view state = doc_.Text(v);
      if (state == "active_allocated")
        b.state = BlockState::kActiveAllocated;
      else if (state == "active_pending_free")
        b.state = BlockState::kActivePendingFree;
      else if (state == "inactive")
        b.state = BlockState::kInactive;
      else
        return Fail(v, p, fmt::format("unknown block state '{}'", state));
      return Status::Ok();
    }));
    if (!has_size || !has_state) return Fail(dict, p, "a block needs 'size' and 'state'");
    // Before PyTorch 2.1 a block's frames and requested size were in its first history record.
    if (history.valid() && !doc_.Items(history).empty()) {
      ValueId first = doc_.Items(history).front();
      PROFANA_RETURN_IF_ERROR(Fields(first, p, [&](std::string_view key, ValueId v) -> Status {
        if (key == "real_size" && !has_requested) {
          has_requested = true;
          return Size(v, p, key, &b.requested_size);
        }
        if (key == "frames" && b.frames.value == 0) return Frames(v, p, &b.frames);
        return Status::Ok();
      }));
    }
    if (!has_requested) b.requested_size = b.size;
    *next = b.address + static_cast<uint64_t>(b.size);
    out_->blocks.push_back(b);
    return Status::Ok();
  }

  Status Traces(ValueId list) {
    PROFANA_RETURN_IF_ERROR(Expect(list, {}, "device_traces", Kind::kList));
    const std::vector<ValueId>& devices = doc_.Items(list);
    out_->devices = static_cast<int64_t>(devices.size());
    for (size_t d = 0; d < devices.size(); ++d) {
      Place p{fmt::format("device {} history", d)};
      PROFANA_RETURN_IF_ERROR(Expect(devices[d], p, "device_traces", Kind::kList));
      const std::vector<ValueId>& entries = doc_.Items(devices[d]);
      for (size_t j = 0; j < entries.size(); ++j)
        PROFANA_RETURN_IF_ERROR(Entry(entries[j], p.Inner("entry", j), static_cast<int64_t>(d)));
    }
    return Status::Ok();
  }
  Status Entry(ValueId dict, const Place& p, int64_t device) {
    PROFANA_RETURN_IF_ERROR(Own(dict, p));
    SnapshotEntry e;
    e.device = device;
    bool known = false, has_action = false;
    PROFANA_RETURN_IF_ERROR(Fields(dict, p, [&](std::string_view key, ValueId v) -> Status {
      if (key == "addr") return Address(v, p, key, &e.addr);
      if (key == "size") return Size(v, p, key, &e.size);
      if (key == "stream") return Int(v, p, key, &e.stream);
      if (key == "time_us") return Int(v, p, key, &e.time_us);
      if (key == "device_free") return Size(v, p, key, &e.device_free);
      if (key == "frames") return Frames(v, p, &e.frames);
      if (key != "action") return Status::Ok();
      PROFANA_RETURN_IF_ERROR(Expect(v, p, key, Kind::kString));
      has_action = true;
      std::string_view action = doc_.Text(v);
      for (int a = 0; a < kSnapshotActions && !known; ++a)
        if (action == SnapshotActionName(static_cast<SnapshotAction>(a)))
          known = true, e.action = static_cast<SnapshotAction>(a);
      return Status::Ok();
    }));
    if (!has_action) return Fail(dict, p, "a history entry needs 'action'");
    if (!known) {
      ++out_->unknown_actions;
      return Status::Ok();
    }
    out_->entries.push_back(e);
    return Status::Ok();
  }

  Status Settings(ValueId dict) {
    Place p{"allocator_settings"};
    return Fields(dict, p, [&](std::string_view key, ValueId v) -> Status {
      if (key == "expandable_segments" && doc_.kind(v) == Kind::kBool)
        out_->expandable_segments = doc_.Int(v) != 0;
      if (key == "PYTORCH_CUDA_ALLOC_CONF" && doc_.kind(v) == Kind::kString)
        out_->alloc_conf = std::string(doc_.Text(v));
      return Status::Ok();
    });
  }
  Status Annotations(ValueId list) {
    PROFANA_RETURN_IF_ERROR(Expect(list, {}, "external_annotations", Kind::kList));
    const std::vector<ValueId>& items = doc_.Items(list);
    for (size_t i = 0; i < items.size(); ++i) {
      Place p = Place{}.Inner("external annotation", i);
      SnapshotAnnotation a;
      PROFANA_RETURN_IF_ERROR(Fields(items[i], p, [&](std::string_view key, ValueId v) -> Status {
        if (key == "device") return Int(v, p, key, &a.device);
        if (key == "name") return Str(v, p, key, &a.name);
        if (key == "time_us") return Int(v, p, key, &a.time_us);
        if (key == "stage") {
          PROFANA_RETURN_IF_ERROR(Expect(v, p, key, Kind::kString));
          a.start = doc_.Text(v) != "END";
        }
        return Status::Ok();
      }));
      out_->annotations.push_back(a);
    }
    return Status::Ok();
  }

  const PickleDocument& doc_;
  const std::string& name_;
  AllocatorSnapshot* out_;
  std::vector<uint8_t> owned_;
  FlatHashMap<uint32_t, uint32_t> stacks_;                                 // frames list -> stack
  FlatHashMap<uint32_t, uint32_t> frames_;                                 // frame dict -> frame
  std::map<std::tuple<uint32_t, uint32_t, int64_t>, uint32_t> frame_ids_;  // content -> frame
};

}  // namespace

bool SniffPickle(std::string_view first_bytes) { return pickle::HasPickleMagic(first_bytes); }

Result<AllocatorSnapshot> ImportAllocatorSnapshot(const InputBuffer& input) {
  if (input.gzip_truncated)
    return Status(ErrorCode::kTruncated,
                  fmt::format("{}: compressed byte {}: the gzip stream ends early: the snapshot "
                              "is cut short",
                              input.name, input.gzip_truncated_at));
  if (!SniffPickle(input.view()))
    return Status(ErrorCode::kUnrecognizedFormat,
                  fmt::format("{}: byte 0: not a pickle of protocol 2 to 5 (an allocator snapshot "
                              "starts with the bytes 80 02..05)",
                              input.name));
  PROFANA_ASSIGN_OR_RETURN(pickle::PickleDocument doc,
                           pickle::ReadPickle(input.view(), input.name, input.max_bytes));
  AllocatorSnapshot snapshot;
  PROFANA_RETURN_IF_ERROR(Reader(doc, input.name, &snapshot).Root());
  return snapshot;
}

Result<AllocatorSnapshot> LoadAllocatorSnapshot(const std::string& path,
                                                const InputLimits& limits) {
  PROFANA_ASSIGN_OR_RETURN(InputBuffer input, ReadInput(path, limits));
  return ImportAllocatorSnapshot(input);
}

Result<AllocatorSnapshot> LoadAllocatorSnapshot(const InputFile& file, const InputLimits& limits) {
  PROFANA_ASSIGN_OR_RETURN(InputBuffer input, ReadInput(file, limits));
  return ImportAllocatorSnapshot(input);
}

}  // namespace profana::snapshot
