#include "model_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace ilotoki {

FileCheck check_model_file(const std::string &path) {
    const std::string quoted = "'" + path + "'";
    if (path.empty()) return {ILOTOKI_LLM_ERROR_INVALID_ARGUMENT, "No model path was given."};

    struct stat info{};
    if (stat(path.c_str(), &info) != 0) {
        if (errno == ENOENT || errno == ENOTDIR) {
            return {ILOTOKI_LLM_ERROR_FILE_NOT_FOUND, "There is no model file at " + quoted + "."};
        }
        return {ILOTOKI_LLM_ERROR_UNREADABLE, "Cannot read the model file " + quoted + ": " + std::strerror(errno) + "."};
    }
    if (S_ISDIR(info.st_mode)) {
        return {ILOTOKI_LLM_ERROR_NOT_A_FILE, quoted + " is a directory, not a model file."};
    }
    if (!S_ISREG(info.st_mode)) {
        return {ILOTOKI_LLM_ERROR_NOT_A_FILE, quoted + " is not a regular file, so it cannot be a model."};
    }

    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return {ILOTOKI_LLM_ERROR_UNREADABLE, "Cannot open the model file " + quoted + ": " + std::strerror(errno) + "."};
    }
    char magic[4] = {};
    const ssize_t got = read(fd, magic, sizeof(magic));
    const int read_errno = errno;
    close(fd);
    if (got < 0) {
        return {ILOTOKI_LLM_ERROR_UNREADABLE, "Cannot read the model file " + quoted + ": " + std::strerror(read_errno) + "."};
    }
    if (info.st_size == 0) {
        return {ILOTOKI_LLM_ERROR_NOT_GGUF, "The model file " + quoted + " is empty. Download it again."};
    }
    if (got < 4 || std::memcmp(magic, "GGUF", 4) != 0) {
        return {ILOTOKI_LLM_ERROR_NOT_GGUF, quoted + " is not a GGUF model file."};
    }
    return {ILOTOKI_LLM_OK, {}};
}

} // namespace ilotoki

// The header and tensor table are read with ggml's own GGUF reader. Whether an architecture
// can run is asked of llama.cpp's architecture table (src/llama-arch.h, from the same pinned
// source): the one place that knows, and no public function exposes it.
#include "gguf.h"
#include "llama_log.hpp"
#include "llama-arch.h"

#include <algorithm>

namespace ilotoki {

GGUFCheck check_gguf(const std::string &path) {
    const std::string quoted = "'" + path + "'";
    struct stat info{};
    if (stat(path.c_str(), &info) != 0) {
        return {ILOTOKI_LLM_ERROR_UNREADABLE, "Cannot read the model file " + quoted + ": " + std::strerror(errno) + ".", {}};
    }
    gguf_init_params params{};
    params.no_alloc = true;
    params.ctx = nullptr;
    // gguf logs why it refuses a header through llama.cpp's log: routed to our log, not the
    // terminal, and the first reason quoted in our message.
    install_llama_log();
    clear_llama_errors();
    gguf_context *gguf = gguf_init_from_file(path.c_str(), params);
    if (gguf == nullptr) {
        const std::string reason = first_llama_error();
        return {ILOTOKI_LLM_ERROR_CORRUPT_MODEL,
                "The model file " + quoted + " is damaged or truncated (its GGUF header cannot be read" +
                    (reason.empty() ? std::string() : ": " + reason) + "); delete it and download it again.",
                {}};
    }
    struct Closer {
        gguf_context *gguf;
        ~Closer() { gguf_free(gguf); }
    } closer{gguf};

    // Every tensor's data must lie inside the file: a download cut short ends mid-weights.
    uint64_t needed = gguf_get_data_offset(gguf);
    const int64_t tensors = gguf_get_n_tensors(gguf);
    for (int64_t i = 0; i < tensors; ++i) {
        needed = std::max<uint64_t>(needed, gguf_get_data_offset(gguf) + gguf_get_tensor_offset(gguf, i) + gguf_get_tensor_size(gguf, i));
    }
    if (needed > static_cast<uint64_t>(info.st_size)) {
        return {ILOTOKI_LLM_ERROR_CORRUPT_MODEL,
                "The model file " + quoted + " is truncated: it has " + std::to_string(info.st_size) + " bytes of the " +
                    std::to_string(needed) + " its tensors need; delete it and download it again.",
                {}};
    }

    const int64_t key = gguf_find_key(gguf, "general.architecture");
    if (key < 0 || gguf_get_kv_type(gguf, key) != GGUF_TYPE_STRING) {
        return {ILOTOKI_LLM_ERROR_CORRUPT_MODEL, "The model file " + quoted + " does not say which architecture it has (no general.architecture).", {}};
    }
    const std::string architecture = gguf_get_val_str(gguf, key);
    const llm_arch arch = llm_arch_from_string(architecture);
    if (arch == LLM_ARCH_UNKNOWN || arch == LLM_ARCH_CLIP) {
        return {ILOTOKI_LLM_ERROR_UNSUPPORTED_MODEL,
                "The model '" + path + "' has the architecture '" + architecture +
                    "', which this version of ilo toki cannot run. Use a GGUF of a supported text model (Gemma, Llama, …).",
                architecture};
    }
    return {ILOTOKI_LLM_OK, {}, architecture};
}

} // namespace ilotoki
