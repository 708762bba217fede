#include "trimmed_head.hpp"

#include "ggml-backend.h"
#include "gguf.h"
#include "residency.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>

namespace ilotoki {

namespace {

/// Sets of at most this share of the vocabulary are copied into one compact block.
constexpr double kCompactShare = 0.2;
// Character sets whose rows are kept at once.
constexpr size_t kKnownSets = 6;
// O_DIRECT reads start and end on this boundary (the page; a file system's block is no larger).
constexpr uint64_t kDirectAlign = 4096;
// A streamed check drops the page cache from the head's start rounded down to this: the page
// cache holds large folios, and a drop leaves a folio that reaches past its range's start.
constexpr uint64_t kDropAlign = 2u << 20;

struct GgufFile {
    gguf_context *context = nullptr;
    ~GgufFile() {
        if (context != nullptr) gguf_free(context);
    }
};

// What a sketch leaves beside the process's own memory and the model's body: the program's
// code and libraries, the kernel's share of the group, the chunk buffer.
constexpr uint64_t kSketchReserve = 32ull << 20;
// Where no limit is known (the device said it is short of memory: a phone's onTrimMemory, the
// kernel's pressure figures), the memory the system reports available, less this, is what a
// sketch may take: a device short of memory is not made shorter, and a phone's low-memory killer
// looks at the app's size.
constexpr uint64_t kSketchLeavesTheSystem = 1024ull << 20;

/// A "Name:   N kB" line's value in bytes from a /proc file (0 where there is none).
uint64_t proc_kilobytes(const char *path, const char *name) {
    std::ifstream file(path);
    std::string key;
    uint64_t value = 0;
    while (file >> key) {
        if (key == name) {
            file >> value;
            return value * 1024;
        }
        file.ignore(1 << 12, '\n');
    }
    return 0;
}

/// Thread `ith` of `nth`'s share of `count` items.
inline void share(size_t count, int ith, int nth, size_t &begin, size_t &end) {
    begin = count * static_cast<size_t>(ith) / static_cast<size_t>(nth);
    end = count * static_cast<size_t>(ith + 1) / static_cast<size_t>(nth);
}

} // namespace

std::unique_ptr<TrimmedHead> TrimmedHead::open(const std::string &path, const llama_model *model, int32_t threads,
                                               int32_t slots, std::string &why) {
    char architecture[64] = {};
    llama_model_meta_val_str(model, "general.architecture", architecture, sizeof(architecture));
    // The graph hook is in the gemma3 graph (llm/patches/0001); Gemma 2's head has a final
    // soft cap and stays llama.cpp's.
    if (std::strcmp(architecture, "gemma3") != 0) {
        why = std::string("the ") + architecture + " graph has no replaceable head";
        return nullptr;
    }
    // The head is a CPU operation; where llama.cpp offloads the model (its default on a build
    // with Metal), the GPU's own head stays.
    for (size_t i = 0; i < ggml_backend_dev_count(); ++i) {
        const auto type = ggml_backend_dev_type(ggml_backend_dev_get(i));
        if (type == GGML_BACKEND_DEVICE_TYPE_GPU || type == GGML_BACKEND_DEVICE_TYPE_IGPU) {
            why = std::string("the model runs on ") + ggml_backend_dev_name(ggml_backend_dev_get(i)) + ", which keeps llama.cpp's head";
            return nullptr;
        }
    }
    GgufFile file;
    gguf_init_params params{};
    params.no_alloc = true;
    params.ctx = nullptr;
    file.context = gguf_init_from_file(path.c_str(), params);
    if (file.context == nullptr) {
        why = "the file's tensor table cannot be read";
        return nullptr;
    }
    int64_t tensor = gguf_find_tensor(file.context, "output.weight");
    if (tensor < 0) tensor = gguf_find_tensor(file.context, "token_embd.weight");
    if (tensor < 0) {
        why = "the file has no output or embedding tensor";
        return nullptr;
    }

    std::unique_ptr<TrimmedHead> head(new TrimmedHead());
    head->type_ = gguf_get_tensor_type(file.context, tensor);
    const auto *traits = ggml_get_type_traits_cpu(head->type_);
    if (traits == nullptr || traits->vec_dot == nullptr) {
        why = std::string("no CPU kernel for ") + ggml_type_name(head->type_);
        return nullptr;
    }
    head->vec_dot_ = traits->vec_dot;
    head->state_type_ = traits->vec_dot_type;
    head->from_float_ = ggml_get_type_traits_cpu(head->state_type_)->from_float;
    head->embedding_ = llama_model_n_embd(model);
    head->rows_ = llama_vocab_n_tokens(llama_model_get_vocab(model));
    if (head->embedding_ % ggml_blck_size(head->type_) != 0 || head->embedding_ % ggml_blck_size(head->state_type_) != 0) {
        why = "the embedding size is not a whole number of blocks";
        return nullptr;
    }
    head->row_bytes_ = ggml_row_size(head->type_, head->embedding_);
    head->state_bytes_ = ggml_row_size(head->state_type_, head->embedding_);
    const size_t head_bytes = head->row_bytes_ * static_cast<size_t>(head->rows_);
    if (gguf_get_tensor_size(file.context, tensor) != head_bytes) {
        why = "the head's shape is not [embedding, vocabulary]";
        return nullptr;
    }
    const size_t offset = gguf_get_data_offset(file.context) + gguf_get_tensor_offset(file.context, tensor);

    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        why = "the file cannot be opened again";
        return nullptr;
    }
    struct stat status{};
    if (fstat(fd, &status) != 0 || static_cast<uint64_t>(status.st_size) < offset + head_bytes) {
        ::close(fd);
        why = "the file is shorter than its head";
        return nullptr;
    }
    // The same file pages llama.cpp maps: no second copy in memory.
    void *map = mmap(nullptr, static_cast<size_t>(status.st_size), PROT_READ, MAP_SHARED, fd, 0);
    ::close(fd);
    if (map == MAP_FAILED) {
        why = "the file cannot be mapped";
        return nullptr;
    }
    head->map_ = map;
    head->map_size_ = static_cast<size_t>(status.st_size);
    head->head_ = static_cast<const uint8_t *>(map) + offset;
    head->file_offset_ = offset;
    head->threads_ = std::max(1, threads);
    head->slots_ = std::max(1, slots);
    head->states_.resize(head->state_bytes_ * static_cast<size_t>(head->slots_));
    head->workers_.resize(static_cast<size_t>(head->threads_));
    // Every row's id in order: the rows of a step over the whole vocabulary, and the positions
    // of a compact block's rows.
    head->every_row_.resize(static_cast<size_t>(head->rows_));
    for (int32_t row = 0; row < head->rows_; ++row) head->every_row_[static_cast<size_t>(row)] = row;
    // ILOTOKI_ROW_KERNEL=avx2 (or avx512-vnni, neon-dotprod, vec_dot) runs the check with that
    // kernel where the CPU has it: for measuring another CPU's path on this one.
    const char *forced = std::getenv("ILOTOKI_ROW_KERNEL");
    RowDots::Kernel preferred = RowDots::Kernel::Avx2;
    bool prefer = false, use_vec_dot = false;
    if (forced != nullptr) {
        for (const auto kernel : {RowDots::Kernel::Avx512Vnni, RowDots::Kernel::Avx2, RowDots::Kernel::NeonDot}) {
            if (std::strcmp(forced, RowDots::kernel_name(kernel)) == 0) {
                preferred = kernel;
                prefer = true;
            }
        }
        use_vec_dot = std::strcmp(forced, "vec_dot") == 0;
    }
    head->columns_.assign(1, 0);
    for (auto &worker : head->workers_) {
        worker.state.resize(head->state_bytes_ * kMostColumns);
        worker.kept.resize(kMostColumns);
        worker.excluded.resize(static_cast<size_t>(head->slots_));
        worker.excluded_runner_up.assign(static_cast<size_t>(head->slots_), -INFINITY);
        // More slots than the kernel takes at once are checked kMaxStates at a time.
        if (!use_vec_dot) {
            worker.dots = RowDots::make(head->type_, head->embedding_, prefer ? &preferred : nullptr);
        }
    }
    head->choose_kernel_by_states();
    // ILOTOKI_CHECK_SKETCH=0 streams every row at every check; =4 a smaller, looser sketch.
    if (const char *bits = std::getenv("ILOTOKI_CHECK_SKETCH"); bits != nullptr && *bits != '\0') {
        head->sketch_bits_ = std::atoi(bits) == 4 ? 4 : std::atoi(bits) == 5 ? 5 : 0;
    }
    // For tests: ILOTOKI_SKETCH_READ_EVERY=N reads every row whose id is a multiple of N
    // exactly, as if its bound had not ruled it out (`read_exactly_every`).
    if (const char *every = std::getenv("ILOTOKI_SKETCH_READ_EVERY"); every != nullptr) head->read_exactly_every(std::max(0, std::atoi(every)));
    return head;
}

