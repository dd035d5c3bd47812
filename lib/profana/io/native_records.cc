#include "profana/io/native_records.h"

#include <type_traits>

#include "fmt/format.h"
#include "profana/base/byte_reader.h"
#include "profana/base/utf8.h"

namespace profana::native {
namespace {

enum RecordType : uint8_t { kInt = 1, kText = 2, kTextList = 3, kIntList = 4 };

void PutString(std::string* out, std::string_view s) {
  Put(out, static_cast<uint32_t>(s.size()));
  out->append(s.data(), s.size());
}

template <typename T>
void PutRecord(std::string* out, std::string_view key, const T& value) {
  PutString(out, key);
  std::string payload;
  uint8_t type;
  if constexpr (std::is_same_v<T, std::string>) {
    type = kText;
    payload = value;
  } else if constexpr (std::is_same_v<T, TraceFormat>) {
    type = kText;
    payload = TraceFormatName(value);
  } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
    type = kTextList;
    Put(&payload, static_cast<uint32_t>(value.size()));
    for (const std::string& s : value) PutString(&payload, s);
  } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
    type = kIntList;
    Put(&payload, static_cast<uint32_t>(value.size()));
    for (int64_t v : value) Put(&payload, v);
  } else {
    type = kInt;
    Put(&payload, static_cast<int64_t>(value));
  }
  Put(out, type);
  PutString(out, payload);
}

// `s` as UTF-8 (base/utf8.h); counts it in *repaired when it was not.
std::string Utf8Text(std::string_view s, uint64_t* repaired) {
  std::string out;
  if (AppendValidUtf8(s, &out)) ++*repaired;
  return out;
}

// A section of records read to its end: cut short, or followed by bytes no record holds, is
// named at the byte it went wrong.
Status RecordsEnded(const ByteReader& r) {
  if (!r.ok())
    return Status(ErrorCode::kTruncated,
                  fmt::format("byte {}: record cut short", r.error_offset()));
  if (r.remaining())
    return Status(ErrorCode::kMalformed,
                  fmt::format("byte {}: bytes after the last record", r.offset()));
  return Status::Ok();
}

}  // namespace

void RestoreTimeOrigin(Trace* trace) {
  // PyTorch's bare-array export, the one input whose times are relative (importers/chrome_json).
  bool relative = HasRelativeTimes(trace->metadata.format);
  trace->metadata.origin.kind = relative ? TimeOriginKind::kRelative : TimeOriginKind::kFirstEvent;
  WorkOutTimeOrigin(trace);
}

std::vector<std::pair<std::string, std::vector<int64_t>>> DevicePropertyLists(
    const TraceMetadata& m) {
  if (m.devices.empty()) return {};  // nothing to describe: no records
  std::vector<std::pair<std::string, std::vector<int64_t>>> lists = {{"device.id", {}}};
  DeviceProperties keys;
  ForEachDeviceProperty(keys, [&](const char* key, int64_t&) {
    lists.emplace_back(std::string("device.") + key, std::vector<int64_t>());
  });
  for (size_t d = 0; d < m.devices.size(); ++d) {
    DeviceProperties p = d < m.device_properties.size() ? m.device_properties[d] : keys;
    size_t k = 0;
    lists[k++].second.push_back(p.id);
    ForEachDeviceProperty(p, [&](const char*, int64_t& v) { lists[k++].second.push_back(v); });
  }
  return lists;
}

bool SetDevicePropertyList(std::string_view key, const std::vector<int64_t>& values,
                           TraceMetadata* m) {
  if (key.substr(0, 7) != "device." || values.size() != m->devices.size()) return false;
  std::string_view name = key.substr(7);
  m->device_properties.resize(m->devices.size());
  bool matched = false;
  for (size_t d = 0; d < values.size(); ++d) {
    DeviceProperties& p = m->device_properties[d];
    if (name == "id") p.id = values[d], matched = true;
    ForEachDeviceProperty(p, [&](const char* k, int64_t& v) {
      if (name == k) v = values[d], matched = true;
    });
  }
  return matched;
}

void CompleteDeviceProperties(TraceMetadata* m) { m->device_properties.resize(m->devices.size()); }

std::string EncodeMetadata(const TraceMetadata& m) {
  std::string out;
  uint32_t n = 0;
  ForEachMetadataField(m, [&](const char*, const auto&) { ++n; });
  auto devices = DevicePropertyLists(m);
  n += static_cast<uint32_t>(devices.size());
  Put(&out, n);
  ForEachMetadataField(m, [&](const char* key, const auto& v) { PutRecord(&out, key, v); });
  for (const auto& [key, values] : devices) PutRecord(&out, key, values);
  return out;
}

