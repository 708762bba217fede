// libFuzzer target: the check a sideloaded model file goes through before llama.cpp sees
// it (src/model_file.cpp), over any bytes. The bytes live in a memfd, reached by its
// /proc/self/fd path, so the check reads a real regular file without touching the disk.
// Whatever the bytes, the check must return a status and a message, never crash or leak.
#include "model_file.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const int fd = memfd_create("model.gguf", 0);
    if (fd < 0) abort();
    size_t written = 0;
    while (written < size) {
        const ssize_t count = write(fd, data + written, size - written);
        if (count <= 0) abort();
        written += static_cast<size_t>(count);
    }
    const std::string path = "/proc/self/fd/" + std::to_string(fd);
    const ilotoki::FileCheck file = ilotoki::check_model_file(path);
    if (file.status == ILOTOKI_LLM_OK) {
        const ilotoki::GGUFCheck gguf = ilotoki::check_gguf(path);
        if (gguf.status != ILOTOKI_LLM_OK && gguf.message.empty()) abort();  // every refusal says why
    } else if (file.message.empty()) {
        abort();
    }
    close(fd);
    return 0;
}
