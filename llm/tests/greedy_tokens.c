/*
 * greedy_tokens [--head full|trimmed] [--to LANGUAGE] [--threads N] [--batch N] [--flash-attention -1|0|1] MODEL.gguf MAX_TOKENS PROMPT...
 *
 * Prints, one line per prompt, the token ids the inference core chooses greedily for each
 * prompt (BOS added, as in translation; no stop sequences, no line limit; ends at the model's
 * end-of-generation token or after MAX_TOKENS). The model pipeline's test compares them with
 * transformers (scripts/test-model-pipeline.sh). The head is the default (trimmed where the
 * model allows it, for all four languages' rows) unless --head and --to say otherwise; the
 * trimmed head's checks and rollbacks go to stderr, one line per prompt. With --batch N the
 * prompts are one batch (ilotoki_llm_start_batch), N decoded at once, and the lines are in
 * the prompts' order all the same: they must equal the lines without it.
 */
#include "ilotoki_llm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    ilotoki_llm_start_params start = ilotoki_llm_default_start_params();
    ilotoki_llm_load_params load = ilotoki_llm_default_load_params();
    load.threads = 1;
    int first = 1;
    int batch = 0;
    while (first + 1 < argc && strncmp(argv[first], "--", 2) == 0) {
        if (strcmp(argv[first], "--head") == 0) {
            start.head = strcmp(argv[first + 1], "full") == 0 ? ILOTOKI_LLM_HEAD_FULL : ILOTOKI_LLM_HEAD_TRIMMED;
        } else if (strcmp(argv[first], "--to") == 0) {
            start.target_language = argv[first + 1];
        } else if (strcmp(argv[first], "--flash-attention") == 0) {
            load.flash_attention = atoi(argv[first + 1]);
        } else if (strcmp(argv[first], "--batch") == 0) {
            batch = atoi(argv[first + 1]);
        } else if (strcmp(argv[first], "--threads") == 0) {
            load.threads = atoi(argv[first + 1]);
        } else {
            break;
        }
        first += 2;
    }
    if (argc - first < 3) {
        fprintf(stderr, "usage: greedy_tokens [--head full|trimmed] [--to LANGUAGE] [--threads N] MODEL.gguf MAX_TOKENS PROMPT...\n");
        return 2;
    }
    char error[512];
    ilotoki_llm *llm = NULL;
    if (ilotoki_llm_load(argv[first], &load, &llm, error, sizeof error) != ILOTOKI_LLM_OK) {
        fprintf(stderr, "greedy_tokens: %s\n", error);
        return 1;
    }
    start.max_tokens = atoi(argv[first + 1]);
    int status = 0;
    if (batch > 0) {
        const int count = argc - first - 2;
        if (ilotoki_llm_start_batch(llm, (const char *const *)&argv[first + 2], (size_t)count, NULL, batch, &start, error,
                                    sizeof error) != ILOTOKI_LLM_OK) {
            fprintf(stderr, "greedy_tokens: %s\n", error);
            ilotoki_llm_free(llm);
            return 1;
        }
        int32_t index = -1;
        const char *piece = NULL;
        size_t length = 0;
        ilotoki_llm_status step;
        while ((step = ilotoki_llm_next_batch(llm, &index, &piece, &length, error, sizeof error)) == ILOTOKI_LLM_OK ||
               step == ILOTOKI_LLM_SEQUENCE_DONE) {
        }
        if (step != ILOTOKI_LLM_DONE) {
            fprintf(stderr, "greedy_tokens: %s\n", error);
            status = 1;
        }
        for (int i = 0; i < count && status == 0; ++i) {
            int32_t tokens[4096];
            const int32_t got = ilotoki_llm_sequence_tokens(llm, i, tokens, 4096);
            for (int32_t t = 0; t < got && t < 4096; ++t) printf(t == 0 ? "%d" : " %d", tokens[t]);
            printf("\n");
        }
        ilotoki_llm_stats stats;
        ilotoki_llm_get_stats(llm, &stats);
        fprintf(stderr, "batch of %d: %d tokens decoded in %.1f ms (%.1f tok/s), prefill %.1f ms, first piece after %.1f ms\n", batch,
                stats.decoded_tokens, stats.decode_ms, stats.decode_ms > 0 ? stats.decoded_tokens * 1000.0 / stats.decode_ms : 0.0,
                stats.prefill_ms, stats.first_piece_ms);
        ilotoki_llm_free(llm);
        return status;
    }
    for (int i = first + 2; i < argc && status == 0; ++i) {
        if (ilotoki_llm_start(llm, argv[i], &start, error, sizeof error) != ILOTOKI_LLM_OK) {
            fprintf(stderr, "greedy_tokens: %s\n", error);
            status = 1;
            break;
        }
        const char *piece = NULL;
        size_t length = 0;
        ilotoki_llm_status step;
        while ((step = ilotoki_llm_next(llm, &piece, &length, error, sizeof error)) == ILOTOKI_LLM_OK) {
        }
        if (step != ILOTOKI_LLM_DONE) {
            fprintf(stderr, "greedy_tokens: %s\n", error);
            status = 1;
            break;
        }
        int32_t tokens[4096];
        int32_t count = ilotoki_llm_generated_tokens(llm, tokens, 4096);
        for (int32_t t = 0; t < count && t < 4096; ++t) printf(t == 0 ? "%d" : " %d", tokens[t]);
        printf("\n");
        ilotoki_llm_stats stats;
        ilotoki_llm_get_stats(llm, &stats);
        fprintf(stderr, "rows %d checks %d rollbacks %d full-head steps %d%s\n", stats.head_rows, stats.head_checks,
                stats.head_rollbacks, stats.head_full_steps, stats.head_fell_back ? " fell back" : "");
    }
    ilotoki_llm_free(llm);
    return status;
}
