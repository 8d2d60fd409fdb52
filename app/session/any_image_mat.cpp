#include "app/session/any_image_mat.h"

#include "app/io/image_io.h"

namespace linescope::session {

AnyImage anyImageOf(const cv::Mat& m) {
    return io::visitPixelType(m, [&](auto tag) -> AnyImage {
        using T = typename decltype(tag)::type;
        return Image<T>::copyOf(io::viewOf<T>(m));
    });
}

cv::Mat matOf(const AnyImage& img) {
    return std::visit([](const auto& im) { return io::matOf(im); }, img);
}

}  // namespace linescope::session
