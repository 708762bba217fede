#include "residency.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

namespace ilotoki {

namespace {

constexpr size_t kReadChunk = 4u << 20;
// Pages a residency check looks at before it looks at all of them.
constexpr size_t kSamples = 256;

double milliseconds_since(std::chrono::steady_clock::time_point from) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - from).count();
}

} // namespace

Residency::Residency(const std::string &path) {
    const long page = sysconf(_SC_PAGESIZE);
    if (page > 0) page_ = static_cast<size_t>(page);
    char resolved[PATH_MAX];
    real_path_ = realpath(path.c_str(), resolved) != nullptr ? std::string(resolved) : path;
    fd_ = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) return;
    struct stat info{};
    if (fstat(fd_, &info) != 0 || info.st_size <= 0) return;
    size_ = static_cast<uint64_t>(info.st_size);
    void *base = mmap(nullptr, size_, PROT_READ, MAP_SHARED, fd_, 0);
    if (base == MAP_FAILED) return;
    base_ = base;
    pages_.resize((size_ + page_ - 1) / page_);
}

Residency::~Residency() {
    if (base_ != nullptr) munmap(base_, size_);
    if (fd_ >= 0) close(fd_);
}

double Residency::resident_fraction() {
    if (base_ == nullptr || pages_.empty()) return 1.0;
#if defined(__APPLE__)
    if (mincore(base_, size_, reinterpret_cast<char *>(pages_.data())) != 0) return 1.0;
#else
    if (mincore(base_, size_, pages_.data()) != 0) return 1.0;
#endif
    size_t resident = 0, counted = 0;
    for (size_t page = 0; page < pages_.size(); ++page) {
        if (left_out(page)) continue;
        ++counted;
        resident += pages_[page] & 1;
    }
    return counted > 0 ? static_cast<double>(resident) / static_cast<double>(counted) : 1.0;
}

double Residency::sampled_fraction(size_t samples) {
    if (base_ == nullptr || pages_.empty()) return 1.0;
    const size_t stride = std::max<size_t>(1, pages_.size() / std::max<size_t>(samples, 1));
    if (stride == 1) return resident_fraction();
    size_t looked = 0, resident = 0;
    for (size_t page = 0; page < pages_.size(); page += stride) {
        if (left_out(page)) continue;
#if defined(__APPLE__)
        char state = 0;
#else
        unsigned char state = 0;
#endif
        if (mincore(static_cast<char *>(base_) + page * page_, page_, &state) != 0) return 1.0;
        ++looked;
        resident += static_cast<size_t>(state & 1);
    }
    return looked > 0 ? static_cast<double>(resident) / static_cast<double>(looked) : 1.0;
}

std::vector<Residency::Mapping> Residency::mappings() const {
    std::vector<Mapping> found;
    std::ifstream maps("/proc/self/maps");
    std::string line;
    while (std::getline(maps, line)) {
        const auto slash = line.find('/');
        if (slash == std::string::npos || line.compare(slash, std::string::npos, real_path_) != 0) continue;
        uintptr_t from = 0, to = 0;
        unsigned long long offset = 0;
        char permissions[8] = {};
        if (std::sscanf(line.c_str(), "%" SCNxPTR "-%" SCNxPTR " %7s %llx", &from, &to, permissions, &offset) != 4) continue;
        if (from == reinterpret_cast<uintptr_t>(base_)) continue; // this object's own
        found.push_back({from, to, static_cast<uint64_t>(offset)});
    }
    return found;
}

std::vector<std::pair<uint64_t, uint64_t>> Residency::missing_runs() {
    std::vector<std::pair<uint64_t, uint64_t>> runs;
    for (size_t i = 0; i < pages_.size();) {
        if ((pages_[i] & 1) || left_out(i)) {
            ++i;
            continue;
        }
        size_t end = i;
        while (end < pages_.size() && !(pages_[end] & 1) && !left_out(end)) ++end;
        const uint64_t offset = static_cast<uint64_t>(i) * page_;
        runs.emplace_back(offset, std::min<uint64_t>(static_cast<uint64_t>(end) * page_, size_) - offset);
        i = end;
    }
    return runs;
}