void TrimmedHead::choose_kernel_by_states() {
    RowDots *dots = workers_.front().dots.get();
    if (dots == nullptr) return;
    // Measured, not assumed: a row kernel reads each row once for all the states and pays for
    // that with a layout of its own, which ggml's one-state vec_dot can beat with few states
    // (the AVX2 kernel with one on an AMD EPYC, docs/benchmarks.md). Both are timed as a check
    // runs them: 1,000 rows spread over the head, read from memory (each trial takes rows no
    // trial read before), the row asked for a few rows ahead, the best of three. From the
    // first count where the kernel wins, it serves the check. A kernel chosen by
    // ILOTOKI_ROW_KERNEL (an AVX2 machine played on an AVX-512 one) is measured the same way.
    {
        const int32_t count = std::min<int32_t>(1000, rows_);
        const int32_t stride = std::max<int32_t>(1, rows_ / count);
        int32_t trial = 0;
        std::vector<int32_t> ids(static_cast<size_t>(count));
        const auto fresh_rows = [&] {
            const int32_t offset = trial++ % stride;
            for (int32_t i = 0; i < count; ++i) ids[static_cast<size_t>(i)] = std::min(rows_ - 1, i * stride + offset);
        };
        // Any states do: the timings do not depend on the values.
        std::vector<uint8_t> states(state_bytes_ * RowDots::kMaxStates, 0);
        std::vector<float> hidden(static_cast<size_t>(embedding_));
        for (int s = 0; s < RowDots::kMaxStates; ++s) {
            for (int32_t i = 0; i < embedding_; ++i) hidden[static_cast<size_t>(i)] = static_cast<float>((i * 7 + s * 13) % 17) - 8.0f;
            quantize(hidden.data(), &states[static_cast<size_t>(s) * state_bytes_]);
        }
        // Only the first worker's kernel is timed; every check sets its workers' states anew.
        for (int s = 0; s < RowDots::kMaxStates; ++s) dots->set_state(s, &states[static_cast<size_t>(s) * state_bytes_]);
        float sink = 0.0f;
        const auto best_of_three = [&](auto work) {
            double best = INFINITY;
            for (int round = 0; round < 3; ++round) {
                fresh_rows();
                const auto start = std::chrono::steady_clock::now();
                work();
                best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
            }
            return best;
        };
        kernel_from_ = RowDots::kMaxStates + 1;
        for (int states_now = 1; states_now <= std::min<int>(slots_, RowDots::kMaxStates); ++states_now) {
            const double with_vec_dot = best_of_three([&] {
                for (int32_t i = 0; i < count; ++i) {
                    if (i + static_cast<int32_t>(kRowsAhead) < count) prefetch_row(row(ids[static_cast<size_t>(i) + kRowsAhead]), row_bytes_);
                    for (int s = 0; s < states_now; ++s) {
                        float value = 0.0f;
                        vec_dot_(embedding_, &value, 0, row(ids[static_cast<size_t>(i)]), 0, &states[static_cast<size_t>(s) * state_bytes_], 0, 1);
                        sink = std::max(sink, value);
                    }
                }
            });
            const double with_kernel = best_of_three([&] {
                RowChoice best[RowDots::kMaxStates];
                dots->best_rows(head_, row_bytes_, ids.data(), static_cast<size_t>(count), states_now, best);
                sink = std::max(sink, best[0].value);
            });
            if (with_kernel < with_vec_dot) {
                kernel_from_ = states_now;
                break;
            }
        }
        volatile float keep = sink; // the timed work is not optimised away
        (void)keep;
    }
    if (kernel_from_ > std::min<int>(slots_, RowDots::kMaxStates)) {
        // ggml's vec_dot was faster at every count: the check is its.
        for (auto &worker : workers_) worker.dots.reset();
    }
}

