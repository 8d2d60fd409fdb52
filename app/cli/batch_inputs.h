// The files a batch runs on, from its --inputs: folders (searched recursively), globs,
// single files and list files (@LIST), each with the relative path under which its
// outputs are mirrored into the output folder.
#pragma once

#include <string>
#include <vector>

namespace linescope::cli {

struct BatchInput {
    std::string path;      // as the source names it, lexically normalized: "scans/a/p1.png"
    std::string relative;  // its mirror below the output folder: "a/p1.png" (never absolute, no "..")
};

// The inputs `sources` name, in the order of their relative paths, each file once:
//  - a folder: every image file below it (by extension, or by signature for files with
//    another one), hidden files and folders skipped, links to folders not followed;
//    relative to the folder;
//  - a glob ('scans/*/p*.png'; * ? [..] as in the shell, no **): the matches, relative to
//    its leading part without wildcards; a matched folder is searched as above;
//  - @LIST: a text file with one path a line (empty lines and lines starting with # are
//    skipped), each taken as a file or folder given alone;
//  - a file: itself, mirrored as its relative path as written (an absolute path, or one
//    that climbs with "..", is mirrored as its absolute path without the leading '/').
// Files at or below `outputFolder` are left out, so that a batch never reads its own
// outputs. A missing source (folder, file or list) or a glob that matches nothing is an
// io::IoError; a missing file in a list is kept, to fail in the batch with its reason.
std::vector<BatchInput> collectBatchInputs(const std::vector<std::string>& sources, const std::string& outputFolder);

}  // namespace linescope::cli
