// linescope-gpu-bench: the CUDA engine's timings on the GPU machine, beside NPP and the
// device's memory floor, in one run. Prints Markdown tables as it goes and writes
//   OUT/gpu-bench.md          every table and check
//   OUT/gpu-bench.csv         one row per timed workload
//   OUT/gpu-bench-summary.csv the headline workloads, for cv2_peer.py --combine
//
//   linescope-gpu-bench [--out DIR] [--quick] [--reps N] [--warmup N] [--mask-style path|round]
//                       [--only SECTION,...] [--no-check] [--dump-inputs DIR]
//   sections: sweep640 open4096 sweep4k sweeptypes angles lengths paper contours granulometry kinds host npp field skew (the copy floor
//   always runs)
//
// Device timings: CUDA events around each run on the engine's stream, warm-up runs first,
// the median of N; inputs (and outputs of single openings) rotate among enough copies to
// exceed 3× the L2 cache, so that no run finds its image in L2 from the previous one.
// Inputs: fixed-seed 8-bit images with noise, lines and rectangles (never zeros).
// Checks: every timed engine opening is compared with the CPU backend, twice, with the output
// poisoned to 0x00 and to 0xFF first; every timed sweep's sup, inf, strength, arg and
// spectrum with the CPU backend's sweep; every timed contour image's contours with the CPU
// backend's (tree, none). The exit status is 1 when a check fails.
#include "compute/backend.h"
#include "compute/cuda/device_image.h"
#include "compute/cuda/granulometry_cuda.h"
#include "compute/granulometry.h"
#include "compute/orientation_field.h"
#include "compute/line_kernel.h"
#include "compute/image.h"
#include "compute/line_morph.h"
#include "compute/sweep.h"
#include "tests/bench/gpu_bench_contours.h"
#include "tests/bench/gpu_bench_engine.h"
#include "tests/bench/gpu_bench_kernels.h"
#include "tests/bench/gpu_bench_skew.h"
#include "tests/bench/gpu_bench_support.h"
#include "tests/bench/npp_peer.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using namespace lsbench;
using linescope::AngleSet;
using linescope::Backend;
using linescope::EngineOptions;
using linescope::ImageView;
using linescope::LineAlgorithm;
using linescope::MorphOp;
using linescope::Granulometry;
using linescope::GranulometryRequest;
using linescope::SweepRequest;
using U8 = std::uint8_t;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// ---------------------------------------------------------------------------------------------
// Options

struct Options {
    std::string out = "bench-out";
    bool quick = false;
    int reps = 15;      // device-timed runs per workload
    int warmup = 3;
    int hostReps = 7;   // host API runs (upload + compute + download)
    int nppReps = 3;
    MaskStyle mask = MaskStyle::Path;
    std::set<std::string> only;
    bool check = true;
    std::string dumpInputs;
};

const std::vector<std::string> kSections = {"sweep640", "open4096", "sweep4k",      "sweeptypes", "angles", "lengths",
                                            "paper",    "contours", "granulometry", "kinds",      "host",   "npp", "field", "skew"};

[[noreturn]] void usage(const std::string& error) {
    std::cerr << "linescope-gpu-bench: " << error << "\n"
              << "usage: linescope-gpu-bench [--out DIR] [--quick] [--reps N] [--warmup N]\n"
              << "         [--mask-style path|round] [--only SECTION,...] [--no-check] [--dump-inputs DIR]\n"
              << "sections: sweep640 open4096 sweep4k sweeptypes angles lengths paper contours granulometry kinds host "
                 "npp field skew\n";
    std::exit(2);
}

Options parseOptions(int argc, char** argv) {
    Options o;
    bool repsGiven = false;
    auto value = [&](int& i) -> std::string {
        if (i + 1 >= argc) usage(std::string(argv[i]) + " needs a value");
        return argv[++i];
    };
    auto number = [&](int& i) {
        const std::string v = value(i);
        char* end = nullptr;
        const long n = std::strtol(v.c_str(), &end, 10);
        if (v.empty() || *end || n < 0 || n > 100000) usage("bad number '" + v + "'");
        return static_cast<int>(n);
    };
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--out") o.out = value(i);
        else if (a == "--quick") o.quick = true;
        else if (a == "--reps") { o.reps = std::max(1, number(i)); repsGiven = true; }
        else if (a == "--warmup") o.warmup = number(i);
        else if (a == "--no-check") o.check = false;
        else if (a == "--dump-inputs") o.dumpInputs = value(i);
        else if (a == "--mask-style") {
            const std::string v = value(i);
            if (v == "path") o.mask = MaskStyle::Path;
            else if (v == "round") o.mask = MaskStyle::Round;
            else usage("--mask-style takes path or round");
        } else if (a == "--only") {
            std::stringstream ss(value(i));
            for (std::string s; std::getline(ss, s, ',');) {
                if (std::find(kSections.begin(), kSections.end(), s) == kSections.end()) usage("unknown section '" + s + "'");
                o.only.insert(s);
            }
        } else if (a == "--help" || a == "-h") usage("help");
        else usage("unknown argument '" + a + "'");
    }
    if (o.quick) {
        if (!repsGiven) o.reps = 5;
        o.warmup = std::min(o.warmup, 1);
        o.hostReps = 3;
        o.nppReps = 2;
    }
    return o;
}

// ---------------------------------------------------------------------------------------------
// Results

struct Row {
    std::string section, key, workload, impl, algorithm;
    int width = 0, height = 0, angles = 1, length = 0;
    double angle = 0;  // single openings
    Stats st;
    double floorBytes = 0;    // the fewest bytes: the input read once, every output written once
    double unfusedBytes = 0;  // sweeps: every angle's opening through memory, N × (in + out)
    double extrapolate = 1;   // the timed work was 1/extrapolate of the workload (NPP subsets)
    std::string check, note;
    double ms() const { return st.medianMs * extrapolate; }
    double opPixels() const { return static_cast<double>(width) * height * angles; }
    double mpxPerS() const { return opPixels() / 1e6 / (ms() / 1e3); }
};

struct SummaryEntry {
    std::string description, goal;
    double engineMs = kNaN, e2eMs = kNaN, nppMs = kNaN;
    std::string nppNote;
};

// A Markdown table; the first column is left-aligned, the others right-aligned.
struct Table {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
    std::string render() const {
        std::string s = "|";
        for (const auto& h : header) s += " " + h + " |";
        s += "\n|";
        for (std::size_t i = 0; i < header.size(); ++i) s += i == 0 ? "---|" : "---:|";
        s += "\n";
        for (const auto& r : rows) {
            s += "|";
            for (const auto& c : r) s += " " + c + " |";
            s += "\n";
        }
        return s;
    }
};

std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

std::string num(double v, int precision = 4) {
    if (!std::isfinite(v)) return "";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    return buf;
}

std::string sizeText(int w, int h) { return std::to_string(w) + "×" + std::to_string(h); }

std::string degrees(double a) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g°", a);
    return buf;
}

const char* algoLabel(LineAlgorithm a) {
    switch (a) {
    case LineAlgorithm::Auto: return "auto";  // sweeps: the tile sweep where it applies, else band; openings: band
    case LineAlgorithm::Fifo: return "fifo";
    case LineAlgorithm::Stack: return "stack";
    default: return linescope::algorithmName(a);
    }
}

// ---------------------------------------------------------------------------------------------
// The run's state

class Bench {
public:
    explicit Bench(Options o) : opt(std::move(o)) {}

    Options opt;
    cudaDeviceProp props{};
    double copyBytesPerS = 0;  // device-to-device copy, bytes read + written per second
    std::vector<Row> rows;
    std::vector<std::string> checks;
    std::map<std::string, SummaryEntry> summary;
    std::vector<std::string> summaryOrder;
    std::string md;
    bool failed = false;

    bool wants(const std::string& section) const { return opt.only.empty() || opt.only.count(section); }

    void emit(const std::string& text) {
        std::cout << text << std::flush;
        md += text;
    }

    // Records a check; a failed one makes the exit status 1.
    void check(const std::string& what, const std::string& result, bool ok) {
        checks.push_back(std::string(ok ? "ok: " : "FAILED: ") + what + ": " + result);
        if (!ok) {
            failed = true;
            std::cout << "  check FAILED: " << what << ": " << result << "\n" << std::flush;
        }
    }

