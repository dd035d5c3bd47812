#include "profana/importers/chrome_json/header_reader.h"

namespace profana::json {

namespace od = simdjson::ondemand;
using simdjson::error_code;

error_code ReadHeaderField(EventParser* parser, TraceMetadata* metadata, std::string_view key,
                           od::value value) {
  TraceMetadata& meta = *metadata;
  od::json_type type;
  if (auto err = value.type().get(type)) return err;
  StagedEvent scratch;  // wrong types in the header are ignored: it is informational
  if (key == "schemaVersion")
    return parser->ReadInt(value, &meta.schema_version, &scratch, "schemaVersion");
  if (key == "baseTimeNanoseconds")
    return parser->ReadInt(value, &meta.base_time_ns, &scratch, "baseTimeNanoseconds");
  if (key == "displayTimeUnit" && type == od::json_type::string) {
    std::string_view unit;
    if (auto err = value.get_string().get(unit)) return err;
    meta.display_time_unit = std::string(unit);
    return simdjson::SUCCESS;
  }
  if (key == "profanaLegacyKernels") {
    int64_t on = 0;
    if (auto err = parser->ReadInt(value, &on, &scratch, "profanaLegacyKernels")) return err;
    meta.legacy_kernels = on != 0;
    return simdjson::SUCCESS;
  }
  // The profiler's options, which Kineto's header names only when they were on (1; some writers
  // put true).
  bool* option = key == "profile_memory"  ? &meta.profile_memory
                 : key == "record_shapes" ? &meta.record_shapes
                 : key == "with_stack"    ? &meta.with_stack
                 : key == "with_flops"    ? &meta.with_flops
                 : key == "with_modules"  ? &meta.with_modules
                                          : nullptr;
  if (option) {
    if (type == od::json_type::boolean) return value.get_bool().get(*option);
    int64_t on = 0;
    if (auto err = parser->ReadInt(value, &on, &scratch, "profiler option")) return err;
    *option = on != 0;
    return simdjson::SUCCESS;
  }
  if (key == "distributedInfo" && type == od::json_type::object) {
    od::object info;
    if (auto err = value.get_object().get(info)) return err;
    for (auto f : info) {
      od::field field;
      if (auto err = std::move(f).get(field)) return err;
      std::string_view k;
      if (auto err = field.unescaped_key().get(k)) return err;
      od::value v = field.value();
      if (k == "rank") {
        if (auto err = parser->ReadInt(v, &meta.rank, &scratch, "rank")) return err;
      } else if (k == "world_size") {
        if (auto err = parser->ReadInt(v, &meta.world_size, &scratch, "world_size")) return err;
      } else if (k == "backend") {
        StringId backend;
        if (auto err = parser->ReadString(v, &backend, &scratch, "backend")) return err;
        meta.backend = std::string(parser->pool()->Get(backend));
      }
    }
    return simdjson::SUCCESS;
  }
  if (key == "deviceProperties" && type == od::json_type::array) {
    od::array devices;
    if (auto err = value.get_array().get(devices)) return err;
    for (auto d : devices) {
      od::value dv;
      if (auto err = d.get(dv)) return err;
      od::json_type dt;
      if (auto err = dv.type().get(dt)) return err;
      if (dt != od::json_type::object) continue;
      od::object dev;
      if (auto err = dv.get_object().get(dev)) return err;
      std::string device_name;
      DeviceProperties properties;
      for (auto f : dev) {
        od::field field;
        if (auto err = std::move(f).get(field)) return err;
        std::string_view k;
        if (auto err = field.unescaped_key().get(k)) return err;
        if (k == "name") {
          StringId n;
          if (auto err = parser->ReadString(field.value(), &n, &scratch, "name")) return err;
          device_name = std::string(parser->pool()->Get(n));
          continue;
        }
        int64_t* number = k == "id" ? &properties.id : nullptr;
        ForEachDeviceProperty(properties, [&](const char* key, int64_t& value) {
          if (k == key) number = &value;
        });
        if (!number) continue;
        od::value v = field.value();
        int64_t read = -1;
        if (auto err = parser->ReadInt(v, &read, &scratch, "deviceProperties")) return err;
        if (read >= 0) *number = read;
      }
      meta.devices.push_back(std::move(device_name));
      meta.device_properties.push_back(properties);
    }
    return simdjson::SUCCESS;
  }
  return simdjson::SUCCESS;  // other keys: skipped by On-Demand
}

}  // namespace profana::json
