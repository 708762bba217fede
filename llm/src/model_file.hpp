// Checks a model file before llama.cpp sees it, so the common mistakes (a wrong path, a
// directory, an empty or non-GGUF file) get a plain message naming the file.
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

} // namespace ilotoki
