#include "app/io/text_file.h"

#include "app/io/image_io.h"

#include <fstream>

namespace linescope::io {

void writeTextFile(const std::string& path, const std::string& text) {
    std::ofstream f(path, std::ios::binary);
    f << text;
    f.close();
    if (!f) throw IoError("cannot write '" + path + "'");
}

}  // namespace linescope::io
