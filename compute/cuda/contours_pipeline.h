// The GPU contours from start to end, written once over an executor: DeviceExec
// (contours_cuda.cu) launches each step as a kernel on the engine's stream; an executor
// that runs each step's threads one after another on the host (in shuffled order, with
// std::sort and a loop for CUB) runs the very same code against the CPU backend, which is
// how this was checked on a machine without a GPU. The executor provides:
//   char* reserve(ContourSlot, std::size_t bytes)       working memory, kept between calls
//   template <class Body> void forEach(std::uint32_t n, const typename Body::Params&)
//   void track(const TrackParams&)                     RectTracker per rectangle
//   void zero(void* p, std::size_t bytes)
//   void sortPairs(keysIn, keysOut, valuesIn, valuesOut, n, keyBits)   64- and 32-bit keys
//   void exclusiveSum(const std::uint32_t* in, std::uint32_t* out, std::uint32_t n)
//   void download(void* host, const void* device, std::size_t bytes)   waits for the copy
//   void upload(void* device, const void* host, std::size_t bytes)     host reusable at return
//   void mark(int k)                                   phase boundaries 1 … 5 (0: the caller)
//
// The phases: preprocess (foreground bits), track (RectTracker; again with exact capacities
// when a first guess was too small), connect (contours_links.cuh), hierarchy (discovery and
// LeftQuery answers on the device, the parents and OpenCV's listing on the host as the CPU
// computes them, then every point written in place), download (the points to the host).
// The host waits for the device four times: for the tracking counts, the number of
// borders, the hierarchy's inputs and the points.
#pragma once

#include "compute/contours/border_hierarchy.h"
#include "compute/contours/border_pieces.h"
#include "compute/contours/contours.h"
#include "compute/cuda/contours_bits.cuh"
#include "compute/cuda/contours_links.cuh"
#include "compute/cuda/contours_points.cuh"
#include "compute/cuda/contours_records.cuh"
#include "compute/cuda/contours_tracker.cuh"
#include "compute/cuda/device_image.h"
#include "compute/image.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace linescope::contours::gpu {

// Working memory in groups that are sized together (a group's buffer loses its contents
// when it grows, so each is filled after it is reserved).
enum class ContourSlot {
    Bits,     // counters and the foreground bitmap
    Track,    // the point pool, pieces and the open pieces' entries
    Connect,  // sorted entries, pointer jumping, borders
    Borders,  // per-border hierarchy arrays, corner ranks
    Output,   // the listed points
};

// What tracking may write; grown to what a call needed, and kept for the next call.
struct TrackCapacity {
    std::uint64_t points = 0;
    std::uint32_t pieces = 0;
    std::uint32_t open = 0;
};

// Arrays laid out in one buffer, each on a 256-byte boundary.
class Carve {
public:
    template <class T>
    void add(T*& ptr, std::size_t count) {
        bytes_ = (bytes_ + 255) & ~std::size_t{255};
        const std::size_t at = bytes_;
        places_.push_back([&ptr, at](char* base) { ptr = reinterpret_cast<T*>(base + at); });
        bytes_ += count * sizeof(T);
    }
    std::size_t bytes() const { return bytes_; }
    void place(char* base) const {
        for (const auto& p : places_) p(base);
    }

private:
    std::size_t bytes_ = 0;
    std::vector<std::function<void(char*)>> places_;
};

[[noreturn]] inline void internalError(const std::string& what) {
    throw Error("contours on the GPU: internal error: " + what);
}

inline void checkTrackFlags(std::uint32_t flags) {
    if (flags & kCountMismatch) internalError("a rectangle's points do not match its border pixels");
    if (flags & kWalkMismatch) internalError("a piece did not retrace from its entry");
    if (flags & kUnmatchedExit) internalError("a border left a rectangle where none entered");
}

// Validates the tracking rectangles of the GPU (ContourTuning::gpuRectWidth/Height).
inline void checkTrackRectangles(int rw, int rh) {
    if (rw < 1 || rw > kMaxTrackWidth || rh < 1 || rh > kMaxTrackHeight)
        throw Error("GPU contour rectangles must be 1 to " + std::to_string(kMaxTrackWidth) + " pixels across and 1 to " +
                    std::to_string(kMaxTrackHeight) + " down, got " + std::to_string(rw) + "x" + std::to_string(rh));
}