    double floorMs(double bytes) const { return copyBytesPerS > 0 ? bytes / copyBytesPerS * 1e3 : kNaN; }

    SummaryEntry& entry(const std::string& key, const std::string& description, const std::string& goal = "") {
        auto [it, inserted] = summary.try_emplace(key);
        if (inserted) summaryOrder.push_back(key);
        if (it->second.description.empty()) it->second.description = description;
        if (it->second.goal.empty()) it->second.goal = goal;
        return it->second;
    }

    // The fixed-seed input of a size (the same for every workload of that size).
    const std::vector<U8>& image(int w, int h) {
        auto& img = images_[{w, h}];
        if (img.empty()) {
            img = makeStructuredImage(w, h, 20261100u + static_cast<std::uint64_t>(w) * 100003u + static_cast<std::uint64_t>(h));
            if (!opt.dumpInputs.empty()) {
                std::filesystem::create_directories(opt.dumpInputs);
                writeRaw(opt.dumpInputs + "/input-" + std::to_string(w) + "x" + std::to_string(h) + ".u8", img);
            }
        }
        return img;
    }

    // How many copies of a set of `images` u8 images of w×h make 3× the L2 cache (2 … 16).
    int rotations(int w, int h, int images) const {
        const double l2 = props.l2CacheSize > 0 ? props.l2CacheSize : 50e6;
        const double bytes = static_cast<double>(images) * static_cast<double>(linescope::cuda::devicePitch(w, 1)) * h;
        return std::clamp(static_cast<int>(std::ceil(3.0 * l2 / bytes)), 2, 16);
    }

private:
    std::map<std::pair<int, int>, std::vector<U8>> images_;
};

// ---------------------------------------------------------------------------------------------
// Comparisons with the CPU backend

template <class T>
std::string compareExact(std::span<const T> got, std::span<const T> want, int width, bool& ok) {
    ok = false;
    if (got.size() != want.size())
        return "size differs (" + std::to_string(got.size()) + " values, want " + std::to_string(want.size()) + ")";
    std::size_t n = 0, first = 0;
    for (std::size_t i = 0; i < want.size(); ++i)
        if (got[i] != want[i] && n++ == 0) first = i;
    ok = n == 0;
    if (ok) return "identical";
    const auto w = static_cast<std::size_t>(width);
    return "differs at " + std::to_string(n) + " px, first (" + std::to_string(first % w) + "," +
           std::to_string(first / w) + "): got " + std::to_string(+got[first]) + ", want " + std::to_string(+want[first]);
}

ImageView<const U8> hostView(const std::vector<U8>& img, int w, int h) { return {img.data(), w, h}; }

std::vector<U8> cpuMorph(const std::vector<U8>& img, int w, int h, MorphOp op, double angle, int length) {
    std::vector<U8> out(img.size());
    EngineOptions o;
    o.backend = Backend::Cpu;
    linescope::lineMorph<U8>(op, hostView(img, w, h), ImageView<U8>(out.data(), w, h), {angle, length}, o);
    return out;
}

linescope::SweepResult<U8> cpuSweep(const std::vector<U8>& img, int w, int h, const SweepRequest& req) {
    EngineOptions o;
    o.backend = Backend::Cpu;
    return linescope::sweep<U8>(hostView(img, w, h), req, o);
}

// ---------------------------------------------------------------------------------------------
// Workloads on the engine's device-resident API

// Sources and outputs of single openings of one size, in rotation.
struct OpeningSet {
    int width = 0, height = 0;
    std::vector<DeviceImage<U8>> src, dst;
};

OpeningSet makeOpeningSet(Bench& b, int w, int h) {
    OpeningSet s;
    s.width = w;
    s.height = h;
    const std::vector<U8>& host = b.image(w, h);
    const int n = b.rotations(w, h, 2);
    for (int i = 0; i < n; ++i) {
        s.src.emplace_back(w, h);
        s.src.back().upload(host);
        s.dst.emplace_back(w, h);
    }
    return s;
}

// The timing and the poisoned checks of engineOpening (the caller holds the engine lock).
void timeAndCheckOpening(Bench& b, OpeningSet& set, Row& r, MorphOp op, double angle, int length, LineAlgorithm alg,
                         const std::vector<U8>* ref) {
    const int n = static_cast<int>(set.src.size());
    r.st = timeDevice(engineStream(), b.opt.warmup, b.opt.reps, [&](int i) {
        engineMorph(op, set.src[static_cast<std::size_t>(i % n)], set.dst[static_cast<std::size_t>(i % n)], angle, length, alg);
    });
    if (ref) {
        bool ok = true;
        std::string result;
        for (const int poison : {0x00, 0xFF}) {
            set.dst[0].fill(static_cast<unsigned char>(poison), engineStream());
            engineMorph(op, set.src[0], set.dst[0], angle, length, alg);
            const std::vector<U8> got = set.dst[0].download();
            bool same = false;
            result = compareExact<U8>(got, *ref, set.width, same);
            if (!same) {
                ok = false;
                result += " (output poisoned with " + std::to_string(poison) + ")";
                break;
            }
        }
        r.check = ok ? "= CPU" : "DIFFERS";
        b.check(r.workload + " [" + r.algorithm + "] vs CPU backend", result, ok);
    }
}

Row openingRow(const std::string& section, const std::string& impl, const std::string& algorithm, MorphOp op, int w, int h,
               double angle, int length) {
    Row r;
    r.section = section;
    r.impl = impl;
    r.algorithm = algorithm;
    r.width = w;
    r.height = h;
    r.length = length;
    r.angle = angle;
    r.workload = std::string(linescope::morphOpName(op)) + " " + sizeText(w, h) + " u8, " + degrees(angle) + ", λ=" +
                 std::to_string(length);
    r.floorBytes = 2.0 * w * h;
    return r;
}

// Times one engine operation over the set; checks it against `ref` (when given) with the
// output poisoned first. A failure (say, a combination a kernel refuses) becomes a row and a
// failed check, so that the rest of the section still runs.
Row engineOpening(Bench& b, OpeningSet& set, const std::string& section, MorphOp op, double angle, int length,
                  LineAlgorithm alg, const std::vector<U8>* ref) {
    Row r = openingRow(section, "engine (device)", algoLabel(alg), op, set.width, set.height, angle, length);
    try {
        auto lock = lockEngine();
        timeAndCheckOpening(b, set, r, op, angle, length, alg, ref);
    } catch (const std::exception& e) {
        (void)cudaGetLastError();
        r.st = Stats{kNaN, kNaN, kNaN, 0};
        r.check = "FAILED";
        r.note = e.what();
        b.check(r.workload + " [" + r.algorithm + "]", std::string("stopped: ") + e.what(), false);
    }
    return r;
}

