#include "compute/byte_size.h"

#include <cctype>
#include <charconv>

namespace linescope {

std::optional<std::uint64_t> parseByteSize(const std::string& text) {
    std::uint64_t value = 0;
    const char* first = text.data();
    const char* last = first + text.size();
    const auto [ptr, ec] = std::from_chars(first, last, value);
    if (ec != std::errc() || ptr == first) return std::nullopt;
    std::string unit(ptr, last);
    for (auto& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (unit.size() >= 2 && unit.substr(unit.size() - 2) == "IB") unit.resize(unit.size() - 2), unit += "B";
    if (!unit.empty() && unit.back() == 'B' && unit != "B") unit.pop_back();
    int shift = 0;
    if (unit.empty() || unit == "B") shift = 0;
    else if (unit == "K") shift = 10;
    else if (unit == "M") shift = 20;
    else if (unit == "G") shift = 30;
    else if (unit == "T") shift = 40;
    else return std::nullopt;
    if (value == 0 || value > (std::uint64_t{1} << (60 - shift))) return std::nullopt;
    return value << shift;
}

}  // namespace linescope
