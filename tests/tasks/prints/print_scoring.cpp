#include "tests/tasks/prints/print_scoring.h"

#include "app/io/image_io.h"
#include "tests/tasks/eval_common.h"

#include <stdexcept>

namespace linescope::tasks {

BlockField engineOrientationField(const cv::Mat& image8, int blockSize, OrientationFieldParams p) {
    p.blockSize = blockSize;
    const OrientationField f = estimateOrientationField<std::uint8_t>(io::viewOf<std::uint8_t>(image8), p);
    return {f.blocksX, f.blocksY, f.blockSize, f.angle};
}

OrientationFieldParams engineParamsBeforeIssue21() {
    OrientationFieldParams p;
    p.length = 15;
    p.smoothing = 1.0;
    p.euclideanLength = false;
    p.presmoothing = 0;
    p.coarseSmoothing = 0;
    p.refineSingularPoints = false;
    return p;
}

PrintScore scorePrint(const SyntheticPrint& print, int blockSize, StructureTensorParams peer,
                      const OrientationFieldParams& engineParams) {
    const BlockField truth = truthBlocks(print.orientation, blockSize);
    const std::vector<unsigned char> fg = foregroundBlocks(print.mask, blockSize);
    PrintScore s;
    const Stopwatch engineClock;
    const BlockField engine = engineOrientationField(print.image, blockSize, engineParams);
    s.engineMs = engineClock.milliseconds();
    peer.blockSize = blockSize;
    const Stopwatch peerClock;
    const BlockField tensor = structureTensorField(print.image, peer);
    s.peerMs = peerClock.milliseconds();
    if (engine.blocksX != truth.blocksX || engine.blocksY != truth.blocksY)
        throw std::runtime_error("the engine's field has " + std::to_string(engine.blocksX) + "×" +
                                 std::to_string(engine.blocksY) + " blocks, expected " +
                                 std::to_string(truth.blocksX) + "×" + std::to_string(truth.blocksY));
    s.engine = compareFields(engine, truth, fg);
    s.peer = compareFields(tensor, truth, fg);
    return s;
}

}  // namespace linescope::tasks