AnonymousBlock::~AnonymousBlock() { reset(0); }

void AnonymousBlock::reset(size_t bytes) {
    if (data_ != nullptr) munmap(data_, size_);
    data_ = nullptr;
    size_ = 0;
    if (bytes == 0) return;
    void *block = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (block == MAP_FAILED) return;
#ifdef MADV_HUGEPAGE
    // Streamed once per token: large pages spare the TLB misses of 4 KiB ones, where the
    // system offers them.
    madvise(block, bytes, MADV_HUGEPAGE);
#endif
    data_ = static_cast<uint8_t *>(block);
    size_ = bytes;
}

TrimmedHead::~TrimmedHead() {
    if (stream_fd_ >= 0) ::close(stream_fd_);
    if (check_context_ != nullptr) ggml_free(check_context_);
    if (map_ != nullptr) munmap(map_, map_size_);
}

const std::vector<int32_t> &TrimmedHead::rows_of(const llama_vocab *vocab, const CharacterSet &characters) {
    for (const auto &known : known_rows_) {
        if (known.characters == characters) return known.rows;
    }
    // An app asks for a handful of sets; a caller that keeps asking for new ones does not
    // keep a megabyte of rows for each.
    if (known_rows_.size() >= kKnownSets) known_rows_.erase(known_rows_.begin());
    known_rows_.push_back({characters, rows_for_characters(vocab, characters)});
    return known_rows_.back().rows;
}

void TrimmedHead::use_characters(const llama_vocab *vocab, const CharacterSet &characters, const CharacterSet &wider) {
    wider_ = wider;
    if (characters_set_ && characters == characters_) return;
    kept_ = rows_of(vocab, characters);
    sketch_.reset(); // a sketch of the rows no longer excluded
    sketch_refused_ = false;
    excluded_.clear();
    excluded_.reserve(static_cast<size_t>(rows_) - kept_.size());
    size_t next = 0;
    for (int32_t token = 0; token < rows_; ++token) {
        if (next < kept_.size() && kept_[next] == token) {
            ++next;
        } else {
            excluded_.push_back(token);
        }
    }
    if (static_cast<double>(kept_.size()) <= kCompactShare * rows_ && !(compact_.data() != nullptr && compact_characters_ == characters)) {
        compact_.reset(kept_.size() * row_bytes_);
        if (compact_.data() != nullptr) {
            for (size_t i = 0; i < kept_.size(); ++i) std::memcpy(compact_.data() + i * row_bytes_, row(kept_[i]), row_bytes_);
            compact_characters_ = characters;
            read_through_mapping_ = streams();
        }
    }
    characters_ = characters;
    characters_set_ = true;
}

bool TrimmedHead::kept_rows_are_few() const { return static_cast<double>(kept_.size()) <= kCompactShare * rows_; }

bool TrimmedHead::can_widen_to(const llama_vocab *vocab, int32_t row) {
    if (wider_.empty() || wider_ == characters_) return false;
    const std::vector<int32_t> &wide = rows_of(vocab, wider_);
    return std::binary_search(wide.begin(), wide.end(), row);
}

bool TrimmedHead::widen(const llama_vocab *vocab, int32_t row) {
    if (!can_widen_to(vocab, row)) return false;
    const CharacterSet wider = wider_;
    use_characters(vocab, wider, wider);
    return true;
}

ggml_tensor *TrimmedHead::build(ggml_context *ctx, ggml_tensor *hidden, ggml_tensor *, void *self) {
    auto *head = static_cast<TrimmedHead *>(self);
    if (hidden->type != GGML_TYPE_F32 || hidden->ne[0] != head->embedding_ || hidden->ne[1] < 1 ||
        hidden->ne[1] > std::min(kMostColumns, head->slots_) || hidden->ne[2] != 1 || hidden->ne[3] != 1 ||
        !ggml_is_contiguous(hidden)) {
        return nullptr; // not a shape this head handles: llama.cpp keeps its own
    }
    ggml_tensor *args[] = {hidden};
    ggml_tensor *out = ggml_custom_4d(ctx, GGML_TYPE_F32, 1, 1, 1, 1, args, 1, &TrimmedHead::compute, GGML_N_TASKS_MAX, self);
    ggml_set_output(out);
    return out;
}

void TrimmedHead::prepare(int32_t slot, bool check) {
    slot_ = std::clamp(slot, 0, slots_ - 1);
    columns_.assign(1, slot_);
    // A streamed check reads the file between steps (`check`), never inside one.
    check_ = check && !streams();
    every_row_step_ = false;
    for (auto &worker : workers_) worker.columns_done = 0;
}

