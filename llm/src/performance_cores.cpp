// performance_core_count: how many threads decode fastest on this device.
#include "performance_cores.hpp"

#include <unistd.h>
#if defined(__APPLE__)
#include <sys/sysctl.h>
#else
#include <sched.h>
#endif

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace ilotoki {
namespace {

constexpr int kMaxThreads = 8;
// Frequencies within this ratio of a group's slowest member belong to the group: x86
// "favoured cores" differ by a few per cent and are not a slower cluster.
constexpr double kSameGroupRatio = 1.10;

#if !defined(__APPLE__)
bool read_line(const std::string &path, std::string &line) {
    std::ifstream file(path);
    if (!file) return false;
    std::getline(file, line);
    return true;
}

/// Parses a kernel CPU list such as "0-3,6,8-9".
std::vector<int> parse_cpu_list(const std::string &text) {
    std::vector<int> cpus;
    std::stringstream stream(text);
    std::string part;
    while (std::getline(stream, part, ',')) {
        if (part.empty()) continue;
        const auto dash = part.find('-');
        char *end = nullptr;
        const long first = std::strtol(part.c_str(), &end, 10);
        if (end == part.c_str()) continue;
        long last = first;
        if (dash != std::string::npos) last = std::strtol(part.c_str() + dash + 1, nullptr, 10);
        for (long cpu = first; cpu <= last && cpu - first < 4096; ++cpu) cpus.push_back(static_cast<int>(cpu));
    }
    return cpus;
}

int allowed_cpu_count() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) == 0) return CPU_COUNT(&set);
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online > 0 ? static_cast<int>(online) : 1;
}

struct Cpu {
    int id;
    long max_frequency; // kHz; 0 when cpufreq does not say
    std::string core;   // identifies the physical core (its SMT sibling list)
};
#endif

} // namespace

#if defined(__APPLE__)
// Apple's chips name their fastest cluster perflevel0; Intel Macs have one level, so the
// physical core count is the answer there. There is no sysfs and no affinity mask.
int performance_core_count(const std::string & /*sysfs_root*/, int allowed_cpus) {
    int count = 0;
    size_t size = sizeof(count);
    if (sysctlbyname("hw.perflevel0.physicalcpu", &count, &size, nullptr, 0) != 0 || count <= 0) {
        size = sizeof(count);
        if (sysctlbyname("hw.physicalcpu", &count, &size, nullptr, 0) != 0 || count <= 0) count = 1;
    }
    count = std::min(count, kMaxThreads);
    if (allowed_cpus > 0) count = std::min(count, allowed_cpus);
    return std::max(count, 1);
}
#else
int performance_core_count(const std::string &sysfs_root, int allowed_cpus) {
    if (allowed_cpus <= 0) allowed_cpus = allowed_cpu_count();
    const std::string cpu_dir = sysfs_root + "/devices/system/cpu/";

    std::string online_text;
    std::vector<int> online;
    if (read_line(cpu_dir + "online", online_text)) online = parse_cpu_list(online_text);
    if (online.empty()) {
        const long count = sysconf(_SC_NPROCESSORS_ONLN);
        for (long cpu = 0; cpu < std::max(count, 1L); ++cpu) online.push_back(static_cast<int>(cpu));
    }

    std::vector<Cpu> cpus;
    bool every_cpu_has_frequency = true;
    for (const int id : online) {
        const std::string base = cpu_dir + "cpu" + std::to_string(id);
        Cpu cpu{id, 0, "cpu" + std::to_string(id)};
        std::string text;
        if (read_line(base + "/cpufreq/cpuinfo_max_freq", text)) cpu.max_frequency = std::strtol(text.c_str(), nullptr, 10);
        if (cpu.max_frequency <= 0) every_cpu_has_frequency = false;
        if (read_line(base + "/topology/thread_siblings_list", text) && !text.empty()) cpu.core = text;
        cpus.push_back(cpu);
    }

    // Group by frequency, slowest first; a group ends where a frequency is more than
    // kSameGroupRatio above the group's slowest member.
    std::vector<const Cpu *> chosen;
    if (every_cpu_has_frequency) {
        std::vector<long> frequencies;
        for (const auto &cpu : cpus) frequencies.push_back(cpu.max_frequency);
        std::sort(frequencies.begin(), frequencies.end());
        long slowest_group_floor = frequencies.front();
        long next_group_floor = 0;
        for (const long frequency : frequencies) {
            if (static_cast<double>(frequency) > static_cast<double>(slowest_group_floor) * kSameGroupRatio) {
                next_group_floor = frequency;
                break;
            }
        }
        for (const auto &cpu : cpus) {
            if (next_group_floor == 0 || cpu.max_frequency >= next_group_floor) chosen.push_back(&cpu);
        }
    } else {
        for (const auto &cpu : cpus) chosen.push_back(&cpu);
    }

    std::set<std::string> physical_cores;
    for (const auto *cpu : chosen) physical_cores.insert(cpu->core);
    int count = static_cast<int>(physical_cores.size());
    count = std::min({count, kMaxThreads, allowed_cpus});
    return std::max(count, 1);
}

#endif

} // namespace ilotoki
