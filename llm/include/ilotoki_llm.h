/*
 * ilotoki_llm.h — the whole C surface of the ilo toki inference library.
 *
 * A narrow, plain-C API over llama.cpp: load a GGUF model, start a translation from a
 * prompt, pull the translation out piece by piece, stop it from any thread, free it.
 * Nothing else in the project includes llama.h.
 *
 * Conventions
 * - Every function that can fail returns an `ilotoki_llm_status`. On failure it writes a
 *   NUL-terminated, human-readable message into the caller's `error` buffer (which may be
 *   NULL when `error_len` is 0). No C++ exception ever crosses this boundary.
 * - Ownership is explicit: a handle from `ilotoki_llm_load` is released with
 *   `ilotoki_llm_free`. Strings returned by the core are owned by the handle and stay
 *   valid until the next call on that handle that says it invalidates them.
 * - Threads. One handle serves one translation at a time. Each function says which others it
 *   may run alongside on the same handle:
 *   - `start` and `next` run one at a time (the generating thread).
 *   - `stop`, `request_stop` and `reserve_ticket` may run on any thread while `start` or
 *     `next` runs.
 *   - `get_stats`, `generated_tokens`, `get_model_info`, `count_tokens` and `detokenize` only
 *     read, and may run on any thread while a translation runs.
 *   - `free` must not run while any other call on the handle runs or may still be made: no
 *     `stop` may race it. Stop the translation, let `next` return, then free.
 */
#ifndef ILOTOKI_LLM_H
#define ILOTOKI_LLM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** An opaque handle: one loaded model and its context. */
typedef struct ilotoki_llm ilotoki_llm;

/** Status codes. Zero and positive values are success; negative values are errors. */
typedef enum ilotoki_llm_status {
    /** Success; for `next`, a piece of text was produced. */
    ILOTOKI_LLM_OK = 0,
    /** `next` only: the translation has ended; see `ilotoki_llm_stats.finish_reason`. */
    ILOTOKI_LLM_DONE = 1,
    /** `next_batch` only: one prompt's translation has ended (its figures:
        `ilotoki_llm_get_sequence_stats`). */
    ILOTOKI_LLM_SEQUENCE_DONE = 2,

    /** A required argument was NULL or out of range. */
    ILOTOKI_LLM_ERROR_INVALID_ARGUMENT = -1,
    /** No file exists at the path. */
    ILOTOKI_LLM_ERROR_FILE_NOT_FOUND = -2,
    /** The path exists but is not a regular file (a directory, a device). */
    ILOTOKI_LLM_ERROR_NOT_A_FILE = -3,
    /** The file could not be opened or read (permissions, I/O error). */
    ILOTOKI_LLM_ERROR_UNREADABLE = -4,
    /** The file is empty or does not start with the GGUF magic. */
    ILOTOKI_LLM_ERROR_NOT_GGUF = -5,
    /** A GGUF file that llama.cpp could not load: truncated, corrupt, missing tensors. */
    ILOTOKI_LLM_ERROR_CORRUPT_MODEL = -6,
    /** A well-formed GGUF file whose architecture this build cannot run. */
    ILOTOKI_LLM_ERROR_UNSUPPORTED_MODEL = -7,
    /** Memory for the model or its context could not be allocated. */
    ILOTOKI_LLM_ERROR_OUT_OF_MEMORY = -8,
    /** The prompt does not fit in the context (with room for at least one new token). */
    ILOTOKI_LLM_ERROR_PROMPT_TOO_LONG = -9,
    /** The prompt is not valid UTF-8, or contains a NUL byte. */
    ILOTOKI_LLM_ERROR_INVALID_TEXT = -10,
    /** llama.cpp failed while evaluating the model. */
    ILOTOKI_LLM_ERROR_DECODE_FAILED = -11,
    /** `next` was called without a successful `start`. */
    ILOTOKI_LLM_ERROR_NOT_STARTED = -12,
    /** Anything else (an internal invariant broke); the message says what. */
    ILOTOKI_LLM_ERROR_INTERNAL = -99,
} ilotoki_llm_status;