void TrimmedHead::prepare_columns(const int32_t *slots, int32_t count, bool every_row) {
    count = std::clamp(count, 0, std::min(kMostColumns, slots_));
    columns_.clear();
    for (int32_t i = 0; i < count; ++i) columns_.push_back(std::clamp(slots[i], 0, slots_ - 1));
    slot_ = columns_.empty() ? 0 : columns_.front();
    check_ = false; // a step of several outputs is checked on its own (`check`)
    every_row_step_ = every_row;
    for (auto &worker : workers_) worker.columns_done = 0;
}

int32_t TrimmedHead::columns_computed() const {
    const int32_t done = workers_.front().columns_done;
    for (const auto &worker : workers_) {
        if (worker.columns_done != done) return -1;
    }
    return done <= static_cast<int32_t>(columns_.size()) ? done : -1;
}

void TrimmedHead::quantize(const float *hidden, uint8_t *out) const {
    if (state_type_ == GGML_TYPE_F32 || from_float_ == nullptr) {
        std::memcpy(out, hidden, sizeof(float) * static_cast<size_t>(embedding_));
    } else {
        from_float_(hidden, out, embedding_);
    }
}

void TrimmedHead::compute(ggml_tensor *dst, int ith, int nth, void *self) {
    auto *head = static_cast<TrimmedHead *>(self);
    if (ith >= static_cast<int>(head->workers_.size())) return; // more workers than the handle's threads: never
    nth = std::min(nth, static_cast<int>(head->workers_.size()));
    auto &worker = head->workers_[static_cast<size_t>(ith)];
    const ggml_tensor *hidden = dst->src[0];
    const auto count = static_cast<int32_t>(hidden->ne[1]);
    // The outputs of this micro-batch follow those of the step's earlier ones. Each worker
    // counts for itself: a worker may start a run after another has finished it.
    const int32_t first = worker.columns_done;
    worker.columns_done += count;
    if (first + count > static_cast<int32_t>(head->columns_.size())) return; // not prepared for: columns_computed says so
    // Every worker quantizes the states itself: blocks are quantized independently, so each
    // copy is the bytes llama.cpp's matrix product would compute, without a barrier.
    for (int32_t c = 0; c < count; ++c) {
        head->quantize(reinterpret_cast<const float *>(static_cast<const uint8_t *>(hidden->data) + static_cast<size_t>(c) * hidden->nb[1]),
                       worker.state.data() + static_cast<size_t>(c) * head->state_bytes_);
    }
    head->kept_part(worker.state.data(), count, first, ith, nth);
    if (head->check_ && count == 1) head->check_part(worker.state.data(), head->slot_ + 1, ith, nth);
    if (ith == 0) {
        for (int32_t c = 0; c < count; ++c) {
            std::memcpy(&head->states_[static_cast<size_t>(head->columns_[static_cast<size_t>(first + c)]) * head->state_bytes_],
                        worker.state.data() + static_cast<size_t>(c) * head->state_bytes_, head->state_bytes_);
        }
        static_cast<float *>(dst->data)[0] = 0.0f;
        head->runs_.fetch_add(1, std::memory_order_release);
    }
}

void TrimmedHead::kept_part(const uint8_t *states, int32_t count, int32_t first_column, int ith, int nth) {
    auto &worker = workers_[static_cast<size_t>(ith)];
    // The step's rows: every row (a batch's step over the whole vocabulary), or the kept ones.
    const std::vector<int32_t> &rows = every_row_step_ ? every_row_ : kept_;
    size_t begin = 0, end = 0;
    share(rows.size(), ith, nth, begin, end);
    const bool compact = !every_row_step_ && is_compact();
    RowChoice best[kMostColumns];
    float runner_up[kMostColumns];
    for (int32_t c = 0; c < count; ++c) runner_up[c] = -INFINITY;
    if (worker.dots != nullptr && count >= kernel_from_) {
        // The row kernel reads each row once for all the step's states, as a check does. A
        // compact block's rows are its positions, turned back into ids after.
        for (int32_t c = 0; c < count; ++c) worker.dots->set_state(c, states + static_cast<size_t>(c) * state_bytes_);
        if (compact) {
            worker.dots->best_rows(compact_.data(), row_bytes_, every_row_.data() + begin, end - begin, count, best, runner_up);
            for (int32_t c = 0; c < count; ++c) {
                if (best[c].row >= 0) best[c].row = kept_[static_cast<size_t>(best[c].row)];
            }
        } else {
            worker.dots->best_rows(head_, row_bytes_, rows.data() + begin, end - begin, count, best, runner_up);
        }
        for (int32_t c = 0; c < count; ++c) worker.kept[static_cast<size_t>(first_column + c)] = KeptChoice{best[c], runner_up[c]};
        return;
    }
    for (size_t i = begin; i < end; ++i) {
        // Asked for ahead even where the rows are contiguous: the CPU's own prefetcher falls
        // behind (row_dots_bench: 26.8 → 19.6 ms for a whole 270M head on one thread).
        if (i + kRowsAhead < end) {
            prefetch_row(compact ? compact_.data() + (i + kRowsAhead) * row_bytes_ : row(rows[i + kRowsAhead]), row_bytes_);
        }
        const uint8_t *weights = compact ? compact_.data() + i * row_bytes_ : row(rows[i]);
        // One read of the row from memory for every output of the step.
        for (int32_t c = 0; c < count; ++c) {
            float value = 0.0f;
            vec_dot_(embedding_, &value, 0, weights, 0, states + static_cast<size_t>(c) * state_bytes_, 0, 1);
            if (value > best[c].value) {
                runner_up[c] = best[c].value;
                best[c] = RowChoice{value, rows[i]};
            } else if (value > runner_up[c]) {
                runner_up[c] = value;
            }
        }
    }
    for (int32_t c = 0; c < count; ++c) worker.kept[static_cast<size_t>(first_column + c)] = KeptChoice{best[c], runner_up[c]};
}

