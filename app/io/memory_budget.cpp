#include "app/io/memory_budget.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace linescope::io {
namespace {

std::atomic<std::uint64_t> gBudget{0};

std::uint64_t machineDefault() {
    const long pages = ::sysconf(_SC_PHYS_PAGES), pageSize = ::sysconf(_SC_PAGESIZE);
    std::uint64_t memory = pages > 0 && pageSize > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(pageSize)
                                                    : (std::uint64_t{4} << 30);
    rlimit lim{};
    if (::getrlimit(RLIMIT_AS, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY)
        memory = std::min<std::uint64_t>(memory, lim.rlim_cur);
    return std::max<std::uint64_t>(memory / 4, std::uint64_t{1} << 20);
}

}  // namespace

std::uint64_t imageMemoryBudget() {
    if (const std::uint64_t set = gBudget.load(std::memory_order_relaxed)) return set;
    if (const char* env = std::getenv("LINESCOPE_MAX_IMAGE_MEMORY"))
        if (const auto v = parseByteSize(env)) return *v;
    return machineDefault();
}

void setImageMemoryBudget(std::uint64_t bytes) { gBudget.store(bytes, std::memory_order_relaxed); }

void limitDecoderPixelsToBudget() {
    ::setenv("OPENCV_IO_MAX_IMAGE_PIXELS", std::to_string(imageMemoryBudget()).c_str(), 1);
}

std::string byteSizeText(double bytes) {
    const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int u = 0;
    while (bytes >= 1024 && u < 6) bytes /= 1024, ++u;
    char buf[48];
    if (u == 0) std::snprintf(buf, sizeof buf, "%.0f bytes", bytes);
    else std::snprintf(buf, sizeof buf, bytes < 10 ? "%.1f %s" : "%.0f %s", bytes, units[u]);
    return buf;
}

}  // namespace linescope::io