// Times a device-resident sweep (inputs in rotation) and checks it against the CPU sweep.
Row engineSweep(Bench& b, const std::string& section, int w, int h, const SweepRequest& req, const std::string& what) {
    Row r;
    r.section = section;
    r.impl = "engine (device)";
    r.algorithm = algoLabel(LineAlgorithm::Auto);
    r.width = w;
    r.height = h;
    r.angles = req.angles.count;
    r.length = req.length;
    char range[96];
    std::snprintf(range, sizeof range, "%d angles %g:%g°", req.angles.count, req.angles.start, req.angles.step);
    r.workload = std::string("sweep ") + sizeText(w, h) + ", " + range + ", " + linescope::morphOpName(req.op) +
                 " λ=" + std::to_string(req.length) + (what.empty() ? "" : " (" + what + ")");
    const double px = static_cast<double>(w) * h;
    r.floorBytes = px * (1 + 3 + 2) + 8.0 * req.angles.count;  // in; sup, inf, strength (u8), arg (u16); spectrum
    r.unfusedBytes = 2.0 * px * req.angles.count;
    const std::vector<U8>& host = b.image(w, h);
    const int n = b.rotations(w, h, 1);
    std::vector<DeviceImage<U8>> in;
    for (int i = 0; i < n; ++i) {
        in.emplace_back(w, h);
        in.back().upload(host);
    }
    EngineSweep device;
    SweepOnHost got;
    {
        auto lock = lockEngine();
        r.st = timeDevice(engineStream(), b.opt.warmup, b.opt.reps,
                          [&](int i) { device.run(in[static_cast<std::size_t>(i % n)], req); });
        if (b.opt.check) {
            device.poison(0xA5);  // every result must be written again by the next run
            device.run(in[0], req);
            got = device.download();
        }
    }
    if (b.opt.check) {
        const auto want = cpuSweep(host, w, h, req);
        bool ok = true;
        std::string result;
        auto part = [&](const char* name, auto gotSpan, auto wantSpan) {
            bool same = false;
            using T = typename decltype(wantSpan)::value_type;
            const std::string s = compareExact<std::remove_const_t<T>>(gotSpan, wantSpan, w, same);
            if (!same) {
                ok = false;
                result += std::string(result.empty() ? "" : "; ") + name + " " + s;
            }
        };
        part("sup", std::span<const U8>(got.sup), want.sup.pixels());
        part("inf", std::span<const U8>(got.inf), want.inf.pixels());
        part("strength", std::span<const U8>(got.strength), want.strength.pixels());
        part("arg", std::span<const std::uint16_t>(got.arg), want.argIndex.pixels());
        part("spectrum", std::span<const std::int64_t>(got.spectrum), std::span<const std::int64_t>(want.spectrumExact));
        r.check = ok ? "= CPU" : "DIFFERS";
        b.check(r.workload + " vs CPU backend (sup, inf, strength, arg, spectrum)", ok ? "identical" : result, ok);
    }
    r.note = "per-angle floor " + fmtNum(b.floorMs(r.unfusedBytes) * 1e3) + " µs";
    return r;
}

// ---------------------------------------------------------------------------------------------
// Tables

void addRows(Bench& b, const std::vector<Row>& rs) { b.rows.insert(b.rows.end(), rs.begin(), rs.end()); }

std::string rowsTable(const Bench& b, const std::vector<Row>& rs) {
    Table t;
    t.header = {"workload"};
    for (const char* h : {"algorithm", "median ms", "min–max ms", "Mpx/s", "floor µs", "× floor", "check", "note"})
        t.header.push_back(h);
    for (const Row& r : rs) {
        std::vector<std::string> c{r.workload};
        const double floor = b.floorMs(r.floorBytes);
        c.push_back(r.algorithm);
        c.push_back(fmtMs(r.ms()));
        c.push_back(fmtMs(r.st.minMs * r.extrapolate) + "–" + fmtMs(r.st.maxMs * r.extrapolate));
        c.push_back(fmtNum(r.mpxPerS(), 4));
        c.push_back(fmtNum(floor * 1e3));
        c.push_back(fmtNum(r.ms() / floor) + "×");
        c.push_back(r.check);
        c.push_back(r.note);
        t.rows.push_back(std::move(c));
    }
    return t.render();
}

// ---------------------------------------------------------------------------------------------
// Sections

void measureCopyFloor(Bench& b) {
    std::size_t freeBytes = 0, total = 0;
    LSB_CHECK(cudaMemGetInfo(&freeBytes, &total));
    const std::size_t bytes = std::min<std::size_t>(std::size_t(1) << 30, freeBytes / 4) & ~std::size_t(4095);
    void *a = nullptr, *c = nullptr;
    LSB_CHECK(cudaMalloc(&a, bytes));
    LSB_CHECK(cudaMalloc(&c, bytes));
    LSB_CHECK(cudaMemset(a, 0x5A, bytes));
    cudaStream_t s = nullptr;
    LSB_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    const Stats st = timeDevice(s, 2, 10, [&](int) { LSB_CHECK(cudaMemcpyAsync(c, a, bytes, cudaMemcpyDeviceToDevice, s)); });
    LSB_CHECK(cudaStreamDestroy(s));
    LSB_CHECK(cudaFree(a));
    LSB_CHECK(cudaFree(c));
    b.copyBytesPerS = 2.0 * static_cast<double>(bytes) / (st.medianMs / 1e3);
    char line[256];
    std::snprintf(line, sizeof line,
                  "Device-to-device copy (cudaMemcpyAsync of %zu MiB, median of %d): %.3f ms, %.0f GB/s counting bytes "
                  "read + written. Every \"floor\" below is (bytes in + bytes out) ÷ this bandwidth.\n\n",
                  bytes >> 20, st.reps, st.medianMs, b.copyBytesPerS / 1e9);
    b.emit(line);
}

void sectionSweep640(Bench& b) {
    b.emit("## Sweep 640×640, 180 angles (engine, device-resident)\n\n");
    std::vector<Row> rs;
    for (int length : {11, 21, 41, 101}) {
        const SweepRequest req{MorphOp::Open, length, AngleSet{0, 1, 180}};
        Row r = engineSweep(b, "sweep640", 640, 640, req, "sup+inf+arg+strength+spectrum");
        r.key = "sweep-640-" + std::to_string(length);
        b.entry(r.key, "sweep 640×640 u8, 180 angles, opening λ=" + std::to_string(length),
                length == 41 ? "≤ 1 ms (design §3); Karas et al. 58 ms on a C2050" : "")
            .engineMs = r.ms();
        rs.push_back(r);
    }
    b.emit(rowsTable(b, rs) + "\n");
    addRows(b, rs);
}

void sectionOpen4096(Bench& b, OpeningSet& set) {
    b.emit("## One opening of 4096×4096 u8 (engine, device-resident)\n\n");
    std::vector<Row> rs;
    for (double angle : {0.0, 30.0, 45.0, 90.0}) {
        for (int length : {11, 41, 251, 501}) {
            std::vector<U8> ref;
            if (b.opt.check) ref = cpuMorph(b.image(set.width, set.height), set.width, set.height, MorphOp::Open, angle, length);
            for (LineAlgorithm alg : {LineAlgorithm::Auto, LineAlgorithm::Fifo, LineAlgorithm::Stack}) {
                Row r = engineOpening(b, set, "open4096", MorphOp::Open, angle, length, alg, b.opt.check ? &ref : nullptr);
                r.key = "open-4096-" + num(angle) + "-" + std::to_string(length) + "-" + linescope::algorithmName(alg);
                if (angle == 30.0 && alg == LineAlgorithm::Auto)
                    b.entry("open-4096-30-" + std::to_string(length),
                            "one opening 4096×4096 u8, 30°, λ=" + std::to_string(length), "≤ 0.5 ms (design §3)")
                        .engineMs = r.ms();
                rs.push_back(r);
            }
        }
    }
    b.emit(rowsTable(b, rs) + "\n");
    addRows(b, rs);
}

void sectionSweep4k(Bench& b) {
    b.emit("## Sweep 3840×2160, 180 angles (engine, device-resident)\n\n");
    const SweepRequest req{MorphOp::Open, 41, AngleSet{0, 1, 180}};
    Row r = engineSweep(b, "sweep4k", 3840, 2160, req, "sup+inf+arg+strength+spectrum");
    r.key = "sweep-3840x2160-41";
    b.entry(r.key, "sweep 3840×2160 u8, 180 angles, opening λ=41", "≤ 16 ms (design §3)").engineMs = r.ms();
    b.emit(rowsTable(b, {r}) + "\n");
    addRows(b, {r});
}

