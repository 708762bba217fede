#include "trimmed_head.hpp"

#include "ggml-backend.h"
#include "gguf.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
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
    if (pass_base_ != nullptr) {
        // A streamed check's chunk: the results merge over the chunks (check_streamed).
        check_rows(pass_base_, pass_first_, pass_ids_, pass_count_, current, count, ith, nth);
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
    // A part's best and runner-up into the worker's: the runner-up is the largest value of
    // any row but the best.
    const auto merge = [&](int32_t s, RowChoice found, float found_runner_up) {
        if (found.row >= 0) found.row += first;
        auto &best = worker.excluded[static_cast<size_t>(s)];
        float &runner_up = worker.excluded_runner_up[static_cast<size_t>(s)];
        if (found.beats(best)) {
            runner_up = std::max(runner_up, std::max(best.value, found_runner_up));
            best = found;
        } else {
            runner_up = std::max(runner_up, found.value);
        }
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
        if (part.best.beats(total.best)) {
            total.runner_up = std::max(total.runner_up, std::max(total.best.value, part.runner_up));
            total.best = part.best;
        } else {
            total.runner_up = std::max(total.runner_up, part.best.value);
        }
    }
    return total;
}

void TrimmedHead::compute_check(ggml_tensor *, int ith, int nth, void *self) {
    auto *head = static_cast<TrimmedHead *>(self);
    if (ith >= head->threads_) return;
    head->check_part(nullptr, head->check_count_, ith, std::min(nth, head->threads_));
}

void TrimmedHead::check(int32_t count, ggml_threadpool *pool) {
    count = std::clamp(count, 0, slots_);
    const int32_t saved_slot = slot_;
    slot_ = -1; // every state comes from its slot
    if (streams()) {
        check_streamed(count, pool);
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
        run_check(count, pool);
#if defined(POSIX_FADV_DONTNEED)
        if (!stream_direct_) posix_fadvise(stream_fd_, static_cast<off_t>(drop_from_), static_cast<off_t>(offset + length - drop_from_), POSIX_FADV_DONTNEED);
#endif
        at = stop;
    }
    pass_base_ = nullptr;
    pass_ids_ = nullptr;
    pass_count_ = 0;
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
