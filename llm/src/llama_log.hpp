// llama.cpp logs to stderr by default; the core routes it here instead so a loading
// failure can be explained in the error message and the terminal stays clean.
#pragma once

#include <string>

namespace ilotoki {

/// Installs the log callback once per process. Set ILOTOKI_LLM_LOG=1 to also see the log on stderr.
void install_llama_log();

/// Forgets the errors this thread has seen so far.
void clear_llama_errors();

/// The first error or warning llama.cpp logged on this thread since `clear_llama_errors`,
/// without function-name prefixes; empty if none.
std::string first_llama_error();

} // namespace ilotoki
