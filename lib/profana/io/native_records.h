// The small, non-columnar sections of the native format: trace metadata and diagnostics, as
// self-describing records (key, type, length, value) so that a reader skips keys it does not know
// and a writer may add keys without a version bump. Shared by the binary and the text forms.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "profana/base/status.h"
#include "profana/model/trace.h"

namespace profana::native {

// Appends v's bytes as they lie in memory (the format is little-endian, as every host it runs on).
template <typename T>
void Put(std::string* out, T v) {
  out->append(reinterpret_cast<const char*>(&v), sizeof(T));
}

// Calls f(key, field&) for every field of TraceMetadata that the format keeps; field is an
// int64_t, uint64_t, bool, std::string, std::vector<std::string> or the TraceFormat (kept as its
// name: a name this build does not know reads as TraceFormat::kUnknown).
template <typename M, typename F>
void ForEachMetadataField(M& m, F&& f) {
  f("format", m.format);
  f("schema_version", m.schema_version);
  f("base_time_ns", m.base_time_ns);
  f("display_time_unit", m.display_time_unit);
  f("producer", m.producer);
  f("rank", m.rank);
  f("world_size", m.world_size);
  f("backend", m.backend);
  f("devices", m.devices);
  f("profile_memory", m.profile_memory);
  f("legacy_kernels", m.legacy_kernels);
  f("input_bytes", m.input_bytes);
  f("compressed_bytes", m.compressed_bytes);
  f("lost_bytes", m.lost_bytes);
  f("raw_events", m.raw_events);
  f("metadata_events", m.metadata_events);
  f("instant_events", m.instant_events);
  f("record_shapes", m.record_shapes);
  f("with_stack", m.with_stack);
  f("with_flops", m.with_flops);
  f("with_modules", m.with_modules);
}

// The device properties are stored one record per property, "device.<Kineto's key>" (id first),
// each a list of integers with one value per entry of `devices` (none for a trace without
// devices).
std::vector<std::pair<std::string, std::vector<int64_t>>> DevicePropertyLists(
    const TraceMetadata& m);
// Sets one property of every device from a "device.<key>" record (which follows `devices`); false
// for a key this profana does not know or a list of another length than `devices`.
bool SetDevicePropertyList(std::string_view key, const std::vector<int64_t>& values,
                           TraceMetadata* m);
// One DeviceProperties per device, as the model promises (files of version 1 have none).
void CompleteDeviceProperties(TraceMetadata* m);

// The format does not store metadata.origin: a file keeps the original input's format name, and
// that says whether the times were relative. Sets the origin of a trace whose tables are loaded.
void RestoreTimeOrigin(Trace* trace);

std::string EncodeMetadata(const TraceMetadata& m);
std::string EncodeDiagnostics(const Diagnostics& d);
// Errors are "<what>" relative to the section; the caller adds file and section. Text that is not
// UTF-8 is kept with U+FFFD in place of its invalid sequences; *repaired counts such texts.
Status DecodeMetadata(std::string_view bytes, TraceMetadata* m, uint64_t* repaired);
Status DecodeDiagnostics(std::string_view bytes, Diagnostics* d, uint64_t* repaired);

}  // namespace profana::native
