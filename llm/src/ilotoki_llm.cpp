// The C API of ilotoki_llm.h over llama.cpp. Every entry point catches everything: a C
// caller (Swift, JNI) never sees a C++ exception.
#include "ilotoki_llm.h"
#include "handle.hpp"

#include "ggml-cpu.h"
#include "llama.h"
#include "llama_log.hpp"
#include "model_file.hpp"
#include "output_filter.hpp"
#include "performance_cores.hpp"
#include "utf8.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <vector>

using namespace ilotoki;

namespace {

// Where checks stream the excluded rows from the file, each costs a read of them (tens of
// milliseconds): they come every kStreamedCadence tokens, first after as many (a short
// answer is checked once, at its line end). ILOTOKI_CHECK_EVERY sets the cadence (at most
// kMostCadence) for measuring.
constexpr int32_t kStreamedCadence = 32;
constexpr int32_t kMostCadence = 64;
// A memory limit below the file's size and this much more (the trimmed head's process at its
// peak: `ilotoki bench`'s anonymous memory, 143 MiB) leaves the page cache too little for the
// body, the kept rows and the excluded rows together.
constexpr uint64_t kStreamBelowFilePlus = 144ull << 20;

/// Why the trimmed head's checks should stream the excluded rows ("" where they read them
/// through the mapping): asked for (ILOTOKI_STREAMED_CHECK=1; =0 never), or a memory limit too
/// small for the whole file beside the process's own memory (docs/benchmarks.md, "The streamed
/// check": at 300 MiB twice the mapping's speed).
std::string streamed_checks_wanted(uint64_t file_bytes) {
    if (const char *asked = std::getenv("ILOTOKI_STREAMED_CHECK"); asked != nullptr && *asked != '\0') {
        return std::strcmp(asked, "0") == 0 ? "" : "asked for (ILOTOKI_STREAMED_CHECK)";
    }
    const uint64_t limit = ilotoki::memory_limit();
    if (limit == 0 || file_bytes == 0 || limit >= file_bytes + kStreamBelowFilePlus) return "";
    return "a memory limit of " + std::to_string(limit >> 20) + " MiB for a file of " + std::to_string(file_bytes >> 20) + " MiB";
}

template <typename Body>
ilotoki_llm_status guarded(char *error, size_t error_len, Body &&body) {
    try {
        return body();
    } catch (const LLMError &core_error) {
        write_error(error, error_len, core_error.message);
        return core_error.status;
    } catch (const std::bad_alloc &) {
        write_error(error, error_len, "Out of memory.");
        return ILOTOKI_LLM_ERROR_OUT_OF_MEMORY;
    } catch (const std::exception &exception) {
        write_error(error, error_len, std::string("Internal error: ") + exception.what());
        return ILOTOKI_LLM_ERROR_INTERNAL;
    } catch (...) {
        write_error(error, error_len, "Internal error.");
        return ILOTOKI_LLM_ERROR_INTERNAL;
    }
}

/// Why llama.cpp refused a file that passed the structural checks (header, tensor table,
/// architecture). Running out of memory leaves no structured trace, so that one cause is
/// recognised from llama.cpp's message; anything else is a file whose contents are wrong.
ilotoki_llm_status classify_load_failure(const std::string &reason) {
    if (reason.find("failed to allocate") != std::string::npos || reason.find("unable to allocate") != std::string::npos ||
        reason.find("out of memory") != std::string::npos) {
        return ILOTOKI_LLM_ERROR_OUT_OF_MEMORY;
    }
    return ILOTOKI_LLM_ERROR_CORRUPT_MODEL;
}

/// The checks `load` and `check_model` share: the file, then its GGUF structure.
void check_structure(const std::string &file) {
    const auto check = ilotoki::check_model_file(file);
    if (check.status != ILOTOKI_LLM_OK) throw LLMError{check.status, check.message};
    const auto gguf = ilotoki::check_gguf(file);
    if (gguf.status != ILOTOKI_LLM_OK) throw LLMError{gguf.status, gguf.message};
}

/// Loads `path` through llama.cpp, turning a refusal into a LLMError that names the file.
llama_model *load_model(const std::string &file, const llama_model_params &model_params) {
    ilotoki::install_llama_log();
    ilotoki::clear_llama_errors();
    llama_model *model = llama_model_load_from_file(file.c_str(), model_params);
    if (model != nullptr) return model;
    std::string reason = ilotoki::first_llama_error();
    const auto status = classify_load_failure(reason);
    std::string message = "Could not load the model '" + file + "'";
    message += status == ILOTOKI_LLM_ERROR_OUT_OF_MEMORY ? ": there is not enough memory"
                                                         : ": its contents are damaged; delete it and download it again";
    if (!reason.empty()) message += " (llama.cpp: " + reason + ")";
    throw LLMError{status, message + "."};
}

} // namespace

