#include "app/io/atomic_file.h"

#include "app/io/image_io.h"

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <optional>
#include <random>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace linescope::io {

namespace fs = std::filesystem;

namespace {

struct Fault {
    int error = 0;
    std::size_t afterBytes = 0;
};

std::mutex faultMutex;
std::optional<Fault> pendingFault;

std::optional<Fault> takeFault() {
    std::lock_guard lock(faultMutex);
    std::optional<Fault> f;
    f.swap(pendingFault);
    return f;
}

// The error's text ("No space left on device"), with plainer words for a missing folder.
std::string reasonFor(int error, const fs::path& folder) {
    const std::string name = folder.string();
    if (error == ENOENT) return "the folder '" + name + "' does not exist";
    if (error == ENOTDIR) return "'" + name + "' is not a folder";
    return std::generic_category().message(error);
}

[[noreturn]] void fail(const std::string& path, const std::string& why) {
    throw IoError("cannot write '" + path + "': " + why);
}

// Writes every byte (write(2) may write fewer than asked); 0 or the errno.
int writeAll(int fd, std::string_view bytes, const std::optional<Fault>& fault) {
    const std::size_t limit = fault ? std::min(fault->afterBytes, bytes.size()) : bytes.size();
    std::size_t done = 0;
    while (done < limit) {
        const ssize_t n = ::write(fd, bytes.data() + done, limit - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        done += static_cast<std::size_t>(n);
    }
    return fault ? fault->error : 0;
}

// A FIFO or a device cannot be replaced: write into it. A FIFO without a reader would block
// open(2) for ever, so it is opened non-blocking first (ENXIO: nobody reads).
void writeInPlace(const std::string& path, std::string_view bytes, const std::optional<Fault>& fault) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) fail(path, errno == ENXIO ? "nothing reads from this FIFO" : std::generic_category().message(errno));
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    const int error = writeAll(fd, bytes, fault);
    const int closeError = ::close(fd) == 0 ? 0 : errno;
    if (error || closeError) fail(path, std::generic_category().message(error ? error : closeError));
}

// A name no other writer uses: ".out.png.tmp-<random>", hidden, next to the destination.
fs::path temporaryName(const fs::path& target) {
    thread_local std::mt19937_64 random(std::random_device{}() ^
                                        static_cast<std::uint64_t>(::getpid()) ^
                                        static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()));
    static constexpr char hex[] = "0123456789abcdef";
    std::string suffix = ".tmp-";
    for (std::uint64_t r = random(), i = 0; i < 12; ++i, r >>= 4) suffix += hex[r & 15];
    // Stay below NAME_MAX (255) whatever the destination's name.
    const std::string name = target.filename().string().substr(0, 200);
    return target.parent_path() / ("." + name + suffix);
}

// Best effort: makes the rename itself durable. A failure here loses nothing already written.
void syncFolder(const fs::path& folder) {
    const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    ::fsync(fd);
    ::close(fd);
}

}  // namespace

void failNextWriteForTesting(int error, std::size_t afterBytes) {
    std::lock_guard lock(faultMutex);
    pendingFault = Fault{error, afterBytes};
}

void writeFileAtomically(const std::string& path, std::string_view bytes) {
    const std::optional<Fault> fault = takeFault();
    if (path.empty()) throw IoError("cannot write a file with an empty name");
    fs::path target(path);
    std::error_code ec;
    if (fs::is_symlink(fs::symlink_status(target, ec))) target = fs::weakly_canonical(target, ec);
    if (ec) target = path;
    const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
    target = folder / target.filename();

    struct stat old {};
    const bool exists = ::stat(target.c_str(), &old) == 0;
    if (!exists && errno != ENOENT) fail(path, reasonFor(errno, folder));
    if (exists && S_ISDIR(old.st_mode)) fail(path, "it is a folder");
    if (exists && !S_ISREG(old.st_mode)) return writeInPlace(path, bytes, fault);
    // A read-only file stays as it is, as when it was opened for writing (root may write anyway).
    if (exists && ::access(target.c_str(), W_OK) != 0) fail(path, std::generic_category().message(errno));

    // O_EXCL: never reuse a file someone else made; mode 0666 lets the umask apply as for any new file.
    fs::path tmp;
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
        tmp = temporaryName(target);
        fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST) fail(path, reasonFor(errno, folder));
    }
    if (fd < 0) fail(path, "cannot create a temporary file in '" + folder.string() + "'");

    int error = writeAll(fd, bytes, fault);
    if (!error && exists && ::fchmod(fd, old.st_mode & 07777) != 0) error = errno;
    if (!error && ::fsync(fd) != 0) error = errno;
    if (::close(fd) != 0 && !error) error = errno;
    if (!error && ::rename(tmp.c_str(), target.c_str()) != 0) error = errno;
    if (error) {
        ::unlink(tmp.c_str());
        fail(path, std::generic_category().message(error));
    }
    syncFolder(folder);
}

}  // namespace linescope::io