/** Why a translation ended. */
typedef enum ilotoki_llm_finish_reason {
    /** Still running, or never started. */
    ILOTOKI_LLM_FINISH_NONE = 0,
    /** The model produced an end-of-generation token. */
    ILOTOKI_LLM_FINISH_END_OF_GENERATION = 1,
    /** `max_tokens` tokens were generated, or the context is full. */
    ILOTOKI_LLM_FINISH_MAX_TOKENS = 2,
    /** The output reached one of the stop sequences (which is not emitted). */
    ILOTOKI_LLM_FINISH_STOP_SEQUENCE = 3,
    /** The output would have had more lines than `max_lines` (the newline is not emitted). */
    ILOTOKI_LLM_FINISH_LINE_LIMIT = 4,
    /** `ilotoki_llm_stop` (or `request_stop`) was called. */
    ILOTOKI_LLM_FINISH_STOPPED = 5,
    /** `next` failed with an error status (llama.cpp could not evaluate the model), or, in a
        batch, this prompt could not be started (`ilotoki_llm_sequence_error` says why). */
    ILOTOKI_LLM_FINISH_ERROR = 6,
    /** The output had become one block of tokens written again and again (a model caught in
        a loop): at least 4 copies of a block of 1 to 32 tokens, 32 tokens or more in all. What
        was emitted stays; the loop does not run on to the token limit. */
    ILOTOKI_LLM_FINISH_REPETITION = 7,
} ilotoki_llm_finish_reason;

/**
 * How the next token is chosen. The product always uses `ARGMAX`; the other two exist so
 * tests and benchmarks can compare against llama.cpp's own sampler chain in one build.
 */
typedef enum ilotoki_llm_selection {
    /** Greedy: the first token with the highest logit, found by one pass over the logits. */
    ILOTOKI_LLM_SELECT_ARGMAX = 0,
    /** llama.cpp's `llama_sampler_init_greedy` (same choice, through the sampler API). */
    ILOTOKI_LLM_SELECT_LLAMA_GREEDY = 1,
    /** llama.cpp's chain top-k 40, top-p 0.95, temperature 0.8, seeded dist (benchmarks only). */
    ILOTOKI_LLM_SELECT_LLAMA_SAMPLING_CHAIN = 2,
} ilotoki_llm_selection;

/**
 * How the output projection (the model's head onto its whole vocabulary) is computed.
 *
 * `TRIMMED` computes it per token only for the rows the target language can write (from the
 * model's own vocabulary: its script's letters, digits, punctuation, control and byte tokens),
 * and every few tokens checks the chosen tokens against all the other rows at once; a token
 * that another row would have beaten (or matched within rounding) is taken again with the
 * full head after rolling the KV cache back. Greedy output is therefore the full head's,
 * token for token, at a fraction of the head's memory reads. It applies to greedy selection
 * on models whose graph has a replaceable head (gemma3); anything else uses the full head.
 */
typedef enum ilotoki_llm_head {
    /** The trimmed head where it applies, the full head elsewhere (the default). */
    ILOTOKI_LLM_HEAD_TRIMMED = 0,
    /** llama.cpp's own head over the whole vocabulary, for every token. */
    ILOTOKI_LLM_HEAD_FULL = 1,
} ilotoki_llm_head;

/** Parameters for `ilotoki_llm_load`. Start from `ilotoki_llm_default_load_params()`. */
typedef struct ilotoki_llm_load_params {
    /** Context length in tokens; 0 means 2048. */
    int32_t context_length;
    /** Threads for decoding and prefill; 0 means `ilotoki_llm_performance_core_count()`. */
    int32_t threads;
    /** Logical batch for prefill in tokens; 0 means the context length. */
    int32_t batch_size;
    /** Flash attention: -1 automatic (llama.cpp's default), 0 off, 1 on. */
    int32_t flash_attention;
} ilotoki_llm_load_params;

/** Unicode code points from `first` to `last`, both included. */
typedef struct ilotoki_llm_char_range {
    uint32_t first;
    uint32_t last;
} ilotoki_llm_char_range;