extern "C" {

ilotoki_llm_load_params ilotoki_llm_default_load_params(void) {
    ilotoki_llm_load_params params{};
    params.context_length = 0;
    params.threads = 0;
    params.batch_size = 0;
    params.flash_attention = -1;
    return params;
}

ilotoki_llm_start_params ilotoki_llm_default_start_params(void) {
    ilotoki_llm_start_params params{};
    params.max_tokens = kDefaultMaxTokens;
    params.max_lines = 0;
    params.stop_sequences = nullptr;
    params.stop_sequence_count = 0;
    params.selection = ILOTOKI_LLM_SELECT_ARGMAX;
    params.logits_for_all_prompt_tokens = false;
    params.ticket = 0;
    params.head = ILOTOKI_LLM_HEAD_TRIMMED;
    params.output_characters = nullptr;
    params.output_character_count = 0;
    params.wider_characters = nullptr;
    params.wider_character_count = 0;
    params.restore_residency = true;
    params.reuse_prefix = true;
    params.joinable_room = 0;
    params.written_in_output_characters = nullptr;
    return params;
}

ilotoki_llm_status ilotoki_llm_load(const char *path, const ilotoki_llm_load_params *params, ilotoki_llm **out,
                                    char *error, size_t error_len) {
    if (out != nullptr) *out = nullptr;
    return guarded(error, error_len, [&]() -> ilotoki_llm_status {
        if (path == nullptr || out == nullptr) {
            throw LLMError{ILOTOKI_LLM_ERROR_INVALID_ARGUMENT, "ilotoki_llm_load needs a path and an output handle."};
        }
        const ilotoki_llm_load_params load = params != nullptr ? *params : ilotoki_llm_default_load_params();
        const std::string file(path);
        check_structure(file);

        // Every column of every product computed as it would be alone (llm/patches/0004): a
        // token's results do not depend on what is evaluated beside it, so a batch's sequence,
        // a prompt started from cached cells and one evaluated whole give the same tokens.
        ggml_cpu_set_column_exact(true);
        auto llm = std::make_unique<ilotoki_llm>();
        llm->path = file;
        auto model_params = llama_model_default_params();
        model_params.load_mode = LLAMA_LOAD_MODE_MMAP; // mmap on, mlock off: the system may page the weights
        llm->model = load_model(file, model_params);

        llm->vocab = llama_model_get_vocab(llm->model);
        // A sliding window's layers keep only the window's cells: longer prompts are not cached.
        llm->prefixes.set_longest(llama_model_n_swa(llm->model));
        llm->batches.prefixes.set_longest(llama_model_n_swa(llm->model));
        llm->vocabulary_size = llama_vocab_n_tokens(llm->vocab);
        llm->context_length = load.context_length > 0 ? load.context_length : kDefaultContextLength;
        llm->batch_size = load.batch_size > 0 ? std::min(load.batch_size, llm->context_length) : llm->context_length;
        llm->threads = load.threads > 0 ? load.threads : ilotoki_llm_performance_core_count();

        // One set of worker threads for the handle's life. Without it ggml starts and joins
        // threads for every evaluated token, which costs a third of the decode speed here.
        auto threadpool_params = ggml_threadpool_params_default(llm->threads);
        llm->threadpool = ggml_threadpool_new(&threadpool_params);
        if (llm->threadpool == nullptr) {
            throw LLMError{ILOTOKI_LLM_ERROR_OUT_OF_MEMORY, "Could not start " + std::to_string(llm->threads) + " decoding threads."};
        }
        llm->flash_attention = load.flash_attention < 0   ? LLAMA_FLASH_ATTN_TYPE_AUTO
                               : load.flash_attention == 0 ? LLAMA_FLASH_ATTN_TYPE_DISABLED
                                                           : LLAMA_FLASH_ATTN_TYPE_ENABLED;
        // Sized to a usual translation now, made larger when a longer one comes.
        llm->prepare_context(std::min(llm->context_length, ilotoki::kFirstContextLength));
        llm->residency = std::make_unique<ilotoki::Residency>(file);
        const std::string streams = streamed_checks_wanted(llm->residency->size());
        llm->streamed_cadence = ilotoki::trimmed::Cadence{kStreamedCadence, kStreamedCadence};
        if (const char *every = std::getenv("ILOTOKI_CHECK_EVERY"); every != nullptr && std::atoi(every) >= 1) {
            llm->mapped_cadence.every = std::min(std::atoi(every), kMostCadence);
            llm->mapped_cadence.first = std::min(llm->mapped_cadence.first, llm->mapped_cadence.every);
            llm->streamed_cadence = ilotoki::trimmed::Cadence{llm->mapped_cadence.every, llm->mapped_cadence.every};
        }
        // Slots for either cadence: the device may say it is short of memory later.
        llm->head = ilotoki::TrimmedHead::open(file, llm->model, llm->threads,
                                               std::max(llm->mapped_cadence.every, llm->streamed_cadence.every), llm->head_unavailable);
        if (llm->head != nullptr && !streams.empty() && llm->begin_streamed_checks()) {
            llm->check_streams_at_load = streams + " (" + llm->head->stream_method() + ")";
            llm->check_streams.store(llm->check_streams_at_load.c_str());
        }
        llm->batch = llama_batch_init(llm->batch_size, 0, 1);
        llm->batch_allocated = true;

        char text[256];
        if (llama_model_meta_val_str(llm->model, "general.architecture", text, sizeof(text)) >= 0) llm->architecture = text;
        if (llama_model_desc(llm->model, text, sizeof(text)) >= 0) llm->description = text;
        // Loading frees what it read the vocabulary and tensors' metadata into; on a thread of
        // its own (as the apps load) glibc's arena would keep about 16 MiB of it.
        ilotoki::return_freed_memory();
        *out = llm.release();
        return ILOTOKI_LLM_OK;
    });
}

ilotoki_llm_status ilotoki_llm_start(ilotoki_llm *llm, const char *prompt, const ilotoki_llm_start_params *params,
                                     char *error, size_t error_len) {
    return guarded(error, error_len, [&]() -> ilotoki_llm_status {
        if (llm == nullptr || prompt == nullptr) {
            throw LLMError{ILOTOKI_LLM_ERROR_INVALID_ARGUMENT, "ilotoki_llm_start needs a handle and a prompt."};
        }
        std::lock_guard<std::mutex> lock(llm->run_mutex);
        try {
            llm->start(prompt, params != nullptr ? *params : ilotoki_llm_default_start_params());
        } catch (...) {
            llm->started = false;
            throw;
        }
        return ILOTOKI_LLM_OK;
    });
}

ilotoki_llm_status ilotoki_llm_next(ilotoki_llm *llm, const char **piece, size_t *piece_len, char *error,
                                    size_t error_len) {
    if (piece != nullptr) *piece = nullptr;
    if (piece_len != nullptr) *piece_len = 0;
    return guarded(error, error_len, [&]() -> ilotoki_llm_status {
        if (llm == nullptr || piece == nullptr || piece_len == nullptr) {
            throw LLMError{ILOTOKI_LLM_ERROR_INVALID_ARGUMENT, "ilotoki_llm_next needs a handle and output pointers."};
        }
        std::lock_guard<std::mutex> lock(llm->run_mutex);
        if (!llm->started) throw LLMError{ILOTOKI_LLM_ERROR_NOT_STARTED, "No translation has been started."};
        try {
            if (!llm->next()) return ILOTOKI_LLM_DONE;
        } catch (...) {
            llm->finish(ILOTOKI_LLM_FINISH_ERROR);
            throw;
        }
        *piece = llm->piece.data();
        *piece_len = llm->piece.size();
        return ILOTOKI_LLM_OK;
    });
}

ilotoki_llm_status ilotoki_llm_start_batch(ilotoki_llm *llm, const char *const *prompts, size_t count,
                                           const int32_t *max_tokens, int32_t sequences,
                                           const ilotoki_llm_start_params *params, char *error, size_t error_len) {
    return guarded(error, error_len, [&]() -> ilotoki_llm_status {
        if (llm == nullptr || prompts == nullptr || count == 0) {
            throw LLMError{ILOTOKI_LLM_ERROR_INVALID_ARGUMENT, "ilotoki_llm_start_batch needs a handle and at least one prompt."};
        }
        std::lock_guard<std::mutex> lock(llm->run_mutex);
        try {
            llm->start_batch(prompts, count, max_tokens, sequences, params != nullptr ? *params : ilotoki_llm_default_start_params());
        } catch (...) {
            std::lock_guard<std::mutex> stats_lock(llm->stats_mutex);
            llm->batch_run.reset();
            throw;
        }
        return ILOTOKI_LLM_OK;
    });
}

ilotoki_llm_status ilotoki_llm_next_batch(ilotoki_llm *llm, int32_t *prompt_index, const char **piece, size_t *piece_len,
                                          char *error, size_t error_len) {
    if (piece != nullptr) *piece = nullptr;
    if (piece_len != nullptr) *piece_len = 0;
    if (prompt_index != nullptr) *prompt_index = -1;
    return guarded(error, error_len, [&]() -> ilotoki_llm_status {
        if (llm == nullptr || prompt_index == nullptr || piece == nullptr || piece_len == nullptr) {
            throw LLMError{ILOTOKI_LLM_ERROR_INVALID_ARGUMENT, "ilotoki_llm_next_batch needs a handle and output pointers."};
        }
        std::lock_guard<std::mutex> lock(llm->run_mutex);
        if (llm->batch_run == nullptr) throw LLMError{ILOTOKI_LLM_ERROR_NOT_STARTED, "No batch has been started."};
        ilotoki_llm::BatchStep step;
        try {
            step = llm->next_batch(*prompt_index);
        } catch (...) {
            llm->end_batch(ILOTOKI_LLM_FINISH_ERROR);
            throw;
        }
        switch (step) {
        case ilotoki_llm::BatchStep::Done: return ILOTOKI_LLM_DONE;
        case ilotoki_llm::BatchStep::SequenceDone: return ILOTOKI_LLM_SEQUENCE_DONE;
        case ilotoki_llm::BatchStep::Piece: break;
        }
        *piece = llm->piece.data();
        *piece_len = llm->piece.size();
        return ILOTOKI_LLM_OK;
    });
}

ilotoki_llm_status ilotoki_llm_add_to_batch(ilotoki_llm *llm, const char *prompt, int32_t max_tokens,
                                            bool written_in_output_characters, int32_t *prompt_index, char *error,
                                            size_t error_len) {
    if (prompt_index != nullptr) *prompt_index = -1;
    return guarded(error, error_len, [&]() -> ilotoki_llm_status {
        if (llm == nullptr || prompt_index == nullptr) {
            throw LLMError{ILOTOKI_LLM_ERROR_INVALID_ARGUMENT, "ilotoki_llm_add_to_batch needs a handle and an index pointer."};
        }
        std::lock_guard<std::mutex> lock(llm->run_mutex);
        *prompt_index = llm->add_to_batch(prompt, max_tokens, written_in_output_characters);
        return ILOTOKI_LLM_OK;
    });
}

ilotoki_llm_status ilotoki_llm_set_memory_pressure(ilotoki_llm *llm, bool short_of_memory, char *error, size_t error_len) {
    return guarded(error, error_len, [&]() -> ilotoki_llm_status {
        if (llm == nullptr) throw LLMError{ILOTOKI_LLM_ERROR_INVALID_ARGUMENT, "ilotoki_llm_set_memory_pressure needs a handle."};
        llm->memory_pressure.store(short_of_memory ? 1 : 0);
        return ILOTOKI_LLM_OK;
    });
}

ilotoki_llm_status ilotoki_llm_drop_from_batch(ilotoki_llm *llm, int32_t prompt_index, char *error, size_t error_len) {
    return guarded(error, error_len, [&]() -> ilotoki_llm_status {
        if (llm == nullptr) throw LLMError{ILOTOKI_LLM_ERROR_INVALID_ARGUMENT, "ilotoki_llm_drop_from_batch needs a handle."};
        std::lock_guard<std::mutex> lock(llm->run_mutex);
        llm->drop_from_batch(prompt_index);
        return ILOTOKI_LLM_OK;
    });
}

ilotoki_llm_status ilotoki_llm_get_sequence_stats(const ilotoki_llm *llm, int32_t prompt_index, ilotoki_llm_stats *out) {
    if (llm == nullptr || out == nullptr) return ILOTOKI_LLM_ERROR_INVALID_ARGUMENT;
    std::lock_guard<std::mutex> lock(llm->stats_mutex);
    if (llm->batch_run == nullptr || prompt_index < 0 || static_cast<size_t>(prompt_index) >= llm->batch_run->sequences.size()) {
        return ILOTOKI_LLM_ERROR_INVALID_ARGUMENT;
    }
    *out = llm->batch_run->sequences[static_cast<size_t>(prompt_index)].stats;
    out->head_rows = llm->vocabulary_size;
    if (out->finish_reason == ILOTOKI_LLM_FINISH_NONE) out->major_page_faults = major_page_faults_so_far() - llm->page_faults_at_start;
    return ILOTOKI_LLM_OK;
}

int32_t ilotoki_llm_sequence_tokens(const ilotoki_llm *llm, int32_t prompt_index, int32_t *tokens, int32_t capacity) {
    if (llm == nullptr) return -1;
    std::lock_guard<std::mutex> lock(llm->stats_mutex);
    if (llm->batch_run == nullptr || prompt_index < 0 || static_cast<size_t>(prompt_index) >= llm->batch_run->sequences.size()) {
        return -1;
    }
    const auto &generated = llm->batch_run->sequences[static_cast<size_t>(prompt_index)].generated;
    const auto count = static_cast<int32_t>(generated.size());
    if (tokens != nullptr && capacity > 0) {
        std::memcpy(tokens, generated.data(), sizeof(int32_t) * static_cast<size_t>(std::min(count, capacity)));
    }
    return count;
}

ilotoki_llm_status ilotoki_llm_sequence_error(const ilotoki_llm *llm, int32_t prompt_index, char *error, size_t error_len) {
    write_error(error, error_len, "");
    if (llm == nullptr) return ILOTOKI_LLM_ERROR_INVALID_ARGUMENT;
    // Written by start_batch before the batch is published, and never changed after.
    std::lock_guard<std::mutex> lock(llm->stats_mutex);
    if (llm->batch_run == nullptr || prompt_index < 0 || static_cast<size_t>(prompt_index) >= llm->batch_run->sequences.size()) {
        return ILOTOKI_LLM_ERROR_INVALID_ARGUMENT;
    }
    const auto &sequence = llm->batch_run->sequences[static_cast<size_t>(prompt_index)];
    write_error(error, error_len, sequence.error);
    return sequence.error_status;
}

ilotoki_llm_status ilotoki_llm_evict(ilotoki_llm *llm, char *how, size_t how_len) {
    write_error(how, how_len, "");
    return guarded(how, how_len, [&]() -> ilotoki_llm_status {
        if (llm == nullptr) throw LLMError{ILOTOKI_LLM_ERROR_INVALID_ARGUMENT, "ilotoki_llm_evict needs a handle."};
        std::lock_guard<std::mutex> lock(llm->run_mutex);
        const std::string done = llm->residency != nullptr ? llm->residency->evict() : "";
        if (done.empty()) throw LLMError{ILOTOKI_LLM_ERROR_INTERNAL, "No way to page the model out worked here."};
        write_error(how, how_len, done);
        return ILOTOKI_LLM_OK;
    });
}

double ilotoki_llm_resident_fraction(ilotoki_llm *llm) {
    if (llm == nullptr) return -1;
    try {
        std::lock_guard<std::mutex> lock(llm->run_mutex);
        return llm->residency != nullptr ? llm->residency->resident_fraction() : 1.0;
    } catch (...) {
        return 1.0;
    }
}

uint64_t ilotoki_llm_reserve_ticket(ilotoki_llm *llm) {
    if (llm == nullptr) return 0;
    return llm->reserve_ticket();
}

void ilotoki_llm_request_stop(ilotoki_llm *llm) {
    if (llm == nullptr) return;
    llm->stopped_id.store(llm->issued_ticket.load());
}

void ilotoki_llm_stop(ilotoki_llm *llm) {
    if (llm == nullptr) return;
    try {
        ilotoki_llm_request_stop(llm);
        // Wait for a running start or next to notice and return.
        std::lock_guard<std::mutex> lock(llm->run_mutex);
    } catch (...) {
        // Locking a healthy mutex does not fail; nothing may escape to C regardless.
    }
}

ilotoki_llm_status ilotoki_llm_get_stats(const ilotoki_llm *llm, ilotoki_llm_stats *out) {
    if (llm == nullptr || out == nullptr) return ILOTOKI_LLM_ERROR_INVALID_ARGUMENT;
    std::lock_guard<std::mutex> lock(llm->stats_mutex);
    *out = llm->stats;
    if (out->finish_reason == ILOTOKI_LLM_FINISH_NONE && out->prompt_tokens > 0) {
        out->major_page_faults = major_page_faults_so_far() - llm->page_faults_at_start;
    }
    return ILOTOKI_LLM_OK;
}

ilotoki_llm_status ilotoki_llm_check_model(const char *path, char *error, size_t error_len) {
    return guarded(error, error_len, [&]() -> ilotoki_llm_status {
        if (path == nullptr) throw LLMError{ILOTOKI_LLM_ERROR_INVALID_ARGUMENT, "ilotoki_llm_check_model needs a path."};
        const std::string file(path);
        check_structure(file);
        // The vocabulary is what a translation needs first; reading it (and not the weights)
        // also proves the hyperparameters are complete.
        auto model_params = llama_model_default_params();
        model_params.vocab_only = true;
        llama_model *model = load_model(file, model_params);
        const int32_t tokens = llama_vocab_n_tokens(llama_model_get_vocab(model));
        llama_model_free(model);
        ilotoki::return_freed_memory();
        if (tokens <= 0) throw LLMError{ILOTOKI_LLM_ERROR_CORRUPT_MODEL, "The model '" + file + "' has no vocabulary."};
        return ILOTOKI_LLM_OK;
    });
}

ilotoki_llm_status ilotoki_llm_get_model_info(const ilotoki_llm *llm, ilotoki_llm_model_info *out) {
    if (llm == nullptr || out == nullptr) return ILOTOKI_LLM_ERROR_INVALID_ARGUMENT;
    out->architecture = llm->architecture.c_str();
    out->description = llm->description.c_str();
    out->context_length = llm->context_length;
    out->trained_context_length = llama_model_n_ctx_train(llm->model);
    out->vocabulary_size = llm->vocabulary_size;
    out->threads = llm->threads;
    out->model_bytes = llama_model_size(llm->model);
    out->parameters = llama_model_n_params(llm->model);
    out->trimmed_head = llm->head != nullptr;
    out->trimmed_head_unavailable = llm->head_unavailable.c_str();
    out->trimmed_head_kernel = llm->head != nullptr ? llm->head->check_kernel() : "";
    out->trimmed_head_kernel_from_states = llm->head != nullptr ? llm->head->kernel_from_states() : 0;
    out->trimmed_head_check_streams = llm->check_streams.load();
    return ILOTOKI_LLM_OK;
}

int32_t ilotoki_llm_generated_tokens(const ilotoki_llm *llm, int32_t *tokens, int32_t capacity) {
    if (llm == nullptr) return -1;
    std::lock_guard<std::mutex> lock(llm->stats_mutex);
    const auto count = static_cast<int32_t>(llm->generated.size());
    if (tokens != nullptr && capacity > 0) {
        const int32_t copied = std::min(count, capacity);
        std::memcpy(tokens, llm->generated.data(), sizeof(int32_t) * static_cast<size_t>(copied));
    }
    return count;
}

int32_t ilotoki_llm_count_tokens(const ilotoki_llm *llm, const char *text) {
    if (llm == nullptr || text == nullptr) return -1;
    try {
        if (!ilotoki::utf8::is_valid(text, std::strlen(text))) return -1;
        return static_cast<int32_t>(llm->tokenize(text).size());
    } catch (...) {
        return -1;
    }
}

int32_t ilotoki_llm_detokenize(const ilotoki_llm *llm, const int32_t *tokens, int32_t count, char *text,
                               int32_t capacity) {
    if (llm == nullptr || (tokens == nullptr && count > 0) || count < 0 || capacity < 0) return -1;
    try {
        char empty = 0;
        const int32_t result = llama_detokenize(llm->vocab, tokens, count, text != nullptr ? text : &empty,
                                                text != nullptr ? capacity : 0, /*remove_special*/ true,
                                                /*unparse_special*/ false);
        return result < 0 ? -result : result;
    } catch (...) {
        return -1;
    }
}

void ilotoki_llm_free(ilotoki_llm *llm) {
    if (llm == nullptr) return;
    try {
        ilotoki_llm_stop(llm);
        delete llm;
        ilotoki::return_freed_memory();
    } catch (...) {
    }
}

int32_t ilotoki_llm_performance_core_count(void) { return ilotoki_llm_performance_core_count_in("/sys", 0); }

int32_t ilotoki_llm_performance_core_count_in(const char *sysfs_root, int32_t allowed_cpus) {
    try {
        return ilotoki::performance_core_count(sysfs_root != nullptr ? sysfs_root : "/sys", allowed_cpus);
    } catch (...) {
        return 1;
    }
}

void ilotoki_llm_set_log(const char *path, uint64_t max_bytes, int echo) {
    try {
        ilotoki::set_llama_log(path != nullptr ? path : "", max_bytes, echo != 0);
    } catch (...) {
        // Without memory for a path there is no log; translating goes on.
    }
}

const char *ilotoki_llm_backend_version(void) {
    static const std::string version = [] {
        try {
            const char *text = llama_version();
            return std::string(text != nullptr ? text : "unknown");
        } catch (...) {
            return std::string("unknown");
        }
    }();
    return version.c_str();
}

const char *ilotoki_llm_status_name(ilotoki_llm_status status) {
    switch (status) {
    case ILOTOKI_LLM_OK: return "ok";
    case ILOTOKI_LLM_DONE: return "done";
    case ILOTOKI_LLM_SEQUENCE_DONE: return "sequence done";
    case ILOTOKI_LLM_ERROR_INVALID_ARGUMENT: return "invalid argument";
    case ILOTOKI_LLM_ERROR_FILE_NOT_FOUND: return "file not found";
    case ILOTOKI_LLM_ERROR_NOT_A_FILE: return "not a file";
    case ILOTOKI_LLM_ERROR_UNREADABLE: return "unreadable";
    case ILOTOKI_LLM_ERROR_NOT_GGUF: return "not a GGUF file";
    case ILOTOKI_LLM_ERROR_CORRUPT_MODEL: return "corrupt model";
    case ILOTOKI_LLM_ERROR_UNSUPPORTED_MODEL: return "unsupported model";
    case ILOTOKI_LLM_ERROR_OUT_OF_MEMORY: return "out of memory";
    case ILOTOKI_LLM_ERROR_PROMPT_TOO_LONG: return "prompt too long";
    case ILOTOKI_LLM_ERROR_INVALID_TEXT: return "invalid text";
    case ILOTOKI_LLM_ERROR_DECODE_FAILED: return "decode failed";
    case ILOTOKI_LLM_ERROR_NOT_STARTED: return "not started";
    case ILOTOKI_LLM_ERROR_INTERNAL: return "internal error";
    }
    return "unknown status";
}

} // extern "C"