Residency::Restore Residency::restore(double threshold) {
    Restore result;
    if (base_ == nullptr) return result;
    const auto start = std::chrono::steady_clock::now();
    // Nearly always all of it is here: a sample says so without a lookup of every page.
    result.resident_before = sampled_fraction(kSamples);
    if (result.resident_before < threshold) result.resident_before = resident_fraction();
    if (result.resident_before >= threshold) {
        result.milliseconds = milliseconds_since(start);
        return result;
    }
    const auto runs = missing_runs();
    // Tell the kernel about every run first, so its readahead works ahead of the reads.
    for (const auto &[offset, length] : runs) {
#if defined(POSIX_FADV_WILLNEED)
        posix_fadvise(fd_, static_cast<off_t>(offset), static_cast<off_t>(length), POSIX_FADV_WILLNEED);
#else
        madvise(static_cast<char *>(base_) + offset, length, MADV_WILLNEED);
#endif
    }
#if defined(MADV_POPULATE_READ)
    // Where the kernel can (Linux 5.14), the pages are read straight into llama.cpp's own
    // mapping, page tables and all: no copy, and no fault at all afterwards.
    const auto mapped = mappings();
    bool populated = !mapped.empty();
    for (const auto &[offset, length] : runs) {
        uint64_t covered = 0;
        for (const Mapping &mapping : mapped) {
            const uint64_t from = std::max(offset, mapping.offset);
            const uint64_t to = std::min(offset + length, mapping.offset + (mapping.to - mapping.from));
            if (from >= to) continue;
            void *address = reinterpret_cast<void *>(mapping.from + (from - mapping.offset));
            if (madvise(address, to - from, MADV_POPULATE_READ) != 0) populated = false;
            covered += to - from;
        }
        if (covered < length) populated = false;
        if (!populated) break;
        result.bytes_read += length;
    }
    if (populated) {
        result.milliseconds = milliseconds_since(start);
        return result;
    }
    result.bytes_read = 0;
#endif
    std::vector<char> buffer(kReadChunk);
    for (const auto &[offset, length] : runs) {
        for (uint64_t done = 0; done < length;) {
            const size_t want = static_cast<size_t>(std::min<uint64_t>(kReadChunk, length - done));
            const ssize_t got = pread(fd_, buffer.data(), want, static_cast<off_t>(offset + done));
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0) break;
            done += static_cast<uint64_t>(got);
            result.bytes_read += static_cast<uint64_t>(got);
        }
    }
    result.milliseconds = milliseconds_since(start);
    return result;
}

std::string Residency::evict() {
    if (base_ == nullptr) return "";
    const double before = resident_fraction();
    // The file's mappings in this process (llama.cpp's; this object's own maps no page).
    std::vector<std::pair<uintptr_t, uintptr_t>> ranges;
    for (const Mapping &mapping : mappings()) ranges.emplace_back(mapping.from, mapping.to);
    std::string how;
#if defined(MADV_PAGEOUT)
    bool paged_out = !ranges.empty();
    for (const auto &[from, to] : ranges) {
        if (madvise(reinterpret_cast<void *>(from), to - from, MADV_PAGEOUT) != 0) paged_out = false;
    }
    if (paged_out && resident_fraction() < before) how = "MADV_PAGEOUT";
#endif
#if defined(MADV_COLD)
    if (how.empty() && !ranges.empty()) {
        for (const auto &[from, to] : ranges) madvise(reinterpret_cast<void *>(from), to - from, MADV_COLD);
        if (resident_fraction() < before) how = "MADV_COLD";
    }
#endif
#if defined(POSIX_FADV_DONTNEED)
    // Pages read back in large folios (MADV_POPULATE_READ) are not always split for
    // MADV_PAGEOUT. Unmapping them from llama.cpp's mapping first (MADV_DONTNEED: the mapping
    // is of a file opened read-only, so nothing is lost) leaves them to the page cache, which
    // drops them.
    if (how.empty() || resident_fraction() > 0.5) {
        bool unmapped = false;
        for (const auto &[from, to] : ranges) unmapped = madvise(reinterpret_cast<void *>(from), to - from, MADV_DONTNEED) == 0 || unmapped;
        posix_fadvise(fd_, 0, static_cast<off_t>(size_), POSIX_FADV_DONTNEED);
        if (resident_fraction() < before) how = unmapped ? "MADV_DONTNEED + POSIX_FADV_DONTNEED" : "POSIX_FADV_DONTNEED";
    }
#endif
    return how;
}

