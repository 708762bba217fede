#include "llama_log.hpp"

#include "llama.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
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

/// The log file and the echo. llama.cpp logs from the loading thread and from its workers, so
/// every write holds the lock; the file is opened when the first line comes (a translation
/// that logs nothing leaves no file) and closed when the destination changes.
class LogSink {
public:
    void configure(const std::string &path, uint64_t max_bytes, bool echo) {
        std::lock_guard<std::mutex> lock(mutex_);
        close_file();
        path_ = path;
        max_bytes_ = max_bytes;
        echo_ = echo;
        failed_ = false;
    }

    void write(ggml_log_level level, const char *text) {
        std::lock_guard<std::mutex> lock(mutex_);
        // Every token's debug line would fill the file and say nothing a person can use.
        if (level == GGML_LOG_LEVEL_DEBUG) {
            last_was_debug_ = true;
            return;
        }
        if (level == GGML_LOG_LEVEL_CONT && last_was_debug_) return;
        if (level != GGML_LOG_LEVEL_CONT) last_was_debug_ = false;
        if (echo_ || echo_to_stderr()) std::fputs(text, stderr);
        if (path_.empty() || failed_) return;
        std::string line;
        if (level != GGML_LOG_LEVEL_CONT && at_line_start_) line = timestamp();
        line += text;
        at_line_start_ = !line.empty() && line.back() == '\n';
        if (!open_file(line.size())) return;
        // A log line that cannot be written is dropped: the log never stops a translation.
        const ssize_t written = ::write(fd_, line.data(), line.size());
        if (written > 0) size_ += static_cast<uint64_t>(written);
    }

private:
    static std::string timestamp() {
        char stamp[32];
        const std::time_t now = std::time(nullptr);
        std::tm parts{};
        gmtime_r(&now, &parts);
        std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ ", &parts);
        return stamp;
    }

    bool open_file(size_t adding) {
        if (fd_ >= 0 && max_bytes_ > 0 && size_ + adding > max_bytes_) {
            // Rotation: the older half stays readable as path.1, and the log never outgrows
            // twice its bound.
            close_file();
            std::rename(path_.c_str(), (path_ + ".1").c_str());
        }
        if (fd_ >= 0) return true;
        fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
        if (fd_ < 0) {
            failed_ = true;  // a read-only or missing directory: no log rather than an error
            return false;
        }
        struct stat info{};
        size_ = fstat(fd_, &info) == 0 ? static_cast<uint64_t>(info.st_size) : 0;
        if (max_bytes_ > 0 && size_ > 0 && size_ + adding > max_bytes_) return open_file(adding);
        return true;
    }

    void close_file() {
        if (fd_ >= 0) ::close(fd_);
        fd_ = -1;
        size_ = 0;
        at_line_start_ = true;
    }

    std::mutex mutex_;
    std::string path_;
    uint64_t max_bytes_ = 0;
    bool echo_ = false;
    bool failed_ = false;
    bool last_was_debug_ = false;
    bool at_line_start_ = true;
    int fd_ = -1;
    uint64_t size_ = 0;
};

LogSink &sink() {
    static LogSink *instance = new LogSink();  // never destroyed: workers may log during exit
    return *instance;
}

void on_log(ggml_log_level level, const char *text, void *) {
    if (text == nullptr) return;
    sink().write(level, text);
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
        llama_log_set(on_log, nullptr);
        llama_backend_init();
    });
}

void set_llama_log(const std::string &path, uint64_t max_bytes, bool echo) {
    sink().configure(path, max_bytes, echo);
    install_llama_log();
}

void clear_llama_errors() {
    current_message.clear();
    first_error.clear();
    current_is_first_error = false;
}

std::string first_llama_error() { return first_error; }

} // namespace ilotoki
