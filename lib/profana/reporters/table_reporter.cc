#include "profana/reporters/table_reporter.h"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "fmt/format.h"
#include "profana/base/terminal_text.h"
#include "profana/reporters/number_format.h"
#include "profana/reporters/rows_reporter.h"

namespace profana::report {
namespace {

using passes::AverageRow;
using passes::DeviceType;

constexpr int kDefaultColumnWidth = 12;
constexpr int kSpacing = 2;
constexpr size_t kMaxStackEntry113 = 5;

// PyTorch's row_format: each column is '{: >W}' or '{: <W}' followed by two spaces.
class RowFormat {
 public:
  void AddColumn(int width, bool left = false) {
    columns_.push_back({width, left});
    line_length_ += width + kSpacing;
  }
  int line_length() const { return line_length_ - kSpacing; }
  std::string Separator() const {
    std::string out;
    for (const Column& c : columns_) out.append(c.width, '-').append(kSpacing, ' ');
    return out;
  }
  std::string Format(const std::vector<std::string>& cells) const {
    std::string out;
    for (size_t i = 0; i < columns_.size(); ++i) {
      const std::string& cell = i < cells.size() ? cells[i] : empty_;
      size_t len = CodePointLength(cell);
      size_t pad = len < static_cast<size_t>(columns_[i].width) ? columns_[i].width - len : 0;
      if (!columns_[i].left) out.append(pad, ' ');
      out.append(cell);
      if (columns_[i].left) out.append(pad, ' ');
      out.append(kSpacing, ' ');
    }
    return out;
  }

 private:
  struct Column {
    int width;
    bool left;
  };
  std::vector<Column> columns_;
  int line_length_ = 0;
  std::string empty_;
};

std::string TrimPath(std::string_view path, size_t width) {
  size_t len = CodePointLength(path);
  if (len <= width) return std::string(path);
  std::string_view tail = CodePointSuffix(path, width);
  if (CodePointLength(tail) > 3)
    return "..." + std::string(CodePointSuffix(tail, CodePointLength(tail) - 3));
  return std::string(tail);
}

std::string ShapesText(const StringPool& strings, const AverageRow& row) {
  if (!row.shapes_shown) return "";  // key_averages() without grouping sets input_shapes = ""
  return InputShapesText(strings, row);
}

// _build_table's auto_scale_flops: the unit of the smallest count above 0 sets the column's.
struct FlopsUnit {
  double scale = 1;
  const char* header = "FLOPs";
};
FlopsUnit AutoScaleFlops(uint64_t flops) {
  static constexpr const char* kHeaders[] = {"FLOPs",  "KFLOPs", "MFLOPs",
                                             "GFLOPs", "TFLOPs", "PFLOPs"};
  constexpr double kLast = std::size(kHeaders) - 1;
  double log_flops = std::max(0.0, std::min(std::log10(static_cast<double>(flops)) / 3, kLast));
  return {std::pow(10.0, std::floor(log_flops) * -3.0), kHeaders[static_cast<int>(log_flops)]};
}

}  // namespace

size_t CodePointLength(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

std::string_view CodePointPrefix(std::string_view s, size_t n) {
  size_t i = 0, seen = 0;
  for (; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) {
      if (seen == n) break;
      ++seen;
    }
  }
  return s.substr(0, i);
}

std::string TruncateName(const std::string& s, size_t width) {
  if (CodePointLength(s) <= width) return s;
  if (width <= 3) return std::string(CodePointPrefix(s, width));
  return std::string(CodePointPrefix(s, width - 3)) + "...";
}

std::string_view CodePointSuffix(std::string_view s, size_t n) {
  size_t len = CodePointLength(s);
  if (n >= len) return s;
  return s.substr(CodePointPrefix(s, len - n).size());
}

std::vector<size_t> ShownRows(const std::vector<AverageRow>& rows, int64_t row_limit,
                              bool top_level_only) {
  std::vector<size_t> shown;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (static_cast<int64_t>(shown.size()) == row_limit) break;
    if (top_level_only && !rows[i].top_level) continue;
    shown.push_back(i);
  }
  return shown;
}