void Residency::leave_out(uint64_t offset, uint64_t length) {
    // Whole pages only: a page the range shares with the file's other bytes stays counted.
    left_out_first_ = static_cast<size_t>((offset + page_ - 1) / page_);
    left_out_end_ = std::max(left_out_first_, static_cast<size_t>(std::min<uint64_t>(offset + length, size_) / page_));
    left_out_active_ = true;
    advise_left_out(MADV_RANDOM);
}

void Residency::set_left_out(bool left) {
    if (left == left_out_active_ || left_out_first_ == left_out_end_) return;
    left_out_active_ = left;
    advise_left_out(left ? MADV_RANDOM : MADV_NORMAL);
    if (left) drop(static_cast<uint64_t>(left_out_first_) * page_, static_cast<uint64_t>(left_out_end_ - left_out_first_) * page_);
}

void Residency::advise_left_out(int advice) {
    const uint64_t from = static_cast<uint64_t>(left_out_first_) * page_;
    const uint64_t to = static_cast<uint64_t>(left_out_end_) * page_;
    for (const Mapping &mapping : mappings()) {
        const uint64_t first = std::max(from, mapping.offset);
        const uint64_t last = std::min(to, mapping.offset + (mapping.to - mapping.from));
        if (first < last) madvise(reinterpret_cast<void *>(mapping.from + (first - mapping.offset)), last - first, advice);
    }
}

void Residency::drop(uint64_t offset, uint64_t length) {
    if (fd_ < 0 || length == 0) return;
    const uint64_t from = (offset + page_ - 1) / page_ * page_;
    const uint64_t to = std::min<uint64_t>(offset + length, size_) / page_ * page_;
    if (from >= to) return;
    for (const Mapping &mapping : mappings()) {
        const uint64_t first = std::max(from, mapping.offset);
        const uint64_t last = std::min(to, mapping.offset + (mapping.to - mapping.from));
        if (first < last) madvise(reinterpret_cast<void *>(mapping.from + (first - mapping.offset)), last - first, MADV_DONTNEED);
    }
#if defined(POSIX_FADV_DONTNEED)
    posix_fadvise(fd_, static_cast<off_t>(from), static_cast<off_t>(to - from), POSIX_FADV_DONTNEED);
#endif
}

uint64_t memory_limit() {
    std::ifstream groups("/proc/self/cgroup");
    std::string line;
    uint64_t limit = 0;
    const auto read_limit = [&](const std::string &file) {
        std::ifstream in(file);
        std::string value;
        if (!(in >> value) || value == "max") return;
        char *end = nullptr;
        const unsigned long long bytes = std::strtoull(value.c_str(), &end, 10);
        // cgroup v1 writes "no limit" as the largest page-aligned 63-bit value.
        if (end == value.c_str() || bytes == 0 || bytes >= (1ull << 60)) return;
        if (limit == 0 || bytes < limit) limit = bytes;
    };
    while (std::getline(groups, line)) {
        // "0::/path" (v2) or "4:memory:/path" (v1).
        const auto first = line.find(':');
        const auto second = first == std::string::npos ? std::string::npos : line.find(':', first + 1);
        if (second == std::string::npos) continue;
        const std::string controllers = line.substr(first + 1, second - first - 1);
        const std::string path = line.substr(second + 1);
        if (controllers.empty()) {
            read_limit("/sys/fs/cgroup" + path + "/memory.max");
            read_limit("/sys/fs/cgroup/unified" + path + "/memory.max");
        } else if (("," + controllers + ",").find(",memory,") != std::string::npos) {
            read_limit("/sys/fs/cgroup/memory" + path + "/memory.limit_in_bytes");
        }
    }
    return limit;
}

} // namespace ilotoki
