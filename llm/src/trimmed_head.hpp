// The trimmed output head: the model's output projection computed only for the vocabulary
// rows the target language can use, checked against the rest of the rows every few tokens.
//
// The model's graph calls `build` in place of its own head (llm/patches/0001); the operation
// it adds runs on ggml's worker threads and, for each hidden state of the step (one for a
// single translation, one per sequence for a batch's step, reading each kept row once for all):
//   - quantizes it as llama.cpp's matrix product does (the row type's vec_dot type),
//   - takes the dot product with every kept row (ggml's own vec_dot kernel) and keeps the
//     largest value, its row, and the runner-up value,
//   - stores the quantized state in a slot, so that a later check can compare the excluded
//     rows against it,
//   - when asked, checks the stored states: the largest value over the excluded rows for each,
//     reading each excluded row once for all of them, with a kernel that takes several states
//     at once (row_dots.hpp; ggml's vec_dot where the CPU or the row type has none).
// Rows are asked for a few rows ahead: read from a list of ids, they defeat the CPU's own
// prefetcher. The generation loop (generation.cpp) accepts a token only when its margin over
// every other row, kept or excluded, is more than the policy's margin (trimmed_policy.hpp);
// otherwise it rolls the KV cache back and takes that step again with llama.cpp's own head,
// and where the winner was one of the wider set's rows (the caller's languages together), it
// widens the kept set to them (`widen`). So greedy output is token for token the full head's;
// see docs/benchmarks.md ("The trimmed output head").
#pragma once

#include "check_sketch.hpp"
#include "ggml-cpu.h"
#include "ggml.h"
#include "llama.h"
#include "output_rows.hpp"
#include "row_dots.hpp"

#include <atomic>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ilotoki {

/// The kept rows' choice for one hidden state.
struct KeptChoice {
    RowChoice best;
    /// The largest value of any other kept row.
    float runner_up = -INFINITY;
};

/// Memory of its own mapping, handed back to the system as soon as it is replaced (memory
/// from malloc may stay with the process, so two directions' sets would add up).
class AnonymousBlock {
public:
    AnonymousBlock() = default;
    ~AnonymousBlock();
    AnonymousBlock(const AnonymousBlock &) = delete;
    AnonymousBlock &operator=(const AnonymousBlock &) = delete;
    /// Releases the current block and maps `bytes` of zeroed memory (none for 0, or where the
    /// system refuses: `data()` is then null).
    void reset(size_t bytes);
    uint8_t *data() const { return data_; }

private:
    uint8_t *data_ = nullptr;
    size_t size_ = 0;
};

class TrimmedHead {
public:
    /// The head of `path` if it can be trimmed on this build, or null with the reason in `why`.
    static std::unique_ptr<TrimmedHead> open(const std::string &path, const llama_model *model, int32_t threads,
                                             int32_t slots, std::string &why);
    ~TrimmedHead();
    TrimmedHead(const TrimmedHead &) = delete;
    TrimmedHead &operator=(const TrimmedHead &) = delete;

    /// Makes the rows of `characters` the kept ones, and `wider` the set `widen` goes to;
    /// a set's rows are computed once and cached. Small sets are copied together (a compact
    /// block the CPU streams through); large ones are read from the file's head where they lie.
    void use_characters(const llama_vocab *vocab, const CharacterSet &characters, const CharacterSet &wider);

    /// Where a check found `row` (an excluded row) winning and `row` is one of the wider
    /// set's, which the kept set is not yet: makes the wider set the kept one and returns
    /// true. A translation into Toki Pona that copies an English name, or a base model that
    /// answers in English, goes on trimmed instead of falling back to llama.cpp's head.
    bool widen(const llama_vocab *vocab, int32_t row);
    /// Whether `widen` would widen for `row` (the decision asks before the head acts).
    bool can_widen_to(const llama_vocab *vocab, int32_t row);