/** Parameters for `ilotoki_llm_start`. Start from `ilotoki_llm_default_start_params()`. */
typedef struct ilotoki_llm_start_params {
    /** At most this many tokens are generated; 0 or less means until the context is full. */
    int32_t max_tokens;
    /** The output ends before it would have more lines than this; 0 means no limit. */
    int32_t max_lines;
    /** Strings that end the output when it reaches them; they are never emitted. May be NULL.
     *  Each must be valid UTF-8 (`ILOTOKI_LLM_ERROR_INVALID_TEXT` otherwise). */
    const char *const *stop_sequences;
    /** Number of entries in `stop_sequences`. */
    size_t stop_sequence_count;
    /** How tokens are chosen; the product uses `ILOTOKI_LLM_SELECT_ARGMAX`. */
    ilotoki_llm_selection selection;
    /** Benchmarks only: request logits for every prompt token instead of only the last. */
    bool logits_for_all_prompt_tokens;
    /**
     * The ticket from `ilotoki_llm_reserve_ticket` this translation runs under, or 0 to take
     * a new one. Reserving first closes the gap between deciding to translate and `start`
     * beginning: a stop made in that gap ends this translation at once.
     */
    uint64_t ticket;
    /** The output head (see `ilotoki_llm_head`). */
    ilotoki_llm_head head;
    /**
     * The characters the output is written in, which pick the trimmed head's rows: the
     * tokens whose text is made of these characters, and every control, byte and unknown
     * token. The core knows no languages; the caller's table says what each is written in
     * (IloTokiCore's `Language.outputCharacters`). NULL or none: llama.cpp's head. Not kept:
     * the ranges need to live only for the call.
     */
    const ilotoki_llm_char_range *output_characters;
    /** Number of entries in `output_characters`. */
    size_t output_character_count;
    /**
     * The characters the head widens to when a check finds the output leaving
     * `output_characters` for a token made of these (a name copied from the source, a model
     * answering in another of the app's languages): the app's languages together. NULL or
     * none: no widening (such a step is taken again with llama.cpp's head). Not kept.
     */
    const ilotoki_llm_char_range *wider_characters;
    /** Number of entries in `wider_characters`. */
    size_t wider_character_count;
    /**
     * Before evaluating, bring back the model's pages the system has taken (see
     * `ilotoki_llm_stats.resident_fraction`): when less than 98 % of the file is in memory,
     * the missing runs are read in order, at the storage's speed, instead of being faulted
     * back one 4 KiB page at a time during decode. On by default.
     */
    bool restore_residency;
    /**
     * Start from the cached cells of the prompt's beginning where an earlier prompt on this
     * handle began the same way (a format's fixed words, its examples), instead of evaluating
     * them again: the cells of every prompt are kept, and of two prompts that begin alike, the
     * shared part. Exact: the core computes every token as it would alone, so the output is
     * the same token for token (`ilotoki_llm_stats.reused_prompt_tokens` says how many were
     * copied). On by default; off for comparing. Ignored with `logits_for_all_prompt_tokens`.
     */
    bool reuse_prefix;
    /**
     * `start_batch` only: a batch that prompts will join while it runs (`ilotoki_llm_add_to_batch`,
     * a server's requests). Every slot is kept even when fewer prompts start it, each sequence
     * has room for at least this many tokens (prompt and translation), and a step takes the
     * most prompt tokens a step may, so that the prompts added later fit and run alongside.
     * 0 (the default): sized to the prompts it starts with.
     */
    int32_t joinable_room;
    /**
     * `start_batch` only: for each of its prompts, whether its answer is written in
     * `output_characters` (a batch whose prompts go into several languages: only the steps
     * whose every sequence's is take the trimmed head). NULL: every prompt's is. Not kept.
     */
    const bool *written_in_output_characters;
} ilotoki_llm_start_params;

/** Figures for the current (or last) translation on a handle. */
typedef struct ilotoki_llm_stats {
    /** Tokens in the prompt, BOS included. */
    int32_t prompt_tokens;
    /** Tokens generated, including an end-of-generation token and any withheld text. */
    int32_t generated_tokens;
    /** Wall time spent evaluating the prompt, in milliseconds. */
    double prefill_ms;
    /** Wall time spent generating after the prompt, in milliseconds. */
    double decode_ms;
    /** Tokens evaluated one at a time after the prompt: the generated tokens but the last,
        and those evaluated again after the trimmed head's check took steps back. */
    int32_t decoded_tokens;
    /** Part of `decode_ms` spent choosing tokens from the logits (argmax or a sampler). */
    double selection_ms;
    /** Wall time from `start` to the first non-empty piece (0 while there is none). */
    double first_piece_ms;
    /** Major page faults of the process during the translation (`getrusage` ru_majflt delta). */
    int64_t major_page_faults;
    /** Why the translation ended (`ILOTOKI_LLM_FINISH_NONE` while it runs). */
    ilotoki_llm_finish_reason finish_reason;
    /** Output rows computed per generated token: the kept rows, or the vocabulary size with the full head. */
    int32_t head_rows;
    /** Checks of pending tokens against the excluded rows (trimmed head). */
    int32_t head_checks;
    /** Checks that found a token another row would have beaten or matched, and rolled back. */
    int32_t head_rollbacks;
    /** Steps taken again with the full head (after a rollback that the exact values of its
        rows did not decide, or where no kept row won). */
    int32_t head_full_steps;
    /** Rollbacks whose step's choice came from the exact values of the kept token and the
        excluded rows' best (llama.cpp's arithmetic), with no step of llama.cpp's head. */
    int32_t head_exact_choices;
    /** The translation went on with the full head after repeated rollbacks. */
    bool head_fell_back;
    /** A check found a winner outside the kept rows but among `wider_characters`' rows, and
        the translation went on with those as its kept rows. */
    bool head_widened;
    /** The fraction of the model file's pages in memory when the translation started (from
        `mincore`, before any restore); 1 where it cannot be known. */
    double resident_fraction;
    /** Bytes of the model file read back before evaluating (`restore_residency`). */
    uint64_t restored_bytes;
    /** Wall time of the residency check and the restore, in milliseconds: part of the
        translation's time, before `prefill_ms`. */
    double restore_ms;
    /** Major page faults during the check and the restore (part of `major_page_faults`):
        the rest came while evaluating. */
    int64_t restore_page_faults;
    /** Tokens the handle's context held for this translation. A context is sized to the
        translation (its prompt plus its output limit, rounded up to 256, at most the load's
        `context_length`) and made again only when a longer one comes. */
    int32_t context_length;
    /** Prompt tokens whose cells were copied from the cache instead of evaluated
        (`reuse_prefix`; in a batch, all its prompts'). */
    int32_t reused_prompt_tokens;
    /** The memory the cache of prompt beginnings held after this prompt (the single
        translations' context's, or the batch context's), in bytes. */
    uint64_t prefix_cache_bytes;
    /** In a batch, per prompt: the decoding steps it took beside other prompts (its
        `decode_ms` counts each such step's whole time, so it measures no head alone). */
    int32_t shared_steps;
    /** Checks that the sketch of the excluded rows served (where checks stream from the file):
        it ruled most rows out, and only the rest were read. */
    int32_t head_sketched_checks;
    /** The rows those checks read exactly from the file. */
    int64_t head_rows_read_exactly;
} ilotoki_llm_stats;

