// The version line `profana --version` prints: the project version and the git commit the binary
// was built from ("profana 0.1.0 (commit 0123456789ab)"; "-dirty" when tracked files differed
// from it, "unknown" outside a git checkout). Defined in a source generated on each build
// (cmake/write-version.cmake), so a new commit recompiles one file.
#pragma once

namespace profana::app {

const char* VersionString();

}  // namespace profana::app
