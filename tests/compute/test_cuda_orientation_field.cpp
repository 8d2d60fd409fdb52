// The orientation field on the CUDA backend (compute/cuda/orientation_blocks.h) against the
// CPU's, exactly: angles, coherence, weights and foreground of every block, for uint8 (smoothed
// into uint16 first) and uint16 images, block sizes that do and do not divide the image, the
// line kinds, and the parameters the window's workbench drags. Skips without a usable GPU.
#include "compute/backend.h"
#include "compute/orientation_field.h"
#include "tests/support/random_images.h"

#include <QtTest>

#include <string>

using namespace linescope;

class TestCudaOrientationField : public QObject {
    Q_OBJECT

    template <class T>
    void compare(const Image<T>& img, const OrientationFieldParams& p, const std::string& what) {
        const OrientationField cpu = estimateOrientationField<T>(img.cview(), p, EngineOptions{Backend::Cpu});
        const OrientationField gpu = estimateOrientationField<T>(img.cview(), p, EngineOptions{Backend::Cuda});
        QVERIFY2(gpu.blocksX == cpu.blocksX && gpu.blocksY == cpu.blocksY, what.c_str());
        for (std::size_t b = 0; b < cpu.angle.size(); ++b) {
            const std::string at = what + " block " + std::to_string(b);
            QVERIFY2(gpu.angle[b] == cpu.angle[b], (at + ": angle " + std::to_string(gpu.angle[b]) + " vs " +
                                                    std::to_string(cpu.angle[b])).c_str());
            QVERIFY2(gpu.coherence[b] == cpu.coherence[b], (at + ": coherence").c_str());
            QVERIFY2(gpu.weight[b] == cpu.weight[b], (at + ": weight").c_str());
            QVERIFY2(gpu.foreground[b] == cpu.foreground[b], (at + ": foreground").c_str());
        }
    }

private slots:
    void initTestCase() {
        std::string why;
        if (!backendAvailable(Backend::Cuda, &why)) QSKIP(("no usable GPU: " + why).c_str());
    }

    void equalsTheCpu() {
        int seed = 1;
        for (const auto kind : {test::ImageKind::Noise, test::ImageKind::Blocky, test::ImageKind::FewLevels}) {
            for (const int block : {16, 7, 32}) {
                OrientationFieldParams p;
                p.blockSize = block;
                compare(test::randomImage<std::uint8_t>(403, 517, static_cast<std::uint64_t>(seed++), kind), p,
                        std::string("u8 ") + test::imageKindName(kind) + " block " + std::to_string(block));
                compare(test::randomImage<std::uint16_t>(250, 190, static_cast<std::uint64_t>(seed++), kind), p,
                        std::string("u16 ") + test::imageKindName(kind) + " block " + std::to_string(block));
            }
        }
        OrientationFieldParams p;
        p.length = 21;
        p.angleCount = 36;
        p.presmoothing = 0;  // the uint8 image itself on the device
        compare(test::randomImage<std::uint8_t>(300, 301, 77, test::ImageKind::Noise), p, "u8 unsmoothed λ 21");
        for (const LineKind kind : {LineKind::Segment, LineKind::Periodic}) {
            OrientationFieldParams q;
            q.kind = kind;
            compare(test::randomImage<std::uint8_t>(160, 170, 78, test::ImageKind::Blocky), q,
                    std::string("u8 ") + lineKindName(kind));
        }
    }
};

QTEST_MAIN(TestCudaOrientationField)
#include "test_cuda_orientation_field.moc"
