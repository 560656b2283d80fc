#include "sim/jsontext/json_text.h"

#include <cctype>

namespace locksim {

namespace {

using Json = nlohmann::json;

struct TooDeep {};

// What stopped nlohmann::json, in our words. The library names the problem
// only in its message ("syntax error while parsing object key - unexpected
// end of input; expected string literal"), so the phrase is picked by the
// part of it that says what went wrong; its own text is never shown.
std::string parse_problem(const Json::parse_error& e, std::string_view text) {
  static constexpr struct {
    const char* library;
    const char* ours;
  } kPhrases[] = {
      // Where a separator or the end was due, whatever stands there instead.
      {"; expected end of input", "text after the JSON value"},
      {"parsing object separator", "expected ':' after a member name"},
      {"parsing object -", "expected ',' or '}' in an object"},
      {"parsing array", "expected ',' or ']' in an array"},
      // Where a member name or a value was due: what is wrong with the one there.
      {"missing closing quote", "a string that is not closed"},
      {"control character", "a control character in a string"},
      {"forbidden character after backslash", "an unknown escape in a string"},
      {"must be followed by 4 hex digits", "a \\u escape that is not hexadecimal"},
      {"must be followed by U+DC00", "a lone high surrogate in a string"},
      {"must follow U+D800", "a lone low surrogate in a string"},
      {"ill-formed UTF-8", "a byte that is not UTF-8 in a string"},
      {"parsing object key", "expected a member name in quotes"},
      {"expected digit after '-'", "a '-' without digits"},
      {"invalid number", "a number that is not whole"},
      {"unexpected end of input", "the text ends where a value should be"},
  };
  const std::string_view what = e.what();
  const char* phrase = "not a JSON value";
  for (const auto& p : kPhrases) {
    if (what.find(p.library) != std::string_view::npos) {
      phrase = p.ours;
      break;
    }
  }
  // The library stops on the byte it could not take (one past the end at the
  // end of the text); a word that is no value is named by its first byte.
  std::size_t byte = e.byte;
  if (what.find("invalid literal") != std::string_view::npos)
    while (byte > 1 && byte - 2 < text.size() && std::isalpha(static_cast<unsigned char>(text[byte - 2])) != 0) --byte;
  return "at byte " + std::to_string(byte) + ": " + phrase;
}

}  // namespace

std::optional<nlohmann::json> parse_json_text(std::string_view json, int max_depth, std::string& error) {
  try {
    return Json::parse(json, [max_depth](int depth, Json::parse_event_t, const Json&) {
      if (depth >= max_depth) throw TooDeep{};
      return true;
    });
  } catch (const Json::parse_error& e) {
    error = parse_problem(e, json);
  } catch (const TooDeep&) {
    error = "nested more than " + std::to_string(max_depth) + " levels deep";
  } catch (const Json::exception&) {  // parse() throws only parse_error; still never the library's words
    error = "not JSON that locksim can read";
  }
  return std::nullopt;
}

}  // namespace locksim
