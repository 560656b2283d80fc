#include "sim/sweep/json_value.h"

namespace locksim::sweep {

namespace {

constexpr int kMaxDepth = 16;

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  std::optional<JsonValue> document(std::string& error) {
    JsonValue value;
    if (!parse_value(value, 0)) return fail(error);
    skip_space();
    if (pos_ != text_.size()) {
      problem_ = "text after the JSON value";
      return fail(error);
    }
    return value;
  }

 private:
  std::optional<JsonValue> fail(std::string& error) const {
    error = "at byte " + std::to_string(pos_ + 1) + ": " + problem_;
    return std::nullopt;
  }

  bool stop(const char* problem) {
    problem_ = problem;
    return false;
  }

  void skip_space() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }

  bool literal(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return stop("not a JSON value");
    pos_ += word.size();
    return true;
  }

  bool parse_value(JsonValue& out, int depth) {
    if (depth >= kMaxDepth) return stop("nested too deeply");
    skip_space();
    if (pos_ >= text_.size()) return stop("the text ends where a value should be");
    const char c = text_[pos_];
    if (c == '{') return parse_object(out, depth);
    if (c == '[') return parse_array(out, depth);
    if (c == '"') {
      out.type = JsonValue::Type::string;
      return parse_string(out.text);
    }
    if (c == '-' || (c >= '0' && c <= '9')) return parse_number(out);
    if (c == 't' || c == 'f') {
      out.type = JsonValue::Type::boolean;
      out.boolean = c == 't';
      return literal(c == 't' ? "true" : "false");
    }
    out.type = JsonValue::Type::null;
    return literal("null");
  }

  bool parse_number(JsonValue& out) {
    out.type = JsonValue::Type::number;
    out.negative = text_[pos_] == '-';
    if (out.negative) ++pos_;
    const std::size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
      const auto digit = static_cast<std::uint64_t>(text_[pos_] - '0');
      if (out.number > (UINT64_MAX - digit) / 10) return stop("a number too large");
      out.number = out.number * 10 + digit;
      ++pos_;
    }
    if (pos_ == start) return stop("a '-' without digits");
    if (text_[start] == '0' && pos_ - start > 1) return stop("a number with a leading zero");
    if (pos_ < text_.size() && (text_[pos_] == '.' || text_[pos_] == 'e' || text_[pos_] == 'E'))
      return stop("a number that is not whole");
    return true;
  }

  bool hex4(std::uint32_t& out) {
    if (pos_ + 4 > text_.size()) return stop("a \\u escape cut short");
    out = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = text_[pos_++];
      out <<= 4;
      if (c >= '0' && c <= '9') out |= static_cast<std::uint32_t>(c - '0');
      else if (c >= 'a' && c <= 'f') out |= static_cast<std::uint32_t>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') out |= static_cast<std::uint32_t>(c - 'A' + 10);
      else return stop("a \\u escape that is not hexadecimal");
    }
    return true;
  }

  static void append_utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
      out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }

  bool parse_escape(std::string& out) {
    if (pos_ >= text_.size()) return stop("a string that is not closed");
    const char c = text_[pos_++];
    switch (c) {
      case '"': out.push_back('"'); return true;
      case '\\': out.push_back('\\'); return true;
      case '/': out.push_back('/'); return true;
      case 'b': out.push_back('\b'); return true;
      case 'f': out.push_back('\f'); return true;
      case 'n': out.push_back('\n'); return true;
      case 'r': out.push_back('\r'); return true;
      case 't': out.push_back('\t'); return true;
      case 'u': break;
      default: return stop("an unknown escape in a string");
    }
    std::uint32_t cp = 0;
    if (!hex4(cp)) return false;
    if (cp >= 0xDC00 && cp <= 0xDFFF) return stop("a lone low surrogate in a string");
    if (cp >= 0xD800 && cp <= 0xDBFF) {
      std::uint32_t low = 0;
      if (text_.substr(pos_, 2) != "\\u") return stop("a lone high surrogate in a string");
      pos_ += 2;
      if (!hex4(low)) return false;
      if (low < 0xDC00 || low > 0xDFFF) return stop("a lone high surrogate in a string");
      cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
    }
    append_utf8(out, cp);
    return true;
  }

  bool parse_string(std::string& out) {
    ++pos_;  // the opening quote
    out.clear();
    while (true) {
      if (pos_ >= text_.size()) return stop("a string that is not closed");
      const char c = text_[pos_++];
      if (c == '"') return true;
      if (static_cast<unsigned char>(c) < 0x20) return stop("a control character in a string");
      if (c != '\\') {
        out.push_back(c);
      } else if (!parse_escape(out)) {
        return false;
      }
    }
  }

  bool parse_array(JsonValue& out, int depth) {
    out.type = JsonValue::Type::array;
    ++pos_;
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == ']') {
      ++pos_;
      return true;
    }
    while (true) {
      out.items.emplace_back();
      if (!parse_value(out.items.back(), depth + 1)) return false;
      skip_space();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
      } else if (pos_ < text_.size() && text_[pos_] == ']') {
        ++pos_;
        return true;
      } else {
        return stop("expected ',' or ']' in an array");
      }
    }
  }

  bool parse_object(JsonValue& out, int depth) {
    out.type = JsonValue::Type::object;
    ++pos_;
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == '}') {
      ++pos_;
      return true;
    }
    while (true) {
      skip_space();
      if (pos_ >= text_.size() || text_[pos_] != '"') return stop("expected a member name in quotes");
      std::string name;
      if (!parse_string(name)) return false;
      skip_space();
      if (pos_ >= text_.size() || text_[pos_] != ':') return stop("expected ':' after a member name");
      ++pos_;
      out.members.emplace_back(std::move(name), JsonValue{});
      if (!parse_value(out.members.back().second, depth + 1)) return false;
      skip_space();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
      } else if (pos_ < text_.size() && text_[pos_] == '}') {
        ++pos_;
        return true;
      } else {
        return stop("expected ',' or '}' in an object");
      }
    }
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  const char* problem_ = "";
};

}  // namespace

const JsonValue* JsonValue::find(std::string_view name) const {
  for (const auto& [key, value] : members)
    if (key == name) return &value;
  return nullptr;
}

std::optional<JsonValue> parse_json(std::string_view text, std::string& error) {
  return Parser(text).document(error);
}

}  // namespace locksim::sweep