// u16 and float32 sweeps beside u8 (their results are checked by the CUDA test suite).
void sectionSweepTypes(Bench& b) {
    b.emit("## Sweeps of uint16 and float32 images (engine, device-resident; 180 angles, opening λ=41)\n\n"
           "float32 of 256 values runs as 16-bit ranks, float32 of more than 65,536 values on the float kernels "
           "(the ranking included in its time).\n\n"
           "| image | u8 ms | uint16 ms | ×u8 | float32 ms | ×u8 | float32, > 65,536 values ms | ×u8 |\n"
           "|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const auto& [w, h] : {std::pair{640, 640}, std::pair{3840, 2160}}) {
        const SweepRequest req{MorphOp::Open, 41, AngleSet{0, 1, 180}};
        const std::vector<U8>& host = b.image(w, h);
        DeviceImage<U8> in(w, h);
        in.upload(host);
        EngineSweep device;
        double u8 = 0;
        {
            auto lock = lockEngine();
            u8 = timeDevice(engineStream(), b.opt.warmup, b.opt.reps, [&](int) { device.run(in, req); }).medianMs;
        }
        const double u16 = timeTypedSweep(1, host, w, h, req, b.opt.warmup, b.opt.reps).medianMs;
        const double f32 = timeTypedSweep(2, host, w, h, req, b.opt.warmup, b.opt.reps).medianMs;
        const double f32Many = timeTypedSweep(3, host, w, h, req, b.opt.warmup, b.opt.reps).medianMs;
        b.emit("| " + sizeText(w, h) + " | " + fmtMs(u8) + " | " + fmtMs(u16) + " | " + fmtNum(u16 / u8) + "× | " +
               fmtMs(f32) + " | " + fmtNum(f32 / u8) + "× | " + fmtMs(f32Many) + " | " + fmtNum(f32Many / u8) + "× |\n");
    }
    b.emit("\n");
}

// Issue 18's granulometry: S(λ) for λ = 1 … 256 of a 2048² u8 image at one angle, from host
// memory (the upload, the one-pass walk of every line, the buckets back), wall clock; the CPU
// engine (every core of this machine) in the same run, and the two checked equal.
void sectionGranulometry(Bench& b) {
    const int w = 2048, h = 2048, maxLength = 256;
    const std::vector<U8>& host = b.image(w, h);
    const ImageView<const U8> view{host.data(), w, h};
    b.emit("## Granulometry: λ = 1 … 256 of 2048×2048 u8 at one angle (from host memory, wall clock)\n\n"
           "| angle | GPU ms | CPU ms (all cores) | CPU ÷ GPU | check |\n|---|---:|---:|---:|---|\n");
    for (const double angle : {0.0, 30.0, 45.0, 90.0}) {
        GranulometryRequest req;
        req.angle = angle;
        req.maxLength = maxLength;
        std::optional<Granulometry> gpu, cpu;
        const Stats g = timeHost(b.opt.warmup, b.opt.reps, [&](int) {
            gpu = linescope::granulometry<U8>(view, req, EngineOptions{Backend::Cuda});
        });
        const Stats c = timeHost(1, std::max(3, b.opt.reps / 5), [&](int) {
            cpu = linescope::granulometry<U8>(view, req, EngineOptions{Backend::Cpu});
        });
        const bool same = gpu && cpu && gpu->sumsExact == cpu->sumsExact;
        b.emit("| " + fmtNum(angle) + "° | " + fmtMs(g.medianMs) + " | " + fmtMs(c.medianMs) + " | " +
               fmtNum(c.medianMs / g.medianMs) + "× | " + (same ? "= CPU" : "**differs**") + " |\n");
    }
    b.emit("\n");
}

// Issue 21's orientation field of a 500-dpi print (≤ 5 ms on the H100): estimateOrientationField
// in this process (after warm-ups) on synthetic ridges of the bundled prints' sizes, the CUDA
// backend with the default parameters and with the host's regularisation of before (fine σ
// 0.6, the coarse window round, no refinement at singular points), the CPU beside; wall clock.
void sectionField(Bench& b) {
    b.emit("## Orientation field of a print (in-process, wall clock)\n\n"
           "| print size | CUDA ms (median / min) | CUDA, host regularisation of before ms | CPU ms | check |\n"
           "|---|---:|---:|---:|---|\n");
    for (const auto& [w, h] : {std::pair{400, 450}, std::pair{324, 411}, std::pair{401, 459}}) {
        std::vector<U8> host(static_cast<std::size_t>(w) * static_cast<std::size_t>(h));
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)  // curved ridges of a ~9-pixel period with some noise
                host[static_cast<std::size_t>(y) * w + x] = static_cast<U8>(
                    128 + 100 * std::sin(0.7 * (x * 0.8 + y * 0.6 + 0.002 * x * y)) + (x * 7919 + y * 104729) % 20);
        const ImageView<const U8> view{host.data(), w, h};
        linescope::OrientationFieldParams now, before;
        before.smoothing = 0.6;
        before.coarseAcross = before.coarseSmoothing;
        before.refineSingularPoints = false;
        linescope::OrientationField gpu, cpu;
        const Stats g = timeHost(b.opt.warmup, b.opt.reps, [&](int) {
            gpu = linescope::estimateOrientationField<U8>(view, now, EngineOptions{Backend::Cuda});
        });
        const Stats gb = timeHost(b.opt.warmup, b.opt.reps, [&](int) {
            (void)linescope::estimateOrientationField<U8>(view, before, EngineOptions{Backend::Cuda});
        });
        const Stats c = timeHost(1, std::max(3, b.opt.reps / 3), [&](int) {
            cpu = linescope::estimateOrientationField<U8>(view, now, EngineOptions{Backend::Cpu});
        });
        const bool same = gpu.angle == cpu.angle && gpu.coherence == cpu.coherence && gpu.foreground == cpu.foreground;
        b.emit("| " + std::to_string(w) + "×" + std::to_string(h) + " | " + fmtMs(g.medianMs) + " / " + fmtMs(g.minMs) +
               " | " + fmtMs(gb.medianMs) + " | " + fmtMs(c.medianMs) + " | " + (same ? "= CPU" : "**differs**") + " |\n");
    }
    b.emit("\n");
}

