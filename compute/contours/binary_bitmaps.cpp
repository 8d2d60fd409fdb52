#include "compute/contours/binary_bitmaps.h"

#include "compute/thread_pool.h"

#include <algorithm>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace linescope::contours {

void PixelBits::resize(int w, int h) {
    width = w;
    height = h;
    wordsPerRow = static_cast<std::size_t>(w + 63) / 64 + 2;
    words.resize(wordsPerRow * static_cast<std::size_t>(h + 2));
}

namespace {

// 64 pixels into one word: bit i set when pixel i is non-zero.
std::uint64_t packWord(const std::uint8_t* p, int count) {
    std::uint64_t w = 0;
#if defined(__SSE2__)
    if (count == 64) {
        const __m128i zero = _mm_setzero_si128();
        for (int i = 0; i < 4; ++i) {
            const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i));
            const auto isZero = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, zero)));
            w |= static_cast<std::uint64_t>(~isZero & 0xFFFFu) << (16 * i);
        }
        return w;
    }
#endif
    for (int i = 0; i < count; ++i) w |= static_cast<std::uint64_t>(p[i] != 0) << i;
    return w;
}

void packRow(const std::uint8_t* src, int width, std::uint64_t* dst, std::size_t wordsPerRow) {
    dst[0] = 0;
    std::size_t i = 1;
    for (int x = 0; x < width; x += 64, ++i) dst[i] = packWord(src + x, std::min(64, width - x));
    for (; i < wordsPerRow; ++i) dst[i] = 0;
}

// A pixel is interior when its four cross neighbours are foreground; the frame words and
// rows are zero, so pixels on the image's edge are never interior.
void borderRow(const PixelBits& fg, int y, std::uint64_t* dst, std::uint64_t* used, std::size_t usedWords) {
    const std::uint64_t* up = fg.row(y - 1);
    const std::uint64_t* mid = fg.row(y);
    const std::uint64_t* down = fg.row(y + 1);
    std::fill_n(used, usedWords, 0);
    dst[0] = 0;
    const std::size_t last = fg.wordsPerRow - 1;
    for (std::size_t i = 1; i < last; ++i) {
        const std::uint64_t westFg = (mid[i] << 1) | (mid[i - 1] >> 63);
        const std::uint64_t eastFg = (mid[i] >> 1) | (mid[i + 1] << 63);
        dst[i] = mid[i] & ~(up[i] & down[i] & westFg & eastFg);
        used[i >> 6] |= static_cast<std::uint64_t>(dst[i] != 0) << (i & 63);
    }
    dst[last] = 0;
}

}  // namespace

void preprocessBorders(ImageView<const std::uint8_t> image, const WorkerBudget& budget, BinaryBitmaps& out) {
    const int w = image.width, h = image.height;
    out.foreground.resize(w, h);
    out.border.resize(w, h);
    const std::size_t wpr = out.foreground.wordsPerRow;
    std::fill_n(out.foreground.row(-1), wpr, 0);
    std::fill_n(out.foreground.row(h), wpr, 0);
    std::fill_n(out.border.row(-1), wpr, 0);
    std::fill_n(out.border.row(h), wpr, 0);
    out.usedWordsPerRow = (wpr + 63) / 64;
    out.borderWordsUsed.resize(out.usedWordsPerRow * static_cast<std::size_t>(h));
    const auto rows = static_cast<std::size_t>(h);
    const int workers = budget.forPixels(rows * static_cast<std::size_t>(w));
    parallelFor(rows, workers, [&](std::size_t b, std::size_t e) {
        for (std::size_t y = b; y < e; ++y) {
            const int yi = static_cast<int>(y);
            packRow(image.row(yi), w, out.foreground.row(yi), wpr);
        }
    });
    parallelFor(rows, workers, [&](std::size_t b, std::size_t e) {
        for (std::size_t y = b; y < e; ++y) {
            const int yi = static_cast<int>(y);
            borderRow(out.foreground, yi, out.border.row(yi), out.borderWordsUsed.data() + y * out.usedWordsPerRow,
                      out.usedWordsPerRow);
        }
    });
}

}  // namespace linescope::contours
