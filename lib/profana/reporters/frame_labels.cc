#include "profana/reporters/frame_labels.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace profana::report {

std::string FoldInstance(std::string_view frame) {
  // PyTorch's record_function label for a module: "nn.Module: " + class name + "_" + index.
  constexpr std::array<std::string_view, 2> kPrefixes = {"nn.Module: ", "nn.Module:_"};
  bool module = false;
  for (std::string_view p : kPrefixes) module = module || frame.substr(0, p.size()) == p;
  size_t digits = frame.size();
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(frame[digits - 1]))) --digits;
  if (!module || digits == frame.size() || digits < 13 || frame[digits - 1] != '_')
    return std::string(frame);
  return std::string(frame.substr(0, digits)) + "*";
}

std::string ShortFramePath(std::string_view frame) {
  // Only "PATH(LINE): FUNC" (or export_stacks' "PATH(LINE):_FUNC") frames.
  size_t open = frame.find('(');
  if (open == std::string_view::npos || frame.find("):", open) == std::string_view::npos)
    return std::string(frame);
  std::string_view path = frame.substr(0, open);
  size_t cut = 0;
  for (std::string_view marker : {"/site-packages/", "/dist-packages/"}) {
    size_t at = path.rfind(marker);
    if (at != std::string_view::npos) cut = std::max(cut, at + marker.size());
  }
  if (cut == 0) {
    for (std::string_view home : {"/home/", "/Users/"}) {
      if (path.substr(0, home.size()) != home) continue;
      size_t user_end = path.find('/', home.size());
      if (user_end != std::string_view::npos) cut = user_end + 1;
    }
    if (path.substr(0, 6) == "/root/") cut = 6;
  }
  return std::string(frame.substr(cut));
}

std::string RelabelStack(std::string_view stack, FrameLabels labels) {
  std::string out;
  size_t pos = 0;
  while (pos <= stack.size()) {
    size_t end = stack.find(';', pos);
    if (end == std::string_view::npos) end = stack.size();
    std::string frame(stack.substr(pos, end - pos));
    if (labels.short_paths) frame = ShortFramePath(frame);
    if (labels.fold_instances) frame = FoldInstance(frame);
    if (pos > 0) out.push_back(';');
    out += frame;
    pos = end + 1;
  }
  return out;
}

std::map<std::string, int64_t> RelabelStacks(const std::map<std::string, int64_t>& merged,
                                             FrameLabels labels) {
  if (!labels.fold_instances && !labels.short_paths) return merged;
  std::map<std::string, int64_t> out;
  for (const auto& [stack, weight] : merged) out[RelabelStack(stack, labels)] += weight;
  return out;
}

std::string RelabelLines(std::string_view lines, FrameLabels labels) {
  if (!labels.fold_instances && !labels.short_paths) return std::string(lines);
  std::string out;
  out.reserve(lines.size());
  size_t pos = 0;
  while (pos < lines.size()) {
    size_t end = lines.find('\n', pos);
    if (end == std::string_view::npos) end = lines.size();
    std::string_view line = lines.substr(pos, end - pos);
    size_t space = line.rfind(' ');
    if (space == std::string_view::npos) {
      out += line;
    } else {
      out += RelabelStack(line.substr(0, space), labels);
      out += line.substr(space);
    }
    if (end < lines.size()) out.push_back('\n');
    pos = end + 1;
  }
  return out;
}

}  // namespace profana::report
