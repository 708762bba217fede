/*
 * greedy_tokens [--head full|trimmed] [--characters RANGES [--wider RANGES]] [--threads N] [--batch N]
 *               [--join K] [--drop I] [--outside I,J…] [--pressure-at K [--relief-after N]]
 *               [--flash-attention -1|0|1] [--prefix reuse|fresh]
 *               MODEL.gguf MAX_TOKENS PROMPT...
 *
 * Prints, one line per prompt, the token ids the inference library chooses greedily for each
 * prompt (BOS added, as in translation; no stop sequences, no line limit; ends at the model's
 * end-of-generation token or after MAX_TOKENS). The model pipeline's test compares them with
 * transformers (scripts/test-model-pipeline.sh). The head is trimmed where the model allows
 * it to the rows of --characters (and widens to --wider), or llama.cpp's without them or with
 * --head full. RANGES are code points in hex, "20-7E,400-4FF,2010": the callers' test data
 * (the app's languages' table is IloTokiCore's). The trimmed head's checks and rollbacks go
 * to stderr, one line per prompt. With --batch N the
 * prompts are one batch (ilotoki_llm_start_batch), N decoded at once, and the lines are in
 * the prompts' order all the same: they must equal the lines without it. --prefix fresh
 * evaluates every prompt whole (reuse: from the cached cells of a beginning an earlier prompt
 * shared, the default); the tokens must not change. --join K starts the batch with the first K
 * prompts and adds each of the others while it runs (ilotoki_llm_add_to_batch), one after every
 * second event, as a server adds the requests that come; --drop I gives prompt I up after its
 * first event (ilotoki_llm_drop_from_batch) and prints "dropped" for it: the other lines must
 * not change. --outside I,J… marks those prompts' answers as written outside --characters (a
 * batch into several languages, as a server's: no step they take part in uses the trimmed head).
 * --pressure-at K says the device is short of memory (ilotoki_llm_set_memory_pressure) after
 * the first prompt's Kth piece: the lines must not change, and after each prompt stderr says
 * whether the checks stream ("checks streamed") or not; --relief-after N says it has memory
 * again once the Nth prompt has ended (from 1).
 */
#include "ilotoki_llm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MOST_RANGES 64

/* Reads "20-7E,400-4FF,2010" into `ranges`; returns how many, or -1 for a mistake. */
static int parse_ranges(const char *text, ilotoki_llm_char_range *ranges) {
    int count = 0;
    const char *at = text;
    while (*at != '\0') {
        if (count == MOST_RANGES) return -1;
        char *end = NULL;
        const unsigned long first = strtoul(at, &end, 16);
        if (end == at) return -1;
        unsigned long last = first;
        if (*end == '-') {
            const char *from = end + 1;
            last = strtoul(from, &end, 16);
            if (end == from) return -1;
        }
        ranges[count].first = (uint32_t)first;
        ranges[count].last = (uint32_t)last;
        count += 1;
        if (*end == ',') end += 1;
        else if (*end != '\0') return -1;
        at = end;
    }
    return count;
}