// Issue 18's line kinds: one opening of 4096² u8 by line paths, the segment and the periodic
// line (device time), and NPP's erosion + dilation with the segment's own mask (the brute
// force of the same kernel; its replicated border differs from ours, its time is the peer's).
void sectionKinds(Bench& b) {
    const int w = 4096, h = 4096;
    DeviceImage<U8> src(w, h), tmp(w, h), dst(w, h);
    src.upload(b.image(w, h));
    std::string why;
    const auto npp = NppPeer::load(&why);
    b.emit("## Line kinds: one opening of 4096×4096 u8 (device time)\n\n"
           "| angle | λ | paths ms | segment ms | ÷ paths | periodic ms | ÷ paths | NPP, segment mask ms |\n"
           "|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const double angle : {0.0, 30.0, 45.0, 63.4})
        for (const int length : {41, 251}) {
            double paths = 0, segment = 0, periodic = 0, nppMs = 0;
            {
                auto lock = lockEngine();
                paths = timeDevice(engineStream(), b.opt.warmup, b.opt.reps, [&](int) {
                            engineMorph(MorphOp::Open, src, dst, angle, length, LineAlgorithm::Auto);
                        }).medianMs;
                segment = timeDevice(engineStream(), b.opt.warmup, b.opt.reps, [&](int) {
                              engineKernelMorph(MorphOp::Open, src, tmp, dst, angle, length, linescope::LineKind::Segment);
                          }).medianMs;
                periodic = timeDevice(engineStream(), b.opt.warmup, b.opt.reps, [&](int) {
                               engineKernelMorph(MorphOp::Open, src, tmp, dst, angle, length, linescope::LineKind::Periodic);
                           }).medianMs;
            }
            if (npp) {
                const std::vector<linescope::Offset> offsets =
                    linescope::lineKernel(linescope::LineKind::Segment, angle, length).offsets();
                const linescope::OffsetBox box = linescope::boundingBox(offsets);
                SegmentMask m;
                m.width = box.width();
                m.height = box.height();
                m.anchorX = -box.minX;
                m.anchorY = -box.minY;
                m.count = static_cast<int>(offsets.size());
                m.bits.assign(static_cast<std::size_t>(m.width) * static_cast<std::size_t>(m.height), 0);
                for (const linescope::Offset& o : offsets)
                    m.bits[static_cast<std::size_t>(o.dy - box.minY) * static_cast<std::size_t>(m.width) +
                           static_cast<std::size_t>(o.dx - box.minX)] = 1;
                const DeviceMask mask(m);
                cudaStream_t s = engineStream();
                nppMs = timeDevice(s, 1, std::max(3, b.opt.reps / 5), [&](int) { npp->open(src, tmp, dst, mask, s); }).medianMs;
            }
            b.emit("| " + degrees(angle) + " | " + std::to_string(length) + " | " + fmtMs(paths) + " | " + fmtMs(segment) +
                   " | " + fmtNum(segment / paths) + "× | " + fmtMs(periodic) + " | " + fmtNum(periodic / paths) + "× | " +
                   (npp ? fmtMs(nppMs) : std::string("n/a")) + " |\n");
        }
    b.emit(npp ? "\n" : "\nNPP: not available (" + why + ")\n\n");
}

void sectionAngles(Bench& b, OpeningSet& set) {
    const int step = b.opt.quick ? 5 : 1;
    const int length = 41;
    b.emit("## Throughput against angle: one opening of 4096×4096 u8, λ=41, auto (band) kernel\n\n"
           "Mpx/s of one opening (median of " + std::to_string(b.opt.reps) + "); row = tens of degrees, column = units.\n\n");
    std::vector<Row> rs;
    std::map<int, double> mpx;
    int checked = 0, same = 0;
    for (int a = 0; a < 180; a += step) {
        std::vector<U8> ref;
        if (b.opt.check) ref = cpuMorph(b.image(set.width, set.height), set.width, set.height, MorphOp::Open, a, length);
        const std::size_t before = b.checks.size();
        Row r = engineOpening(b, set, "angles", MorphOp::Open, a, length, LineAlgorithm::Auto, b.opt.check ? &ref : nullptr);
        if (b.opt.check) {
            ++checked;
            // One line for all angles below instead of 180 lines of "ok"; failures stay listed.
            if (r.check == "= CPU") {
                ++same;
                b.checks.resize(before);
            }
        }
        r.key = "open-4096-" + std::to_string(a) + "-" + std::to_string(length) + "-scan";
        mpx[a] = r.mpxPerS();
        rs.push_back(r);
    }
    Table t;
    t.header = {"angle"};
    for (int u = 0; u < 10; u += step) t.header.push_back("+" + std::to_string(u));
    for (int tens = 0; tens < 180; tens += 10) {
        std::vector<std::string> c{std::to_string(tens) + "°"};
        for (int u = 0; u < 10; u += step) c.push_back(mpx.count(tens + u) ? fmtNum(mpx[tens + u], 4) : "");
        t.rows.push_back(std::move(c));
    }
    const auto slowest = std::min_element(rs.begin(), rs.end(), [](const Row& x, const Row& y) { return x.mpxPerS() < y.mpxPerS(); });
    const auto fastest = std::max_element(rs.begin(), rs.end(), [](const Row& x, const Row& y) { return x.mpxPerS() < y.mpxPerS(); });
    std::vector<double> all;
    for (const Row& r : rs) all.push_back(r.ms());
    const Stats over = statsOf(all);
    std::string text = t.render() + "\n";
    text += "Slowest: " + slowest->workload + ", " + fmtMs(slowest->ms()) + " ms (" + fmtNum(slowest->mpxPerS(), 4) +
            " Mpx/s); fastest: " + fastest->workload + ", " + fmtMs(fastest->ms()) + " ms; median over angles " +
            fmtMs(over.medianMs) + " ms; memory floor " + fmtNum(b.floorMs(slowest->floorBytes) * 1e3) + " µs.";
    if (b.opt.check) text += " Checks against the CPU backend: " + std::to_string(same) + "/" + std::to_string(checked) + " identical.";
    b.emit(text + "\n\n");
    if (b.opt.check && same == checked) b.check("angle scan, λ=41, every angle vs CPU backend", std::to_string(same) + "/" + std::to_string(checked) + " identical", true);
    b.entry("open-4096-worst-41", "one opening 4096×4096 u8, λ=41, slowest angle (" + degrees(slowest->angle) + ")",
            "≤ 0.5 ms at any angle (design §3)")
        .engineMs = slowest->ms();
    addRows(b, rs);
}

void sectionLengths(Bench& b, OpeningSet& set) {
    const double angle = 30;
    b.emit("## Throughput against λ: one opening of 4096×4096 u8 at 30°\n\n");
    std::vector<Row> rs;
    Table t;
    t.header = {"λ", "auto (band) ms", "auto Mpx/s", "fifo ms", "fifo Mpx/s", "stack ms", "stack Mpx/s", "× floor (auto)", "check"};
    for (int length : {3, 5, 11, 21, 41, 81, 161, 251, 501, 1001}) {
        std::vector<U8> ref;
        if (b.opt.check) ref = cpuMorph(b.image(set.width, set.height), set.width, set.height, MorphOp::Open, angle, length);
        std::vector<std::string> c{std::to_string(length)};
        std::string checks;
        double autoFloor = kNaN;
        for (LineAlgorithm alg : {LineAlgorithm::Auto, LineAlgorithm::Fifo, LineAlgorithm::Stack}) {
            Row r = engineOpening(b, set, "lengths", MorphOp::Open, angle, length, alg, b.opt.check ? &ref : nullptr);
            r.key = "open-4096-30-" + std::to_string(length) + "-" + linescope::algorithmName(alg) + "-lscan";
            c.push_back(fmtMs(r.ms()));
            c.push_back(fmtNum(r.mpxPerS(), 4));
            if (alg == LineAlgorithm::Auto) autoFloor = r.ms() / b.floorMs(r.floorBytes);
            if (!r.check.empty()) checks += std::string(checks.empty() ? "" : " ") + r.algorithm.substr(0, r.algorithm.find(' ')) + (r.check == "= CPU" ? " ✓" : " ✗");
            rs.push_back(r);
        }
        c.push_back(fmtNum(autoFloor) + "×");
        c.push_back(checks);
        t.rows.push_back(std::move(c));
    }
    b.emit(t.render() + "\n");
    addRows(b, rs);
}

void sectionPaper(Bench& b) {
    b.emit("## Karas et al. (2015), table 2 workloads (engine, device-resident)\n\n"
           "Their GPU column: Tesla C2050, Bartovsky FIFO kernel. Fingerprint: λ=41 (their Fig. 1); textures D15/D47: "
           "the paper does not state λ, 41 is assumed (design.md §3); music sheets: 81 closings, λ=250, −10°…10° by "
           "0.25° (their §6.1.3). Our sweep computes sup+inf+arg+strength+spectrum in every case.\n\n");
    struct Paper {
        const char* key;
        const char* name;
        int w, h;
        SweepRequest req;
        double paperMs;
    };
    const AngleSet all{0, 1, 180}, skew{-10, 0.25, 81};
    const std::vector<Paper> ps = {
        {"paper-fingerprint", "Fingerprint", 784, 1133, {MorphOp::Open, 41, all}, 115.9},
        {"paper-texture", "D15 / D47 texture", 640, 640, {MorphOp::Open, 41, all}, 58.0},
        {"paper-music1", "Music1", 1000, 1411, {MorphOp::Close, 250, skew}, 129.3},
        {"paper-music2", "Music2", 1000, 1301, {MorphOp::Close, 250, skew}, 136.5},
    };
    std::vector<Row> rs;
    Table t;
    t.header = {"image", "size", "angles", "op, λ", "engine ms", "paper GPU ms (C2050)", "paper ÷ engine", "floor µs", "× floor", "check"};
    for (const Paper& p : ps) {
        Row r = engineSweep(b, "paper", p.w, p.h, p.req, "");
        r.key = p.key;
        b.entry(r.key, std::string("Karas table 2: ") + p.name + " " + sizeText(p.w, p.h) + ", " + std::to_string(p.req.angles.count) +
                           " " + (p.req.op == MorphOp::Open ? "openings" : "closings") + " λ=" + std::to_string(p.req.length),
                "paper: " + fmtNum(p.paperMs) + " ms (C2050)")
            .engineMs = r.ms();
        const double floor = b.floorMs(r.floorBytes);
        t.rows.push_back({p.name, sizeText(p.w, p.h), std::to_string(p.req.angles.count),
                          std::string(linescope::morphOpName(p.req.op)) + ", " + std::to_string(p.req.length), fmtMs(r.ms()),
                          fmtNum(p.paperMs), fmtNum(p.paperMs / r.ms()) + "×", fmtNum(floor * 1e3), fmtNum(r.ms() / floor) + "×", r.check});
        rs.push_back(r);
    }
    b.emit(t.render() + "\n");
    addRows(b, rs);
}

// The GPU contours, device-resident (findContoursDevice), with the download of the contour
// arrays: the paper's three sizes with 1 … 10 000 borders, and 16384×16384.
void sectionContours(Bench& b) {
    b.emit("## Contours (device-resident, RETR_TREE + CHAIN_APPROX_NONE, including the download of the contour arrays)\n\n"
           "Images: discs on a jittered grid, a third with a hole, some holes with an island (fixed seed). Time: host "
           "clock around linescope::cuda::findContoursDevice, which returns the contours in host memory; the phases are "
           "the engine's CUDA events (medians). GPU rectangles 32×32 unless said. Checked against the CPU engine.\n\n");
    std::vector<ContourWorkload> workloads;
    const std::vector<int> counts = b.opt.quick ? std::vector<int>{1, 400, 10000} : std::vector<int>{1, 10, 100, 400, 1000, 10000};
    for (auto [w, h] : {std::pair{1232, 1028}, std::pair{2464, 2056}, std::pair{4928, 4112}})
        for (int n : counts) workloads.push_back({w, h, n});
    if (!b.opt.quick) {
        workloads.push_back({16384, 16384, 400});
        workloads.push_back({16384, 16384, 100000});
    }
    const int reps = b.opt.reps;
    Table t;
    t.header = {"workload", "contours", "points", "median ms", "min–max ms", "preprocess", "track", "connect",
                "hierarchy", "download", "check"};
    std::vector<Row> rs;
    auto add = [&](const ContourRun& run, const std::string& rects) {
        Row r;
        r.section = "contours";
        r.key = run.key + (rects == "32×32" ? "" : "-" + rects);
        r.workload = run.workload;
        r.impl = "engine (device)";
        r.algorithm = rects + " rectangles";
        r.width = run.width;
        r.height = run.height;
        r.st = run.wall;
        r.floorBytes = static_cast<double>(run.width) * run.height + 8.0 * static_cast<double>(run.points);
        r.check = run.check;
        r.note = "phases ms: preprocess " + fmtMs(run.phases.preprocess) + ", track " + fmtMs(run.phases.track) +
                 ", connect " + fmtMs(run.phases.connect) + ", hierarchy " + fmtMs(run.phases.hierarchy) + ", download " +
                 fmtMs(run.phases.download);
        if (!run.check.empty()) b.check(run.workload + " [" + rects + "] vs CPU engine", run.checkDetail, run.check == "= CPU");
        rs.push_back(r);
    };
    for (const ContourWorkload& w : workloads) {
        int made = 0;
        const std::vector<U8> pixels = contourImage(w, &made);
        if (!b.opt.dumpInputs.empty()) dumpContourImage(b.opt.dumpInputs, w, pixels);
        const ContourRun run = runContourWorkload(w, pixels, made, linescope::ContourTuning{}, b.opt.warmup, reps,
                                                  b.rotations(w.width, w.height, 1), b.opt.check);
        add(run, "32×32");
        t.rows.push_back({run.workload, std::to_string(run.contours), std::to_string(run.points), fmtMs(run.wall.medianMs),
                          fmtMs(run.wall.minMs) + "–" + fmtMs(run.wall.maxMs), fmtMs(run.phases.preprocess),
                          fmtMs(run.phases.track), fmtMs(run.phases.connect), fmtMs(run.phases.hierarchy),
                          fmtMs(run.phases.download), run.check});
        const bool headline = w.width == 4928 && w.borders == 400;
        b.entry(run.key, "findContours " + sizeText(w.width, w.height) + ", " + std::to_string(made) + " borders (tree, none)",
                headline ? "≤ 1 ms (design §3); OpenCV 5.0 1 thread 14.6 ms; Garcia-Molla et al. 3.65 ms (RTX 5000)" : "")
            .engineMs = run.wall.medianMs;
    }
    b.emit(t.render() + "\n");

    // The headline image with other rectangles, and through the host API (upload included).
    const ContourWorkload headline{4928, 4112, 400};
    int made = 0;
    const std::vector<U8> pixels = contourImage(headline, &made);
    Table rt;
    rt.header = {"GPU rectangles", "median ms", "min–max ms", "track", "connect", "check"};
    for (auto [rw, rh] : {std::pair{16, 16}, std::pair{32, 16}, std::pair{32, 32}, std::pair{62, 32}, std::pair{62, 64}}) {
        linescope::ContourTuning tuning;
        tuning.gpuRectWidth = rw;
        tuning.gpuRectHeight = rh;
        const ContourRun run = runContourWorkload(headline, pixels, made, tuning, b.opt.warmup, reps,
                                                  b.rotations(headline.width, headline.height, 1), b.opt.check);
        const std::string rects = std::to_string(rw) + "×" + std::to_string(rh);
        if (rects != "32×32") add(run, rects);
        rt.rows.push_back({rects, fmtMs(run.wall.medianMs), fmtMs(run.wall.minMs) + "–" + fmtMs(run.wall.maxMs),
                           fmtMs(run.phases.track), fmtMs(run.phases.connect), run.check});
    }
    b.emit("The " + sizeText(headline.width, headline.height) + " image with " + std::to_string(made) +
           " borders and other rectangle sizes:\n\n" + rt.render() + "\n");
    std::string why;
    if (linescope::backendAvailable(Backend::Cuda, &why)) {
        EngineOptions cuda;
        cuda.backend = Backend::Cuda;
        const Stats e2e = timeHost(b.opt.warmup, b.opt.hostReps, [&](int) {
            (void)linescope::findContours({pixels.data(), headline.width, headline.height}, linescope::ContourMode::Tree,
                                          linescope::ContourApprox::None, cuda);
        });
        b.entry("contours-4928x4112-400", "").e2eMs = e2e.medianMs;
        b.emit("Through the host API (linescope::findContours with the CUDA backend: upload, contours, download): " +
               fmtMs(e2e.medianMs) + " ms (median of " + std::to_string(e2e.reps) + ").\n\n");
    }
    addRows(b, rs);
}

void sectionHost(Bench& b) {
    b.emit("## End to end through the host API (upload + compute + download, wall clock)\n\n");
    std::string why;
    if (!linescope::backendAvailable(Backend::Cuda, &why)) {
        b.emit("The host API's CUDA backend is not available: " + why + "\n\n");
        return;
    }
    EngineOptions cuda;
    cuda.backend = Backend::Cuda;
    std::vector<Row> rs;
    Table t;
    t.header = {"workload", "end to end ms", "min–max ms", "device-resident ms", "transfers + overhead ms", "bytes moved host↔device"};
    auto add = [&](const std::string& key, const std::string& label, int w, int h, int angles, double bytes, const std::function<void()>& run) {
        Row r;
        r.section = "host";
        r.key = key + "-e2e";
        r.impl = "engine (host API)";
        r.algorithm = algoLabel(LineAlgorithm::Auto);
        r.workload = label;
        r.width = w;
        r.height = h;
        r.angles = angles;
        r.st = timeHost(std::min(b.opt.warmup, 2) + 1, b.opt.hostReps, [&](int) { run(); });
        r.note = fmtNum(bytes / 1e6) + " MB moved host↔device";  // no device floor: the link is PCIe
        const auto it = b.summary.find(key);
        const double device = it != b.summary.end() ? it->second.engineMs : kNaN;
        if (it != b.summary.end()) it->second.e2eMs = r.ms();
        t.rows.push_back({label, fmtMs(r.ms()), fmtMs(r.st.minMs) + "–" + fmtMs(r.st.maxMs), std::isfinite(device) ? fmtMs(device) : "",
                          std::isfinite(device) ? fmtMs(r.ms() - device) : "", fmtNum(bytes / 1e6) + " MB"});
        rs.push_back(r);
    };
    {
        const int w = 640, h = 640;
        const auto& img = b.image(w, h);
        const SweepRequest req{MorphOp::Open, 41, AngleSet{0, 1, 180}};
        add("sweep-640-41", "sweep 640×640, 180 angles, λ=41 (linescope::sweep)", w, h, 180, w * h * 7.0,
            [&] { (void)linescope::sweep<U8>(hostView(img, w, h), req, cuda); });
    }
    {
        const int w = 4096, h = 4096;
        const auto& img = b.image(w, h);
        std::vector<U8> out(img.size());
        for (int length : {41, 251})
            add("open-4096-30-" + std::to_string(length), "opening 4096×4096, 30°, λ=" + std::to_string(length) + " (linescope::lineMorph)",
                w, h, 1, w * h * 2.0,
                [&] { linescope::lineMorph<U8>(MorphOp::Open, hostView(img, w, h), ImageView<U8>(out.data(), w, h), {30, length}, cuda); });
    }
    {
        const int w = 3840, h = 2160;
        const auto& img = b.image(w, h);
        const SweepRequest req{MorphOp::Open, 41, AngleSet{0, 1, 180}};
        add("sweep-3840x2160-41", "sweep 3840×2160, 180 angles, λ=41 (linescope::sweep)", w, h, 180, w * h * 7.0,
            [&] { (void)linescope::sweep<U8>(hostView(img, w, h), req, cuda); });
    }
    {
        const int w = 1000, h = 1411;
        const auto& img = b.image(w, h);
        const SweepRequest req{MorphOp::Close, 250, AngleSet{-10, 0.25, 81}};
        add("paper-music1", "81 closings 1000×1411, λ=250 (skew spectrum, linescope::sweep)", w, h, 81, w * h * 7.0,
            [&] { (void)linescope::sweep<U8>(hostView(img, w, h), req, cuda); });
    }
    b.emit(t.render() + "\n");
    addRows(b, rs);
}

// The fraction of pixels where a and b differ, over the whole image and at least `margin`
// pixels from every border.
std::string differences(const std::vector<U8>& a, const std::vector<U8>& c, int w, int h, int margin, std::size_t& inner) {
    std::size_t all = 0;
    inner = 0;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const std::size_t i = static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x);
            if (a[i] == c[i]) continue;
            ++all;
            if (x >= margin && y >= margin && x < w - margin && y < h - margin) ++inner;
        }
    const double n = static_cast<double>(w) * h;
    const double ni = static_cast<double>(w - 2 * margin) * (h - 2 * margin);
    return fmtNum(100.0 * static_cast<double>(all) / n) + "% of all pixels, " + fmtNum(100.0 * static_cast<double>(inner) / ni) +
           "% of those ≥ " + std::to_string(margin) + " px from the border";
}

