// Printing a decoded declaration: the human-readable report and the JSON object
// documented in docs/cli.md.
#pragma once

#include "model/decl/decl_decoder.h"

#include <nlohmann/json.hpp>

#include <string>

namespace vpsim::cli {

nlohmann::ordered_json diagnostic_json(const decl::Diagnostic& d);
nlohmann::ordered_json declaration_json(const decl::Declaration& d);
std::string declaration_text(const decl::Declaration& d);

}  // namespace vpsim::cli