void TrimmedHead::check_part(const uint8_t *current, int32_t count, int ith, int nth) {
    if (sketch_pass_) {
        // A sketched check: this worker's share of the sketch's rows (check_sketched).
        auto &worker = workers_[static_cast<size_t>(ith)];
        size_t begin = 0, end = 0;
        share(sketch_->rows(), ith, nth, begin, end);
        sketch_->reach(begin, end - begin, sketch_floors_, worker.excluded.data(), worker.excluded_runner_up.data(), worker.reached);
        return;
    }
    if (pass_base_ != nullptr) {
        // A streamed check's chunk: the results merge over the chunks (check_streamed).
        check_rows(pass_base_, pass_first_, pass_ids_, pass_count_, current, count, ith, nth);
        if (pass_builds_sketch_) {
            // The rows are in memory now: their sketch costs no read of its own.
            size_t begin = 0, end = 0;
            share(pass_count_, ith, nth, begin, end);
            for (size_t i = begin; i < end; ++i) {
                sketch_->add(pass_position_ + i, pass_base_ + static_cast<size_t>(pass_ids_[i]) * row_bytes_);
            }
        }
        return;
    }
    auto &worker = workers_[static_cast<size_t>(ith)];
    for (int32_t s = 0; s < count; ++s) {
        worker.excluded[static_cast<size_t>(s)] = RowChoice{};
        worker.excluded_runner_up[static_cast<size_t>(s)] = -INFINITY;
    }
    check_rows(head_, 0, excluded_.data(), excluded_.size(), current, count, ith, nth);
}

void TrimmedHead::check_rows(const uint8_t *base, int32_t first, const int32_t *ids, size_t n, const uint8_t *current, int32_t count,
                             int ith, int nth) {
    auto &worker = workers_[static_cast<size_t>(ith)];
    size_t begin = 0, end = 0;
    share(n, ith, nth, begin, end);
    const auto state = [&](int32_t s) {
        return s == slot_ && current != nullptr ? current : &states_[static_cast<size_t>(s) * state_bytes_];
    };
    // A part's best and runner-up into the worker's.
    const auto merge = [&](int32_t s, RowChoice found, float found_runner_up) {
        if (found.row >= 0) found.row += first;
        merge_part(worker.excluded[static_cast<size_t>(s)], worker.excluded_runner_up[static_cast<size_t>(s)], found, found_runner_up);
    };
    // One read of each excluded row for all the states (kMaxStates at a time): the point of
    // checking several at once.
    if (worker.dots != nullptr && count >= kernel_from_) {
        for (int32_t group = 0; group < count; group += RowDots::kMaxStates) {
            const int32_t states = std::min<int32_t>(RowDots::kMaxStates, count - group);
            for (int32_t s = 0; s < states; ++s) worker.dots->set_state(s, state(group + s));
            RowChoice found[RowDots::kMaxStates];
            float found_runner_up[RowDots::kMaxStates];
            std::fill(found_runner_up, found_runner_up + states, -INFINITY);
            worker.dots->best_rows(base, row_bytes_, ids + begin, end - begin, states, found, found_runner_up);
            for (int32_t s = 0; s < states; ++s) merge(group + s, found[s], found_runner_up[s]);
        }
        return;
    }
    for (size_t i = begin; i < end; ++i) {
        if (i + kRowsAhead < end) prefetch_row(base + static_cast<size_t>(ids[i + kRowsAhead]) * row_bytes_, row_bytes_);
        const uint8_t *weights = base + static_cast<size_t>(ids[i]) * row_bytes_;
        for (int32_t s = 0; s < count; ++s) {
            float value = 0.0f;
            vec_dot_(embedding_, &value, 0, weights, 0, state(s), 0, 1);
            merge(s, RowChoice{value, ids[i]}, -INFINITY);
        }
    }
}

KeptChoice TrimmedHead::kept_choice(int32_t column) const {
    KeptChoice total;
    if (column < 0 || column >= kMostColumns) return total;
    for (const auto &worker : workers_) {
        const KeptChoice &part = worker.kept[static_cast<size_t>(column)];
        merge_part(total.best, total.runner_up, part.best, part.runner_up);
    }
    return total;
}

void TrimmedHead::compute_check(ggml_tensor *, int ith, int nth, void *self) {
    auto *head = static_cast<TrimmedHead *>(self);
    if (ith >= head->threads_) return;
    head->check_part(nullptr, head->check_count_, ith, std::min(nth, head->threads_));
}

void TrimmedHead::check(int32_t count, ggml_threadpool *pool, const float *kept_values) {
    count = std::clamp(count, 0, slots_);
    const int32_t saved_slot = slot_;
    slot_ = -1; // every state comes from its slot
    if (streams()) {
        if (kept_values == nullptr || !check_sketched(count, pool, kept_values)) check_streamed(count, pool);
    } else {
        run_check(count, pool);
    }
    slot_ = saved_slot;
}

void TrimmedHead::run_check(int32_t count, ggml_threadpool *pool) {
    if (pool != nullptr && threads_ > 1) {
        if (check_graph_ == nullptr) {
            ggml_init_params params{};
            params.mem_size = ggml_tensor_overhead() * 2 + ggml_graph_overhead();
            params.no_alloc = true; // the operation writes nothing into its tensor
            check_context_ = ggml_init(params);
            if (check_context_ != nullptr) {
                ggml_tensor *out = ggml_custom_4d(check_context_, GGML_TYPE_F32, 1, 1, 1, 1, nullptr, 0, &TrimmedHead::compute_check,
                                                  GGML_N_TASKS_MAX, this);
                check_graph_ = ggml_new_graph(check_context_);
                ggml_build_forward_expand(check_graph_, out);
            }
        }
        if (check_graph_ != nullptr) {
            check_count_ = count;
            ggml_cplan plan = ggml_graph_plan(check_graph_, threads_, pool);
            // Every worker must run its share (their partial results are merged), so the
            // pool's thread count is the check's: a graph that ran on fewer is done again here.
            if (plan.n_threads == threads_ && plan.work_size == 0 && ggml_graph_compute(check_graph_, &plan) == GGML_STATUS_SUCCESS) {
                return;
            }
        }
    }
    std::vector<std::thread> helpers;
    helpers.reserve(static_cast<size_t>(threads_ - 1));
    for (int ith = 1; ith < threads_; ++ith) helpers.emplace_back([this, count, ith] { check_part(nullptr, count, ith, threads_); });
    check_part(nullptr, count, 0, threads_);
    for (auto &helper : helpers) helper.join();
}

