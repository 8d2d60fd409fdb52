#include "app/cli/json_reader.h"

#include <charconv>
#include <cstdint>

namespace linescope::cli {

namespace {

class Parser {
public:
    explicit Parser(const std::string& text) : s_(text) {}

    std::optional<JsonValue> document() {
        auto v = value(0);
        skipSpaces();
        if (!v || pos_ != s_.size()) return std::nullopt;
        return v;
    }

private:
    static constexpr int kMaxDepth = 64;

    void skipSpaces() {
        while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) ++pos_;
    }
    bool consume(char c) {
        skipSpaces();
        if (pos_ < s_.size() && s_[pos_] == c) return ++pos_, true;
        return false;
    }
    bool literal(const char* word) {
        const std::string w(word);
        if (s_.compare(pos_, w.size(), w) != 0) return false;
        pos_ += w.size();
        return true;
    }

    std::optional<JsonValue> value(int depth) {
        if (depth > kMaxDepth) return std::nullopt;
        skipSpaces();
        if (pos_ >= s_.size()) return std::nullopt;
        const std::size_t start = pos_;
        JsonValue v;
        const char c = s_[pos_];
        bool ok = true;
        if (c == '{') ok = object(v, depth);
        else if (c == '[') ok = array(v, depth);
        else if (c == '"') { v.kind = JsonValue::Kind::String; ok = string(v.string); }
        else if (literal("true")) { v.kind = JsonValue::Kind::Boolean; v.boolean = true; }
        else if (literal("false")) v.kind = JsonValue::Kind::Boolean;
        else if (literal("null")) v.kind = JsonValue::Kind::Null;
        else ok = number(v);
        if (!ok) return std::nullopt;
        v.text = s_.substr(start, pos_ - start);
        return v;
    }

    bool object(JsonValue& v, int depth) {
        v.kind = JsonValue::Kind::Object;
        ++pos_;
        if (consume('}')) return true;
        do {
            skipSpaces();
            std::string key;
            if (pos_ >= s_.size() || s_[pos_] != '"' || !string(key) || !consume(':')) return false;
            auto member = value(depth + 1);
            if (!member) return false;
            v.members.emplace_back(std::move(key), std::move(*member));
        } while (consume(','));
        return consume('}');
    }

    bool array(JsonValue& v, int depth) {
        v.kind = JsonValue::Kind::Array;
        ++pos_;
        if (consume(']')) return true;
        do {
            auto item = value(depth + 1);
            if (!item) return false;
            v.items.push_back(std::move(*item));
        } while (consume(','));
        return consume(']');
    }

    bool number(JsonValue& v) {
        const char* first = s_.data() + pos_;
        const auto [end, ec] = std::from_chars(first, s_.data() + s_.size(), v.number);
        if (ec != std::errc() || end == first) return false;
        pos_ += static_cast<std::size_t>(end - first);
        v.kind = JsonValue::Kind::Number;
        return true;
    }

    static void appendUtf8(std::string& out, std::uint32_t cp) {
        if (cp < 0x80) out += static_cast<char>(cp);
        else if (cp < 0x800) { out += static_cast<char>(0xC0 | (cp >> 6)); out += static_cast<char>(0x80 | (cp & 0x3F)); }
        else if (cp < 0x10000) {
            out += static_cast<char>(0xE0 | (cp >> 12));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (cp >> 18));
            out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        }
    }

    bool hex4(std::uint32_t& cp) {
        if (pos_ + 4 > s_.size()) return false;
        const auto [end, ec] = std::from_chars(s_.data() + pos_, s_.data() + pos_ + 4, cp, 16);
        if (ec != std::errc() || end != s_.data() + pos_ + 4) return false;
        pos_ += 4;
        return true;
    }

    bool string(std::string& out) {
        ++pos_;  // the opening quote
        while (pos_ < s_.size()) {
            const char c = s_[pos_++];
            if (c == '"') return true;
            if (static_cast<unsigned char>(c) < 0x20) return false;
            if (c != '\\') { out += c; continue; }
            if (pos_ >= s_.size()) return false;
            const char e = s_[pos_++];
            switch (e) {
            case '"': case '\\': case '/': out += e; break;
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'n': out += '\n'; break;
            case 'r': out += '\r'; break;
            case 't': out += '\t'; break;
            case 'u': {
                std::uint32_t cp = 0;
                if (!hex4(cp)) return false;
                if (cp >= 0xD800 && cp < 0xDC00 && s_.compare(pos_, 2, "\\u") == 0) {
                    pos_ += 2;
                    std::uint32_t low = 0;
                    if (!hex4(low) || low < 0xDC00 || low > 0xDFFF) return false;
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                }
                appendUtf8(out, cp);
                break;
            }
            default: return false;
            }
        }
        return false;
    }

    const std::string& s_;
    std::size_t pos_ = 0;
};

}  // namespace

const JsonValue* JsonValue::find(const std::string& key) const {
    for (const auto& [name, value] : members)
        if (name == key) return &value;
    return nullptr;
}

std::optional<JsonValue> parseJson(const std::string& text) { return Parser(text).document(); }

}  // namespace linescope::cli