    int32_t kept_rows() const { return static_cast<int32_t>(kept_.size()); }
    /// Whether the kept rows are few enough to be held compact (Toki Pona's, Russian's; not
    /// the wider set, the caller's languages together). A batch's steps are trimmed only then:
    /// they compute every row for every sequence either way, and save only the excluded rows'
    /// reads.
    bool kept_rows_are_few() const;
    /// Whether trimming the current set is faster than llama.cpp's head: always with a
    /// several-state kernel for the check (row_dots.hpp); with ggml's one-state vec_dot only
    /// for a small set, held compact (see docs/benchmarks.md).
    bool worth_trimming() const { return workers_.front().dots != nullptr || is_compact(); }
    /// The check's kernel: a row kernel's name, or "vec_dot" for ggml's.
    const char *check_kernel() const {
        return workers_.front().dots != nullptr ? RowDots::kernel_name(workers_.front().dots->kernel()) : "vec_dot";
    }
    /// The fewest states a check gives the row kernel (fewer go to ggml's vec_dot); 0 with
    /// vec_dot alone.
    int32_t kernel_from_states() const { return workers_.front().dots != nullptr ? kernel_from_ : 0; }
    int32_t slot_count() const { return slots_; }

    /// How much a choice must beat every other row by to be accepted without llama.cpp's own
    /// head: covers the rounding difference between this kernel and the one llama.cpp picks.
    static float margin(float value) { return std::ldexp(std::fmax(1.0f, std::fabs(value)), -10); }

    /// The most hidden states one step hands the operation (a batch's sequences).
    static constexpr int32_t kMostColumns = RowDots::kMaxStates;

    /// The graph hook (`llama_output_head_fn`); `self` is the TrimmedHead. Takes up to
    /// kMostColumns outputs (and no more than the slots); other shapes keep llama.cpp's head.
    static ggml_tensor *build(ggml_context *ctx, ggml_tensor *hidden, ggml_tensor *output, void *self);

    /// Before a decode of one output: the state it computes goes to `slot`; with `check`, the
    /// operation also checks slots 0...slot against the excluded rows.
    void prepare(int32_t slot, bool check);
    /// Before a decode of `count` outputs (a batch's step, one per sequence): the state of the
    /// i-th output goes to `slots[i]`. llama.cpp may split the step into micro-batches; the
    /// operation then runs once for each, and the outputs are counted across them in order.
    /// With `every_row`, the step computes every row of the vocabulary instead of the kept
    /// ones (nothing is left to check; a near tie still goes to llama.cpp's head).
    void prepare_columns(const int32_t *slots, int32_t count, bool every_row = false);
    /// Whether a step over every row is faster here than llama.cpp's head: with a row kernel,
    /// which reads each row once for all of a batch's states and does less work per state
    /// than the one-column products (docs/benchmarks.md, "Every row in a batch's step").
    bool every_row_is_faster() const { return workers_.front().dots != nullptr; }
    /// After a decode: how many outputs the operation computed since `prepare…` (0 where
    /// llama.cpp kept its own head), or -1 where its workers disagree (its results are not
    /// whole; the step is taken again with llama.cpp's head).
    int32_t columns_computed() const;
    /// Number of times the operation has run (to see whether the last decode used it).
    uint64_t runs() const { return runs_.load(std::memory_order_acquire); }
    /// After a decode: the kept rows' choice for its `column`-th output.
    KeptChoice kept_choice(int32_t column = 0) const;
    /// Checks slots 0..<count against the excluded rows now, on `threads_` threads: those
    /// of `pool` (llama.cpp's threadpool, idle between decodes) as a one-operation ggml
    /// graph, or, with no pool, threads started for the call. With `kept_values` (slot s's
    /// kept winner's value; not finite where the slot needs no check) a streamed check may
    /// take the sketch: the rows it rules out under kept_values[s] less the margin are not
    /// read, and their best (an upper bound on their values) stands for them.
    void check(int32_t count, ggml_threadpool *pool, const float *kept_values = nullptr);
    /// After a check: the excluded rows' best for `slot`.
    RowChoice excluded_choice(int32_t slot) const;
    /// After a check: the largest value of any excluded row but the best, for `slot`.
    float excluded_runner_up(int32_t slot) const;

    /// llama.cpp's own logit of `row` for the state in `slot`: ggml's vec_dot on the state
    /// quantized as llama.cpp's product quantizes it, which is the arithmetic of its one-column
    /// product and of tinyBLAS's columns on x86, bit for bit (llm/patches/README.md, 0003). Reads
    /// the one row (through this head's mapping).
    float exact_value(int32_t slot, int32_t row) const;
    /// The best kept row for the state in `slot` by that exact arithmetic, every kept row
    /// computed (a near tie decided without a step of llama.cpp's head); among equals the
    /// earliest row, as llama.cpp's greedy choice takes it.
    RowChoice exact_kept_best(int32_t slot) const;