/** Facts about a loaded model. Strings are owned by the handle and live as long as it does. */
typedef struct ilotoki_llm_model_info {
    /** The GGUF `general.architecture`, e.g. "gemma3". */
    const char *architecture;
    /** llama.cpp's one-line description, e.g. "gemma3 270M Q4_K - Medium". */
    const char *description;
    /** The most tokens a translation on this handle may use (prompt and output): the load's
        `context_length`. The context itself is smaller until a translation needs more. */
    int32_t context_length;
    /** Context length the model was trained with. */
    int32_t trained_context_length;
    /** Number of tokens in the vocabulary. */
    int32_t vocabulary_size;
    /** Threads used for decoding. */
    int32_t threads;
    /** Total size of the model's tensors in bytes. */
    uint64_t model_bytes;
    /** Number of parameters. */
    uint64_t parameters;
    /** Whether translations can use the trimmed output head (`ILOTOKI_LLM_HEAD_TRIMMED`). */
    bool trimmed_head;
    /** Why not, when `trimmed_head` is false (empty otherwise). */
    const char *trimmed_head_unavailable;
    /** The kernel that checks the trimmed head's choices against the other rows
        ("avx512-vnni", "avx2", "neon-dotprod"; "vec_dot" for ggml's own), empty without a
        trimmed head. */
    const char *trimmed_head_kernel;
    /** The fewest states a check hands to that kernel, measured at load against ggml's
        vec_dot (checks of fewer states use vec_dot); 0 with "vec_dot" or no trimmed head. */
    int32_t trimmed_head_kernel_from_states;
    /** Why the trimmed head's checks read the excluded rows from the file in chunks, and how
        ("a memory limit of 300 MiB for a file of 241 MiB (O_DIRECT)"): where the model cannot
        stay in memory (a cgroup memory limit below the file and 144 MiB more), so that those
        rows' pages are not kept (ILOTOKI_STREAMED_CHECK=1 asks for it, =0 never), or since
        the device said it is short of memory (`ilotoki_llm_set_memory_pressure`). Empty where
        checks read through the mapping. Valid for the handle's life. */
    const char *trimmed_head_check_streams;
} ilotoki_llm_model_info;

/** Defaults: context 2048, threads from `performance_core_count`, batch = context, flash attention automatic. */
ilotoki_llm_load_params ilotoki_llm_default_load_params(void);

/** Defaults: 512 tokens, no line limit, no stop sequences, argmax, logits for the last prompt token only, a new ticket. */
ilotoki_llm_start_params ilotoki_llm_default_start_params(void);

/**
 * Loads a GGUF model (memory-mapped, not locked) and creates its context.
 *
 * The file is checked before llama.cpp sees it, from its structure, so each common failure
 * gets its own status and a message naming the path: a missing file, a directory, an empty
 * file or one without the GGUF magic, a damaged GGUF header, a file shorter than its tensors
 * need (truncated), an architecture this build cannot run. Only a failure past those checks
 * is reported from llama.cpp's own diagnosis (damaged contents, or out of memory).
 *
 * Thread safety: independent of every handle; any number of loads may run at once.
 *
 * - Parameters:
 *   - path: the model file, NUL-terminated UTF-8.
 *   - params: load parameters, or NULL for the defaults.
 *   - out: receives the new handle on success; set to NULL on failure.
 *   - error, error_len: the caller's buffer for a message on failure.
 * - Returns: `ILOTOKI_LLM_OK` or an error status.
 */
ilotoki_llm_status ilotoki_llm_load(const char *path, const ilotoki_llm_load_params *params,
                                    ilotoki_llm **out, char *error, size_t error_len);

