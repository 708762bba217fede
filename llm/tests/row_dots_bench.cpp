// What a check of the trimmed head costs per state, on one thread: ggml's vec_dot (one row,
// one state per call, as llama.cpp's head and the fallback check use it) against the row
// kernel of this CPU (row_dots.cpp), with the rows streamed from memory (the head of a GGUF
// file, as a token reads it) and with rows that stay in the cache (the compute alone).
//
//   build/llm/bin/row_dots_bench MODEL.gguf
//
// Prints milliseconds per state for all of the head's rows; docs/benchmarks.md keeps the
// figures. Only a Q8_0 head is measured (the kernels' type).
#include "row_dots.hpp"

#include "ggml-cpu.h"
#include "gguf.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <memory>
#include <vector>

using ilotoki::RowChoice;
using ilotoki::RowDots;

namespace {

double now_ms() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// The median of `runs` timings of `work`, in milliseconds.
template <typename Work> double median_ms(int runs, Work work) {
    std::vector<double> times;
    for (int i = 0; i < runs; ++i) {
        const double start = now_ms();
        work();
        times.push_back(now_ms() - start);
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

} // namespace

int main(int argc, char **argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: row_dots_bench MODEL.gguf\n");
        return 2;
    }
    ggml_cpu_init();
    gguf_init_params params{};
    params.no_alloc = true;
    gguf_context *file = gguf_init_from_file(argv[1], params);
    if (file == nullptr) {
        std::fprintf(stderr, "row_dots_bench: %s is not a readable GGUF file\n", argv[1]);
        return 1;
    }
    int64_t tensor = gguf_find_tensor(file, "output.weight");
    if (tensor < 0) tensor = gguf_find_tensor(file, "token_embd.weight");
    if (tensor < 0 || gguf_get_tensor_type(file, tensor) != GGML_TYPE_Q8_0) {
        std::fprintf(stderr, "row_dots_bench: the file's head is not Q8_0\n");
        return 1;
    }
    const size_t head_bytes = gguf_get_tensor_size(file, tensor);
    const int64_t architecture = gguf_find_key(file, "general.architecture");
    const int64_t length_key =
        architecture < 0 ? -1 : gguf_find_key(file, (std::string(gguf_get_val_str(file, architecture)) + ".embedding_length").c_str());
    const int32_t embedding = length_key < 0 ? 0 : static_cast<int32_t>(gguf_get_val_u32(file, length_key));
    const size_t offset = gguf_get_data_offset(file) + gguf_get_tensor_offset(file, tensor);
    gguf_free(file);

    const int fd = open(argv[1], O_RDONLY);
    struct stat status{};
    fstat(fd, &status);
    auto *map = static_cast<uint8_t *>(mmap(nullptr, static_cast<size_t>(status.st_size), PROT_READ, MAP_SHARED, fd, 0));
    close(fd);
    if (map == MAP_FAILED) {
        std::fprintf(stderr, "row_dots_bench: cannot map %s\n", argv[1]);
        return 1;
    }
    const uint8_t *head = map + offset;

    if (embedding <= 0 || embedding % 32 != 0 || head_bytes % (static_cast<size_t>(embedding) / 32 * 34) != 0) {
        std::fprintf(stderr, "row_dots_bench: the head is not [%d, vocabulary] Q8_0 rows\n", embedding);
        return 1;
    }
    const size_t row_bytes = static_cast<size_t>(embedding) / 32 * 34;
    const int32_t rows = static_cast<int32_t>(head_bytes / row_bytes);
    const auto *traits = ggml_get_type_traits_cpu(GGML_TYPE_Q8_0);

    std::mt19937 random(5);
    std::normal_distribution<float> gaussian(0.0f, 1.0f);
    std::vector<std::vector<uint8_t>> states(RowDots::kMaxStates, std::vector<uint8_t>(row_bytes));
    // Every row kernel this CPU can run (an AVX-512 machine runs the AVX2 one too), each timed.
    std::vector<std::unique_ptr<RowDots>> kernels;
    for (const auto wanted : {RowDots::Kernel::Avx512Vnni, RowDots::Kernel::Avx2, RowDots::Kernel::NeonDot}) {
        auto made = RowDots::make(GGML_TYPE_Q8_0, embedding, &wanted);
        if (made != nullptr && made->kernel() == wanted) kernels.push_back(std::move(made));
    }
    for (int s = 0; s < RowDots::kMaxStates; ++s) {
        std::vector<float> hidden(static_cast<size_t>(embedding));
        for (auto &value : hidden) value = gaussian(random);
        traits->from_float(hidden.data(), states[static_cast<size_t>(s)].data(), embedding);
        for (auto &dots : kernels) dots->set_state(s, states[static_cast<size_t>(s)].data());
    }
    std::vector<int32_t> all(static_cast<size_t>(rows));
    for (int32_t r = 0; r < rows; ++r) all[static_cast<size_t>(r)] = r;
    // 2,000 rows (1.4 MB on Gemma 3 270M) stay in the cache; repeated to cover the head.
    const int32_t cached = 2000;
    const int repeats = rows / cached;
    float sink = 0.0f;

    const auto vec_dot = [&](const int32_t *ids, size_t count, int state_count) {
        for (size_t i = 0; i < count; ++i) {
            for (int s = 0; s < state_count; ++s) {
                float value = 0.0f;
                traits->vec_dot(embedding, &value, 0, head + static_cast<size_t>(ids[i]) * row_bytes, 0,
                                states[static_cast<size_t>(s)].data(), 0, 1);
                sink = std::max(sink, value);
            }
        }
    };
    const auto kernel = [&](const RowDots &dots, const int32_t *ids, size_t count, int state_count) {
        RowChoice best[RowDots::kMaxStates];
        dots.best_rows(head, row_bytes, ids, count, state_count, best);
        sink = std::max(sink, best[0].value);
    };
    for (size_t at = 0; at < head_bytes; at += 4096) sink += static_cast<float>(head[at] & 1); // pages in

    std::printf("head: %d rows of %d values (%.1f MB, Q8_0); one thread; ms per state for all rows (median of 5)\n", rows,
                embedding, head_bytes / 1e6);
    std::printf("%-24s %10s %10s %10s\n", "", "1 state", "8 states", "in cache");
    const int runs = 5;
    std::printf("%-24s %10.2f %10.2f %10.2f\n", "ggml vec_dot",
                median_ms(runs, [&] { vec_dot(all.data(), all.size(), 1); }),
                median_ms(runs, [&] { vec_dot(all.data(), all.size(), 8); }) / 8,
                median_ms(runs, [&] { for (int k = 0; k < repeats; ++k) vec_dot(all.data(), cached, 8); }) / 8);
    for (const auto &dots : kernels) {
        std::printf("%-24s %10.2f %10.2f %10.2f\n", RowDots::kernel_name(dots->kernel()),
                    median_ms(runs, [&] { kernel(*dots, all.data(), all.size(), 1); }),
                    median_ms(runs, [&] { kernel(*dots, all.data(), all.size(), 8); }) / 8,
                    median_ms(runs, [&] { for (int k = 0; k < repeats; ++k) kernel(*dots, all.data(), cached, 8); }) / 8);
    }
    if (kernels.empty()) std::printf("this CPU has no row kernel: the check uses ggml's vec_dot\n");
    // How the cost per state falls with the states checked together (streamed rows): a check
    // at a line end or at the end of the output has fewer than 8.
    std::printf("\nms per state by states checked together (streamed)\n%-24s", "");
    for (const int count : {1, 2, 3, 4, 6, 8}) std::printf(" %7d", count);
    std::printf("\n%-24s", "ggml vec_dot");
    for (const int count : {1, 2, 3, 4, 6, 8}) {
        std::printf(" %7.2f", median_ms(runs, [&] { vec_dot(all.data(), all.size(), count); }) / count);
    }
    for (const auto &dots : kernels) {
        std::printf("\n%-24s", RowDots::kernel_name(dots->kernel()));
        for (const int count : {1, 2, 3, 4, 6, 8}) {
            std::printf(" %7.2f", median_ms(runs, [&] { kernel(*dots, all.data(), all.size(), count); }) / count);
        }
    }
    std::printf("\n");
    std::printf("(checksum %g)\n", static_cast<double>(sink));
    munmap(map, static_cast<size_t>(status.st_size));
    return 0;
}
