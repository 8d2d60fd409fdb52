#include "app/cli/failure.h"

#include "app/cli/args.h"

#include "compute/image.h"

#include <opencv2/core.hpp>

#include <new>
#include <stdexcept>

namespace linescope::cli {

std::string oneLine(std::string text) {
    for (char& c : text)
        if (c == '\n' || c == '\r') c = ' ';
    while (!text.empty() && text.back() == ' ') text.pop_back();
    return text;
}

Failure describeFailure(std::exception_ptr error) {
    try {
        std::rethrow_exception(error);
    } catch (const UsageError& e) {
        return {2, oneLine(e.what())};
    } catch (const Error& e) {
        return {1, oneLine(e.what())};
    } catch (const cv::Exception& e) {
        return {1, oneLine("OpenCV: " + e.err + (e.func.empty() ? "" : " (in " + e.func + ")"))};
    } catch (const std::bad_alloc&) {
        return {1, "out of memory"};
    } catch (const std::exception& e) {
        return {1, oneLine(e.what())};
    } catch (...) {
        return {1, "unexpected failure"};
    }
}

}  // namespace linescope::cli
