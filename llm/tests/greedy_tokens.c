/*
 * greedy_tokens MODEL.gguf MAX_TOKENS PROMPT...
 *
 * Prints, one line per prompt, the token ids the inference core chooses greedily for each
 * prompt (BOS added, as in translation; no stop sequences, no line limit; ends at the model's
 * end-of-generation token or after MAX_TOKENS). The model pipeline's test compares them with
 * transformers (scripts/test-model-pipeline.sh).
 */
#include "ilotoki_llm.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: greedy_tokens MODEL.gguf MAX_TOKENS PROMPT...\n");
        return 2;
    }
    char error[512];
    ilotoki_llm_load_params load = ilotoki_llm_default_load_params();
    load.threads = 1;
    ilotoki_llm *llm = NULL;
    if (ilotoki_llm_load(argv[1], &load, &llm, error, sizeof error) != ILOTOKI_LLM_OK) {
        fprintf(stderr, "greedy_tokens: %s\n", error);
        return 1;
    }
    ilotoki_llm_start_params start = ilotoki_llm_default_start_params();
    start.max_tokens = atoi(argv[2]);
    int status = 0;
    for (int i = 3; i < argc && status == 0; ++i) {
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
    }
    ilotoki_llm_free(llm);
    return status;
}
