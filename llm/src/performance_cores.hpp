#pragma once

#include <string>

namespace ilotoki {

/// See `ilotoki_llm_performance_core_count_in` in ilotoki_llm.h.
int performance_core_count(const std::string &sysfs_root, int allowed_cpus);

} // namespace ilotoki
