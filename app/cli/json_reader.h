// A small JSON reader for what the command line wrote itself (batch's manifest lines):
// objects, arrays, strings with escapes, numbers, true, false, null. Each value keeps its
// source text, so that a part of a record can be copied into a new one unchanged.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace linescope::cli {

struct JsonValue {
    enum class Kind { Null, Boolean, Number, String, Array, Object };
    Kind kind = Kind::Null;
    bool boolean = false;
    double number = 0;
    std::string string;                                     // String: the decoded text
    std::vector<JsonValue> items;                           // Array
    std::vector<std::pair<std::string, JsonValue>> members;  // Object, in order
    std::string text;                                       // the value as written

    // The member `key` of an object, or null when absent (or when this is no object).
    const JsonValue* find(const std::string& key) const;
};

// The value `text` holds (surrounding spaces allowed), or nothing when it is not JSON:
// a line cut short by a crash is simply not a record.
std::optional<JsonValue> parseJson(const std::string& text);

}  // namespace linescope::cli
