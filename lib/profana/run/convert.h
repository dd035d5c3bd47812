// profana convert: any trace to profana's native file (.pfa), its text twin (.txt), Chrome-trace
// JSON (.json, .json.gz), or a SQLite database (.sqlite; a directory or glob too: one database
// for the job). The output format follows the extension unless --to names it.
#pragma once

#include <string>

#include "profana/run/command_options.h"
#include "profana/run/session.h"

namespace profana::run {

struct ConvertArgs {
  CommonOptions common;
  std::string file;
  std::string to;
  bool no_index = false;
  bool annotate = false;
};

Status RunConvert(const ConvertArgs& args, Session& session);

}  // namespace profana::run
