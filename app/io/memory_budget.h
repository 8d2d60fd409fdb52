// The memory a decoded image may take. A valid 8 MB PNG can decode to 8 GiB; the loader
// compares the size its header announces with this budget before it decodes anything.
#pragma once

#include "compute/byte_size.h"

#include <cstdint>
#include <optional>
#include <string>

namespace linescope::io {

// The budget in bytes: the one set with setImageMemoryBudget, else LINESCOPE_MAX_IMAGE_MEMORY,
// else a quarter of the smaller of the machine's memory and the process's address-space
// limit (the engine needs several planes of the image's size besides the image).
std::uint64_t imageMemoryBudget();
// Sets the budget for this process (the command line's --max-image-memory); 0 = the default.
void setImageMemoryBudget(std::uint64_t bytes);

// Points OpenCV's own header check (OPENCV_IO_MAX_IMAGE_PIXELS, which it reads once per
// process) at the budget, for the formats readImageHeader does not parse. It sets an
// environment variable, which races with getenv on other threads: call it while the program
// has one thread (the start of main, or the command line before its work), before any read.
void limitDecoderPixelsToBudget();

// "8G", "512M", "100000K", "123456": the engine's parser (compute/byte_size.h).
using linescope::parseByteSize;
// 8.0 GiB, 512 MiB, 37 KiB, 12 bytes: for messages.
std::string byteSizeText(double bytes);

}  // namespace linescope::io
