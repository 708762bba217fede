// Checks a model file before llama.cpp loads it, so each common failure gets a status of its
// own and a plain message naming the file, decided from the file's structure rather than
// from llama.cpp's log text: a wrong path, a directory, an empty or non-GGUF file, a GGUF
// whose header or tensor table is damaged, a truncated file, an architecture this build
// cannot run.
#pragma once

#include "ilotoki_llm.h"

#include <string>

namespace ilotoki {

struct FileCheck {
    ilotoki_llm_status status;
    std::string message;
};

/// Returns `ILOTOKI_LLM_OK` when `path` is a readable regular file that starts with the GGUF magic.
FileCheck check_model_file(const std::string &path);

/// What the GGUF header of a file says.
struct GGUFCheck {
    ilotoki_llm_status status;
    std::string message;
    /// `general.architecture`, when the header has it.
    std::string architecture;
};

/// Reads the GGUF header and tensor table (not the weights) of a file that passed
/// `check_model_file`: the header must parse, every tensor's data must lie inside the file,
/// and the architecture must be one this build of llama.cpp can run.
GGUFCheck check_gguf(const std::string &path);

} // namespace ilotoki
