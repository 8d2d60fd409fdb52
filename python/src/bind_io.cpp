// imread and imwrite: image files read and written exactly as linescope-cli and the window
// read and write them (app/io), so that a result computed here matches theirs from the file on.
#include "python/src/arrays.h"
#include "python/src/bindings.h"
#include "python/src/cv_mats.h"

#include "app/io/image_io.h"

#include <string>
#include <vector>

namespace linescope::python {

namespace {
// The image, and the notes the CLI prints for it ("converted to grayscale"): the Python
// layer turns them into warnings, which cannot be raised without the GIL.
py::tuple imread(const std::string& path) {
    std::vector<std::string> notes;
    cv::Mat m;
    {
        py::gil_scoped_release release;
        m = io::readImage(path, [&](const std::string& line) { notes.push_back(line); });
    }
    py::array out = io::visitPixelType(m, [&]<class T>(std::type_identity<T>) -> py::array {
        py::array_t<T> a = newArray<T>(m.cols, m.rows);
        const ImageView<T> dst = mutableViewOf(a);
        const ImageView<const T> src = io::viewOf<T>(m);
        for (int y = 0; y < src.height; ++y) std::copy(src.row(y), src.row(y) + src.width, dst.row(y));
        return a;
    });
    py::list noteList;
    for (const std::string& n : notes) noteList.append(n);
    return py::make_tuple(out, noteList);
}

void imwrite(const std::string& path, const py::object& image) {
    const InputImage in = inputImage(image);
    visitPixelType(in, [&]<class T>(std::type_identity<T>) {
        const HeldView<T> src(in);
        const cv::Mat mat = matOf(src.view());
        py::gil_scoped_release release;
        io::writeImage(path, mat);
    });
}
}  // namespace

void bindIo(py::module_& m) {
    m.def("imread", &imread, py::arg("path"), "(image, notes): the file as linescope-cli reads it.");
    m.def("imwrite", &imwrite, py::arg("path"), py::arg("image"),
          "Writes the image as linescope-cli writes its outputs (atomically; the format from the extension).");
}

}  // namespace linescope::python