void sectionNpp(Bench& b) {
    b.emit("## NPP peer: nppiErodeBorder + nppiDilateBorder (8u C1, mask = the segment, NPP_BORDER_REPLICATE)\n\n");
    std::string why;
    const auto npp = NppPeer::load(&why);
    if (!npp) {
        b.emit("NPP: not available (" + why + ")\n\n");
        return;
    }
    b.emit(npp->description() + "; mask style: " + maskStyleName(b.opt.mask) + ".\n\n");
    cudaStream_t s = nullptr;
    LSB_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    struct StreamGuard {
        cudaStream_t s;
        ~StreamGuard() { (void)cudaStreamDestroy(s); }
    } guard{s};

    // Semantics first: at 0° and 90° NPP's opening must equal the engine's everywhere (for a
    // horizontal or vertical segment a replicated border pixel is one the window already
    // holds); at 45° only away from the border (a clamped position off the diagonal is not on
    // the segment); at 30° the engine's line paths differ from any fixed mask.
    {
        const int w = 1024, h = 1024, length = 41;
        const auto& img = b.image(w, h);
        DeviceImage<U8> src(w, h), tmp(w, h), dst(w, h);
        src.upload(img);
        std::string lines;
        for (double angle : {0.0, 90.0, 45.0, 30.0}) {
            const DeviceMask mask(segmentMask(angle, length, MaskStyle::Path));
            dst.fill(0xA5, s);
            npp->open(src, tmp, dst, mask, s);
            LSB_CHECK(cudaStreamSynchronize(s));
            const std::vector<U8> got = dst.download();
            const std::vector<U8> want = cpuMorph(img, w, h, MorphOp::Open, angle, length);
            std::size_t inner = 0;
            const std::string d = differences(got, want, w, h, length, inner);
            const bool exact = angle == 0.0 || angle == 90.0;
            bool ok = true;
            if (exact) ok = got == want;
            else if (angle == 45.0) ok = inner == 0;
            const std::string what = "NPP opening vs engine, 1024² λ=41 " + degrees(angle) + " (path mask)";
            if (angle == 30.0) b.checks.push_back("info: " + what + ": differs at " + d + " (expected: line paths)");
            else b.check(what, got == want ? "identical" : "differs at " + d, ok);
            lines += "- " + degrees(angle) + ": " + (got == want ? std::string("identical") : "differs at " + d) + "\n";
        }
        b.emit("NPP opening against the engine's (1024×1024, λ=41; 0°/90° must be identical, 45° identical away from the border):\n" +
               lines + "\n");
    }

    std::vector<Row> rs;
    // One opening of 4096² at 30°.
    {
        const int w = 4096, h = 4096;
        const auto& img = b.image(w, h);
        const int n = b.rotations(w, h, 2);
        std::vector<DeviceImage<U8>> src, dst;
        for (int i = 0; i < n; ++i) {
            src.emplace_back(w, h);
            src.back().upload(img);
            dst.emplace_back(w, h);
        }
        DeviceImage<U8> tmp(w, h);
        for (int length : {11, 41, 251}) {
            const SegmentMask m = segmentMask(30, length, b.opt.mask);
            const DeviceMask mask(m);
            Row r = openingRow("npp", "NPP", "erode+dilate, " + std::to_string(m.width) + "×" + std::to_string(m.height) + " mask",
                               MorphOp::Open, w, h, 30, length);
            r.key = "open-4096-30-" + std::to_string(length) + "-npp";
            r.st = timeDevice(s, 1, b.opt.nppReps, [&](int i) {
                npp->open(src[static_cast<std::size_t>(i % n)], tmp, dst[static_cast<std::size_t>(i % n)], mask, s);
            });
            b.entry("open-4096-30-" + std::to_string(length), "one opening 4096×4096 u8, 30°, λ=" + std::to_string(length)).nppMs = r.ms();
            rs.push_back(r);
        }
    }
    // The 640² sweep: 180 openings, each folded into sup, inf, arg and the spectrum.
    {
        const int w = 640, h = 640, length = 41, count = 180;
        const auto& img = b.image(w, h);
        const int n = b.rotations(w, h, 1);
        std::vector<DeviceImage<U8>> src;
        for (int i = 0; i < n; ++i) {
            src.emplace_back(w, h);
            src.back().upload(img);
        }
        DeviceImage<U8> tmp(w, h), open(w, h), sup(w, h), inf(w, h), strength(w, h);
        DeviceImage<std::uint16_t> arg(w, h);
        unsigned long long* spectrum = nullptr;
        LSB_CHECK(cudaMalloc(&spectrum, sizeof(unsigned long long) * count));
        std::vector<DeviceMask> masks;
        for (int k = 0; k < count; ++k) masks.emplace_back(segmentMask(k, length, b.opt.mask));
        std::vector<int> angles;
        auto pick = [&](int step) {
            angles.clear();
            for (int k = 0; k < count; k += step) angles.push_back(k);
        };
        auto run = [&](int i) {
            const auto& in = src[static_cast<std::size_t>(i % n)];
            LSB_CHECK(cudaMemsetAsync(spectrum, 0, sizeof(unsigned long long) * count, s));
            for (std::size_t j = 0; j < angles.size(); ++j) {
                npp->open(in, tmp, open, masks[static_cast<std::size_t>(angles[j])], s);
                launchSweepFold(open.data(), open.pitch(), w, h, static_cast<int>(j), sup.data(), inf.data(), sup.pitch(),
                                arg.data(), arg.pitch(), spectrum, s);
            }
            launchStrength(sup.data(), inf.data(), strength.data(), sup.pitch(), w, h, s);
        };
        // One untimed pass over all angles decides whether the full sweep fits the budget.
        pick(1);
        const auto t0 = std::chrono::steady_clock::now();
        run(0);
        LSB_CHECK(cudaStreamSynchronize(s));
        const double onePass = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const double budget = b.opt.quick ? 6.0 : 30.0;  // seconds for the timed passes
        Row r;
        if (onePass * b.opt.nppReps > budget) {
            pick(10);
            r.extrapolate = static_cast<double>(count) / static_cast<double>(angles.size());
            r.note = "timed " + std::to_string(angles.size()) + " of 180 angles (every 10th) and scaled ×" + fmtNum(r.extrapolate) +
                     "; one full pass took " + fmtNum(onePass * 1e3) + " ms (host clock)";
        } else {
            r.note = "all 180 angles; fold kernel (sup, inf, arg, spectrum) after each opening";
        }
        r.section = "npp";
        r.impl = "NPP";
        r.algorithm = "erode+dilate per angle";
        r.workload = "sweep 640×640, 180 angles 0:1°, open λ=41 (sup+inf+arg+strength+spectrum)";
        r.key = "sweep-640-41-npp";
        r.width = w;
        r.height = h;
        r.angles = count;
        r.length = length;
        r.floorBytes = static_cast<double>(w) * h * 6 + 8.0 * count;
        r.st = timeDevice(s, 0, b.opt.nppReps, run);
        LSB_CHECK(cudaFree(spectrum));
        auto& e = b.entry("sweep-640-41", "sweep 640×640 u8, 180 angles, opening λ=41");
        e.nppMs = r.ms();
        if (r.extrapolate != 1) e.nppNote = "extrapolated from every 10th angle";
        rs.push_back(r);
    }
    if (!npp->warning().empty()) b.emit("NPP warned: " + npp->warning() + "\n\n");
    b.emit(rowsTable(b, rs) + "\n");
    addRows(b, rs);
}

