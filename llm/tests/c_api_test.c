/* Compiles ilotoki_llm.h as plain C99 and checks the error paths through the C ABI:
 * every failure is a status code plus a message, never a crash. Run by scripts/test.sh. */
#include "ilotoki_llm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

#define EXPECT(condition)                                                           \
    do {                                                                            \
        if (!(condition)) {                                                         \
            fprintf(stderr, "c_api_test:%d: FAILED: %s\n", __LINE__, #condition); \
            failures += 1;                                                          \
        }                                                                           \
    } while (0)

int main(void) {
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

    if (failures > 0) {
        fprintf(stderr, "c_api_test: %d failure(s)\n", failures);
        return EXIT_FAILURE;
    }
    printf("c_api_test: all passed\n");
    return EXIT_SUCCESS;
}