std::string FormatTable(const StringPool& strings, const std::vector<AverageRow>& rows,
                        const TableOptions& options) {
  if (rows.empty()) return "";
  bool has_cuda_time = false, has_cuda_mem = false, has_input_shapes = false;
  size_t name_width = 0, shapes_width = 0, src_width = 0;
  bool has_stack = false;
  for (const AverageRow& r : rows) {
    has_cuda_time |= r.self_cuda_ns > 0;
    has_cuda_mem |= r.self_cuda_memory > 0;
    has_input_shapes |= r.shapes_shown && r.input_shapes.value != 0;
    name_width = std::max(name_width, CodePointLength(Printable(strings.Get(r.key))));
    shapes_width = std::max(shapes_width, CodePointLength(ShapesText(strings, r)));
    for (StringId frame : r.stack)
      src_width = std::max(src_width, CodePointLength(Printable(strings.Get(frame))));
    has_stack |= !r.stack.empty();
  }
  name_width += 4;
  if (options.max_name_width) name_width = std::min<size_t>(name_width, *options.max_name_width);
  shapes_width += 4;
  if (options.max_shapes_width)
    shapes_width = std::min<size_t>(shapes_width, *options.max_shapes_width);
  src_width += 4;
  if (options.max_src_width) src_width = std::min<size_t>(src_width, *options.max_src_width);

  std::vector<std::string> headers = {"Name",        "Self CPU %", "Self CPU",
                                      "CPU total %", "CPU total",  "CPU time avg"};
  if (has_cuda_time)
    headers.insert(headers.end(), {"Self CUDA", "Self CUDA %", "CUDA total", "CUDA time avg"});
  if (options.profile_memory) {
    headers.insert(headers.end(), {"CPU Mem", "Self CPU Mem"});
    if (has_cuda_mem) headers.insert(headers.end(), {"CUDA Mem", "Self CUDA Mem"});
  }
  headers.push_back("# of Calls");
  // Node ID would follow when an event has a node id >= 0: traces never record one.
  RowFormat format;
  format.AddColumn(static_cast<int>(name_width));
  for (size_t i = 1; i < headers.size(); ++i) format.AddColumn(kDefaultColumnWidth);
  if (has_input_shapes) {
    headers.push_back("Input Shapes");
    format.AddColumn(static_cast<int>(shapes_width));
  }
  if (has_stack) {
    headers.push_back("Source Location");
    format.AddColumn(static_cast<int>(src_width), /*left=*/true);
  }
  // The FLOPs column comes last, after Source Location, while each row puts its count before its
  // source location: with both, _build_table prints the count under "Source Location" and the
  // frame under "Total FLOPs", and so does this.
  bool with_flops = false;
  FlopsUnit flops_unit;
  if (options.with_flops) {
    uint64_t smallest = 0;
    for (const AverageRow& r : rows)
      if (r.flops > 0 && (smallest == 0 || r.flops < smallest)) smallest = r.flops;
    if (smallest > 0) {
      with_flops = true;
      flops_unit = AutoScaleFlops(smallest);
      headers.push_back(std::string("Total ") + flops_unit.header);
      format.AddColumn(kDefaultColumnWidth);
    }
  }

  // Python's sum() over the rows in their printed order.
  double sum_self_cpu_us = 0, sum_self_cuda_us = 0;
  for (const AverageRow& r : rows) {
    sum_self_cpu_us += r.self_cpu_us;
    // Device rows carry device time; legacy profiles keep it on their CPU rows.
    if (r.CountsInCudaTotal()) sum_self_cuda_us += r.self_cuda_us;
  }

  std::string out;
  auto append = [&out](const std::string& line) {
    out.append(line);
    out.push_back('\n');
  };
  std::string separator = format.Separator();
  if (options.header) {
    append(std::string(format.line_length(), '='));
    append(*options.header);
  }
  if (options.top_level_only) {
    append(std::string(format.line_length(), '='));
    append("This report only display top-level ops statistics");
  }
  append(separator);
  append(format.Format(headers));
  append(separator);

  std::vector<std::string> cells;
  for (size_t index : ShownRows(rows, options.row_limit, options.top_level_only)) {
    const AverageRow& r = rows[index];
    std::string name = Printable(strings.Get(r.key));
    if (options.max_name_width &&
        CodePointLength(name) >= static_cast<size_t>(*options.max_name_width - 3))
      name = std::string(CodePointPrefix(name, *options.max_name_width - 3)) + "...";
    double self_cpu_us = r.self_cpu_us;
    double cpu_total_us = r.cpu_total_us;
    double cuda_total_us = r.cuda_total_us;
    cells = {name, FormatTimeShare(self_cpu_us, sum_self_cpu_us), FormatTime(self_cpu_us),
             // _build_table prints 0 for an async row's share.
             r.is_async ? std::string("0") : FormatTimeShare(cpu_total_us, sum_self_cpu_us),
             FormatTime(cpu_total_us), FormatTime(r.count ? cpu_total_us / r.count : 0.0)};
    if (has_cuda_time) {
      double self_cuda_us = r.self_cuda_us;
      cells.insert(
          cells.end(),
          {FormatTime(self_cuda_us), FormatTimeShare(self_cuda_us, sum_self_cuda_us),
           FormatTime(cuda_total_us), FormatTime(r.count ? cuda_total_us / r.count : 0.0)});
    }
    if (options.profile_memory) {
      const MemoryUnits units = options.memory_units;
      cells.insert(cells.end(),
                   {FormatMemory(r.cpu_memory, units), FormatMemory(r.self_cpu_memory, units)});
      if (has_cuda_mem)
        cells.insert(cells.end(),
                     {FormatMemory(r.cuda_memory, units), FormatMemory(r.self_cuda_memory, units)});
    }
    cells.push_back(fmt::format("{}", r.count));
    if (has_input_shapes)
      cells.push_back(std::string(CodePointPrefix(ShapesText(strings, r), shapes_width)));
    if (with_flops)
      cells.push_back(
          r.flops == 0 ? std::string("--")
                       : fmt::format("{:8.3f}", static_cast<double>(r.flops) * flops_unit.scale));
    if (has_stack)
      cells.push_back(r.stack.empty() ? ""
                                      : TrimPath(Printable(strings.Get(r.stack[0])), src_width));
    append(format.Format(cells));
    if (has_stack) {
      std::vector<std::string> empty(headers.size() - 1);
      // Every further frame on a line of its own: PyTorch 2.x prints them all, 1.13 stopped at
      // MAX_STACK_ENTRY = 5 (a row grouped by stack has at most N frames anyway).
      size_t lines =
          options.memory_units == MemoryUnits::kPyTorch113 ? kMaxStackEntry113 : r.stack.size();
      for (size_t k = 1; k < r.stack.size() && k < lines; ++k) {
        empty.push_back(TrimPath(Printable(strings.Get(r.stack[k])), src_width));
        append(format.Format(empty));
        empty.pop_back();
      }
      empty.emplace_back();
      append(format.Format(empty));
    }
  }
  append(separator);
  append("Self CPU time total: " + FormatTime(sum_self_cpu_us));
  if (has_cuda_time) append("Self CUDA time total: " + FormatTime(sum_self_cuda_us));
  return out;
}

}  // namespace profana::report