/**
 * Checks that a file is a model this build can use, without loading its weights: the checks
 * of `ilotoki_llm_load`, then llama.cpp reads its hyperparameters and vocabulary. Quick even
 * for a large file; used before a file is added to the app's model list.
 *
 * Thread safety: independent of every handle.
 *
 * - Returns: `ILOTOKI_LLM_OK`, or the status `ilotoki_llm_load` would give, with a message.
 */
ilotoki_llm_status ilotoki_llm_check_model(const char *path, char *error, size_t error_len);

/**
 * Reserves the ticket of the next translation on this handle; pass it in
 * `ilotoki_llm_start_params.ticket`. From this moment `ilotoki_llm_stop` targets that
 * translation, even before `start` has begun (then `start` does no work and the first `next`
 * returns `DONE` with the finish reason `STOPPED`).
 *
 * Thread safety: any thread, any time but during or after `free`.
 *
 * - Returns: the ticket (never 0), or 0 if `llm` is NULL.
 */
uint64_t ilotoki_llm_reserve_ticket(ilotoki_llm *llm);

/**
 * Starts a translation: clears the KV cache (no state is carried over from earlier
 * translations, but the cells of a prompt beginning it shares with earlier ones, see
 * `reuse_prefix`), tokenizes the prompt with the model's BOS and with special-token parsing
 * off (typed text can never become control tokens), and evaluates it, requesting logits
 * only for its last token.
 *
 * A running translation on the same handle is replaced. If `ilotoki_llm_stop` is called
 * while the prompt is being evaluated (or, with a reserved ticket, before `start` began),
 * `start` still returns `ILOTOKI_LLM_OK` and the first `next` returns `ILOTOKI_LLM_DONE` with
 * the finish reason `STOPPED`.
 *
 * Thread safety: not alongside `next`, another `start` or `free` on the same handle.
 *
 * - Parameters:
 *   - prompt: NUL-terminated UTF-8 text.
 *   - params: start parameters, or NULL for the defaults.
 * - Returns: `ILOTOKI_LLM_OK`, `ILOTOKI_LLM_ERROR_PROMPT_TOO_LONG` (the message gives the
 *   token count and the limit), `ILOTOKI_LLM_ERROR_INVALID_TEXT`, or another error.
 */
ilotoki_llm_status ilotoki_llm_start(ilotoki_llm *llm, const char *prompt,
                                     const ilotoki_llm_start_params *params, char *error,
                                     size_t error_len);

/**
 * Produces the next piece of the translation.
 *
 * Decoding is greedy (see `ilotoki_llm_selection`). A piece is always complete UTF-8: bytes
 * of a character split across tokens are held back until it is complete, and bytes that can
 * never complete one are replaced by U+FFFD. Text that could be the beginning of a stop
 * sequence is held back until it is known not to be one.
 *
 * - Parameters:
 *   - piece: receives a pointer to the text (not NUL-terminated), owned by the handle and
 *     valid until the next call to `next`, `start` or `free` on it.
 *   - piece_len: receives the length of the text in bytes (always > 0 with `ILOTOKI_LLM_OK`).
 * Thread safety: not alongside `start`, another `next` or `free` on the same handle.
 *
 * - Returns: `ILOTOKI_LLM_OK` with a piece; `ILOTOKI_LLM_DONE` once the translation has ended
 *   (and on every call after that); or an error status, after which the translation has
 *   ended with the finish reason `ERROR`.
 */
ilotoki_llm_status ilotoki_llm_next(ilotoki_llm *llm, const char **piece, size_t *piece_len,
                                    char *error, size_t error_len);

/**
 * Benchmarks: pages the model file out of memory, as a phone's system does to an app in the
 * background: `madvise(MADV_PAGEOUT)` over the file's mappings in this process (Linux 5.4 and
 * later), else `MADV_COLD`; where more than half stays (pages read back in large folios),
 * `MADV_DONTNEED` on those read-only mappings and `posix_fadvise(POSIX_FADV_DONTNEED)` on the
 * file as well. `how` names the advice that lowered the resident fraction.
 *
 * Thread safety: not alongside `start`, `next` or `free` on the handle.
 *
 * - Parameters:
 *   - how: receives the name of the advice that worked ("MADV_PAGEOUT", ...).
 * - Returns: `ILOTOKI_LLM_OK`, or `ILOTOKI_LLM_ERROR_INTERNAL` when none lowered it.
 */
ilotoki_llm_status ilotoki_llm_evict(ilotoki_llm *llm, char *how, size_t how_len);

/** The fraction of the model file's pages in memory now (`mincore`); 1 where unknown, -1 for NULL. */
double ilotoki_llm_resident_fraction(ilotoki_llm *llm);