template <class Exec>
class ContourPipeline {
public:
    ContourPipeline(Exec& exec, TrackCapacity& capacity) : exec_(exec), capacity_(capacity) {}

    void run(cuda::DeviceImageView<const std::uint8_t> image, ContourMode mode, ContourApprox approx, int rectWidth,
             int rectHeight, Contours& out) {
        checkTrackRectangles(rectWidth, rectHeight);
        image_ = image;
        mode_ = mode;
        corners_ = approx == ContourApprox::Simple;
        grid_ = RectGrid(image.width, image.height, rectWidth, rectHeight);
        preprocess();
        exec_.mark(1);
        track();
        exec_.mark(2);
        connect();
        exec_.mark(3);
        hierarchy(out);
        exec_.mark(4);
        out.points.resize(total_);
        if (total_) exec_.download(out.points.data(), outPoints_, sizeof(ContourPoint) * total_);
        exec_.mark(5);
    }

private:
    void preprocess() {
        const int w = image_.width, h = image_.height;
        wordsPerRow_ = static_cast<std::size_t>(w + 63) / 64 + 2;
        const std::size_t words = wordsPerRow_ * static_cast<std::size_t>(h + 2);
        Carve c;
        c.add(counters_, 1);
        c.add(words_, words);
        c.place(exec_.reserve(ContourSlot::Bits, c.bytes()));
        const bool aligned = ((reinterpret_cast<std::uintptr_t>(image_.data) | image_.pitch) & 15u) == 0;
        exec_.template forEach<ForegroundBits>(static_cast<std::uint32_t>(words),
                                               {image_.data, image_.pitch, w, h, aligned, words_, wordsPerRow_});
    }

    void track() {
        if (capacity_.points == 0) {  // a first guess; a call that needs more tracks twice
            const std::uint64_t pixels = static_cast<std::uint64_t>(image_.width) * static_cast<std::uint64_t>(image_.height);
            capacity_.points = std::max<std::uint64_t>(4096, pixels / 16);
            capacity_.pieces = static_cast<std::uint32_t>(std::max<std::uint64_t>(1024, capacity_.points / 8));
            capacity_.open = std::max<std::uint32_t>(1024, capacity_.pieces / 2);
        }
        for (int attempt = 0;; ++attempt) {
            Carve c;
            c.add(points_, capacity_.points);
            c.add(pieceOf_, capacity_.points);
            c.add(pieces_, capacity_.pieces);
            c.add(openKeys_, capacity_.open);
            c.add(openIds_, capacity_.open);
            c.place(exec_.reserve(ContourSlot::Track, c.bytes()));
            exec_.zero(counters_, sizeof(TrackCounters));
            exec_.track(TrackParams{words_, wordsPerRow_, grid_, points_, pieceOf_, capacity_.points, pieces_,
                                    capacity_.pieces, openKeys_, openIds_, capacity_.open, counters_});
            exec_.download(&counts_, counters_, sizeof counts_);
            checkTrackFlags(counts_.flags);
            if (counts_.points >= (std::uint64_t{1} << 32))
                throw Error("the image has " + std::to_string(counts_.points) +
                            " border points, more than the GPU contours hold (2^32): use the CPU backend");
            if (!(counts_.flags & kOverflow)) return;
            if (attempt > 0) internalError("tracking overflowed the capacities it asked for");
            // The counts are exact: what every rectangle asked for. A margin spares similar
            // images the second pass.
            capacity_.points = std::max(capacity_.points, counts_.points + counts_.points / 8 + 64);
            capacity_.pieces = std::max(capacity_.pieces, grow(counts_.pieces));
            capacity_.open = std::max(capacity_.open, grow(counts_.open));
        }
    }

    static std::uint32_t grow(std::uint32_t n) {
        const std::uint64_t g = std::uint64_t{n} + n / 8 + 64;
        return static_cast<std::uint32_t>(std::min<std::uint64_t>(g, 0xFFFFFFF0u));
    }

