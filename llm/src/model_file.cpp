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
