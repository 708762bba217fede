#include "output_filter.hpp"

#include "utf8.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>

namespace ilotoki {
namespace {

constexpr std::string_view kReplacementCharacter = "\xEF\xBF\xBD"; // U+FFFD

} // namespace

void OutputFilter::reset(std::vector<std::string> stop_sequences, int max_lines) {
    stop_sequences_.clear();
    for (auto &stop : stop_sequences) {
        if (!stop.empty()) stop_sequences_.push_back(std::move(stop));
    }
    max_lines_ = max_lines > 0 ? max_lines : 0;
    emitted_newlines_ = 0;
    incomplete_.clear();
    decoded_.clear();
    held_.clear();
    ready_.clear();
}

void OutputFilter::append_valid_utf8(std::string_view bytes, bool at_end) {
    // Decodes `incomplete_ + bytes` into `decoded_`, replacing every maximal invalid
    // subpart with U+FFFD, and keeps a trailing unfinished character in `incomplete_`.
    std::string input = std::move(incomplete_);
    input.append(bytes);
    incomplete_.clear();
    decoded_.clear();

    size_t i = 0;
    while (i < input.size()) {
        const auto lead = static_cast<uint8_t>(input[i]);
        const int length = utf8::sequence_length(lead);
        if (length == 0) {
            decoded_.append(kReplacementCharacter);
            i += 1;
            continue;
        }
        if (length == 1) {
            decoded_.push_back(static_cast<char>(lead));
            i += 1;
            continue;
        }
        // Count how many of the following bytes are valid for this sequence.
        int valid = 1;
        while (valid < length && i + valid < input.size()) {
            const auto byte = static_cast<uint8_t>(input[i + valid]);
            const bool ok = valid == 1 ? utf8::valid_second_byte(lead, byte) : utf8::is_continuation(byte);
            if (!ok) break;
            valid += 1;
        }
        if (valid == length) {
            decoded_.append(input, i, length);
            i += length;
        } else if (i + valid == input.size() && !at_end) {
            // A character split across tokens: wait for the rest.
            incomplete_.assign(input, i, std::string::npos);
            break;
        } else {
            decoded_.append(kReplacementCharacter);
            i += valid;
        }
    }
}

OutputFilter::Outcome OutputFilter::feed(std::string_view bytes) {
    append_valid_utf8(bytes, false);
    if (decoded_.empty()) return Outcome::Continue;
    std::string text = std::move(held_);
    text.append(decoded_);
    held_.clear();
    return release(std::move(text));
}

OutputFilter::Outcome OutputFilter::release(std::string text) {
    // The earliest place the output must end: a stop sequence or the newline that would
    // start one line too many.
    size_t cut = std::string::npos;
    Outcome outcome = Outcome::Continue;
    for (const auto &stop : stop_sequences_) {
        const size_t found = text.find(stop);
        if (found < cut) {
            cut = found;
            outcome = Outcome::StopSequence;
        }
    }
    if (max_lines_ > 0) {
        int newlines = emitted_newlines_;
        for (size_t i = 0; i < text.size() && i < cut; ++i) {
            if (text[i] != '\n') continue;
            if (newlines + 1 >= max_lines_) {
                cut = i;
                outcome = Outcome::LineLimit;
                break;
            }
            newlines += 1;
        }
    }
    if (outcome != Outcome::Continue) {
        text.resize(cut);
        ready_.append(text);
        return outcome;
    }

    // Hold back the longest tail that a stop sequence could still grow out of.
    size_t hold = 0;
    for (const auto &stop : stop_sequences_) {
        const size_t longest = std::min(stop.size() - 1, text.size());
        for (size_t length = longest; length > hold; --length) {
            if (text.compare(text.size() - length, length, stop, 0, length) == 0) {
                hold = length;
                break;
            }
        }
    }
    const size_t emit = text.size() - hold;
    emitted_newlines_ += static_cast<int>(std::count(text.begin(), text.begin() + emit, '\n'));
    ready_.append(text, 0, emit);
    held_.assign(text, emit, std::string::npos);
    return Outcome::Continue;
}

void OutputFilter::flush() {
    append_valid_utf8({}, true);
    std::string text = std::move(held_);
    text.append(decoded_);
    held_.clear();
    decoded_.clear();
    // The last text goes through the same checks as any other (a replacement character at
    // the end can complete a stop sequence, found by fuzz_output_filter); what was held
    // back for a stop sequence that can no longer come is released.
    if (release(std::move(text)) == Outcome::Continue) ready_.append(held_);
    held_.clear();
}

void OutputFilter::discard() {
    incomplete_.clear();
    decoded_.clear();
    held_.clear();
    ready_.clear();
}

bool OutputFilter::take_ready(std::string &out) {
    if (ready_.empty()) return false;
    out.swap(ready_);
    ready_.clear();
    return true;
}

} // namespace ilotoki
