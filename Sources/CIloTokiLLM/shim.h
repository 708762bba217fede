#include "../../llm/include/ilotoki_llm.h"
