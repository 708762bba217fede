// llama.cpp and ggml log to stderr by default; the core routes their lines here instead, so a
// loading failure can be explained in our own error message, the terminal carries only our
// words, and the lines themselves go to a size-bounded log file of the app's (or nowhere).
#pragma once

#include <cstdint>
#include <string>

namespace ilotoki {

/// Installs the log callback once per process (and initialises llama.cpp's backend). Set
/// ILOTOKI_LLM_LOG=1 to also see every line on stderr.
void install_llama_log();

/// Where llama.cpp's lines go from now on: appended to `path` (created 0600 when first
/// written, kept under `max_bytes` by moving it to `path.1` when it would grow past), or
/// nowhere when `path` is empty; with `echo`, also to stderr. Safe from any thread.
void set_llama_log(const std::string &path, uint64_t max_bytes, bool echo);

/// Forgets the errors this thread has seen so far.
void clear_llama_errors();

/// The first error or warning llama.cpp logged on this thread since `clear_llama_errors`,
/// without function-name prefixes; empty if none.
std::string first_llama_error();

} // namespace ilotoki