// ---------------------------------------------------------------------------------------------
// Output files

void writeFiles(const Bench& b) {
    std::filesystem::create_directories(b.opt.out);
    {
        std::ofstream f(b.opt.out + "/gpu-bench.md");
        f << b.md << "## Checks\n\n";
        for (const auto& c : b.checks) f << "- " << c << "\n";
    }
    {
        std::ofstream f(b.opt.out + "/gpu-bench.csv");
        f << "section,key,workload,implementation,algorithm,width,height,angles,length,median_ms,min_ms,max_ms,reps,"
             "extrapolation,mpx_per_s,floor_ms,ratio_to_floor,check,note\n";
        for (const Row& r : b.rows) {
            const double floor = b.floorMs(r.floorBytes);
            f << csvField(r.section) << "," << csvField(r.key) << "," << csvField(r.workload) << "," << csvField(r.impl) << ","
              << csvField(r.algorithm) << "," << r.width << "," << r.height << "," << r.angles << "," << r.length << ","
              << num(r.ms(), 6) << "," << num(r.st.minMs * r.extrapolate, 6) << "," << num(r.st.maxMs * r.extrapolate, 6) << ","
              << r.st.reps << "," << num(r.extrapolate) << "," << num(r.mpxPerS(), 6) << "," << num(floor, 6) << ","
              << num(r.ms() / floor, 4) << "," << csvField(r.check) << "," << csvField(r.note) << "\n";
        }
    }
    {
        std::ofstream f(b.opt.out + "/gpu-bench-summary.csv");
        f << "key,description,engine_device_ms,engine_e2e_ms,npp_ms,npp_note,goal\n";
        for (const auto& key : b.summaryOrder) {
            const SummaryEntry& e = b.summary.at(key);
            f << csvField(key) << "," << csvField(e.description) << "," << num(e.engineMs, 6) << "," << num(e.e2eMs, 6) << ","
              << num(e.nppMs, 6) << "," << csvField(e.nppNote) << "," << csvField(e.goal) << "\n";
        }
    }
}