    void connect() {
        const std::uint32_t open = counts_.open, pieces = counts_.pieces;
        Carve c;
        std::uint64_t* sortedKeys;
        std::uint32_t* sortedIds;
        JumpNode *nodes, *spare;
        std::uint32_t* leaderBorder;
        BorderTotals* totals;
        c.add(sortedKeys, open);
        c.add(sortedIds, open);
        c.add(nodes, open);
        c.add(spare, open);
        c.add(leaderBorder, open);
        c.add(borderOf_, pieces);
        c.add(distOf_, pieces);
        c.add(borders_, pieces);
        c.add(totals, pieces);
        c.place(exec_.reserve(ContourSlot::Connect, c.bytes()));
        if (open) {
            exec_.sortPairs(openKeys_, sortedKeys, openIds_, sortedIds, open, moveKeyBits(image_.width, image_.height));
            exec_.template forEach<LinkOpenPieces>(
                open, {sortedKeys, sortedIds, open, pieces_, image_.width, corners_, nodes, counters_});
            for (int r = 0; r < jumpRounds(open); ++r) {
                exec_.template forEach<JumpRound>(open, {nodes, spare});
                std::swap(nodes, spare);
            }
            exec_.template forEach<NumberCycles>(open, {nodes, sortedIds, leaderBorder, totals, borders_, counters_});
        }
        if (pieces)
            exec_.template forEach<NumberClosedPieces>(pieces, {pieces_, borders_, borderOf_, distOf_, counters_});
        if (open) {
            exec_.template forEach<SumCycles>(open, {nodes, sortedIds, pieces_, leaderBorder, totals, borderOf_, distOf_});
            exec_.template forEach<FinishCycles>(open, {nodes, leaderBorder, totals, pieces_, borders_});
        }
        exec_.download(&counts_, counters_, sizeof counts_);
        checkTrackFlags(counts_.flags);
        borderCount_ = counts_.borders;
    }

