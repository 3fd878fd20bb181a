// A reader for the JSON records of journalctl (-o json) and dmesg (--json): one object at a
// time, byte-exact. Strings are decoded to their bytes (invalid UTF-8 stays as it was, \u
// escapes become UTF-8), arrays of numbers 0..255 (journalctl's form of a binary field) to
// the bytes they list, numbers stay the text they were written as. QJsonDocument would turn
// invalid UTF-8 into U+FFFD and numbers into doubles, which cannot hold a microsecond
// timestamp of today exactly.
#pragma once

#include "types.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tty {

struct JsonValue
{
    enum class Type { Null, Bool, Number, String, Bytes, Array, Object };
    Type type = Type::Null;
    std::string text;             // String, Bytes: the bytes; Number, Bool: as written
    std::vector<JsonValue> items; // Array (not Bytes): the elements; Object: nothing kept
};

using JsonFields = std::vector<std::pair<std::string, JsonValue>>;

// Parses one JSON object filling the whole of `s` (white space around it allowed); false
// with the reason in *error for anything else (bad JSON, nesting deeper than 16, trailing
// bytes).
bool parseJsonObject(std::string_view s, JsonFields *out, std::string *error);

// The field's value, or null when the object has none.
const JsonValue *jsonField(const JsonFields &fields, std::string_view name);

// The first string of a value: a String or Bytes value itself, the first such element of
// an Array (journalctl writes a field that occurs twice as an array of its values); none
// for anything else (null: journalctl left out a field of 4096 bytes or more).
std::optional<std::string_view> jsonFirstText(const JsonValue *v);

// Unsigned decimal integers as journalctl and dmesg write them ("1700000000123456", from a
// string or a number); none when the text is not one or does not fit `max`.
std::optional<std::int64_t> parseDecimal(std::string_view s, std::int64_t max);
// "<seconds>.<up to 6 digits>" (dmesg's time, journalctl's [ 1.234567]) as microseconds;
// leading spaces allowed; none when malformed or beyond the kernel's time range.
std::optional<KernelUs> parseKernelSeconds(std::string_view s);

} // namespace tty
