// Image views and owned images for the engine: uint8, uint16 and float32, with strides.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace linescope {

// Every error the engine reports to its callers: one clear sentence.
class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

enum class PixelType { U8, U16, F32 };

template <class T>
inline constexpr bool kIsPixel = std::is_same_v<std::remove_const_t<T>, std::uint8_t> ||
                                 std::is_same_v<std::remove_const_t<T>, std::uint16_t> ||
                                 std::is_same_v<std::remove_const_t<T>, float>;

template <class T>
constexpr PixelType pixelTypeOf() {
    using U = std::remove_const_t<T>;
    if constexpr (std::is_same_v<U, std::uint8_t>) return PixelType::U8;
    else if constexpr (std::is_same_v<U, std::uint16_t>) return PixelType::U16;
    else return PixelType::F32;
}

const char* pixelTypeName(PixelType t);

// f(T{}) for the pixel type's T: one place that turns a runtime type into a template argument.
template <class F>
decltype(auto) visitPixelType(PixelType t, F&& f) {
    switch (t) {
    case PixelType::U16: return f(std::uint16_t{});
    case PixelType::F32: return f(float{});
    case PixelType::U8: break;
    }
    return f(std::uint8_t{});
}

// A non-owning 2-D view; stride is in elements (not bytes) and may exceed width.
template <class T>
struct ImageView {
    static_assert(kIsPixel<T>, "pixel types are uint8_t, uint16_t and float");
    T* data = nullptr;
    int width = 0;
    int height = 0;
    std::ptrdiff_t stride = 0;

    ImageView() = default;
    ImageView(T* d, int w, int h, std::ptrdiff_t s) : data(d), width(w), height(h), stride(s) {}
    ImageView(T* d, int w, int h) : ImageView(d, w, h, w) {}
    // A view of mutable pixels converts to a view of const ones.
    template <class U, class = std::enable_if_t<std::is_same_v<const U, T> && !std::is_same_v<U, T>>>
    ImageView(const ImageView<U>& o) : data(o.data), width(o.width), height(o.height), stride(o.stride) {}

    T* row(int y) const { return data + static_cast<std::ptrdiff_t>(y) * stride; }
    T& at(int x, int y) const { return row(y)[x]; }
    bool empty() const { return width <= 0 || height <= 0; }
    std::size_t pixelCount() const { return static_cast<std::size_t>(width) * static_cast<std::size_t>(height); }
};

namespace detail {
// Value-initialization as default-initialization: a vector resized with it leaves its new
// pixels unwritten (no pass over memory that the caller overwrites anyway).
template <class T>
struct DefaultInitAllocator : std::allocator<T> {
    template <class U>
    struct rebind {
        using other = DefaultInitAllocator<U>;
    };
    DefaultInitAllocator() = default;
    template <class U>
    DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}
    template <class U>
    void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
        ::new (static_cast<void*>(p)) U;
    }
    template <class U, class... A>
    void construct(U* p, A&&... a) {
        ::new (static_cast<void*>(p)) U(std::forward<A>(a)...);
    }
};
}  // namespace detail

// An owned, densely packed image.
template <class T>
class Image {
    static_assert(kIsPixel<T>, "pixel types are uint8_t, uint16_t and float");
public:
    Image() = default;
    Image(int w, int h, T fill = T{}) : width_(w), height_(h) {
        checkSize(w, h);
        pixels_.assign(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), fill);
    }
    // An image whose pixels hold whatever the memory held: for buffers that are written whole
    // before they are read (each pass of a fill costs as much as a fast kernel's pass).
    static Image unwritten(int w, int h) {
        Image img;
        checkSize(w, h);
        img.width_ = w;
        img.height_ = h;
        img.pixels_.resize(static_cast<std::size_t>(w) * static_cast<std::size_t>(h));
        return img;
    }
    int width() const { return width_; }
    int height() const { return height_; }
    bool empty() const { return pixels_.empty(); }
    T* data() { return pixels_.data(); }
    const T* data() const { return pixels_.data(); }
    T& at(int x, int y) { return pixels_[index(x, y)]; }
    const T& at(int x, int y) const { return pixels_[index(x, y)]; }
    ImageView<T> view() { return {pixels_.data(), width_, height_, width_}; }
    ImageView<const T> view() const { return {pixels_.data(), width_, height_, width_}; }
    ImageView<const T> cview() const { return view(); }
    std::span<const T> pixels() const { return pixels_; }
    bool operator==(const Image&) const = default;

    // Copies any view (of any stride) into a new packed image.
    static Image copyOf(ImageView<const T> v) {
        Image img(v.width, v.height);
        for (int y = 0; y < v.height; ++y)
            for (int x = 0; x < v.width; ++x) img.at(x, y) = v.at(x, y);
        return img;
    }

private:
    static void checkSize(int w, int h) {
        if (w < 0 || h < 0) throw Error("image size must not be negative");
    }
    std::size_t index(int x, int y) const {
        return static_cast<std::size_t>(y) * static_cast<std::size_t>(width_) + static_cast<std::size_t>(x);
    }
    int width_ = 0;
    int height_ = 0;
    std::vector<T, detail::DefaultInitAllocator<T>> pixels_;
};

namespace detail {
void requireNoNaNFloat(ImageView<const float> v);
}
// Throws Error when a float image holds NaN (order-based morphology is undefined on NaN);
// integer images cannot. One template for every type, so that an explicit
// requireNoNaN<float>(…) checks too (an overload beside a template would lose to it).
template <class T>
void requireNoNaN(ImageView<const T> v) {
    if constexpr (std::is_same_v<std::remove_const_t<T>, float>) detail::requireNoNaNFloat(v);
    else (void)v;
}

// Throws Error when the views differ in size or when either is empty.
template <class A, class B>
void requireSameSize(const ImageView<A>& a, const ImageView<B>& b) {
    if (a.empty()) throw Error("the image is empty");
    if (a.width != b.width || a.height != b.height)
        throw Error("output size " + std::to_string(b.width) + "x" + std::to_string(b.height) +
                    " differs from input size " + std::to_string(a.width) + "x" + std::to_string(a.height));
}

}  // namespace linescope
