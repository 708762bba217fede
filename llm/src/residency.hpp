// Residency of the model file in memory: how much of it the system still holds, bringing back
// what it took in one sequential pass before a translation decodes, and (for benchmarks)
// taking it away as a phone does while the app is in the background.
//
// llama.cpp maps the file; when the system reclaims some of its pages, every one is faulted
// back during decode as a random 4 KiB read that stalls all threads. The same pages read
// ahead in order cost a fraction of that. The core keeps a read-only mapping of its own of the
// same file: `mincore` over it tells which of the file's pages are in memory (the page cache is
// the file's, shared by both mappings), and reading the missing runs through the descriptor
// puts them back before the first decode. Its own mapping is never touched, so it adds
// nothing to the process's resident memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ilotoki {

/// The memory this process may hold by its own control group (cgroup v2 `memory.max`, or v1
/// `memory.limit_in_bytes` of its memory group), in bytes; 0 where there is no limit or none
/// can be read.
uint64_t memory_limit();

class Residency {
public:
    /// Maps `path` for residency checks; an empty object (every call a no-op reporting full
    /// residency) when it cannot.
    explicit Residency(const std::string &path);
    ~Residency();
    Residency(const Residency &) = delete;
    Residency &operator=(const Residency &) = delete;

    bool available() const { return base_ != nullptr; }
    uint64_t size() const { return size_; }

    /// The fraction of the file's pages in memory now (1 when unknown).
    double resident_fraction();

    /// The same, estimated from about `samples` pages spread evenly over the file. `mincore`
    /// over a whole file costs the kernel a page-cache lookup per page (about 5 ms for Gemma 3
    /// 270M's 62,000 pages on a 2-core EPYC, every translation); a sample answers "nearly all
    /// of it is here" for a fraction of that.
    double sampled_fraction(size_t samples);

    /// What `restore` did.
    struct Restore {
        double resident_before = 1.0;
        uint64_t bytes_read = 0;
        double milliseconds = 0;
    };

    /// When less than `threshold` of the file is in memory (by a sample of its pages first, then
    /// all of them when the sample says it is not), reads every missing run of pages
    /// back in order (large sequential reads, so the pages come back at the storage's speed,
    /// not one fault at a time) and waits for them: into llama.cpp's mapping with
    /// MADV_POPULATE_READ where the kernel has it, else through the descriptor.
    Restore restore(double threshold);

    /// Pages the model out of memory, as the system does to an app in the background: the
    /// file's mappings in this process (found in /proc/self/maps by its real path) with
    /// MADV_PAGEOUT, else MADV_COLD; where more than half stays, MADV_DONTNEED on those
    /// mappings and POSIX_FADV_DONTNEED on the file. Returns how ("" when nothing worked).
    std::string evict();

    /// Leaves the file's bytes [offset, offset + length) out of every fraction and of
    /// `restore`: the trimmed head's rows where its check streams them from the file and
    /// nothing else reads them (trimmed_head.hpp, `stream_checks`). A read there through a
    /// mapping of the file brings in its own page only (MADV_RANDOM): llama.cpp still reads a
    /// token's row there for its input embedding, and a fault's read-around (the disk's
    /// readahead, 8 MiB on some) would bring most of the rows back a token at a time.
    void leave_out(uint64_t offset, uint64_t length);
    /// Whether the range `leave_out` named is left out now. A translation that reads the whole
    /// head through llama.cpp's mapping (its own head, or steps over every row) counts it again:
    /// the restore brings it back and its reads get the mapping's usual read-ahead (MADV_NORMAL);
    /// one that streams its checks leaves it out again, and its pages go (`drop`). No-op when
    /// the state does not change.
    void set_left_out(bool left);
    bool is_left_out() const { return left_out_active_; }
    /// Takes the file's bytes [offset, offset + length) out of memory: unmapped from this
    /// process's mappings of the file (MADV_DONTNEED; they are read-only mappings of a file,
    /// so nothing is lost and a later read faults the page back) and dropped from the page
    /// cache (POSIX_FADV_DONTNEED). Pages another process maps stay.
    void drop(uint64_t offset, uint64_t length);

private:
    /// A mapping of the file in this process other than this object's own: its addresses and
    /// the file offset it starts at.
    struct Mapping {
        uintptr_t from, to;
        uint64_t offset;
    };
    std::vector<Mapping> mappings() const;

    /// The page-aligned runs of missing pages, as byte offsets and lengths.
    std::vector<std::pair<uint64_t, uint64_t>> missing_runs();

    std::string real_path_;
    int fd_ = -1;
    void *base_ = nullptr;
    uint64_t size_ = 0;
    size_t page_ = 4096;
    std::vector<unsigned char> pages_;
    // The pages `leave_out` named: [first, end).
    size_t left_out_first_ = 0;
    size_t left_out_end_ = 0;
    bool left_out_active_ = false;
    bool left_out(size_t page) const { return left_out_active_ && page >= left_out_first_ && page < left_out_end_; }
    /// madvise on every mapping of the file over the left-out range.
    void advise_left_out(int advice);
};

} // namespace ilotoki