/** The most prompts `ilotoki_llm_start_batch` decodes at once. */
#define ILOTOKI_LLM_MAX_SEQUENCES 16

/**
 * Starts the translation of several prompts decoded together: up to `sequences` at once in one
 * evaluation per step, each with a sequence of its own, greedy per sequence. The weights are
 * read once per step for all of them, which is what makes a paragraph's sentences together
 * faster than one after the other. Each prompt ends on its own (end of generation, its token
 * limit, a stop sequence, the line limit, a loop); a finished slot takes the next prompt.
 * Each prompt's tokens are the ones `start` would give it alone.
 *
 * The batch has a context of its own, with one KV cache per sequence (never shared, so no
 * sequence's sums depend on another's), sized to the prompts: `sequences` times the longest
 * prompt plus the largest token limit, rounded up to 256. It is kept for later batches and made
 * again when a batch needs more. Steps of up to 4 sequences use the trimmed head where `start`
 * would (`params.head` and the character sets), each sequence checked and rolled back on its
 * own, so its tokens stay the ones it gets alone; steps of more sequences use llama.cpp's head,
 * which reads each row once for all of them anyway.
 *
 * Prompts are tokenized here. One that cannot be translated (not UTF-8, empty, longer than the
 * handle's context) does not fail the call: it ends at once with the finish reason `ERROR`,
 * and `ilotoki_llm_sequence_error` says why. A running translation or batch is replaced; stops
 * and tickets work as for `start`.
 *
 * Thread safety: as `start`.
 *
 * - Parameters:
 *   - prompts: `count` NUL-terminated UTF-8 prompts; copied, not kept.
 *   - max_tokens: `count` token limits, one per prompt (0 or less: `params.max_tokens`), or
 *     NULL for `params.max_tokens` for every prompt.
 *   - sequences: prompts decoded at once, 1 to `ILOTOKI_LLM_MAX_SEQUENCES` (larger values are
 *     clamped; 0 or less means 8).
 *   - params: as for `start` (token limit, line limit, stop sequences, ticket, head and
 *     character sets); NULL for the defaults. The selection is always greedy.
 * - Returns: `ILOTOKI_LLM_OK`; `ILOTOKI_LLM_ERROR_INVALID_ARGUMENT` without prompts;
 *   `ILOTOKI_LLM_ERROR_OUT_OF_MEMORY` when the batch's context cannot be made.
 */
ilotoki_llm_status ilotoki_llm_start_batch(ilotoki_llm *llm, const char *const *prompts, size_t count,
                                           const int32_t *max_tokens, int32_t sequences,
                                           const ilotoki_llm_start_params *params, char *error, size_t error_len);

/**
 * Produces the next piece of a batch, tagged with the prompt it belongs to.
 *
 * Pieces of one prompt come in order and follow `next`'s rules (complete UTF-8, stop sequences
 * held back); pieces of different prompts interleave. A prompt's last event is
 * `ILOTOKI_LLM_SEQUENCE_DONE`.
 *
 * - Parameters:
 *   - prompt_index: receives the index (into `start_batch`'s `prompts`) of the piece or of the
 *     prompt that ended.
 *   - piece, piece_len: as for `next` (valid until the next call on the handle).
 * Thread safety: as `next`.
 *
 * - Returns: `ILOTOKI_LLM_OK` with a piece; `ILOTOKI_LLM_SEQUENCE_DONE` when one prompt has
 *   ended; `ILOTOKI_LLM_DONE` once every prompt has ended and been reported, or at once after
 *   a stop (every prompt not yet reported then has the finish reason `STOPPED`); or an error
 *   status, after which every prompt not yet ended has the finish reason `ERROR`.
 */
ilotoki_llm_status ilotoki_llm_next_batch(ilotoki_llm *llm, int32_t *prompt_index, const char **piece,
                                          size_t *piece_len, char *error, size_t error_len);

/**
 * Adds a prompt to the running batch: it takes a slot as one frees, as `start_batch`'s own
 * prompts do, and its tokens are the ones `start` would give it alone. What a server calls
 * when a request comes while others are translated. A prompt that cannot be translated (not
 * UTF-8, empty, longer than the handle's context) is added and ends at once with the finish
 * reason `ERROR`, as in `start_batch`.
 *
 * Thread safety: as `next_batch` (between its calls, never during one).
 *
 * - Parameters:
 *   - prompt: a NUL-terminated UTF-8 prompt; copied, not kept.
 *   - max_tokens: its token limit (0 or less: the batch's `params.max_tokens`).
 *   - written_in_output_characters: whether its answer is written in the batch's
 *     `output_characters` (only then may its steps take the trimmed head).
 *   - prompt_index: receives its index, after those of every prompt added before.
 * - Returns: `ILOTOKI_LLM_OK`; `ILOTOKI_LLM_ERROR_NOT_STARTED` when no batch runs (none was
 *   started, the last one ended with `ILOTOKI_LLM_DONE`, or a stop came); or
 *   `ILOTOKI_LLM_ERROR_PROMPT_TOO_LONG` when the prompt and its token limit need more room
 *   than a sequence of this batch has (the batch was sized to its first prompts): start it in
 *   a batch of its own. Neither adds it.
 */