void TrimmedHead::check_streamed(int32_t count, ggml_threadpool *pool) {
    // The first stream of these rows builds their sketch on the way (a few tenths of a second
    // of quantizing, on the check's threads), where there is room for it.
    if (sketch_bits_ > 0 && !sketch_refused_ && (sketch_ == nullptr || !sketch_->complete())) {
        sketch_.reset();
        const uint64_t room = sketch_room();
        for (const int bits : {sketch_bits_, 4}) {
            if (bits > sketch_bits_ || CheckSketch::bytes_for(bits, embedding_, excluded_.size()) > room) continue;
            sketch_ = CheckSketch::make(bits, type_, embedding_, excluded_.size());
            break;
        }
        // Not tried again until the rows or the device's memory change.
        sketch_refused_ = sketch_ == nullptr;
    }
    pass_builds_sketch_ = sketch_ != nullptr && !sketch_->complete();
    for (auto &worker : workers_) {
        for (int32_t s = 0; s < count; ++s) {
            worker.excluded[static_cast<size_t>(s)] = RowChoice{};
            worker.excluded_runner_up[static_cast<size_t>(s)] = -INFINITY;
        }
    }
    const auto rows_per_chunk = static_cast<int32_t>(std::max<size_t>(1, kStreamChunk / row_bytes_));
    std::vector<int32_t> relative;
    relative.reserve(static_cast<size_t>(rows_per_chunk));
    size_t at = 0;
    while (at < excluded_.size()) {
        // The excluded rows of the next chunk of the file, from the first one on.
        const int32_t low = excluded_[at];
        const auto stop = static_cast<size_t>(std::lower_bound(excluded_.begin() + static_cast<std::ptrdiff_t>(at), excluded_.end(),
                                                               low + rows_per_chunk) -
                                              excluded_.begin());
        const int32_t high = excluded_[stop - 1] + 1;
        relative.clear();
        for (size_t i = at; i < stop; ++i) relative.push_back(excluded_[i] - low);
        const uint64_t offset = file_offset_ + static_cast<uint64_t>(low) * row_bytes_;
        const uint64_t length = static_cast<uint64_t>(high - low) * row_bytes_;
        const uint8_t *rows = read_chunk(offset, length);
        // A read that fails (the storage, a file system that refuses mid-way) is read through
        // the mapping instead: slower under pressure, never a different answer.
        pass_base_ = rows != nullptr ? rows : head_ + static_cast<size_t>(low) * row_bytes_;
        pass_first_ = low;
        pass_ids_ = relative.data();
        pass_count_ = relative.size();
        pass_position_ = at;
        run_check(count, pool);
#if defined(POSIX_FADV_DONTNEED)
        if (!stream_direct_) posix_fadvise(stream_fd_, static_cast<off_t>(drop_from_), static_cast<off_t>(offset + length - drop_from_), POSIX_FADV_DONTNEED);
#endif
        at = stop;
    }
    pass_base_ = nullptr;
    pass_ids_ = nullptr;
    pass_count_ = 0;
    if (pass_builds_sketch_) {
        pass_builds_sketch_ = false;
        if (!sketch_->complete()) sketch_.reset();
    }
}

uint64_t TrimmedHead::sketch_room() const {
    // The process's own memory (anonymous: not given back under pressure) and the model's body
    // (every token reads it) must stay; what the group's limit leaves beyond them and a reserve
    // may hold the sketch. Without a known limit, what the system reports available, less 1 GiB
    // left to it. Where neither can be read (not Linux), no room is assumed.
    const uint64_t own = proc_kilobytes("/proc/self/status", "RssAnon:");
    const uint64_t body = map_size_ > file_bytes() ? map_size_ - file_bytes() : 0;
    if (const uint64_t limit = memory_limit(); limit > 0) {
        const uint64_t kept = own + body + kSketchReserve;
        return limit > kept ? limit - kept : 0;
    }
    const uint64_t available = proc_kilobytes("/proc/meminfo", "MemAvailable:");
    return available > kSketchLeavesTheSystem ? available - kSketchLeavesTheSystem : 0;
}

