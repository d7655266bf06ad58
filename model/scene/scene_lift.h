// A scene file's "base64" strings taken out of its text before the JSON parser sees it
// (load_scene): the parser copies a string one character at a time, several times the work of
// decoding it.
#pragma once

#include "model/scene/scene.h"

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace vpsim::scene {

// The strings taken out (views of the text): the parsed JSON holds "\u0001N" in the place of
// string N.
struct LiftedStrings {
    std::vector<std::pair<const char*, size_t>> spans;
};
// The text with every "base64" member's string value that has no escape replaced by its
// placeholder, the strings into `lifted`. When the text spells U+0001 itself (so a placeholder
// could come from the file), has no such string or is not well formed enough to follow, lifts
// nothing and returns "". A lifted string is not checked as JSON: a character the parser would
// refuse in it (a raw line break) is refused by the base64 decoder, at its offset.
std::string lift_base64(const std::string& text, LiftedStrings& lifted);
// The spans would point into a temporary that is gone when the call returns.
std::string lift_base64(std::string&& text, LiftedStrings& lifted) = delete;

// parse_scene of j, parsed from a text that lift_base64 took `lifted` out of.
Scene parse_lifted_scene(const nlohmann::json& j, const std::string& base_dir, const std::string& name,
                         const LiftedStrings* lifted);

}  // namespace vpsim::scene