ilotoki_llm_status ilotoki_llm_add_to_batch(ilotoki_llm *llm, const char *prompt, int32_t max_tokens,
                                            bool written_in_output_characters, int32_t *prompt_index, char *error,
                                            size_t error_len);

/**
 * Tells the handle whether the device is short of memory: an app's memory warning (iOS),
 * `onTrimMemory` (Android), memory pressure read from `/proc/pressure/memory` (Linux), or
 * the residency the handle measures itself. Short of memory, the trimmed head's checks read
 * the rows they rule out from the file in chunks and leave none of their pages cached (as
 * they do from the load on under a memory limit too small for the file), so the model's body
 * and kept rows stay in memory; told otherwise, they read them through the mapping again
 * (unless the load's own reason to stream holds). Taken at the next `start` or `start_batch`:
 * a translation running now goes on as it began, and its tokens, like every later one's, are
 * the same either way.
 *
 * Thread safety: any thread, at any time (also while a translation runs).
 *
 * - Returns: `ILOTOKI_LLM_OK`, or `ILOTOKI_LLM_ERROR_INVALID_ARGUMENT` without a handle.
 */
ilotoki_llm_status ilotoki_llm_set_memory_pressure(ilotoki_llm *llm, bool short_of_memory, char *error, size_t error_len);

/**
 * Gives up one prompt of the running batch (a client that went away): its slot is free for
 * the next prompt, the others go on, and its end (finish reason `STOPPED`) is the next event
 * `next_batch` reports for it, with no piece after it. A prompt that has already ended is left
 * as it is.
 *
 * Thread safety: as `next_batch` (between its calls, never during one).
 *
 * - Returns: `ILOTOKI_LLM_OK`, or `ILOTOKI_LLM_ERROR_INVALID_ARGUMENT` for an index outside
 *   the batch.
 */
ilotoki_llm_status ilotoki_llm_drop_from_batch(ilotoki_llm *llm, int32_t prompt_index, char *error, size_t error_len);

/**
 * Copies the figures of one prompt of the current or last batch into `out`: its prompt and
 * generated tokens, its own prefill, the decode steps it took part in (each step's whole wall
 * time: the steps are shared), its first piece from `start_batch` on, and its finish reason.
 * `ilotoki_llm_get_stats` gives the batch's totals (the decode time once per step).
 *
 * Thread safety: any thread, also while the batch runs.
 *
 * - Returns: `ILOTOKI_LLM_OK`, or `ILOTOKI_LLM_ERROR_INVALID_ARGUMENT` for an index outside
 *   the batch.
 */
ilotoki_llm_status ilotoki_llm_get_sequence_stats(const ilotoki_llm *llm, int32_t prompt_index,
                                                  ilotoki_llm_stats *out);

/**
 * Copies the token ids generated so far for one prompt of the batch, as
 * `ilotoki_llm_generated_tokens` does for a single translation.
 *
 * - Returns: the number of tokens (which may exceed `capacity`), or -1 for an index outside
 *   the batch.
 */
int32_t ilotoki_llm_sequence_tokens(const ilotoki_llm *llm, int32_t prompt_index, int32_t *tokens, int32_t capacity);

/**
 * Why a prompt of the batch ended with the finish reason `ERROR`: the status, with its message
 * in `error`. `ILOTOKI_LLM_OK` (and an empty message) for a prompt that did not fail.
 *
 * Thread safety: any thread, also while the batch runs.
 */
ilotoki_llm_status ilotoki_llm_sequence_error(const ilotoki_llm *llm, int32_t prompt_index, char *error,
                                              size_t error_len);

/**
 * Stops the translation holding the latest ticket (the running one, or the one reserved and
 * about to start). It interrupts an evaluation in progress (llama.cpp's abort callback) and
 * returns once a concurrent `next` or `start` has returned, so no piece is produced after
 * `stop` returns. The handle stays usable: the next `start` begins a new translation. A stop
 * never reaches a translation whose ticket was issued after it.
 *
 * Without reserved tickets, a stop that comes before `start` has taken its own ticket is
 * aimed at the translation before: reserve a ticket when stops can come from another thread.
 *
 * Thread safety: any thread, any time, any number of times, but never racing `free`.
 */
void ilotoki_llm_stop(ilotoki_llm *llm);