Status DecodeMetadata(std::string_view bytes, TraceMetadata* m, uint64_t* repaired) {
  ByteReader r(bytes);
  uint32_t n = r.U32();
  for (uint32_t i = 0; i < n && r.ok(); ++i) {
    std::string_view key = r.String();
    uint8_t type = r.U8();
    std::string_view payload = r.String();
    if (!r.ok()) break;
    ByteReader p(payload);
    bool matched = false, good = true;
    if (type == kIntList) {  // a device property (the one kind of list the format has)
      uint32_t count = p.U32();
      if (!p.ok() || uint64_t{count} * 8 != p.remaining())
        return Status(ErrorCode::kMalformed,
                      fmt::format("byte {}: record \"{}\" has the wrong size", r.offset(), key));
      std::vector<int64_t> values(count);
      for (int64_t& v : values) v = p.I64();
      if (key.substr(0, 7) == "device." && values.size() != m->devices.size())
        return Status(ErrorCode::kMalformed,
                      fmt::format("byte {}: record \"{}\" does not have one value per device",
                                  r.offset(), key));
      SetDevicePropertyList(key, values, m);  // a property this profana does not know: skipped
      continue;
    }
    ForEachMetadataField(*m, [&](const char* name, auto& field) {
      using T = std::decay_t<decltype(field)>;
      if (matched || key != name) return;
      matched = true;
      if constexpr (std::is_same_v<T, std::string>) {
        good = type == kText;
        field = Utf8Text(payload, repaired);
      } else if constexpr (std::is_same_v<T, TraceFormat>) {
        good = type == kText;
        field = TraceFormatNamed(payload);
      } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
        good = type == kTextList;
        uint32_t count = p.U32();
        field.clear();
        for (uint32_t k = 0; k < count && p.ok(); ++k) {
          std::string_view s = p.String();
          if (p.ok()) field.push_back(Utf8Text(s, repaired));
        }
        good = good && p.ok() && p.remaining() == 0;
      } else {
        good = type == kInt && payload.size() == 8;
        field = static_cast<T>(p.I64());
      }
    });
    if (!good)
      return Status(
          ErrorCode::kMalformed,
          fmt::format("byte {}: record \"{}\" has the wrong type or size", r.offset(), key));
  }
  if (Status end = RecordsEnded(r); !end.ok()) return end;
  CompleteDeviceProperties(m);
  return Status::Ok();
}

std::string EncodeDiagnostics(const Diagnostics& d) {
  std::string out;
  uint32_t kinds = 0;
  for (size_t k = 0; k < kDiagnosticKinds; ++k)
    kinds += d.count(static_cast<DiagnosticKind>(k)) != 0;
  Put(&out, kinds);
  for (size_t k = 0; k < kDiagnosticKinds; ++k) {
    auto kind = static_cast<DiagnosticKind>(k);
    if (!d.count(kind)) continue;
    PutString(&out, DiagnosticName(kind));
    Put(&out, d.count(kind));
  }
  Put(&out, static_cast<uint32_t>(d.samples().size()));
  for (const DiagnosticSample& s : d.samples()) {
    PutString(&out, DiagnosticName(s.kind));
    Put(&out, s.byte_offset);
    Put(&out, s.event_index);
    PutString(&out, s.detail);
  }
  return out;
}

Status DecodeDiagnostics(std::string_view bytes, Diagnostics* d, uint64_t* repaired) {
  // Kinds this profana does not know (written by a newer one) are skipped.
  ByteReader r(bytes);
  uint32_t kinds = r.U32();
  for (uint32_t i = 0; i < kinds && r.ok(); ++i) {
    std::string_view name = r.String();
    uint64_t count = r.U64();
    DiagnosticKind kind;
    if (r.ok() && DiagnosticKindByName(name, &kind)) d->SetCount(kind, count);
  }
  uint32_t samples = r.U32();
  for (uint32_t i = 0; i < samples && r.ok(); ++i) {
    std::string_view name = r.String();
    uint64_t offset = r.U64();
    int64_t index = r.I64();
    std::string_view detail = r.String();
    DiagnosticKind kind;
    if (r.ok() && DiagnosticKindByName(name, &kind))
      d->AddSample(DiagnosticSample{kind, offset, index, Utf8Text(detail, repaired)});
  }
  return RecordsEnded(r);
}

}  // namespace profana::native
