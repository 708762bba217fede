/* Compiles ilotoki_llm.h as plain C99 and checks the error paths through the C ABI:
 * every failure is a status code plus a message, never a crash. Run by scripts/test.sh. */
#define _POSIX_C_SOURCE 200809L
#include "ilotoki_llm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures = 0;

#define EXPECT(condition)                                                           \
    do {                                                                            \
        if (!(condition)) {                                                         \
            fprintf(stderr, "c_api_test:%d: FAILED: %s\n", __LINE__, #condition); \
            failures += 1;                                                          \
        }                                                                           \
    } while (0)

/* Writes `size` bytes of `path` to `copy`, to make a truncated model. */
static int copy_prefix(const char *path, const char *copy, long size) {
    FILE *in = fopen(path, "rb");
    FILE *out = fopen(copy, "wb");
    if (in == NULL || out == NULL) {
        if (in) fclose(in);
        if (out) fclose(out);
        return 0;
    }
    char buffer[65536];
    long left = size;
    while (left > 0) {
        size_t got = fread(buffer, 1, left < (long)sizeof buffer ? (size_t)left : sizeof buffer, in);
        if (got == 0) break;
        fwrite(buffer, 1, got, out);
        left -= (long)got;
    }
    fclose(in);
    fclose(out);
    return left == 0;
}

/* With the test models (argv[1] = build/test-models): structural load checks, the reserved
 * ticket that a stop reaches before start begins, and an error's own finish reason. */
static void with_models(const char *directory) {
    char error[512];
    char tiny[1024], unknown[1024], truncated[1024];
    snprintf(tiny, sizeof tiny, "%s/tiny.gguf", directory);
    snprintf(unknown, sizeof unknown, "%s/unknown-architecture.gguf", directory);
    snprintf(truncated, sizeof truncated, "%s/truncated-c-api-test.gguf", directory);

    ilotoki_llm *llm = NULL;
    EXPECT(ilotoki_llm_load(unknown, NULL, &llm, error, sizeof error) == ILOTOKI_LLM_ERROR_UNSUPPORTED_MODEL);
    EXPECT(strstr(error, "ilotoki-unknown-architecture") != NULL);
    EXPECT(ilotoki_llm_check_model(unknown, error, sizeof error) == ILOTOKI_LLM_ERROR_UNSUPPORTED_MODEL);
    EXPECT(ilotoki_llm_check_model(tiny, error, sizeof error) == ILOTOKI_LLM_OK);

    /* Half a file: the header reads, the weights are cut short. */
    FILE *file = fopen(tiny, "rb");
    EXPECT(file != NULL);
    if (file == NULL) return;
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fclose(file);
    EXPECT(copy_prefix(tiny, truncated, size / 2));
    EXPECT(ilotoki_llm_load(truncated, NULL, &llm, error, sizeof error) == ILOTOKI_LLM_ERROR_CORRUPT_MODEL);
    EXPECT(strstr(error, "truncated") != NULL);
    EXPECT(ilotoki_llm_check_model(truncated, error, sizeof error) == ILOTOKI_LLM_ERROR_CORRUPT_MODEL);
    /* A header cut in the middle. */
    EXPECT(copy_prefix(tiny, truncated, 64));
    EXPECT(ilotoki_llm_load(truncated, NULL, &llm, error, sizeof error) == ILOTOKI_LLM_ERROR_CORRUPT_MODEL);
    remove(truncated);

    EXPECT(ilotoki_llm_load(tiny, NULL, &llm, error, sizeof error) == ILOTOKI_LLM_OK);
    if (llm == NULL) return;

    /* A stop that comes after the ticket was reserved but before start began ends that
     * translation, with no work and no piece. */
    ilotoki_llm_start_params start = ilotoki_llm_default_start_params();
    start.ticket = ilotoki_llm_reserve_ticket(llm);
    EXPECT(start.ticket != 0);
    ilotoki_llm_stop(llm);
    EXPECT(ilotoki_llm_start(llm, "Toki Pona: mi moku\nEnglish:", &start, error, sizeof error) == ILOTOKI_LLM_OK);
    const char *piece = NULL;
    size_t length = 0;
    EXPECT(ilotoki_llm_next(llm, &piece, &length, error, sizeof error) == ILOTOKI_LLM_DONE);
    ilotoki_llm_stats stats;
    EXPECT(ilotoki_llm_get_stats(llm, &stats) == ILOTOKI_LLM_OK);
    EXPECT(stats.finish_reason == ILOTOKI_LLM_FINISH_STOPPED);
    EXPECT(stats.prefill_ms == 0 && stats.generated_tokens == 0);

    /* That stop does not reach the next translation. */
    start = ilotoki_llm_default_start_params();
    start.max_tokens = 4;
    EXPECT(ilotoki_llm_start(llm, "Toki Pona: mi moku\nEnglish:", &start, error, sizeof error) == ILOTOKI_LLM_OK);
    int pieces = 0;
    ilotoki_llm_status status;
    while ((status = ilotoki_llm_next(llm, &piece, &length, error, sizeof error)) == ILOTOKI_LLM_OK) pieces += 1;
    EXPECT(status == ILOTOKI_LLM_DONE);
    EXPECT(ilotoki_llm_get_stats(llm, &stats) == ILOTOKI_LLM_OK);
    EXPECT(stats.finish_reason != ILOTOKI_LLM_FINISH_STOPPED);
    EXPECT(stats.generated_tokens > 0);
    /* The context is sized to the translation: a short prompt and 4 tokens fit the first one. */
    EXPECT(stats.context_length == 512);
    ilotoki_llm_model_info info;
    EXPECT(ilotoki_llm_get_model_info(llm, &info) == ILOTOKI_LLM_OK && info.context_length == 2048);

    /* request_stop returns at once and ends the reserved translation the same way. */
    start = ilotoki_llm_default_start_params();
    start.ticket = ilotoki_llm_reserve_ticket(llm);
    ilotoki_llm_request_stop(llm);
    EXPECT(ilotoki_llm_start(llm, "Toki Pona: mi moku\nEnglish:", &start, error, sizeof error) == ILOTOKI_LLM_OK);
    EXPECT(ilotoki_llm_next(llm, &piece, &length, error, sizeof error) == ILOTOKI_LLM_DONE);
    EXPECT(ilotoki_llm_get_stats(llm, &stats) == ILOTOKI_LLM_OK && stats.finish_reason == ILOTOKI_LLM_FINISH_STOPPED);

    /* Residency: the fraction of the file in memory, paging it out, and the restore before a
     * translation that brings it back (what a phone's system takes while the app is away). */
    const double resident = ilotoki_llm_resident_fraction(llm);
    EXPECT(resident > 0.0 && resident <= 1.0);
    EXPECT(ilotoki_llm_resident_fraction(NULL) < 0);
    char how[64];
    if (ilotoki_llm_evict(llm, how, sizeof how) == ILOTOKI_LLM_OK) {
        EXPECT(strlen(how) > 0);
        EXPECT(ilotoki_llm_resident_fraction(llm) < resident);
        start = ilotoki_llm_default_start_params();
        start.max_tokens = 2;
        EXPECT(start.restore_residency);
        EXPECT(ilotoki_llm_start(llm, "Toki Pona: mi moku\nEnglish:", &start, error, sizeof error) == ILOTOKI_LLM_OK);
        while (ilotoki_llm_next(llm, &piece, &length, error, sizeof error) == ILOTOKI_LLM_OK) {
        }
        EXPECT(ilotoki_llm_get_stats(llm, &stats) == ILOTOKI_LLM_OK);
        EXPECT(stats.resident_fraction < resident);
        EXPECT(stats.restored_bytes > 0);
        EXPECT(stats.restore_page_faults >= 0 && stats.restore_page_faults <= stats.major_page_faults);
        EXPECT(ilotoki_llm_resident_fraction(llm) > 0.98);
    } else {
        fprintf(stderr, "c_api_test: paging out is not possible here (%s); the restore is not exercised\n", how);
    }

    /* Prompts added to a running batch and given up: only while it runs, only what fits. */
    int32_t added = -1;
    EXPECT(ilotoki_llm_drop_from_batch(NULL, 0, error, sizeof error) == ILOTOKI_LLM_ERROR_INVALID_ARGUMENT);
    EXPECT(ilotoki_llm_set_memory_pressure(NULL, true, error, sizeof error) == ILOTOKI_LLM_ERROR_INVALID_ARGUMENT);
    EXPECT(ilotoki_llm_set_memory_pressure(llm, false, error, sizeof error) == ILOTOKI_LLM_OK);
    EXPECT(ilotoki_llm_add_to_batch(llm, "Toki Pona: mi moku\nEnglish:", 0, true, NULL, error, sizeof error) == ILOTOKI_LLM_ERROR_INVALID_ARGUMENT);
    const char *first_prompts[] = {"Toki Pona: mi moku\nEnglish:"};
    start = ilotoki_llm_default_start_params();
    start.max_tokens = 8;
    EXPECT(ilotoki_llm_start_batch(llm, first_prompts, 1, NULL, 4, &start, error, sizeof error) == ILOTOKI_LLM_OK);
    EXPECT(ilotoki_llm_add_to_batch(llm, "Toki Pona: sina pona\nEnglish:", 0, true, &added, error, sizeof error) == ILOTOKI_LLM_OK);
    EXPECT(added == 1);
    /* Not text: added, and it ends with its error when the batch reaches it. */
    EXPECT(ilotoki_llm_add_to_batch(llm, "\xbf", 0, true, &added, error, sizeof error) == ILOTOKI_LLM_OK && added == 2);
    /* More room than the batch's sequences have (sized to a short prompt and 8 tokens). */
    char long_prompt[4096] = "Toki Pona:";
    for (int i = 0; i < 300; ++i) strcat(long_prompt, " mi");
    strcat(long_prompt, "\nEnglish:");
    EXPECT(ilotoki_llm_add_to_batch(llm, long_prompt, 0, true, &added, error, sizeof error) == ILOTOKI_LLM_ERROR_PROMPT_TOO_LONG);
    EXPECT(added == -1 && strstr(error, "batch") != NULL);
    EXPECT(ilotoki_llm_add_to_batch(llm, "Toki Pona: jan li lape\nEnglish:", 0, true, &added, error, sizeof error) == ILOTOKI_LLM_OK && added == 3);
    EXPECT(ilotoki_llm_drop_from_batch(llm, 3, error, sizeof error) == ILOTOKI_LLM_OK);
    EXPECT(ilotoki_llm_drop_from_batch(llm, 4, error, sizeof error) == ILOTOKI_LLM_ERROR_INVALID_ARGUMENT);
    int ended[4] = {0, 0, 0, 0};
    int32_t at = -1;
    int pieces_of_dropped = 0;
    while ((status = ilotoki_llm_next_batch(llm, &at, &piece, &length, error, sizeof error)) == ILOTOKI_LLM_OK ||
           status == ILOTOKI_LLM_SEQUENCE_DONE) {
        EXPECT(at >= 0 && at < 4);
        if (at < 0 || at >= 4) break;
        if (status == ILOTOKI_LLM_SEQUENCE_DONE) ended[at] += 1;
        else if (at == 3) pieces_of_dropped += 1;
    }
    EXPECT(status == ILOTOKI_LLM_DONE);
    EXPECT(ended[0] == 1 && ended[1] == 1 && ended[2] == 1 && ended[3] == 1);
    EXPECT(pieces_of_dropped == 0);
    EXPECT(ilotoki_llm_get_sequence_stats(llm, 1, &stats) == ILOTOKI_LLM_OK && stats.generated_tokens > 0);
    EXPECT(ilotoki_llm_get_sequence_stats(llm, 2, &stats) == ILOTOKI_LLM_OK && stats.finish_reason == ILOTOKI_LLM_FINISH_ERROR);
    EXPECT(ilotoki_llm_sequence_error(llm, 2, error, sizeof error) == ILOTOKI_LLM_ERROR_INVALID_TEXT);
    EXPECT(ilotoki_llm_get_sequence_stats(llm, 3, &stats) == ILOTOKI_LLM_OK && stats.finish_reason == ILOTOKI_LLM_FINISH_STOPPED);
    /* The batch has ended: nothing joins it any more. */
    EXPECT(ilotoki_llm_add_to_batch(llm, "Toki Pona: mi moku\nEnglish:", 0, true, &added, error, sizeof error) == ILOTOKI_LLM_ERROR_NOT_STARTED);

    /* A stop sequence that is not UTF-8 text is refused: it could cut a character in two. */
    const char *bad_stops[] = {"\n", "\xbf"};
    start = ilotoki_llm_default_start_params();
    start.stop_sequences = bad_stops;
    start.stop_sequence_count = 2;
    EXPECT(ilotoki_llm_start(llm, "Toki Pona: mi moku\nEnglish:", &start, error, sizeof error) == ILOTOKI_LLM_ERROR_INVALID_TEXT);
    EXPECT(strstr(error, "Stop sequence 2") != NULL);
    ilotoki_llm_free(llm);
}

/* The trimmed head's rows come from the characters the caller names; without them,
 * llama.cpp's head computes every row. Needs the Gemma test model (the tiny one is a llama
 * graph, which keeps llama.cpp's head). */
static void trimmed_rows(const char *directory) {
    char error[512];
    char gemma[1024];
    snprintf(gemma, sizeof gemma, "%s/gemma-3-270m-q4_k_m.gguf", directory);
    ilotoki_llm *llm = NULL;
    ilotoki_llm_load_params load = ilotoki_llm_default_load_params();
    load.threads = 2;
    EXPECT(ilotoki_llm_load(gemma, &load, &llm, error, sizeof error) == ILOTOKI_LLM_OK);
    if (llm == NULL) return;
    ilotoki_llm_model_info info;
    EXPECT(ilotoki_llm_get_model_info(llm, &info) == ILOTOKI_LLM_OK);
    EXPECT(info.trimmed_head);
    /* The check's kernel, and from how many states it serves checks (measured at load). */
    EXPECT(info.trimmed_head_kernel != NULL && strlen(info.trimmed_head_kernel) > 0);
    if (strcmp(info.trimmed_head_kernel, "vec_dot") == 0) {
        EXPECT(info.trimmed_head_kernel_from_states == 0);
    } else {
        EXPECT(info.trimmed_head_kernel_from_states >= 1 && info.trimmed_head_kernel_from_states <= 8);
    }
    const char *prompt = "Translate into English: mi moku e kili.\nEnglish:";
    const char *piece = NULL;
    size_t length = 0;
    ilotoki_llm_stats stats;

    ilotoki_llm_start_params start = ilotoki_llm_default_start_params();
    start.max_tokens = 4;
    EXPECT(start.head == ILOTOKI_LLM_HEAD_TRIMMED && start.output_characters == NULL && start.wider_characters == NULL);
    EXPECT(ilotoki_llm_start(llm, prompt, &start, error, sizeof error) == ILOTOKI_LLM_OK);
    while (ilotoki_llm_next(llm, &piece, &length, error, sizeof error) == ILOTOKI_LLM_OK) {
    }
    EXPECT(ilotoki_llm_get_stats(llm, &stats) == ILOTOKI_LLM_OK && stats.head_rows == info.vocabulary_size);

    /* Lowercase letters and a space, listed backwards and overlapping (the core sorts and
     * merges them), and an empty range, which holds nothing. */
    const ilotoki_llm_char_range letters[] = {{0x6E, 0x7A}, {0x61, 0x70}, {0x20, 0x20}, {0x7A, 0x61}};
    start.output_characters = letters;
    start.output_character_count = 4;
    EXPECT(ilotoki_llm_start(llm, prompt, &start, error, sizeof error) == ILOTOKI_LLM_OK);
    while (ilotoki_llm_next(llm, &piece, &length, error, sizeof error) == ILOTOKI_LLM_OK) {
    }
    EXPECT(ilotoki_llm_get_stats(llm, &stats) == ILOTOKI_LLM_OK);
    EXPECT(stats.head_rows > 0 && stats.head_rows < info.vocabulary_size / 2);
    const int32_t lowercase_rows = stats.head_rows;

    /* The same set written otherwise keeps the same rows. */
    const ilotoki_llm_char_range same[] = {{0x20, 0x20}, {0x61, 0x7A}};
    start.output_characters = same;
    start.output_character_count = 2;
    EXPECT(ilotoki_llm_start(llm, prompt, &start, error, sizeof error) == ILOTOKI_LLM_OK);
    while (ilotoki_llm_next(llm, &piece, &length, error, sizeof error) == ILOTOKI_LLM_OK) {
    }
    EXPECT(ilotoki_llm_get_stats(llm, &stats) == ILOTOKI_LLM_OK && (stats.head_widened || stats.head_rows == lowercase_rows));

    /* A set of nothing is no set: llama.cpp's head. */
    const ilotoki_llm_char_range nothing[] = {{0x7A, 0x61}};
    start.output_characters = nothing;
    start.output_character_count = 1;
    EXPECT(ilotoki_llm_start(llm, prompt, &start, error, sizeof error) == ILOTOKI_LLM_OK);
    while (ilotoki_llm_next(llm, &piece, &length, error, sizeof error) == ILOTOKI_LLM_OK) {
    }
    EXPECT(ilotoki_llm_get_stats(llm, &stats) == ILOTOKI_LLM_OK && stats.head_rows == info.vocabulary_size);
    ilotoki_llm_free(llm);
}

/* llama.cpp's own lines go to the file ilotoki_llm_set_log names, never to stderr, and the
 * first reason is quoted in the error; the file rotates at its bound. (The refusal of a
 * header with version 0 is one of gguf's log lines.) */
static void engine_log(void) {
    char directory[] = "/tmp/ilotoki-c-api-log-XXXXXX";
    if (mkdtemp(directory) == NULL) {
        EXPECT(0);
        return;
    }
    char model[256], log[256], rotated[256], error[512];
    snprintf(model, sizeof model, "%s/version-0.gguf", directory);
    snprintf(log, sizeof log, "%s/llama.log", directory);
    snprintf(rotated, sizeof rotated, "%s/llama.log.1", directory);
    FILE *file = fopen(model, "wb");
    EXPECT(file != NULL);
    if (file == NULL) return;
    const unsigned char header[24] = {'G', 'G', 'U', 'F', 0, 0, 0, 0};
    fwrite(header, 1, sizeof header, file);
    fclose(file);

    /* stderr is pointed at a file for the load, to see that nothing reaches it. */
    char captured[256];
    snprintf(captured, sizeof captured, "%s/stderr", directory);
    fflush(stderr);
    FILE *saved = fdopen(dup(2), "w");
    EXPECT(freopen(captured, "w", stderr) != NULL);
    ilotoki_llm_set_log(log, 0, 0);
    ilotoki_llm *llm = NULL;
    ilotoki_llm_status status = ilotoki_llm_load(model, NULL, &llm, error, sizeof error);
    fflush(stderr);
    dup2(fileno(saved), 2);
    fclose(saved);
    EXPECT(status == ILOTOKI_LLM_ERROR_CORRUPT_MODEL);
    EXPECT(strstr(error, "bad GGUF version: 0") != NULL);

    char text[4096] = {0};
    file = fopen(captured, "rb");
    size_t got = file != NULL ? fread(text, 1, sizeof text - 1, file) : 0;
    if (file != NULL) fclose(file);
    EXPECT(got == 0); /* not one llama.cpp line on stderr */

    memset(text, 0, sizeof text);
    file = fopen(log, "rb");
    EXPECT(file != NULL);
    got = file != NULL ? fread(text, 1, sizeof text - 1, file) : 0;
    if (file != NULL) fclose(file);
    EXPECT(strstr(text, "gguf_init_from_reader: bad GGUF version: 0") != NULL);
    EXPECT(got > 21 && text[4] == '-' && text[19] == 'Z'); /* "2026-12-05T06:50:00Z …" */

    /* A bound smaller than two lines: the second load moves the first's lines to .1. */
    ilotoki_llm_set_log(log, (uint64_t)got + 8, 0);
    status = ilotoki_llm_load(model, NULL, &llm, error, sizeof error);
    EXPECT(status == ILOTOKI_LLM_ERROR_CORRUPT_MODEL);
    file = fopen(rotated, "rb");
    EXPECT(file != NULL);
    if (file != NULL) fclose(file);

    ilotoki_llm_set_log(NULL, 0, 0);
    remove(model);
    remove(log);
    remove(rotated);
    remove(captured);
    rmdir(directory);
}

int main(int argc, char **argv) {
    char error[512];
    ilotoki_llm *llm = (ilotoki_llm *)1;

    ilotoki_llm_status status = ilotoki_llm_load("/nonexistent/model.gguf", NULL, &llm, error, sizeof error);
    EXPECT(status == ILOTOKI_LLM_ERROR_FILE_NOT_FOUND);
    EXPECT(llm == NULL);
    EXPECT(strstr(error, "/nonexistent/model.gguf") != NULL);

    status = ilotoki_llm_load("/", NULL, &llm, error, sizeof error);
    EXPECT(status == ILOTOKI_LLM_ERROR_NOT_A_FILE);

    status = ilotoki_llm_load(NULL, NULL, &llm, error, sizeof error);
    EXPECT(status == ILOTOKI_LLM_ERROR_INVALID_ARGUMENT);

    /* A tiny error buffer is truncated, never overrun. */
    char tiny[8];
    memset(tiny, 'x', sizeof tiny);
    status = ilotoki_llm_load("/nonexistent/model.gguf", NULL, &llm, tiny, sizeof tiny);
    EXPECT(status == ILOTOKI_LLM_ERROR_FILE_NOT_FOUND);
    EXPECT(tiny[7] == '\0');

    const char *piece = NULL;
    size_t length = 0;
    EXPECT(ilotoki_llm_next(NULL, &piece, &length, error, sizeof error) == ILOTOKI_LLM_ERROR_INVALID_ARGUMENT);
    EXPECT(ilotoki_llm_start(NULL, "x", NULL, error, sizeof error) == ILOTOKI_LLM_ERROR_INVALID_ARGUMENT);
    ilotoki_llm_stop(NULL);
    ilotoki_llm_free(NULL);

    ilotoki_llm_load_params load = ilotoki_llm_default_load_params();
    EXPECT(load.context_length == 0 && load.threads == 0);
    ilotoki_llm_start_params start = ilotoki_llm_default_start_params();
    EXPECT(start.max_tokens == 512 && start.selection == ILOTOKI_LLM_SELECT_ARGMAX);
    EXPECT(ilotoki_llm_performance_core_count() >= 1);
    EXPECT(strlen(ilotoki_llm_backend_version()) > 0);
    EXPECT(strcmp(ilotoki_llm_status_name(ILOTOKI_LLM_ERROR_NOT_GGUF), "not a GGUF file") == 0);
    EXPECT(ilotoki_llm_reserve_ticket(NULL) == 0);
    ilotoki_llm_request_stop(NULL);
    EXPECT(ilotoki_llm_check_model(NULL, error, sizeof error) == ILOTOKI_LLM_ERROR_INVALID_ARGUMENT);
    EXPECT(ilotoki_llm_check_model("/nonexistent/model.gguf", error, sizeof error) == ILOTOKI_LLM_ERROR_FILE_NOT_FOUND);

    engine_log();

    if (argc > 1) {
        with_models(argv[1]);
        trimmed_rows(argv[1]);
    }

    if (failures > 0) {
        fprintf(stderr, "c_api_test: %d failure(s)\n", failures);
        return EXIT_FAILURE;
    }
    printf("c_api_test: all passed\n");
    return EXIT_SUCCESS;
}