    void hierarchy(Contours& out) {
        const std::uint32_t n = borderCount_;
        const auto pointCount = static_cast<std::uint32_t>(counts_.points);
        // Per border; `exchange` holds what the host reads back, in one piece: the
        // discovery order, the answers, the lengths and the hole flags.
        std::uint32_t *exchange, *discoveryKeys, *sortedDiscoveryKeys, *discoveryIds, *queryIds, *queryOrder;
        std::uint32_t *shift, *slotAndOffset, *corner = nullptr, *cornerRank = nullptr;
        std::uint64_t *queryKeys, *sortedQueryKeys;
        const std::size_t exchangeWords = 3 * std::size_t{n} + (n + 3) / 4;
        Carve c;
        c.add(exchange, exchangeWords);
        c.add(discoveryKeys, n);
        c.add(sortedDiscoveryKeys, n);
        c.add(discoveryIds, n);
        c.add(queryKeys, n);
        c.add(sortedQueryKeys, n);
        c.add(queryIds, n);
        c.add(queryOrder, n);
        c.add(shift, n);
        c.add(slotAndOffset, 2 * std::size_t{n});
        if (corners_) {
            c.add(corner, pointCount);
            c.add(cornerRank, pointCount);
        }
        c.place(exec_.reserve(ContourSlot::Borders, c.bytes()));
        std::uint32_t* order = exchange;
        std::uint32_t* left = exchange + n;
        std::uint32_t* length = exchange + 2 * std::size_t{n};
        auto* hole = reinterpret_cast<std::uint8_t*>(exchange + 3 * std::size_t{n});
        std::uint32_t* slot = slotAndOffset;
        std::uint32_t* offset = slotAndOffset + n;

        if (n) {
            exec_.template forEach<DiscoverBorders>(n, {borders_, words_, wordsPerRow_, mode_, corners_, discoveryKeys,
                                                        discoveryIds, hole, queryKeys, queryIds, left, length});
            exec_.sortPairs(discoveryKeys, sortedDiscoveryKeys, discoveryIds, order, n, 32);
            if (mode_ != ContourMode::List) {
                // Real keys are below 2^33, so kNoQuery's low 34 bits still sort it last.
                exec_.sortPairs(queryKeys, sortedQueryKeys, queryIds, queryOrder, n, 34);
                exec_.template forEach<AnswerQueries>(
                    pointCount, {points_, pieceOf_, pieces_, borderOf_, sortedQueryKeys, queryOrder, n, left});
            }
        }

        // The parents and OpenCV's listing, on the host as the CPU backend computes them.
        std::vector<std::uint32_t> hostExchange(exchangeWords);
        // The answers and the n hole bytes, not the padding after them, which no kernel
        // writes (compute-sanitizer's initcheck reads a copy of it as uninitialized).
        if (n) exec_.download(hostExchange.data(), exchange, sizeof(std::uint32_t) * 3 * std::size_t{n} + n);
        const std::vector<std::uint32_t> hostOrder(hostExchange.begin(), hostExchange.begin() + n);
        const std::vector<std::uint32_t> hostLeft(hostExchange.begin() + n, hostExchange.begin() + 2 * std::size_t{n});
        const std::uint32_t* hostLength = hostExchange.data() + 2 * std::size_t{n};
        const auto* holeBytes = reinterpret_cast<const std::uint8_t*>(hostExchange.data() + 3 * std::size_t{n});
        const std::vector<std::uint8_t> hostHole(holeBytes, holeBytes + n);
        BorderListing listing = listLikeOpenCV(hostOrder, hostHole, treeParentsFromLeft(hostOrder, hostHole, hostLeft), mode_);

        const std::size_t m = listing.border.size();
        std::vector<std::uint32_t> hostSlot(n + m, kNone);
        out.offsets.assign(m + 1, 0);
        std::uint64_t total = 0;
        for (std::size_t i = 0; i < m; ++i) {
            const std::uint32_t b = listing.border[i];
            hostSlot[b] = static_cast<std::uint32_t>(i);
            hostSlot[n + i] = static_cast<std::uint32_t>(total);
            total += hostLength[b];
            out.offsets[i + 1] = static_cast<std::size_t>(total);
        }
        total_ = static_cast<std::size_t>(total);
        out.next = std::move(listing.next);
        out.previous = std::move(listing.previous);
        out.firstChild = std::move(listing.firstChild);
        out.parent = std::move(listing.parent);
        out.hole = std::move(listing.hole);
        if (n) exec_.upload(slotAndOffset, hostSlot.data(), sizeof(std::uint32_t) * (n + m));

        // Every listed point in place.
        Carve o;
        o.add(outPoints_, total_);
        o.place(exec_.reserve(ContourSlot::Output, o.bytes()));
        if (!n || !total_) return;
        if (corners_) {
            exec_.template forEach<MarkCorners>(pointCount, {points_, pieceOf_, pieces_, corner});
            exec_.exclusiveSum(corner, cornerRank, pointCount);
        }
        exec_.template forEach<StartShifts>(n, {borders_, pieces_, slot, length, distOf_, cornerRank, shift});
        exec_.template forEach<WritePoints>(pointCount, {points_, pieceOf_, pieces_, borderOf_, slot, offset, length,
                                                         distOf_, shift, corner, cornerRank, outPoints_});
    }

    Exec& exec_;
    TrackCapacity& capacity_;
    cuda::DeviceImageView<const std::uint8_t> image_;
    ContourMode mode_ = ContourMode::Tree;
    bool corners_ = false;
    RectGrid grid_;

    TrackCounters* counters_ = nullptr;
    std::uint64_t* words_ = nullptr;
    std::size_t wordsPerRow_ = 0;
    PixelKey* points_ = nullptr;
    std::uint32_t* pieceOf_ = nullptr;
    BorderPiece* pieces_ = nullptr;
    std::uint64_t* openKeys_ = nullptr;
    std::uint32_t* openIds_ = nullptr;
    TrackCounters counts_;
    std::uint32_t* borderOf_ = nullptr;
    std::uint32_t* distOf_ = nullptr;
    ClosedBorder* borders_ = nullptr;
    std::uint32_t borderCount_ = 0;
    ContourPoint* outPoints_ = nullptr;
    std::size_t total_ = 0;
};

}  // namespace linescope::contours::gpu