/**
 * Like `ilotoki_llm_stop`, but returns at once instead of waiting for a running `start` or
 * `next` to return: for a caller (a UI thread) that must never block on the model. The
 * running call ends at its next check (between two steps of the evaluation); a piece it was
 * producing may still be returned, so such a caller drops pieces that arrive after it asked.
 *
 * Thread safety: as `ilotoki_llm_stop`.
 */
void ilotoki_llm_request_stop(ilotoki_llm *llm);

/**
 * Copies the figures of the current or last translation into `out`.
 *
 * Thread safety: any thread, also while a translation runs (the figures are then those so far).
 */
ilotoki_llm_status ilotoki_llm_get_stats(const ilotoki_llm *llm, ilotoki_llm_stats *out);

/**
 * Copies facts about the loaded model into `out`.
 *
 * Thread safety: any thread, also while a translation runs (the facts do not change).
 */
ilotoki_llm_status ilotoki_llm_get_model_info(const ilotoki_llm *llm, ilotoki_llm_model_info *out);

/**
 * Copies the token ids generated so far in the current translation (in order) into `tokens`.
 *
 * Thread safety: any thread, also while a translation runs.
 *
 * - Returns: the number of generated tokens, which may exceed `capacity` (then only the
 *   first `capacity` were copied); -1 if `llm` is NULL.
 */
int32_t ilotoki_llm_generated_tokens(const ilotoki_llm *llm, int32_t *tokens, int32_t capacity);

/**
 * Counts the tokens of `text` as `start` would tokenize it (BOS included).
 *
 * Thread safety: any thread, also while a translation runs (the vocabulary is read-only).
 *
 * - Returns: the count, or a negative value if `text` is not valid UTF-8.
 */
int32_t ilotoki_llm_count_tokens(const ilotoki_llm *llm, const char *text);

/**
 * Writes the text of `tokens` as llama.cpp detokenizes it in one go (special tokens are
 * left out). Used to check that the streamed pieces add up to the whole text.
 *
 * Thread safety: any thread, also while a translation runs (the vocabulary is read-only).
 *
 * - Returns: the number of bytes of the text, which may exceed `capacity` (then nothing
 *   useful was written: call again with a larger buffer); -1 on invalid arguments.
 */
int32_t ilotoki_llm_detokenize(const ilotoki_llm *llm, const int32_t *tokens, int32_t count, char *text,
                               int32_t capacity);

/**
 * Releases the handle, its context and its model. NULL is ignored.
 *
 * Thread safety: the last call on the handle. No other call may run alongside it or come
 * after it; in particular no `stop` from another thread may race it.
 */
void ilotoki_llm_free(ilotoki_llm *llm);

/**
 * Number of threads that decode fastest on this device: the physical cores outside the
 * slowest frequency group.
 *
 * Reads cpufreq from /sys. With at least two frequency groups (frequencies within 10 % of
 * each other are one group) the slowest group is left out: work is synchronised at every
 * layer, so one thread on a slow core holds up all the others. Without cpufreq, or with one
 * group, all online cores are used. SMT siblings count once. The result is at most 8, at
 * most the CPUs this process may run on, and at least 1.
 */
int32_t ilotoki_llm_performance_core_count(void);

/**
 * `ilotoki_llm_performance_core_count` over any sysfs tree, for tests.
 *
 * - Parameters:
 *   - sysfs_root: the directory that holds `devices/system/cpu` (the real one is "/sys").
 *   - allowed_cpus: the size of the process's CPU affinity set; 0 or less reads it with
 *     `sched_getaffinity`.
 */
int32_t ilotoki_llm_performance_core_count_in(const char *sysfs_root, int32_t allowed_cpus);

/**
 * Where llama.cpp's and ggml's own log lines go (they never go to stderr by default: the
 * errors a person reads are the core's messages, which quote llama.cpp's first reason).
 *
 * - Parameters:
 *   - path: a file the lines are appended to (created 0600 when the first line comes, each
 *     line stamped with the UTC time; debug lines are left out), or NULL or "" for nowhere.
 *   - max_bytes: when the file would grow past this it is moved to `path` + ".1" and a new
 *     one begun, so the log takes at most twice this; 0 for no bound.
 *   - echo: nonzero to also write every line to stderr (`ilotoki --verbose`); the environment
 *     variable ILOTOKI_LLM_LOG=1 does the same for any program.
 *
 * Safe to call from any thread at any time; a file that cannot be written is skipped.
 */
void ilotoki_llm_set_log(const char *path, uint64_t max_bytes, int echo);

/** The llama.cpp version this core was built against (e.g. "b7000 (0c1e570)"). */
const char *ilotoki_llm_backend_version(void);

/** A human-readable name for a status code. */
const char *ilotoki_llm_status_name(ilotoki_llm_status status);

#ifdef __cplusplus
}
#endif

#endif /* ILOTOKI_LLM_H */
