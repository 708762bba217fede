#include "llama_log.hpp"

#include "llama.h"

#include <cstdio>
#include <cstdlib>
#include <mutex>

namespace ilotoki {
namespace {

// Loading runs on the caller's thread, and so does llama.cpp's logging while it loads, so a
// thread-local record attributes each message to the load that caused it.
thread_local std::string current_message;
thread_local std::string first_error;
thread_local bool current_is_first_error = false;

bool echo_to_stderr() {
    const char *value = std::getenv("ILOTOKI_LLM_LOG");
    return value != nullptr && value[0] != '\0' && value[0] != '0';
}

std::string trimmed(const std::string &text) {
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) return {};
    const auto last = text.find_last_not_of(" \t\r\n");
    return text.substr(first, last - first + 1);
}

/// "gguf_init_from_reader: failed to read key-value pairs" → "failed to read key-value pairs".
std::string without_function_names(std::string message) {
    while (true) {
        const auto colon = message.find(": ");
        if (colon == std::string::npos || colon == 0) return message;
        const bool identifier = message.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") == colon;
        if (!identifier) return message;
        message.erase(0, colon + 2);
    }
}

void on_log(ggml_log_level level, const char *text, void *echo) {
    if (text == nullptr) return;
    if (echo != nullptr) std::fputs(text, stderr);
    if (level != GGML_LOG_LEVEL_CONT) {
        current_message.clear();
        const bool is_error = level == GGML_LOG_LEVEL_ERROR || level == GGML_LOG_LEVEL_WARN;
        // The first error is the cause; what follows is llama.cpp unwinding ("failed to load model").
        current_is_first_error = is_error && first_error.empty();
    }
    if (!current_is_first_error) return;
    current_message.append(text);
    first_error = without_function_names(trimmed(current_message));
}

} // namespace

void install_llama_log() {
    static std::once_flag once;
    std::call_once(once, [] {
        void *echo = echo_to_stderr() ? reinterpret_cast<void *>(1) : nullptr;
        llama_log_set(on_log, echo);
        llama_backend_init();
    });
}

void clear_llama_errors() {
    current_message.clear();
    first_error.clear();
    current_is_first_error = false;
}

std::string first_llama_error() { return first_error; }

} // namespace ilotoki