std::string summaryTable(const Bench& b) {
    Table t;
    t.header = {"workload", "engine device ms", "engine end-to-end ms", "NPP ms", "NPP ÷ engine", "goal / reference"};
    for (const auto& key : b.summaryOrder) {
        const SummaryEntry& e = b.summary.at(key);
        t.rows.push_back({e.description, fmtMs(e.engineMs), fmtMs(e.e2eMs), fmtMs(e.nppMs) + (e.nppNote.empty() ? "" : " *"),
                          std::isfinite(e.nppMs) && std::isfinite(e.engineMs) ? fmtNum(e.nppMs / e.engineMs) + "×" : "", e.goal});
    }
    return t.render();
}

// Runs one section; a failure is reported and the next section runs. The files are
// rewritten after every section, so that a run cut short still leaves what it measured.
template <class F>
void runSection(Bench& b, const std::string& name, F&& f) {
    if (!b.wants(name)) return;
    try {
        f();
    } catch (const std::exception& e) {
        b.failed = true;
        b.checks.push_back("FAILED: section " + name + " stopped: " + e.what());
        b.emit("**Section " + name + " stopped: " + e.what() + "**\n\n");
        (void)cudaGetLastError();
    }
    writeFiles(b);
}

}  // namespace

int main(int argc, char** argv) {
    Bench b(parseOptions(argc, argv));
    try {
        std::string why;
        if (!engineDeviceAvailable(&why)) {
            std::cerr << "linescope-gpu-bench: no usable CUDA device: " << why << "\n";
            return 1;
        }
        LSB_CHECK(cudaGetDeviceProperties(&b.props, 0));
        int driver = 0, runtime = 0;
        LSB_CHECK(cudaDriverGetVersion(&driver));
        LSB_CHECK(cudaRuntimeGetVersion(&runtime));
        char head[512];
        std::snprintf(head, sizeof head,
                      "# LineScope GPU benchmark\n\n- device: %s; L2 %d MiB; driver %d.%d, runtime %d.%d\n"
                      "- %s; device timings: CUDA events, %d warm-up + median of %d runs; host API: median of %d; NPP: median of %d\n"
                      "- Mpx/s = width × height × angles ÷ time (for sweeps: opening-pixels per second)\n\n",
                      engineDeviceDescription().c_str(), b.props.l2CacheSize >> 20, driver / 1000, (driver % 1000) / 10,
                      runtime / 1000, (runtime % 1000) / 10, b.opt.quick ? "--quick" : "full run", b.opt.warmup, b.opt.reps,
                      b.opt.hostReps, b.opt.nppReps);
        b.emit(head);
        measureCopyFloor(b);

        OpeningSet set4096;
        auto openings = [&]() -> OpeningSet& {
            if (set4096.src.empty()) set4096 = makeOpeningSet(b, 4096, 4096);
            return set4096;
        };
        runSection(b, "sweep640", [&] { sectionSweep640(b); });
        runSection(b, "open4096", [&] { sectionOpen4096(b, openings()); });
        runSection(b, "sweep4k", [&] { sectionSweep4k(b); });
        runSection(b, "sweeptypes", [&] { sectionSweepTypes(b); });
        runSection(b, "angles", [&] { sectionAngles(b, openings()); });
        runSection(b, "lengths", [&] { sectionLengths(b, openings()); });
        set4096 = OpeningSet{};  // give the memory back before the peers
        runSection(b, "paper", [&] { sectionPaper(b); });
        runSection(b, "contours", [&] { sectionContours(b); });
        runSection(b, "granulometry", [&] { sectionGranulometry(b); });
        runSection(b, "kinds", [&] { sectionKinds(b); });
        runSection(b, "field", [&] { sectionField(b); });
        runSection(b, "skew", [&] { b.emit(skewStagesSection(b.opt.warmup, b.opt.reps)); });
        runSection(b, "host", [&] { sectionHost(b); });
        runSection(b, "npp", [&] { sectionNpp(b); });
        if (!b.opt.dumpInputs.empty())  // the cv2 peer reads these three whatever sections ran
            for (auto [w, h] : {std::pair{640, 640}, std::pair{4096, 4096}, std::pair{3840, 2160}}) (void)b.image(w, h);

        b.emit("## Summary\n\n" + summaryTable(b) + "\n");
        std::string checks = "## Checks\n\n";
        for (const auto& c : b.checks) checks += "- " + c + "\n";
        std::cout << checks << "\n";
        writeFiles(b);
        std::cout << "Written: " << b.opt.out << "/gpu-bench.md, gpu-bench.csv, gpu-bench-summary.csv\n";
    } catch (const std::exception& e) {
        std::cerr << "linescope-gpu-bench: " << e.what() << "\n";
        try { writeFiles(b); } catch (...) {}
        return 1;
    }
    return b.failed ? 1 : 0;
}