bool TrimmedHead::check_sketched(int32_t count, ggml_threadpool *pool, const float *kept_values) {
    if (sketch_ == nullptr || !sketch_->complete() || count > CheckSketch::kMostStates || sketch_->rows() != excluded_.size()) return false;
    sketch_->set_states(states_.data(), state_bytes_, count);
    for (int32_t s = 0; s < count; ++s) {
        const float value = kept_values[s];
        // A row at or over the floor might beat the kept winner under llama.cpp's rounding (the
        // policy's margin), or the bound's own (the sketch's slack): it is read.
        sketch_floors_[s] = std::isfinite(value) ? value - margin(value) - sketch_->slack(s) : INFINITY;
    }
    for (auto &worker : workers_) {
        worker.reached.clear();
        for (int32_t s = 0; s < count; ++s) {
            worker.excluded[static_cast<size_t>(s)] = RowChoice{};
            worker.excluded_runner_up[static_cast<size_t>(s)] = -INFINITY;
        }
    }
    sketch_pass_ = true;
    run_check(count, pool);
    sketch_pass_ = false;
    // Positions back to rows.
    std::vector<SketchReach> reached;
    for (auto &worker : workers_) {
        for (int32_t s = 0; s < count; ++s) {
            RowChoice &best = worker.excluded[static_cast<size_t>(s)];
            if (best.row >= 0) best.row = excluded_[static_cast<size_t>(best.row)];
        }
        reached.insert(reached.end(), worker.reached.begin(), worker.reached.end());
    }
    if (read_exactly_every_ > 0) {
        // As if the bound had not ruled these out: they are read, and their exact values count.
        for (size_t position = 0; position < excluded_.size(); ++position) {
            if (excluded_[position] % read_exactly_every_ != 0) continue;
            for (int32_t s = 0; s < count; ++s) {
                if (std::isfinite(sketch_floors_[s])) reached.push_back({static_cast<int32_t>(position), s, INFINITY});
            }
        }
    }
    // Each state's reached rows, the largest bound first (among equals the earliest row).
    std::vector<std::vector<SketchReach>> by_state(static_cast<size_t>(count));
    for (const auto &reach : reached) by_state[static_cast<size_t>(reach.state)].push_back(reach);
    for (auto &list : by_state) {
        // A row once (a row let through by read_exactly_every may also have been reached): its
        // largest bound stays.
        std::sort(list.begin(), list.end(), [](const SketchReach &a, const SketchReach &b) {
            return a.position < b.position || (a.position == b.position && a.bound > b.bound);
        });
        list.erase(std::unique(list.begin(), list.end(), [](const SketchReach &a, const SketchReach &b) { return a.position == b.position; }),
                   list.end());
        std::sort(list.begin(), list.end(), [](const SketchReach &a, const SketchReach &b) {
            return a.bound > b.bound || (a.bound == b.bound && a.position < b.position);
        });
    }
    // The reached rows are read exactly, in rounds: first each state's few largest bounds, then
    // every row whose bound still reaches the state's floor, or, once a row read beat the floor
    // (the check fails for that state), the best exact value so far less the margin: a row
    // under that cannot be the excluded rows' best nor stand within the margin of it. A failing
    // state (an English word after a Toki Pona one) so reads a handful of rows, not every row
    // near the winner. Their values are llama.cpp's arithmetic (the head's vec_dot), merged into
    // the first worker's results as another part of the rows.
    auto &worker = workers_.front();
    const auto merge = [&](int32_t s, RowChoice found) {
        merge_part(worker.excluded[static_cast<size_t>(s)], worker.excluded_runner_up[static_cast<size_t>(s)], found);
    };
    std::vector<size_t> next(static_cast<size_t>(count), 0);
    std::vector<float> best_read(static_cast<size_t>(count), -INFINITY);
    std::vector<std::pair<int32_t, std::vector<uint8_t>>> read_rows; // position, its bytes (sorted by position)
    const auto bytes_of = [&](int32_t position) -> const uint8_t * {
        const auto found = std::lower_bound(read_rows.begin(), read_rows.end(), position,
                                            [](const auto &entry, int32_t at) { return entry.first < at; });
        return found != read_rows.end() && found->first == position ? found->second.data() : nullptr;
    };
    constexpr uint64_t kJoinWithin = 64u << 10;
    constexpr size_t kFirstRound = 4;
    for (int round = 0;; ++round) {
        std::vector<SketchReach> wanted;
        for (int32_t s = 0; s < count; ++s) {
            const float floor = sketch_floors_[s];
            const float best = best_read[static_cast<size_t>(s)];
            const float stop = best >= floor ? best - margin(best) : floor;
            auto &list = by_state[static_cast<size_t>(s)];
            size_t &at = next[static_cast<size_t>(s)];
            for (size_t taken = 0; at < list.size() && list[at].bound >= stop && (round > 0 || taken < kFirstRound); ++at, ++taken) {
                wanted.push_back(list[at]);
            }
        }
        if (wanted.empty()) break;
        std::vector<int32_t> positions;
        for (const auto &reach : wanted) {
            if (bytes_of(reach.position) == nullptr) positions.push_back(reach.position);
        }
        std::sort(positions.begin(), positions.end());
        positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
        // Reading them all costs less than this many rows at random.
        if (read_rows.size() + positions.size() > kMostRowsReadExactly && read_exactly_every_ == 0) return false;
        // Runs of rows close together in one read each.
        std::vector<std::pair<int32_t, std::vector<uint8_t>>> fresh;
        size_t at = 0;
        while (at < positions.size()) {
            const auto offset_of = [&](size_t i) {
                return file_offset_ + static_cast<uint64_t>(excluded_[static_cast<size_t>(positions[i])]) * row_bytes_;
            };
            const uint64_t start = offset_of(at);
            size_t stop = at;
            uint64_t end = start + row_bytes_;
            while (stop < positions.size() && offset_of(stop) <= end + kJoinWithin && offset_of(stop) + row_bytes_ - start <= kStreamChunk) {
                end = std::max(end, offset_of(stop) + row_bytes_);
                ++stop;
            }
            const uint8_t *bytes = read_chunk(start, end - start);
            for (size_t i = at; i < stop; ++i) {
                // A read that failed: the mapping's bytes, the same values.
                const uint8_t *weights = bytes != nullptr ? bytes + (offset_of(i) - start) : row(excluded_[static_cast<size_t>(positions[i])]);
                fresh.emplace_back(positions[i], std::vector<uint8_t>(weights, weights + row_bytes_));
            }
            at = stop;
        }
        read_rows.insert(read_rows.end(), std::make_move_iterator(fresh.begin()), std::make_move_iterator(fresh.end()));
        std::sort(read_rows.begin(), read_rows.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
        for (const auto &reach : wanted) {
            float value = 0.0f;
            vec_dot_(embedding_, &value, 0, bytes_of(reach.position), 0, &states_[static_cast<size_t>(reach.state) * state_bytes_], 0, 1);
            merge(reach.state, RowChoice{value, excluded_[static_cast<size_t>(reach.position)]});
            float &best = best_read[static_cast<size_t>(reach.state)];
            best = std::max(best, value);
        }
    }
    // The reached rows left unread: their bounds stand for them (each under its state's floor,
    // or more than the margin under the best row read).
    for (int32_t s = 0; s < count; ++s) {
        const auto &list = by_state[static_cast<size_t>(s)];
        const size_t at = next[static_cast<size_t>(s)];
        if (at < list.size()) merge(s, RowChoice{list[at].bound, excluded_[static_cast<size_t>(list[at].position)]});
    }
#if defined(POSIX_FADV_DONTNEED)
    if (!stream_direct_ && !read_rows.empty()) {
        posix_fadvise(stream_fd_, static_cast<off_t>(drop_from_), static_cast<off_t>(file_offset_ + file_bytes() - drop_from_), POSIX_FADV_DONTNEED);
    }
#endif
    const size_t distinct = read_rows.size();
    sketch_counts_.checks += 1;
    sketch_counts_.rows_read += distinct;
    return true;
}

const uint8_t *TrimmedHead::read_chunk(uint64_t offset, uint64_t length) {
    const uint64_t start = stream_direct_ ? offset / kDirectAlign * kDirectAlign : offset;
    const uint64_t end = stream_direct_ ? (offset + length + kDirectAlign - 1) / kDirectAlign * kDirectAlign : offset + length;
    if (stream_buffer_.data() == nullptr || end - start > stream_buffer_bytes_) return nullptr;
    uint8_t *buffer = stream_buffer_.data();
    uint64_t done = 0;
    while (done < end - start) {
        const ssize_t got = pread(stream_fd_, buffer + done, static_cast<size_t>(end - start - done), static_cast<off_t>(start + done));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break; // the end of the file (an O_DIRECT read rounded past it), or a failure
        done += static_cast<uint64_t>(got);
    }
    return done >= offset + length - start ? buffer + (offset - start) : nullptr;
}

bool TrimmedHead::stream_checks(const std::string &path, std::string &why) {
    if (streams()) return true;
    stream_buffer_bytes_ = kStreamChunk + 2 * kDirectAlign;
    stream_buffer_.reset(stream_buffer_bytes_);
    if (stream_buffer_.data() == nullptr) {
        why = "no memory for the check's chunk";
        return false;
    }
    int fd = -1;
#if defined(O_DIRECT)
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_DIRECT);
    if (fd >= 0) {
        stream_fd_ = fd;
        stream_direct_ = true;
        // Some file systems open with O_DIRECT and refuse the reads (tmpfs refuses the open).
        if (read_chunk(file_offset_, std::min<uint64_t>(file_bytes(), kDirectAlign)) == nullptr) {
            ::close(fd);
            fd = -1;
        }
    }
#endif
    if (fd < 0) {
        fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            stream_fd_ = -1;
            stream_buffer_.reset(0);
            why = "the file cannot be opened again";
            return false;
        }
        stream_fd_ = fd;
        stream_direct_ = false;
    }
    drop_from_ = file_offset_ / kDropAlign * kDropAlign;
    // This object's own mapping of the rows lets their pages go (a read-only mapping of a
    // file loses nothing); the caller drops them from llama.cpp's and from the page cache.
    const long page = sysconf(_SC_PAGESIZE);
    const uintptr_t from = reinterpret_cast<uintptr_t>(head_) / static_cast<uintptr_t>(page) * static_cast<uintptr_t>(page);
    madvise(reinterpret_cast<void *>(from), reinterpret_cast<uintptr_t>(head_) + file_bytes() - from, MADV_DONTNEED);
    return true;
}