    /// Where the model does not stay in memory: every check from now on reads the excluded
    /// rows from the file in chunks of kStreamChunk bytes, with O_DIRECT where the file system
    /// allows it (tmpfs does not), else with pread and POSIX_FADV_DONTNEED behind it, and
    /// never through a mapping; each chunk is read once for all the states waiting. So the
    /// rows a check rules out are read without being kept, and the page cache keeps the body
    /// and the kept rows instead. Checks are not run inside a step then (`prepare` leaves
    /// them to `check`). False, with the reason in `why`, where the file cannot be read so.
    bool stream_checks(const std::string &path, std::string &why);
    /// Checks read the rows through this object's mapping again (the device has memory again).
    void stop_streaming();
    bool streams() const { return stream_fd_ >= 0; }
    /// How a streamed check reads: "O_DIRECT" or "pread".
    const char *stream_method() const { return stream_direct_ ? "O_DIRECT" : "pread"; }
    /// The head's rows in the file: their offset and size in bytes.
    uint64_t file_offset() const { return file_offset_; }
    uint64_t file_bytes() const { return static_cast<uint64_t>(row_bytes_) * static_cast<uint64_t>(rows_); }
    /// Set by a kept set's compact copy, which reads its rows through the mapping: the caller
    /// drops the head's pages again where checks stream (their pages are not to stay).
    bool read_rows_through_mapping() {
        const bool read = read_through_mapping_;
        read_through_mapping_ = false;
        return read;
    }
    /// The bytes a streamed check reads at a time.
    static constexpr size_t kStreamChunk = 4u << 20;
    /// A sketched check that reaches more rows than this reads them all instead (at about 60 µs
    /// a random read against 80-130 ms for the whole stream, on the storage measured).
    static constexpr size_t kMostRowsReadExactly = 1500;

    /// What the sketch did so far: checks it served, and the rows they read exactly.
    struct SketchCounts {
        uint64_t checks = 0;
        uint64_t rows_read = 0;
    };
    SketchCounts sketch_counts() const { return sketch_counts_; }
    /// The sketch's bits a value (0: no sketch); ILOTOKI_CHECK_SKETCH=0, 4 or 5 sets it.
    int sketch_bits() const { return sketch_bits_; }
    /// For tests: every row whose id is a multiple of `every` is read exactly, whatever its
    /// bound (0: none), as if the sketch's bound had not ruled it out.
    void read_exactly_every(int32_t every) { read_exactly_every_ = every; }

private:
    TrimmedHead() = default;
    static void compute(ggml_tensor *dst, int ith, int nth, void *self);
    static void compute_check(ggml_tensor *dst, int ith, int nth, void *self);
    void quantize(const float *hidden, uint8_t *out) const;
    void choose_kernel_by_states();
    void kept_part(const uint8_t *states, int32_t count, int32_t first_column, int ith, int nth);
    void check_part(const uint8_t *current, int32_t count, int ith, int nth);
    /// The states slots 0..<count against the rows `ids[0..<n]`, row r at base + (r - first)
    /// * row_bytes_, merged into each worker's results (thread ith of nth's share).
    void check_rows(const uint8_t *base, int32_t first, const int32_t *ids, size_t n, const uint8_t *current, int32_t count, int ith,
                    int nth);
    /// Runs check_part on every worker: on `pool` as a one-operation graph, or threads of its own.
    void run_check(int32_t count, ggml_threadpool *pool);
    void check_streamed(int32_t count, ggml_threadpool *pool);
    /// The check by the sketch; false where it cannot serve (then the rows are streamed).
    bool check_sketched(int32_t count, ggml_threadpool *pool, const float *kept_values);
    /// The memory a sketch may take now, in bytes.
    uint64_t sketch_room() const;
    /// Reads the file's bytes [offset, offset + length) of the head into the chunk buffer;
    /// returns where they start in it, or null where the read failed.
    const uint8_t *read_chunk(uint64_t offset, uint64_t length);
    const uint8_t *row(int32_t token) const { return head_ + static_cast<size_t>(token) * row_bytes_; }
    const std::vector<int32_t> &rows_of(const llama_vocab *vocab, const CharacterSet &characters);
    bool is_compact() const { return compact_.data() != nullptr && compact_characters_ == characters_; }