int main(int argc, char **argv) {
    ilotoki_llm_start_params start = ilotoki_llm_default_start_params();
    ilotoki_llm_load_params load = ilotoki_llm_default_load_params();
    load.threads = 1;
    int first = 1;
    int batch = 0;
    int join = -1;
    int drop = -1;
    const char *outside = "";
    int pressure_at = 0;
    int relief_after = 0;
    ilotoki_llm_char_range kept[MOST_RANGES], wider[MOST_RANGES];
    while (first + 1 < argc && strncmp(argv[first], "--", 2) == 0) {
        if (strcmp(argv[first], "--head") == 0) {
            start.head = strcmp(argv[first + 1], "full") == 0 ? ILOTOKI_LLM_HEAD_FULL : ILOTOKI_LLM_HEAD_TRIMMED;
        } else if (strcmp(argv[first], "--characters") == 0 || strcmp(argv[first], "--wider") == 0) {
            const int is_kept = strcmp(argv[first], "--characters") == 0;
            const int count = parse_ranges(argv[first + 1], is_kept ? kept : wider);
            if (count < 0) {
                fprintf(stderr, "greedy_tokens: %s takes ranges such as 20-7E,400-4FF (at most %d)\n", argv[first], MOST_RANGES);
                return 2;
            }
            if (is_kept) {
                start.output_characters = kept;
                start.output_character_count = (size_t)count;
            } else {
                start.wider_characters = wider;
                start.wider_character_count = (size_t)count;
            }
        } else if (strcmp(argv[first], "--flash-attention") == 0) {
            load.flash_attention = atoi(argv[first + 1]);
        } else if (strcmp(argv[first], "--prefix") == 0) {
            start.reuse_prefix = strcmp(argv[first + 1], "fresh") != 0;
        } else if (strcmp(argv[first], "--batch") == 0) {
            batch = atoi(argv[first + 1]);
        } else if (strcmp(argv[first], "--join") == 0) {
            join = atoi(argv[first + 1]);
        } else if (strcmp(argv[first], "--drop") == 0) {
            drop = atoi(argv[first + 1]);
        } else if (strcmp(argv[first], "--relief-after") == 0) {
            relief_after = atoi(argv[first + 1]);
        } else if (strcmp(argv[first], "--pressure-at") == 0) {
            pressure_at = atoi(argv[first + 1]);
        } else if (strcmp(argv[first], "--outside") == 0) {
            outside = argv[first + 1];
        } else if (strcmp(argv[first], "--threads") == 0) {
            load.threads = atoi(argv[first + 1]);
        } else {
            break;
        }
        first += 2;
    }
    if (argc - first < 3) {
        fprintf(stderr, "usage: greedy_tokens [--head full|trimmed] [--characters RANGES [--wider RANGES]] [--threads N] [--batch N] [--join K] [--drop I] "
                        "[--outside I,J] [--pressure-at K [--relief-after N]] [--prefix reuse|fresh] MODEL.gguf MAX_TOKENS PROMPT...\n");
        return 2;
    }
    char error[512];
    ilotoki_llm *llm = NULL;
    if (ilotoki_llm_load(argv[first], &load, &llm, error, sizeof error) != ILOTOKI_LLM_OK) {
        fprintf(stderr, "greedy_tokens: %s\n", error);
        return 1;
    }
    ilotoki_llm_model_info info;
    if (ilotoki_llm_get_model_info(llm, &info) == ILOTOKI_LLM_OK && info.trimmed_head_check_streams[0] != '\0') {
        fprintf(stderr, "checks stream the excluded rows: %s\n", info.trimmed_head_check_streams);
    }
    start.max_tokens = atoi(argv[first + 1]);
    int status = 0;
    if (batch > 0) {
        const int count = argc - first - 2;
        const int started = join > 0 && join < count ? join : count;
        if (join > 0) start.joinable_room = 256;
        /* Which prompts' answers are written in --characters: all but those --outside names. */
        bool *written_in = malloc((size_t)count * sizeof *written_in);
        for (int i = 0; i < count; ++i) written_in[i] = true;
        for (const char *at = outside; *at != '\0';) {
            char *end = NULL;
            const long index = strtol(at, &end, 10);
            if (end == at || index < 0 || index >= count) {
                fprintf(stderr, "greedy_tokens: --outside takes prompt indices such as 0,3\n");
                free(written_in);
                ilotoki_llm_free(llm);
                return 2;
            }
            written_in[index] = false;
            at = *end == ',' ? end + 1 : end;
        }
        start.written_in_output_characters = written_in;
        if (ilotoki_llm_start_batch(llm, (const char *const *)&argv[first + 2], (size_t)started, NULL, batch, &start, error,
                                    sizeof error) != ILOTOKI_LLM_OK) {
            fprintf(stderr, "greedy_tokens: %s\n", error);
            ilotoki_llm_free(llm);
            return 1;
        }
        /* Each prompt's tokens, taken when it ends (an added prompt's index is its place here). */
        char **lines = calloc((size_t)count, sizeof *lines);
        int added = started;
        int events = 0;
        int32_t index = -1;
        const char *piece = NULL;
        size_t length = 0;
        ilotoki_llm_status step;
        while ((step = ilotoki_llm_next_batch(llm, &index, &piece, &length, error, sizeof error)) == ILOTOKI_LLM_OK ||
               step == ILOTOKI_LLM_SEQUENCE_DONE) {
            if (step == ILOTOKI_LLM_SEQUENCE_DONE && index >= 0 && index < count && lines[index] == NULL) {
                int32_t tokens[4096];
                const int32_t got = ilotoki_llm_sequence_tokens(llm, index, tokens, 4096);
                char *line = calloc(4096 * 8 + 16, 1);
                size_t at = 0;
                if (index == drop) at += (size_t)sprintf(line, "dropped");
                for (int32_t t = 0; index != drop && t < got && t < 4096; ++t) at += (size_t)sprintf(line + at, t == 0 ? "%d" : " %d", tokens[t]);
                lines[index] = line;
            } else if (step == ILOTOKI_LLM_OK && index == drop &&
                       ilotoki_llm_drop_from_batch(llm, drop, error, sizeof error) != ILOTOKI_LLM_OK) {
                fprintf(stderr, "greedy_tokens: %s\n", error);
                status = 1;
                break;
            }
            events += 1;
            if (added < count && events % 2 == 0) {
                int32_t at = -1;
                if (ilotoki_llm_add_to_batch(llm, argv[first + 2 + added], 0, written_in[added], &at, error, sizeof error) != ILOTOKI_LLM_OK || at != added) {
                    fprintf(stderr, "greedy_tokens: prompt %d not added (index %d): %s\n", added, at, error);
                    status = 1;
                    break;
                }
                added += 1;
            }
        }
        if (status == 0 && step != ILOTOKI_LLM_DONE) {
            fprintf(stderr, "greedy_tokens: %s\n", error);
            status = 1;
        }
        if (status == 0 && added < count) {
            fprintf(stderr, "greedy_tokens: the batch ended before prompt %d was added\n", added);
            status = 1;
        }
        for (int i = 0; i < count; ++i) {
            if (status == 0) printf("%s\n", lines[i] != NULL ? lines[i] : "(no end reported)");
            free(lines[i]);
        }
        free(lines);
        free(written_in);
        ilotoki_llm_stats stats;
        ilotoki_llm_get_stats(llm, &stats);
        fprintf(stderr,
                "batch of %d: %d tokens decoded in %.1f ms (%.1f tok/s), prefill %.1f ms (%d of %d prompt tokens reused, cache "
                "%.0f KiB), first piece after %.1f ms\n",
                batch, stats.decoded_tokens, stats.decode_ms, stats.decode_ms > 0 ? stats.decoded_tokens * 1000.0 / stats.decode_ms : 0.0,
                stats.prefill_ms, stats.reused_prompt_tokens, stats.prompt_tokens, (double)stats.prefix_cache_bytes / 1024.0,
                stats.first_piece_ms);
        fprintf(stderr, "head: %d rows, %d checks, %d rollbacks, %d full-head steps, %d exact choices%s%s\n", stats.head_rows,
                stats.head_checks, stats.head_rollbacks, stats.head_full_steps, stats.head_exact_choices, stats.head_widened ? ", widened" : "",
                stats.head_fell_back ? ", fell back" : "");
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
        int pieces = 0;
        while ((step = ilotoki_llm_next(llm, &piece, &length, error, sizeof error)) == ILOTOKI_LLM_OK) {
            /* The device says it is short of memory in the middle of the first translation. */
            if (i == first + 2 && ++pieces == pressure_at &&
                ilotoki_llm_set_memory_pressure(llm, true, error, sizeof error) != ILOTOKI_LLM_OK) {
                fprintf(stderr, "greedy_tokens: %s\n", error);
                status = 1;
                break;
            }
        }
        if (status != 0) break;
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
        fprintf(stderr,
                "rows %d checks %d rollbacks %d full-head steps %d%s, %d of %d prompt tokens reused (cache %.0f KiB), prefill %.1f ms, "
                "exact choices %d, sketched checks %d reading %lld rows\n",
                stats.head_rows, stats.head_checks, stats.head_rollbacks, stats.head_full_steps,
                stats.head_fell_back ? " fell back" : "", stats.reused_prompt_tokens, stats.prompt_tokens,
                (double)stats.prefix_cache_bytes / 1024.0, stats.prefill_ms, stats.head_exact_choices, stats.head_sketched_checks,
                (long long)stats.head_rows_read_exactly);
        if (ilotoki_llm_get_model_info(llm, &info) == ILOTOKI_LLM_OK) {
            fprintf(stderr, "checks %s\n", info.trimmed_head_check_streams[0] != '\0' ? "streamed" : "through the mapping");
        }
        /* The device has memory again once prompt N has ended. */
        if (i - first - 2 + 1 == relief_after && ilotoki_llm_set_memory_pressure(llm, false, error, sizeof error) != ILOTOKI_LLM_OK) {
            fprintf(stderr, "greedy_tokens: %s\n", error);
            status = 1;
        }
    }
    ilotoki_llm_free(llm);
    return status;
}