void TrimmedHead::stop_streaming() {
    if (!streams()) return;
    ::close(stream_fd_);
    stream_fd_ = -1;
    stream_direct_ = false;
    stream_buffer_.reset(0);
    read_through_mapping_ = false;
    sketch_.reset(); // checks read the rows themselves again
    sketch_refused_ = false;
}

float TrimmedHead::excluded_runner_up(int32_t slot) const {
    const RowChoice best = excluded_choice(slot);
    float runner_up = -INFINITY;
    for (const auto &worker : workers_) {
        const RowChoice &part = worker.excluded[static_cast<size_t>(slot)];
        runner_up = std::max(runner_up, worker.excluded_runner_up[static_cast<size_t>(slot)]);
        // Another worker's best is below the overall best, or equal to it on a later row.
        if (part.row >= 0 && part.row != best.row) runner_up = std::max(runner_up, part.value);
    }
    return runner_up;
}

float TrimmedHead::exact_value(int32_t slot, int32_t row) const {
    float value = 0.0f;
    if (row < 0 || row >= rows_) return -INFINITY;
    vec_dot_(embedding_, &value, 0, this->row(row), 0, &states_[static_cast<size_t>(std::clamp(slot, 0, slots_ - 1)) * state_bytes_], 0, 1);
    return value;
}

RowChoice TrimmedHead::exact_kept_best(int32_t slot) const {
    const uint8_t *state = &states_[static_cast<size_t>(std::clamp(slot, 0, slots_ - 1)) * state_bytes_];
    const bool compact = is_compact();
    RowChoice best;
    for (size_t i = 0; i < kept_.size(); ++i) {
        float value = 0.0f;
        vec_dot_(embedding_, &value, 0, compact ? compact_.data() + i * row_bytes_ : row(kept_[i]), 0, state, 0, 1);
        const RowChoice here{value, kept_[i]};
        if (here.beats(best)) best = here;
    }
    return best;
}

RowChoice TrimmedHead::excluded_choice(int32_t slot) const {
    RowChoice total;
    for (const auto &worker : workers_) {
        const RowChoice &part = worker.excluded[static_cast<size_t>(slot)];
        if (part.beats(total)) total = part;
    }
    return total;
}

} // namespace ilotoki
