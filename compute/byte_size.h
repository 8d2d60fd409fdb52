// Sizes in bytes as people write them, for the settings that take one: the loader's image
// memory budget (app/io/memory_budget.h) and the CUDA backend's device memory cap.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace linescope {

// "8G", "512M", "100000K", "123456" (bytes; K, M, G, T are powers of 1024, an optional
// trailing B or iB is accepted); nothing for anything else, zero or beyond 2^60.
std::optional<std::uint64_t> parseByteSize(const std::string& text);

}  // namespace linescope