    // The file's head, mapped read-only.
    void *map_ = nullptr;
    size_t map_size_ = 0;
    const uint8_t *head_ = nullptr;
    uint64_t file_offset_ = 0;
    // A streamed check: its descriptor (-1: checks read through the mapping), whether it is
    // O_DIRECT, its buffer, where the page cache is dropped from (the head's start rounded
    // down to 2 MiB: a drop skips a large folio that reaches past its range's start), and
    // the pass it runs: rows from `pass_base_` (row r at pass_base_ + (r - pass_first_) *
    // row_bytes_), the ids `pass_ids_[0..<pass_count_]`, the first of `pass_states_` states.
    int stream_fd_ = -1;
    bool stream_direct_ = false;
    AnonymousBlock stream_buffer_;
    size_t stream_buffer_bytes_ = 0;
    uint64_t drop_from_ = 0;
    const uint8_t *pass_base_ = nullptr;
    int32_t pass_first_ = 0;
    const int32_t *pass_ids_ = nullptr;
    size_t pass_count_ = 0;
    bool read_through_mapping_ = false;
    // The sketch of the excluded rows (built by a streamed check that reads them all), the
    // position in it of the pass's first row while one is built, and a sketched pass's floors.
    std::unique_ptr<CheckSketch> sketch_;
    int sketch_bits_ = 5;
    bool sketch_refused_ = false; // no room at the last try
    bool pass_builds_sketch_ = false;
    size_t pass_position_ = 0;
    bool sketch_pass_ = false;
    float sketch_floors_[CheckSketch::kMostStates] = {};
    int32_t read_exactly_every_ = 0;
    SketchCounts sketch_counts_;
    ggml_type type_ = GGML_TYPE_F32;
    ggml_type state_type_ = GGML_TYPE_F32;
    ggml_vec_dot_t vec_dot_ = nullptr;
    ggml_from_float_t from_float_ = nullptr;
    int32_t embedding_ = 0;
    int32_t rows_ = 0;
    size_t row_bytes_ = 0;
    size_t state_bytes_ = 0;
    int32_t threads_ = 1;
    int32_t slots_ = 0;
    // Checks of at least this many states use the row kernel (choose_kernel_by_states).
    int32_t kernel_from_ = 1;

    // The rows of each set used so far (a few: one per language and their union).
    struct KnownRows {
        CharacterSet characters;
        std::vector<int32_t> rows;
    };
    std::vector<KnownRows> known_rows_;
    // The kept set and its rows, the others, and the set to widen to.
    CharacterSet characters_;
    bool characters_set_ = false;
    CharacterSet wider_;
    std::vector<int32_t> kept_;
    std::vector<int32_t> excluded_;
    // The kept rows of compact_characters_, copied together (sets of at most kCompactShare).
    AnonymousBlock compact_;
    CharacterSet compact_characters_;

    // Every row's id, in order (0 ..< rows_).
    std::vector<int32_t> every_row_;
    // Per step: the slot of each output's state (slot_: the first's, for a single output), and
    // whether the step computes every row.
    std::vector<int32_t> columns_;
    bool every_row_step_ = false;
    int32_t slot_ = 0;
    bool check_ = false;
    std::atomic<uint64_t> runs_{0};
    std::vector<uint8_t> states_; // slots_ quantized states
    // The check as a ggml graph of one custom operation, made at the first check.
    ggml_context *check_context_ = nullptr;
    ggml_cgraph *check_graph_ = nullptr;
    int32_t check_count_ = 0;

    // Per worker thread: its copy of the quantized states and its partial results.
    struct Worker {
        std::vector<uint8_t> state; // kMostColumns states
        std::vector<KeptChoice> kept; // one per output of the step
        // Outputs this worker has computed since `prepare…` (each run of the operation adds
        // its micro-batch's; every worker runs every micro-batch).
        int32_t columns_done = 0;
        std::vector<RowChoice> excluded;
        std::vector<float> excluded_runner_up; // per slot, as `excluded`
        std::vector<SketchReach> reached;       // a sketched check's rows to read exactly
        // The check's kernel, with the states in its layout (null: ggml's vec_dot).
        std::unique_ptr<RowDots> dots;
    };
    std::vector<Worker> workers_;
};

} // namespace ilotoki
